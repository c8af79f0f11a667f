/**
 * The JetStream modes of `reckon record` and `reckon replay` (docs/nats.md):
 * - `record --nats URL --stream NAME`: the server keeps the exercise's traffic in the stream (limits by age and
 *   bytes); the command creates or updates the stream and reports its growth until Ctrl-C or `--duration`.
 * - `replay --nats URL --stream NAME --from TIME [--until TIME] [--speed X]`: sends the stored messages of that
 *   window to a UDP destination with their recorded timing; with `--export FILE.pcap`, writes them to a pcap file.
 */
import { booleanFlag, stringFlag } from './args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CommandIo, type FlagValues, type UsageProblem } from './command.js';
import { formatBytes, formatCount } from './terminal/format.js';
import { printable } from './terminal/printable.js';
import { untilStopped } from './until-stopped.js';

/**
 * Reads a time: ISO 8601 (`2026-05-01T12:00:00Z`), Unix epoch seconds, or a duration ago (`-10 min`, `-30 s`).
 * @returns Unix epoch milliseconds, or undefined (with a problem added) when it is none of these.
 */
export function parseTime(
  text: string,
  path: string,
  problems: UsageProblem[],
  nowMs = Date.now(),
): number | undefined {
  const trimmed = text.trim();
  const ago = /^-\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|min|h|d)?$/i.exec(trimmed);
  if (ago) {
    const unitMs: Record<string, number> = { ms: 1, s: 1000, sec: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };
    return nowMs - Number(ago[1]) * unitMs[(ago[2] ?? 's').toLowerCase()]!;
  }
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isFinite(ms)) return ms;
  problems.push({
    path,
    message: `expected a time such as 2026-05-01T12:00:00Z, Unix seconds, or "-10 min" (ago); got "${text}"`,
  });
  return undefined;
}

/** `reckon record --nats URL --stream NAME`. */
export async function recordToStream(flags: FlagValues, io: CommandIo): Promise<number> {
  const { configOrProblems, durationFlag } = await import('./config-from-flags.js');
  const problems: UsageProblem[] = [];
  const durationSeconds = durationFlag(flags, 'duration', problems);
  const config = configOrProblems(flags, problems);
  if (config && config.nats.servers.length === 0)
    problems.push({
      path: '--nats',
      message: 'required with --stream: the NATS server URL, e.g. nats://127.0.0.1:4222',
    });
  if (config && config.nats.stream === undefined)
    problems.push({
      path: '--stream',
      message: 'required with --nats: the JetStream stream to keep the traffic in, e.g. --stream DIS',
    });
  if (stringFlag(flags, 'out') !== undefined)
    problems.push({
      path: '--out',
      message:
        'records to a pcap file over UDP; with --nats the traffic goes into --stream (export it with reckon replay --export)',
    });
  const { configInputs, sameFileProblems } = await import('./same-files.js');
  problems.push(...(await sameFileProblems(io, configInputs(flags, config), [])));
  if (problems.length > 0 || !config) throw new UsageError(problems);
  const [{ openNatsTransport }, { ensureStream, streamInfo, streamSettingsFromConfig, StreamConflictError }] =
    await Promise.all([import('../nats/transport.js'), import('../nats/jetstream.js')]);
  const settings = streamSettingsFromConfig(config)!;
  const transport = await openNatsTransport(config.nats);
  const name = settings.name;
  const subject = settings.subjects[0]!;
  try {
    let ensured;
    try {
      ensured = await ensureStream(transport.connection, settings, { update: booleanFlag(flags, 'stream-update') });
    } catch (error) {
      if (error instanceof StreamConflictError) throw new UsageError([{ path: '--stream', message: error.message }]);
      throw error;
    }
    const info = ensured.info;
    if (ensured.changes.length > 0) io.stderr.write(`record: stream ${name} changed: ${ensured.changes.join('; ')}\n`);
    const age = config.nats.streamMaxAge > 0 ? `${(config.nats.streamMaxAge / 3600).toPrecision(3)} h` : 'no age limit';
    const bytes = config.nats.streamMaxBytes >= 0 ? formatBytes(config.nats.streamMaxBytes) : 'no byte limit';
    io.stderr.write(
      `record: stream ${name} keeps ${subject} on ${transport.server} (${age}, ${bytes}); holds ${formatCount(info.state.messages, 'message')} now. ` +
        'The server records on its own: this command only reports; Ctrl-C to stop\n',
    );
    const startMessages = info.state.messages;
    const { stop, stopped } = untilStopped(io.signal, durationSeconds);
    transport.onClose((error) => error && stop(`failed: ${error.message}`));
    const progress = setInterval(() => {
      streamInfo(transport.connection, name).then(
        (now) =>
          io.stderr.write(
            `record: ${name} holds ${formatCount(now.state.messages, 'message')}, ${formatBytes(now.state.bytes)}\n`,
          ),
        () => {},
      );
    }, 5000);
    const reason = await stopped;
    clearInterval(progress);
    const end = await streamInfo(transport.connection, name).catch(() => undefined);
    io.stderr.write(
      `record: stopped (${reason}); stream ${name} ` +
        (end
          ? `holds ${formatCount(end.state.messages, 'message')} (${formatCount(end.state.messages - startMessages, 'message')} since start), ${formatBytes(end.state.bytes)}`
          : 'state unknown') +
        '\n',
    );
    return reason.startsWith('failed') ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await transport.close();
  }
}

