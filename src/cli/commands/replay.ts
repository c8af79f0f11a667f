/**
 * `reckon replay <capture> --to HOST:PORT [--speed X] [--loop] [--port-filter N]`: sends each DIS datagram of a
 * pcap/pcapng capture, byte for byte, with the capture's inter-frame timing divided by the speed (`--speed 0`: as
 * fast as possible). Progress goes to stderr; a summary at the end.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type FlagValues, type UsageProblem } from '../command.js';
import { natsFlags, settingFlags } from '../config-flags.js';
import { formatCount } from '../terminal/format.js';
import { printable } from '../terminal/printable.js';
import { DEFAULT_MAX_GAP_SECONDS, GapCap } from '../gap-cap.js';
import { sleep } from '../long-timer.js';
import { timeScaleFlag } from '../time-scale.js';
import { destinationPortProblem, everySendFailed, hostPortFlag, sendFailureSummary } from '../network.js';

/** Most bytes of DIS datagrams replay keeps from one capture (it sends each pass from memory). */
const MAX_REPLAY_BYTES = 512 * 2 ** 20;

export const command: Command = {
  name: 'replay',
  summary: 'Replay a capture to a host:port in real time or faster',
  usage:
    'reckon replay <capture.pcap|capture.pcapng> [--to HOST:PORT] [--speed X] [--loop] [--port-filter N]\n' +
    '       reckon replay --nats URL --stream NAME [--from TIME] [--until TIME] [--speed X] [--to HOST:PORT | --export FILE.pcap]',
  flags: {
    to: {
      type: 'string',
      value: 'HOST:PORT',
      description:
        'Destination, e.g. 127.0.0.1:3000, [::1]:3000 or 3000 (on 127.0.0.1). Defaults to --address (else 127.0.0.1, or the --multicast group) and --port.',
    },
    speed: {
      type: 'string',
      value: 'X',
      description:
        'Time scale from 0.001 to 1000: 2 = twice as fast, 0.5 = half speed; 0 = as fast as possible. Defaults to 1.',
    },
    loop: { type: 'boolean', description: 'Start again at the end, until Ctrl-C.' },
    'max-gap': {
      type: 'string',
      value: 'T',
      description:
        'Longest pause between two datagrams, in capture time: a longer one (a capture stopped and resumed, a ' +
        'damaged timestamp) is shortened to this, and said so. Defaults to "1 h".',
    },
    'port-filter': {
      type: 'string',
      value: 'N',
      description:
        'Only datagrams from or to this UDP port in the capture. Defaults to every datagram that looks like DIS.',
    },
    'only-exercise': {
      type: 'string',
      value: 'N',
      description: 'Only datagrams whose first PDU belongs to this exercise (1–255). Defaults to all.',
    },
    from: {
      type: 'string',
      value: 'TIME',
      description:
        'With --stream: first stored message to replay, e.g. 2026-05-01T12:00:00Z, Unix seconds or "-10 min" (ago). Defaults to the oldest.',
    },
    until: {
      type: 'string',
      value: 'TIME',
      description: 'With --stream: replay up to this time (exclusive). Defaults to the newest message.',
    },
    export: {
      type: 'string',
      value: 'FILE',
      description:
        'With --stream: write the window to this pcap file instead of sending it (replaced only once complete).',
    },
    // Datagrams go out as they were captured: no bundling (mtu).
    ...settingFlags(['network'], { side: 'send', detailed: [], omit: ['network.mtu'] }),
    ...natsFlags({ stream: true }),
  },
  // The capture file; none with --stream (checked in run).
  positionals: { min: 0, max: 1 },
  examples: [
    'reckon replay exercise.pcap --to 127.0.0.1:3000',
    'reckon replay exercise.pcap --to 127.0.0.1:3000 --speed 10 --loop',
    'reckon replay exercise.pcapng --multicast 239.1.2.3 --port 3000 --speed 0',
    'reckon replay --nats nats://127.0.0.1:4222 --stream DIS --from "-10 min" --speed 4 --to 127.0.0.1:3000',
    'reckon replay --nats nats://127.0.0.1:4222 --stream DIS --from 2026-05-01T12:00:00Z --until 2026-05-01T12:05:00Z --export window.pcap',
  ],
  async run(args, io) {
    const { configOrProblems, durationFlag, portFlag } = await import('../config-from-flags.js');
    const problems: UsageProblem[] = [];
    const maxGapSeconds = durationFlag(args.flags, 'max-gap', problems) ?? DEFAULT_MAX_GAP_SECONDS;
    const speed = timeScaleFlag(args.flags, 'speed', problems, { zeroIsFastest: true });
    const portFilter = portFlag(args.flags, 'port-filter', problems);
    const exercise = integerInRange(args.flags, 'only-exercise', 1, 255, 'an exercise ID', problems);
    const to = hostPortFlag(stringFlag(args.flags, 'to'), '--to', problems, {
      defaultHost: '127.0.0.1',
      example: '127.0.0.1:3000',
    });
    if (args.flags.stream !== undefined || args.flags.nats !== undefined) {
      if (args.positionals.length > 0)
        problems.push({ path: '<capture>', message: 'replays a capture file or a --stream, not both' });
      return (await import('../nats-stream.js')).replayFromStream(args.flags, io, to, speed, maxGapSeconds, problems);
    }
    const path = args.positionals[0]!;
    if (path === undefined)
      throw new UsageError([{ path: 'missing capture file', message: 'reckon replay <capture.pcap|capture.pcapng>' }]);
    const config = configOrProblems(args.flags, problems);
    const portProblem = config && !to && destinationPortProblem(config.network.port);
    if (portProblem) problems.push(portProblem);
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    const inputs = [{ path, name: '<capture>' }, ...configInputs(args.flags, config)];
    problems.push(...(await sameFileProblems(io, inputs, [])));
    if (problems.length > 0 || !config) throw new UsageError(problems);

    const [{ udpFromFrame }, { looksLikeDis }, { readCaptureFile }] = await Promise.all([
      import('../../pcap/packet.js'),
      import('../../pdu/wire/header.js'),
      import('../capture-file.js'),
    ]);
    // The capture is read in pieces and only its DIS datagrams are kept (copied), within a bound: a pass is sent
    // from memory, again and again with --loop.
    const datagrams: Uint8Array[] = [];
    // When each datagram is due, seconds after the first: the capture's gaps, each at most maxGapSeconds.
    const times: number[] = [];
    const gaps = new GapCap(maxGapSeconds);
    let keptBytes = 0;
    const info = await readCaptureFile(path, io.signal, (frames) => {
      for (const frame of frames) {
        const udp = udpFromFrame(frame.linkType, frame.data);
        if (udp.kind !== 'udp') continue;
        const p = udp.payload;
        const wanted =
          portFilter === undefined
            ? looksLikeDis(p)
            : udp.sourcePort === portFilter || udp.destinationPort === portFilter;
        if (!wanted || (exercise !== undefined && (p.length < 2 || p[1] !== exercise))) continue;
        keptBytes += p.length;
        if (keptBytes > MAX_REPLAY_BYTES) {
          const message =
            `"${path}" holds more than ${MAX_REPLAY_BYTES / 2 ** 20} MiB of DIS datagrams, more than replay keeps ` +
            'in memory; replay it in parts (editcap -A/-B cuts a capture by time)';
          throw new UsageError([{ path: '<capture>', message }]);
        }
        datagrams.push(p.slice());
        times.push(gaps.next(frame.timeSeconds));
      }
    });
    if (info.interrupted) {
      io.stderr.write(`replay: interrupted while reading "${printable(path)}"; nothing sent\n`);
      return EXIT_OK;
    }
    // A damaged file is said so: what comes before the damage is replayed.
    const damage = info.corrupt
      ? info.corrupt.message
      : info.truncated
        ? 'the file ends in the middle of a frame'
        : undefined;
    if (datagrams.length === 0) {
      io.stderr.write(
        `replay: "${printable(path)}" holds no DIS datagrams${portFilter === undefined ? '' : ` on port ${portFilter}`}` +
          `${damage ? ` before its damage (${damage})` : ''}; nothing sent\n`,
      );
      return EXIT_FAILURE;
    }
    if (damage)
      io.stderr.write(
        `replay: "${printable(path)}": ${damage}; the ${datagrams.length} datagrams before it are sent\n`,
      );

    const { UdpTransport, udpOptionsFromConfig } = await import('../../transport/udp.js');
    const options = udpOptionsFromConfig(config.network, 'send');
    const transport = await UdpTransport.open({ ...options, ...(to ? { destination: to } : {}) });
    const destination = to ?? options.destination!;
    io.stderr.write(
      `replay: ${formatCount(datagrams.length, 'datagram')} from ${printable(path)} → ${destination.address}:${destination.port}, speed ${speed === 0 ? 'max' : `×${speed}`}${booleanFlag(args.flags, 'loop') ? ', looping' : ''}\n`,
    );
    if (gaps.shortened > 0) io.stderr.write(`replay: ${gaps.describe()}\n`);

    let sent = 0;
    let loops = 0;
    let failure: Error | undefined;
    transport.onClose((error) => (failure ??= error));
    let sendFailureShown = false;
    const progress = setInterval(() => {
      if (!sendFailureShown && transport.stats.sendFailure !== undefined) {
        sendFailureShown = true;
        io.stderr.write(`replay: sends fail: ${transport.stats.sendFailure}\n`);
      }
      io.stderr.write(`replay: ${formatCount(sent, 'datagram')} sent, pass ${loops + 1}\n`);
    }, 5000);
    const startedMs = performance.now();
    const loop = booleanFlag(args.flags, 'loop');
    let sinceYield = 0;
    do {
      const passStartMs = performance.now();
      for (let i = 0; i < datagrams.length && !io.signal.aborted && !failure; i++) {
        const waitMs = speed > 0 ? passStartMs + (times[i]! * 1000) / speed - performance.now() : 0;
        if (waitMs > 1) {
          await sleep(waitMs, io.signal);
          if (io.signal.aborted) break;
          sinceYield = 0;
        } else if (++sinceYield === 64) {
          await new Promise((resolve) => setImmediate(resolve)); // let the socket drain and signals arrive
          sinceYield = 0;
        }
        transport.send(datagrams[i]!);
        sent++;
      }
      loops++;
    } while (loop && !io.signal.aborted && !failure);
    clearInterval(progress);
    await transport.close(); // waits for queued sends
    const seconds = (performance.now() - startedMs) / 1000;
    const s = transport.stats;
    io.stderr.write(
      `replay: ${io.signal.aborted ? 'interrupted' : 'done'}: ${formatCount(sent, 'datagram')} (${formatCount(s.bytesOut, 'byte')}) in ${seconds.toFixed(2)} s, ${formatCount(loops, 'pass', 'passes')}` +
        `${sendFailureSummary(s)}${failure ? `; socket failed: ${failure.message}` : ''}\n`,
    );
    return failure || everySendFailed(s) ? EXIT_FAILURE : EXIT_OK;
  },
};

/** A whole-number flag in min…max; otherwise a problem naming the valid range. Undefined when absent or invalid. */
function integerInRange(
  flags: FlagValues,
  name: string,
  min: number,
  max: number,
  what: string,
  problems: UsageProblem[],
): number | undefined {
  const text = stringFlag(flags, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (/^\d+$/.test(text.trim()) && value >= min && value <= max) return value;
  problems.push({ path: `--${name}`, message: `expected ${what} ${min}–${max}, got "${text}"` });
  return undefined;
}
