/**
 * `reckon record --out FILE [--duration T] [--count N] [network flags]`: writes every received DIS datagram into a
 * classic pcap (Ethernet + IPv4 + UDP frames, which Wireshark and tshark open), until Ctrl-C, the duration or the
 * count, then prints a summary. Kept are datagrams with at least one PDU that passes the configured filter (exercise,
 * protocol versions, allow-lists) and malformed DIS datagrams that no filter rejected; with `--all`, every datagram.
 */
import { stringFlag, booleanFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { natsFlags, NETWORK_SECTIONS, settingFlags } from '../config-flags.js';
import { formatCount } from '../terminal/format.js';
import { printable } from '../terminal/printable.js';
import { untilStopped } from '../until-stopped.js';

export const command: Command = {
  name: 'record',
  summary: 'Record received DIS datagrams to a pcap file that Wireshark opens',
  usage:
    'reckon record --out <file.pcap> [--duration T] [--count N] [--address A] [--port P] [--multicast GROUP] …\n' +
    '       reckon record --nats URL --stream NAME [--stream-max-age T] [--stream-max-bytes N] [--duration T]',
  flags: {
    out: {
      type: 'string',
      value: 'FILE',
      description:
        'The pcap file to write. Written to a temporary file beside it and renamed when recording stops, so an existing file is replaced only by a finished recording.',
    },
    duration: {
      type: 'string',
      value: 'T',
      description: 'Stop after this time, e.g. "30 s", "5 min" or 30 (seconds). Defaults to until Ctrl-C.',
    },
    count: { type: 'string', value: 'N', description: 'Stop after N datagrams. Defaults to no limit.' },
    all: {
      type: 'boolean',
      description: 'Record every datagram received, also those the filters reject (other exercises, non-DIS).',
    },
    ...settingFlags(NETWORK_SECTIONS, { side: 'receive', detailed: ['dis'] }),
    ...natsFlags({ stream: true }),
    'stream-update': {
      type: 'boolean',
      description:
        "With --stream: change an existing stream whose subjects are not this exercise's, or tighten the limits of " +
        'one that holds messages. Without it such a stream is left as it is and the command says what would change.',
    },
  },
  examples: [
    'reckon record --out exercise.pcap',
    'reckon record --out exercise.pcap --duration "2 min" --port 3000 --exercise 3',
    'reckon record --out group.pcap --multicast 239.1.2.3 --count 10000',
    'tshark -r exercise.pcap -Y dis   # inspect the result',
    'reckon record --nats nats://127.0.0.1:4222 --stream DIS --stream-max-age "24 h"   # durable, in JetStream (docs/nats.md)',
  ],
  async run(args, io) {
    if (args.flags.stream !== undefined || args.flags.nats !== undefined) {
      return (await import('../nats-stream.js')).recordToStream(args.flags, io);
    }
    const { configOrProblems, durationFlag, integerFlag } = await import('../config-from-flags.js');
    const problems: UsageProblem[] = [];
    const out = stringFlag(args.flags, 'out');
    if (out === undefined)
      problems.push({ path: '--out', message: 'required: the pcap file to write, e.g. --out exercise.pcap' });
    const durationSeconds = durationFlag(args.flags, 'duration', problems);
    const count = integerFlag(args.flags, 'count', problems);
    const config = configOrProblems(args.flags, problems);
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    const outputs = out === undefined ? [] : [{ path: out, name: '--out' }];
    problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), outputs)));
    if (problems.length > 0 || !config) throw new UsageError(problems);

    const [
      { openUdpTransport },
      { PduReceiver, receiveFilterFromConfig, filterRejections },
      { formatRejections, formatWarnings },
      pcap,
      output,
      { looksLikeDis },
    ] = await Promise.all([
      import('../../transport/udp.js'),
      import('../../transport/pdu-receiver.js'),
      import('../../transport/transport.js'),
      import('../../pcap/writer.js'),
      import('../../files/output-file.js'),
      import('../../pdu/wire/header.js'),
    ]);
    // Written beside --out and renamed over it at the end: a file already there survives a start that fails.
    let target;
    try {
      target = await output.openOutputFile(out!);
    } catch (error) {
      if (error instanceof output.OutputPathError) throw new UsageError([{ path: '--out', message: error.message }]);
      throw error;
    }
    let transport;
    try {
      transport = await openUdpTransport(config.network, 'receive');
    } catch (error) {
      await target.discard();
      throw error;
    }
    const file = target.handle.createWriteStream(); // closes the handle when it ends
    const fileError = new Promise<Error>((resolve) => file.once('error', resolve));
    file.write(pcap.pcapFileHeader());

    const keepAll = booleanFlag(args.flags, 'all');
    const receiver = new PduReceiver(() => {}, receiveFilterFromConfig(config), transport.stats);
    const local =
      transport.local.family === 'IPv4' && transport.local.address !== '0.0.0.0'
        ? transport.local.address
        : '127.0.0.1';
    const startedMs = Date.now();
    let datagrams = 0;
    let bytes = 0;
    let notIpv4 = 0;
    const { stop, stopped } = untilStopped(io.signal, durationSeconds);
    // Nothing more is written once any stop condition is met (before the next datagram's callback).
    void stopped.then(() => transport.onDatagram(undefined));

    transport.onDatagram((datagram, source) => {
      const acceptedBefore = transport.stats.pdusAccepted;
      const filteredBefore = filterRejections(transport.stats);
      receiver.receive(datagram, source);
      // Kept: datagrams with a wanted PDU, and malformed DIS that no filter turned away (worth having on record).
      const wanted =
        transport.stats.pdusAccepted > acceptedBefore ||
        (filterRejections(transport.stats) === filteredBefore && looksLikeDis(datagram));
      if (!keepAll && !wanted) return;
      const ipv4 = source.family === 'IPv4';
      if (!ipv4) notIpv4++;
      const timeSeconds = (performance.timeOrigin + performance.now()) / 1000;
      file.write(
        pcap.pcapUdpRecord(datagram, timeSeconds, {
          source: ipv4 ? source.address : '0.0.0.0',
          destination: local,
          sourcePort: source.port,
          destinationPort: transport.local.port,
        }),
      );
      datagrams++;
      bytes += datagram.length;
      if (count !== undefined && datagrams >= count) stop(`${formatCount(count, 'datagram')} recorded`);
    });
    transport.onClose((error) => error && stop(`socket failed: ${error.message}`));
    // Progress every 5 s, on stderr so that stdout stays clean.
    const progress = setInterval(
      () => io.stderr.write(`record: ${formatCount(datagrams, 'datagram')}, ${formatCount(bytes, 'byte')} so far\n`),
      5000,
    );
    io.stderr.write(
      `record: listening on ${transport.local.address} port ${transport.local.port}${config.network.multicast ? ` (group ${config.network.multicast})` : ''}; Ctrl-C to stop\n`,
    );

    const reason = await Promise.race([
      stopped,
      fileError.then((e) => `cannot write ${printable(out!)}: ${printable(e.message)}`),
    ]);
    clearInterval(progress);
    stop(reason); // a write error ends the wait too: release the timer and the signal listener
    await transport.close();
    let failed = reason.startsWith('socket failed');
    if (file.errored || reason.startsWith('cannot write')) {
      // A recording cut short by a write error does not replace the file at --out; what it holds is kept apart.
      await new Promise<void>((resolve) => file.destroy().once('close', () => resolve()));
      io.stderr.write(
        target.direct
          ? `record: ${reason}; ${datagrams} datagrams were written to "${printable(out!)}" before the failure\n`
          : `record: ${reason}; "${printable(out!)}" was left as it was; ` +
              `the ${datagrams} datagrams recorded before the failure are in "${printable(target.temporaryPath)}"\n`,
      );
      return EXIT_FAILURE;
    }
    await new Promise<void>((resolve) => file.once('close', () => resolve()).end());
    try {
      await target.commit();
    } catch (error) {
      io.stderr.write(`record: ${printable((error as Error).message)}\n`);
      failed = true;
    }
    const seconds = (Date.now() - startedMs) / 1000;
    const s = transport.stats;
    io.stderr.write(
      [
        `record: stopped (${reason}) after ${seconds.toFixed(1)} s`,
        `  recorded  ${formatCount(datagrams, 'datagram')}, ${formatCount(bytes, 'byte')} of DIS → ${printable(out!)}`,
        `  received  ${formatCount(s.datagramsIn, 'datagram')}, ${formatCount(s.pdusAccepted, 'PDU')} accepted${formatRejections(s.rejected)}${formatWarnings(s.warnings)}`,
        ...(notIpv4 > 0
          ? [`  note      ${notIpv4} IPv6 datagrams written with source 0.0.0.0 (pcap frames are IPv4)`]
          : []),
      ].join('\n') + '\n',
    );
    return failed ? EXIT_FAILURE : EXIT_OK;
  },
};
