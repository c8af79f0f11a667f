/**
 * `reckon lockstep --peer HOST:PORT [--port N] [--drop PERCENT] [--duration T] [--seed N] [--json]`: one peer of a
 * two-player deterministic lockstep session over UDP on 127.0.0.1. Inputs come from a seeded bot (there is no
 * keyboard); every packet carries all un-acknowledged inputs, so dropped packets cost nothing but bytes. Checksums
 * of the simulation are exchanged every half second; the run ends by itself after --duration with a summary, and
 * exits 0 only if checksums were compared and all agreed.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { formatCount } from '../terminal/format.js';

const LOOPBACK = '127.0.0.1';

export const command: Command = {
  name: 'lockstep',
  summary:
    'Run one peer of a deterministic lockstep session over UDP on 127.0.0.1, with redundant inputs and checksum checks.',
  usage: 'reckon lockstep --peer HOST:PORT [--port N] [--drop PERCENT] [--duration T] [--seed N] [--json]',
  flags: {
    peer: { type: 'string', value: 'HOST:PORT', description: 'The other peer (host 127.0.0.1 or localhost).' },
    port: {
      type: 'string',
      value: 'N',
      description: 'Local UDP port on 127.0.0.1. Defaults to 0 (any free port, printed).',
    },
    drop: {
      type: 'string',
      value: 'PERCENT',
      description: 'Drop this share of outgoing packets on purpose. Defaults to 0.',
    },
    duration: {
      type: 'string',
      value: 'T',
      description: 'Run this long, then print the summary, e.g. "10 s", "2 min" or 10 (seconds). Defaults to 10 s.',
    },
    seed: {
      type: 'string',
      value: 'N',
      description: 'Seed of the world and the bot input; both peers must use the same. Defaults to 1.',
    },
    json: { type: 'boolean', description: 'Print the summary as one JSON object (progress always goes to stderr).' },
  },
  examples: [
    'reckon lockstep --port 4001 --peer 127.0.0.1:4002',
    'reckon lockstep --port 4002 --peer 127.0.0.1:4001 --drop 30',
    'reckon lockstep --port 4001 --peer 127.0.0.1:4002 --duration 5 --json',
  ],
  async run(args, io) {
    const problems: UsageProblem[] = [];
    const peer = parsePeer(stringFlag(args.flags, 'peer'), problems);
    const port = parseNumber(
      args.flags,
      'port',
      0,
      problems,
      (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
      'a UDP port 0–65535',
    );
    const drop = parseNumber(args.flags, 'drop', 0, problems, (n) => n >= 0 && n <= 100, 'a percentage 0–100');
    const { durationFlag } = await import('../config-from-flags.js');
    const duration = args.flags.duration === undefined ? 10 : durationFlag(args.flags, 'duration', problems);
    if (duration !== undefined && duration > 86_400) {
      problems.push({
        path: '--duration',
        message: `at most a day (86400 s), got "${stringFlag(args.flags, 'duration')}"`,
      });
    }
    const seed = parseNumber(
      args.flags,
      'seed',
      1,
      problems,
      (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff,
      'an integer 0–4294967295',
    );
    if (peer && port === peer.port)
      problems.push({ path: '--port', message: `is the same as the peer's port ${port}; give each peer its own` });
    if (problems.length > 0) throw new UsageError(problems);

    const { createSocket } = await import('node:dgram');
    const { LockstepPeer } = await import('../../lockstep/peer.js');
    const { createRandom } = await import('../../math/random.js');
    const json = booleanFlag(args.flags, 'json');
    const progress = io.stderr; // progress and status on stderr; stdout holds only the summary, text or JSON

    const socket = createSocket('udp4');
    const bound = await new Promise<Error | undefined>((resolve) => {
      socket.once('error', resolve);
      socket.bind(port, LOOPBACK, () => resolve(undefined));
    });
    if (bound) {
      io.stderr.write(`reckon lockstep: cannot bind ${LOOPBACK}:${port}: ${bound.message}; pick another --port\n`);
      return EXIT_FAILURE;
    }
    const localPort = socket.address().port;
    // Both processes agree on who is player 0 without talking: the lower port.
    const player = localPort < peer!.port ? 0 : 1;
    const session = new LockstepPeer({ player, seed: seed! });
    const random = createRandom((seed! ^ localPort) >>> 0);
    let dropped = 0;
    socket.on('error', () => {}); // e.g. ICMP port unreachable before the peer is up: keep going
    const started = performance.now();
    const now = () => (performance.now() - started) / 1000;
    socket.on('message', (message) => session.receive(message, now()));
    progress.write(
      `lockstep: player ${player} on ${LOOPBACK}:${localPort} ⇄ ${peer!.host}:${peer!.port}, seed ${seed}, drop ${drop} %, ${duration} s\n`,
    );

    await new Promise<void>((resolve) => {
      let lastReport = 0;
      const timer = setInterval(() => {
        const t = now();
        const packet = session.tick(t);
        if (packet) {
          if (drop! > 0 && random.chance(drop! / 100)) dropped++;
          else socket.send(packet, peer!.port, peer!.host);
        }
        if (t - lastReport >= 1) {
          lastReport = t;
          const s = session.stats;
          progress.write(
            `t ${t.toFixed(1)} s  frame ${s.frame}  hitches ${s.hitches}  checksums ${s.checksumsAgreed}/${s.checksumsCompared} agree` +
              `${s.firstMismatchFrame >= 0 ? `  DESYNC at frame ${s.firstMismatchFrame}` : ''}\n`,
          );
        }
        if (t >= duration! || session.stats.timedOut || io.signal.aborted) {
          clearInterval(timer);
          resolve();
        }
      }, 1000 / 60); // one packet per frame; timers fire late, and tick() catches up by the clock
    });
    socket.close();

    const s = session.stats;
    const agreed = s.checksumsCompared > 0 && s.checksumsAgreed === s.checksumsCompared && !s.seedMismatch;
    const summary = {
      player,
      port: localPort,
      frames: s.frame,
      hitches: s.hitches,
      longestStallMs: Math.round(s.longestStallSeconds * 1000),
      checksumsCompared: s.checksumsCompared,
      checksumsAgreed: s.checksumsAgreed,
      firstMismatchFrame: s.firstMismatchFrame,
      seedMismatch: s.seedMismatch,
      timedOut: s.timedOut,
      packetsSent: s.packetsSent,
      packetsDropped: dropped,
      packetsReceived: s.packetsReceived,
      largestPacketBytes: s.largestPacketBytes,
      rejected: s.rejected,
      agreed,
    };
    if (json) io.stdout.write(JSON.stringify(summary) + '\n');
    else {
      io.stdout.write(
        `${formatCount(s.frame, 'frame')}, ${formatCount(s.hitches, 'hitch', 'hitches')} (longest ${summary.longestStallMs} ms), ` +
          `checksums ${s.checksumsAgreed}/${s.checksumsCompared} agree, ` +
          `${formatCount(s.packetsSent, 'packet')} sent (${dropped} dropped on purpose), ${s.packetsReceived} received, largest ${formatCount(s.largestPacketBytes, 'byte')}\n`,
      );
    }
    if (s.seedMismatch) io.stderr.write('reckon lockstep: the peer runs with another --seed; give both the same one\n');
    else if (s.timedOut) io.stderr.write('reckon lockstep: the peer stopped answering for 2 s (timed out)\n');
    else if (s.checksumsCompared === 0)
      io.stderr.write(
        'reckon lockstep: no checksum was compared; is the peer running? (start both within a few seconds)\n',
      );
    else if (!agreed) io.stderr.write(`reckon lockstep: DESYNC: checksums differ from frame ${s.firstMismatchFrame}\n`);
    return agreed ? EXIT_OK : EXIT_FAILURE;
  },
};

function parsePeer(text: string | undefined, problems: UsageProblem[]): { host: string; port: number } | undefined {
  if (text === undefined) {
    problems.push({ path: '--peer', message: 'required: the other peer as 127.0.0.1:PORT' });
    return undefined;
  }
  const match = /^(.+):(\d+)$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || !(port >= 1 && port <= 65535)) {
    problems.push({ path: '--peer', message: `expected HOST:PORT such as 127.0.0.1:4002, got "${text}"` });
    return undefined;
  }
  const host = match[1] === 'localhost' ? LOOPBACK : match[1];
  if (host !== LOOPBACK) {
    problems.push({
      path: '--peer',
      message: `only the loopback host 127.0.0.1 (or localhost) is supported, got "${match[1]}"`,
    });
    return undefined;
  }
  return { host, port };
}

function parseNumber(
  flags: Parameters<typeof stringFlag>[0],
  name: string,
  fallback: number,
  problems: UsageProblem[],
  valid: (n: number) => boolean,
  expected: string,
): number | undefined {
  const text = stringFlag(flags, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !valid(n)) {
    problems.push({ path: `--${name}`, message: `expected ${expected}, got "${text}"` });
    return undefined;
  }
  return n;
}