/** `reckon replay --nats URL --stream NAME --from TIME [--until TIME] [--speed X] [--to HOST:PORT | --export FILE]`. */
export async function replayFromStream(
  flags: FlagValues,
  io: CommandIo,
  to: { address: string; port: number } | undefined,
  speed: number,
  maxGapSeconds: number,
  problems: UsageProblem[],
): Promise<number> {
  const { configOrProblems } = await import('./config-from-flags.js');
  const config = configOrProblems(flags, problems);
  const fromText = stringFlag(flags, 'from');
  const untilText = stringFlag(flags, 'until');
  const fromMs = fromText === undefined ? 0 : parseTime(fromText, '--from', problems);
  const untilMs = untilText === undefined ? Number.POSITIVE_INFINITY : parseTime(untilText, '--until', problems);
  if (fromMs !== undefined && untilMs !== undefined && untilMs <= fromMs)
    problems.push({ path: '--until', message: 'must be after --from' });
  if (config && config.nats.servers.length === 0)
    problems.push({ path: '--nats', message: 'required with --stream: the NATS server URL' });
  if (config && config.nats.stream === undefined)
    problems.push({
      path: '--stream',
      message: 'required with --nats: the JetStream stream to replay, e.g. --stream DIS',
    });
  const exportPath = stringFlag(flags, 'export');
  const { configInputs, sameFileProblems } = await import('./same-files.js');
  const outputs = exportPath === undefined ? [] : [{ path: exportPath, name: '--export' }];
  problems.push(...(await sameFileProblems(io, configInputs(flags, config), outputs)));
  if (problems.length > 0 || !config || fromMs === undefined || untilMs === undefined) throw new UsageError(problems);

  const [{ openNatsTransport }, { readStream }, { PduBundler }, { GapCap }, { sleep }] = await Promise.all([
    import('../nats/transport.js'),
    import('../nats/jetstream.js'),
    import('../transport/bundler.js'),
    import('./gap-cap.js'),
    import('./long-timer.js'),
  ]);
  const nats = await openNatsTransport(config.nats);
  const name = config.nats.stream!;
  let messages = 0,
    skippedLeaves = 0,
    datagrams = 0,
    bytes = 0;
  try {
    if (exportPath !== undefined) {
      const [{ openOutputFile, OutputPathError }, pcap] = await Promise.all([
        import('../files/output-file.js'),
        import('../pcap/writer.js'),
      ]);
      // Written beside the target and renamed at the end: an existing file is replaced only by a complete one.
      let output;
      try {
        output = await openOutputFile(exportPath);
      } catch (error) {
        if (error instanceof OutputPathError) throw new UsageError([{ path: '--export', message: error.message }]);
        throw error;
      }
      const file = output.handle;
      let done = false;
      try {
        await file.write(pcap.pcapFileHeader());
        const port = config.network.port || 3000;
        let pending: Promise<unknown> = Promise.resolve();
        let timeSeconds = 0;
        const bundler = new PduBundler(
          {
            send: (datagram, length = datagram.length) => {
              const record = pcap.pcapUdpRecord(datagram.subarray(0, length), timeSeconds, {
                sourcePort: port,
                destinationPort: port,
              });
              datagrams++;
              bytes += length;
              pending = pending.then(() => file.write(record));
            },
          },
          pcap.MAX_UDP_PAYLOAD_BYTES,
        );
        for await (const message of readStream(nats.connection, name, fromMs, untilMs)) {
          if (io.signal.aborted) break;
          messages++;
          if (message.leftCell) {
            skippedLeaves++;
            continue;
          }
          timeSeconds = message.timeMs / 1000;
          appendPdus(bundler, message.data);
          bundler.flush();
          await pending;
        }
        await pending;
        done = !io.signal.aborted;
      } finally {
        if (done) await output.commit();
        else await output.discard();
      }
      if (!done) {
        io.stderr.write(`replay: interrupted; ${printable(exportPath)} left as it was\n`);
        return EXIT_FAILURE;
      }
      io.stderr.write(
        `replay: exported ${formatCount(messages, 'message')} of stream ${name} to ${printable(exportPath)}: ${formatCount(datagrams, 'datagram')}, ` +
          `${formatCount(bytes, 'byte')}; ${skippedLeaves} left-cell copies left out\n`,
      );
      return EXIT_OK;
    }

    const { UdpTransport, udpOptionsFromConfig } = await import('../transport/udp.js');
    const options = udpOptionsFromConfig(config.network, 'send');
    const udp = await UdpTransport.open({ ...options, ...(to ? { destination: to } : {}) });
    const destination = to ?? options.destination!;
    io.stderr.write(
      `replay: stream ${name} from ${new Date(fromMs).toISOString()} → ${destination.address}:${destination.port}, speed ${speed === 0 ? 'max' : `×${speed}`}\n`,
    );
    const bundler = new PduBundler(udp, config.network.mtu);
    const gaps = new GapCap(maxGapSeconds);
    const startedMs = performance.now();
    try {
      for await (const message of readStream(nats.connection, name, fromMs, untilMs)) {
        if (io.signal.aborted) break;
        messages++;
        // A left-cell copy tells NATS receivers of the old cell that the entity left; on a LAN it would be a stale update.
        if (message.leftCell) {
          skippedLeaves++;
          continue;
        }
        const dueSeconds = gaps.next(message.timeMs / 1000);
        const waitMs = speed > 0 ? startedMs + (dueSeconds * 1000) / speed - performance.now() : 0;
        if (waitMs > 1) await sleep(waitMs, io.signal);
        if (io.signal.aborted) break;
        appendPdus(bundler, message.data);
        bundler.flush();
      }
    } finally {
      await udp.close();
    }
    const s = udp.stats;
    io.stderr.write(
      `replay: ${io.signal.aborted ? 'interrupted' : 'done'}: ${formatCount(messages, 'message')} of stream ${name} → ` +
        `${formatCount(s.datagramsOut, 'datagram')} (${formatCount(s.bytesOut, 'byte')}) in ${((performance.now() - startedMs) / 1000).toFixed(2)} s; ` +
        `${skippedLeaves} left-cell copies left out${s.sendErrors > 0 ? `; ${s.sendErrors} sends failed (${s.sendFailure})` : ''}` +
        `${gaps.shortened > 0 ? `; ${gaps.describe()}` : ''}\n`,
    );
    return s.sendErrors > 0 && s.datagramsOut === s.sendErrors ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await nats.close();
  }
}

/** Appends each whole PDU of a stored message (split by the headers' Length fields) to the bundler. */
function appendPdus(
  bundler: { append(pdu: Uint8Array, offset: number, length: number): void },
  data: Uint8Array,
): void {
  let offset = 0;
  while (offset + 12 <= data.length) {
    const length = (data[offset + 8]! << 8) | data[offset + 9]!;
    if (length < 12 || offset + length > data.length) return;
    bundler.append(data, offset, length);
    offset += length;
  }
}
