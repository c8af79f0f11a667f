/**
 * `reckon publish --entities N`: the load generator (`LoadGenerator`) over UDP, or NATS with `--nats`. One tick
 * loop on the wall clock at `--rate`, every emitter decision per entity per tick, PDUs bundled per datagram up to
 * the MTU (over NATS the transport bundles them again per subject), an optional cap on PDUs per second, a status
 * line on stderr and a summary at the end (with `--json`, status and summary as JSON lines on stdout). Loaded only
 * when `--entities` is given.
 */
import { stringFlag, booleanFlag } from './args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CommandIo, type ParsedArgs, type UsageProblem } from './command.js';
import { algorithmFlag } from './terminal/algorithm-flag.js';
import { printable } from './terminal/printable.js';
import { threadCpuShares, threadCpuTimes } from '../host/thread-cpu.js';
import type { NatsStats } from '../nats/stats.js';
import type { DatagramTransport } from '../transport/transport.js';

/** Ticks per second with `--entities` unless `--rate` says otherwise. */
export const LOAD_DEFAULT_RATE_HZ = 10;

/** The land and sea looked at around the origin: the courses' 40 km square and a course's length beyond it, m. */
const LOAD_AREA_HALF_METERS = 25_000;

/** Longest slice of a tick, ms: every entity is evaluated once per tick, a slice of them every SLICE_MS. */
const SLICE_MS = 10;

/**
 * Most entities evaluated between two returns to the event loop. Datagrams handed to a socket leave only when
 * the loop runs again, so a loop that fell behind and then evaluates a whole tick at once would send thousands of
 * datagrams in one burst; in chunks they leave at the pace they are made.
 */
const CHUNK_ENTITIES = 2000;

/**
 * Runs the load generator for `reckon publish --entities N`.
 * @returns the exit code: 0 done (also when Ctrl-C or SIGTERM stops it, as plain publish), 1 runtime failure or
 *   every send failed; usage problems throw.
 */
export async function runLoadGenerator(args: ParsedArgs, io: CommandIo): Promise<number> {
  const { configOrProblems, durationFlag, frequencyFlag } = await import('./config-from-flags.js');
  const { destinationPortProblem, everySendFailed, sendDestination, sendFailureSummary } = await import('./network.js');
  const { MAX_LOAD_ENTITIES } = await import('../stream/load-generator.js');
  const problems: UsageProblem[] = [];
  const entitiesText = stringFlag(args.flags, 'entities') ?? '';
  const entities = /^\s*\d+\s*$/.test(entitiesText) ? Number(entitiesText) : Number.NaN;
  if (!(entities >= 1 && entities <= MAX_LOAD_ENTITIES)) {
    const message = `expected a whole number from 1 to ${MAX_LOAD_ENTITIES}, got "${entitiesText}"`;
    problems.push({ path: '--entities', message });
  }
  for (const other of ['entity', 'track']) {
    if (args.flags[other] === undefined) continue;
    problems.push({ path: `--${other}`, message: 'cannot be combined with --entities; leave one of them out' });
  }
  const durationSeconds = durationFlag(args.flags, 'duration', problems);
  const rateHz = frequencyFlag(args.flags, 'rate', problems, 1000) ?? LOAD_DEFAULT_RATE_HZ;
  const maxRateText = stringFlag(args.flags, 'max-rate');
  const maxRate = maxRateText === undefined ? Number.POSITIVE_INFINITY : Number(maxRateText);
  if (!(maxRate >= 1)) {
    problems.push({ path: '--max-rate', message: `expected PDUs per second, at least 1, got "${maxRateText}"` });
  }
  const seedText = stringFlag(args.flags, 'seed');
  const seed = seedText === undefined ? 1 : Number(seedText);
  if (!Number.isSafeInteger(seed)) {
    problems.push({ path: '--seed', message: `expected a whole number, got "${seedText}"` });
  }
  const algorithm = algorithmFlag(stringFlag(args.flags, 'algorithm'), problems);
  const config = configOrProblems(args.flags, problems);
  const nats = config !== undefined && config.nats.servers.length > 0;
  const portProblem = config && !nats && destinationPortProblem(config.network.port);
  if (portProblem) problems.push(portProblem);
  if (config && entities >= 1 && entities <= MAX_LOAD_ENTITIES) {
    const last = config.dis.application + Math.ceil(entities / 0xfffe) - 1;
    if (last > 0xfffe) {
      const highest = 0xfffe - (last - config.dis.application);
      const message = `${entities} entities need application ids up to ${last} (one per 65534); use at most ${highest}`;
      problems.push({ path: '--application', message });
    }
  }
  const { configInputs, sameFileProblems } = await import('./same-files.js');
  problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), [])));
  if (problems.length > 0 || !config) throw new UsageError(problems);
  const json = booleanFlag(args.flags, 'json');

  const [{ LoadGenerator }, { PduBundler }, { EMIT_REASON_NAMES }] = await Promise.all([
    import('../stream/load-generator.js'),
    import('../transport/bundler.js'),
    import('../dr/owner/emitter.js'),
  ]);
  io.stderr.write(`publish: preparing ${entities} entities…\n`);
  const preparedMs = performance.now();
  // Tanks on land and ships at sea, by the land polygons the map page ships.
  const [{ landAround }, { DEFAULT_ORIGIN }] = await Promise.all([
    import('./land-mask.js'),
    import('../truth/trajectory.js'),
  ]);
  const surfaces = await landAround(DEFAULT_ORIGIN.latitudeDeg, DEFAULT_ORIGIN.longitudeDeg, LOAD_AREA_HALF_METERS);
  if (typeof surfaces === 'string') io.stderr.write(`publish: ${surfaces}: tanks and ships go anywhere\n`);
  const generator = new LoadGenerator(config, {
    entities,
    seed,
    algorithm,
    ...(typeof surfaces === 'string' ? {} : { surfaces }),
  });
  const where = typeof surfaces === 'string' ? ['', ''] : [' on land', ' at sea'];
  const unplaced =
    generator.stats.unplaced > 0 ? `, ${generator.stats.unplaced} of the tanks and ships not wholly so` : '';
  let transport: DatagramTransport;
  // Over NATS, the transport routes each PDU of a datagram to its cell's subject and bundles them per subject.
  let natsStats: NatsStats | undefined;
  try {
    if (nats) {
      const { openNatsTransport } = await import('../nats/transport.js');
      const natsTransport = await openNatsTransport(config.nats);
      natsStats = natsTransport.natsStats;
      transport = natsTransport;
    } else {
      const { openUdpTransport } = await import('../transport/udp.js');
      transport = await openUdpTransport(config.network, 'send');
    }
  } catch (error) {
    io.stderr.write(`publish: ${printable((error as Error).message)}\n`);
    return EXIT_FAILURE;
  }
  const bundler = new PduBundler(transport, config.network.mtu);
  const destination = await sendDestination(config);
  const applications = Math.ceil(entities / 0xfffe);
  const lastApplication = applications > 1 ? `–${config.dis.application + applications - 1}` : '';
  const ids = `${config.dis.site}:${config.dis.application}${lastApplication}:1…`;
  const readySeconds = ((performance.now() - preparedMs) / 1000).toFixed(1);
  io.stderr.write(
    `publish: ${entities} entities (50 % tanks${where[0]}, 20 % ships${where[1]}, 30 % aircraft${unplaced}; ` +
      `ids ${ids}) ready in ${readySeconds} s` +
      ` → ${destination}, exercise ${config.dis.exercise}, ${rateHz} ticks/s,` +
      ` joining over ${generator.rampSeconds} s` +
      `${Number.isFinite(maxRate) ? `, at most ${maxRate} PDUs/s` : ''}; Ctrl-C to stop\n`,
  );

  const stats = generator.stats;
  const periodMs = 1000 / rateHz;
  const startMs = performance.now();
  const cpuStart = process.cpuUsage();
  const threadStart = threadCpuTimes();
  // Resident memory of this process: at the start, the most seen (sampled with the status), at the end.
  const rss = { start: process.memoryUsage().rss, max: 0 };
  rss.max = rss.start;
  let ticks = 0;
  /** Ticks given up while more than a whole tick behind (the loop goes on from now instead of catching up). */
  let ticksSkipped = 0;
  // Token bucket for --max-rate: refilled by elapsed time, holding at most one second's worth.
  let tokens = Number.isFinite(maxRate) ? maxRate / rateHz : Number.POSITIVE_INFINITY;
  let lastTickMs = startMs;
  let failure: Error | undefined;
  transport.onClose((error) => {
    if (error) failure = error;
  });

  const terminal = io.stderr as { isTTY?: boolean; columns?: number };
  const tty = terminal.isTTY === true;
  const statusEveryMs = tty ? 1000 : 5000;
  let lastStatus = { ms: startMs, pdus: 0, bytes: 0, ticks: 0, decisions: 0 };
  const status = (nowMs: number): void => {
    const seconds = (nowMs - lastStatus.ms) / 1000;
    const pdusPerSecond = (stats.pdus - lastStatus.pdus) / seconds;
    const bytesPerSecond = (stats.bytes - lastStatus.bytes) / seconds;
    const ticksPerSecond = (ticks - lastStatus.ticks) / seconds;
    // How often each entity was evaluated: decisions over the time entities were there (they join over a ramp), not
    // the loop's pace through the list, which passes over entities yet to join at no cost.
    const entitySeconds = generator.joinedEntitySeconds((lastStatus.ms - startMs) / 1000, (nowMs - startMs) / 1000);
    const evaluationsPerSecond = entitySeconds > 0 ? (stats.decisions - lastStatus.decisions) / entitySeconds : 0;
    const longestWait = stats.recentMaxEvaluationGapSeconds;
    stats.recentMaxEvaluationGapSeconds = 0;
    lastStatus = { ms: nowMs, pdus: stats.pdus, bytes: stats.bytes, ticks, decisions: stats.decisions };
    const elapsed = (nowMs - startMs) / 1000;
    if (json) {
      const line = {
        type: 'status',
        seconds: round(elapsed),
        entities,
        joined: stats.joined,
        pdus: stats.pdus,
        pdusPerSecond: Math.round(pdusPerSecond),
        bytesPerSecond: Math.round(bytesPerSecond),
        ticksPerSecond: round(ticksPerSecond),
        evaluationsPerEntityPerSecond: round(evaluationsPerSecond),
        maxEvaluationGapSeconds: round(longestWait),
        deferred: stats.deferred,
      };
      io.stdout.write(JSON.stringify(line) + '\n');
    }
    // Most telling first: on a terminal, parts that would not fit its width are left out (the line is redrawn).
    const parts = [
      `publish: ${elapsed.toFixed(0)} s`,
      stats.joined < entities ? `${stats.joined}/${entities} joined` : `${formatCount(entities)} entities`,
      `each evaluated ${evaluationsPerSecond.toFixed(1)}×/s of ${rateHz}`,
      `${formatRate(pdusPerSecond)} PDUs/s`,
      `waits ≤ ${longestWait.toFixed(2)} s`,
      `${formatBytes(bytesPerSecond)}/s`,
      ...(stats.deferred > 0 ? [`${stats.deferred} deferred by --max-rate`] : []),
    ];
    const width = tty && terminal.columns !== undefined && terminal.columns > 0 ? terminal.columns - 1 : Infinity;
    let line = parts[0]!;
    for (const part of parts.slice(1)) if (line.length + 3 + part.length <= width) line += ` · ${part}`;
    io.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  };

  const endMs = durationSeconds === undefined ? Number.POSITIVE_INFINITY : startMs + durationSeconds * 1000;
  // A tick is spread over slices of at most SLICE_MS: each slice evaluates the entities due by then, so the
  // datagrams leave evenly instead of in one burst per tick (a burst of thousands overflows a receiver's buffer).
  const sliceMs = Math.min(periodMs, SLICE_MS);
  let due = 0;
  let evaluated = 0;
  let reason = await new Promise<string>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    let nextMs = startMs;
    const onAbort = (): void => {
      clearTimeout(timer);
      clearImmediate(immediate);
      resolve('interrupted');
    };
    io.signal.addEventListener('abort', onAbort, { once: true });
    const slice = (): void => {
      const nowMs = performance.now();
      if (failure) return finish('failed');
      if (nowMs >= endMs) return finish(`${durationSeconds} s elapsed`);
      const elapsedMs = nowMs - lastTickMs;
      lastTickMs = nowMs;
      if (Number.isFinite(maxRate)) tokens = Math.min(tokens + (elapsedMs / 1000) * maxRate, maxRate);
      due += (entities * elapsedMs) / periodMs;
      // More than a whole tick behind: the loop goes on from now rather than catching up with a burst.
      if (due > entities) {
        ticksSkipped += (due - entities) / entities;
        due = entities;
      }
      const before = stats.pdus;
      const chunk = Math.min(Math.floor(due), CHUNK_ENTITIES);
      const done = generator.tick((nowMs - startMs) / 1000, bundler, chunk, Math.floor(tokens));
      if (Number.isFinite(tokens)) tokens -= stats.pdus - before;
      due -= done;
      evaluated += done;
      ticks = evaluated / entities;
      bundler.flush();
      if (nowMs - lastStatus.ms >= statusEveryMs) {
        rss.max = Math.max(rss.max, process.memoryUsage().rss);
        status(nowMs);
      }
      if (due >= CHUNK_ENTITIES && done === chunk) {
        // More due: go on once the event loop has sent this chunk's datagrams (a timer would sleep a millisecond).
        immediate = setImmediate(slice);
        return;
      }
      nextMs += sliceMs;
      const after = performance.now();
      if (after > nextMs) nextMs = after;
      timer = setTimeout(slice, Math.max(0, nextMs - after));
    };
    const finish = (why: string): void => {
      io.signal.removeEventListener('abort', onAbort);
      resolve(why);
    };
    if (io.signal.aborted) onAbort();
    else slice();
  });
  const stoppedMs = performance.now();
  const threadEnd = threadCpuTimes();
  if (tty) io.stderr.write('\n');

  // Leave notices, a slice at a time (all of them within about a second), under the same cap.
  if (!failure) {
    const perSlice = Math.max(1, Math.ceil((entities * sliceMs) / 1000));
    for (;;) {
      const nowMs = performance.now();
      if (Number.isFinite(maxRate)) tokens = Math.min(tokens + ((nowMs - lastTickMs) / 1000) * maxRate, maxRate);
      lastTickMs = nowMs;
      const budget = Math.min(perSlice, Math.max(1, Math.floor(tokens)));
      const before = stats.leaveNotices;
      const done = generator.leave((nowMs - startMs) / 1000, bundler, budget);
      if (Number.isFinite(tokens)) tokens -= stats.leaveNotices - before;
      bundler.flush();
      if (done || failure) break;
      await new Promise((resolve) => setTimeout(resolve, sliceMs));
    }
  }
  await transport.close();
  if (failure) reason = `failed: ${printable(failure.message)}`;
  const cpu = process.cpuUsage(cpuStart);
  const rssEnd = process.memoryUsage().rss;
  const seconds = (stoppedMs - startMs) / 1000;
  const reasons: Record<string, number> = {};
  EMIT_REASON_NAMES.forEach((name, bit) => (reasons[name] = stats.reasons[bit]!));
  // Decisions over the time each entity was there to evaluate (they join over a ramp).
  const joinedSeconds = generator.joinedEntitySeconds(0, seconds);
  const decisionsPerEntitySecond = joinedSeconds > 0 ? stats.decisions / joinedSeconds : 0;
  const pdusPerEntitySecond = joinedSeconds > 0 ? (stats.pdus - stats.leaveNotices) / joinedSeconds : 0;
  const summary = {
    type: 'summary',
    stopped: reason,
    entities,
    joined: stats.joined,
    seconds: round(seconds),
    ticks: round(ticks),
    ticksPerSecond: round(ticks / Math.max(seconds, 1e-9)),
    ticksSkipped: round(ticksSkipped),
    evaluationsPerEntityPerSecond: round(decisionsPerEntitySecond),
    maxEvaluationGapSeconds: round(stats.maxEvaluationGapSeconds),
    decisions: stats.decisions,
    pdus: stats.pdus,
    reasons,
    leaveNotices: stats.leaveNotices,
    pdusPerSecond: Math.round(stats.pdus / Math.max(seconds, 1e-9)),
    pdusPerEntityPerSecond: round(pdusPerEntitySecond),
    bytes: stats.bytes,
    bytesPerSecond: Math.round(stats.bytes / Math.max(seconds, 1e-9)),
    datagrams: transport.stats.datagramsOut,
    sendErrors: transport.stats.sendErrors,
    deferred: stats.deferred,
    ...(natsStats ? { nats: natsSummary(natsStats) } : {}),
    rssMB: { start: megabytes(rss.start), max: megabytes(Math.max(rss.max, rssEnd)), end: megabytes(rssEnd) },
    cpuSeconds: round((cpu.user + cpu.system) / 1e6),
    // CPU per emitter decision (truth, decision, encoding and sending included): what sizes a machine for N × rate.
    cpuMicrosecondsPerDecision: round((cpu.user + cpu.system) / Math.max(1, stats.decisions)),
    // The CPU every entity at the tick rate takes at that cost, and how much of the run the loop's thread got one.
    coresForRate: Number(
      (((cpu.user + cpu.system) / Math.max(1, stats.decisions)) * 1e-6 * entities * rateHz).toPrecision(3),
    ),
    mainThread: threadCpuShares(threadStart, threadEnd, seconds),
  };
  if (json) io.stdout.write(JSON.stringify(summary) + '\n');
  const saved = decisionsPerEntitySecond > 0 ? 100 * (1 - pdusPerEntitySecond / decisionsPerEntitySecond) : 0;
  const why = EMIT_REASON_NAMES.map((name) => `${name} ${reasons[name]}`).join(', ');
  const extras =
    (stats.deferred > 0 ? `, ${stats.deferred} evaluations deferred by --max-rate` : '') +
    sendFailureSummary(transport.stats);
  io.stderr.write(
    [
      `publish: stopped (${reason}) after ${seconds.toFixed(1)} s; ${stats.joined} of ${entities} entities joined;` +
        ` DR ${algorithm === 'auto' ? 'auto' : algorithm}`,
      `  ${stats.pdus} PDUs (${why}; ${stats.leaveNotices} leave notices)` +
        ` in ${transport.stats.datagramsOut} ${natsStats ? 'NATS messages' : 'datagrams'},` +
        ` ${formatBytes(stats.bytes)}`,
      `  ${formatRate(summary.pdusPerSecond)} PDUs/s, ${formatBytes(summary.bytesPerSecond)}/s;` +
        ` ${pdusPerEntitySecond.toFixed(3)} PDUs per entity per second against ${decisionsPerEntitySecond.toFixed(1)}` +
        ` decisions (${saved.toFixed(1)} % saved)`,
      `  ${summary.ticks} ticks (every entity evaluated ${summary.evaluationsPerEntityPerSecond} times per second` +
        ` of ${rateHz}; ${summary.ticksSkipped} ticks skipped while behind; the longest wait of an entity` +
        ` ${summary.maxEvaluationGapSeconds} s), ${summary.cpuSeconds} s CPU, ${summary.rssMB.max} MB resident${extras}`,
      `  ${summary.coresForRate} cores for every entity at ${rateHz} Hz at this cost` +
        (summary.mainThread
          ? `; the loop's thread was on a CPU ${percent(summary.mainThread.onCpu)} of the time,` +
            ` waiting for one ${percent(summary.mainThread.waitingForCpu)}`
          : ''),
    ].join('\n') + '\n',
  );
  return failure || everySendFailed(transport.stats) ? EXIT_FAILURE : EXIT_OK;
}

/** The NATS counters a load run reports: messages, cell crossings, and the connection's gaps. */
function natsSummary(s: NatsStats): Record<string, number> {
  return {
    messagesOut: s.messagesOut,
    leftCellCopiesOut: s.leftCellCopiesOut,
    unroutable: s.unroutable,
    disconnects: s.disconnects,
    reconnects: s.reconnects,
    gapSeconds: round(s.gapSeconds),
  };
}

function megabytes(bytes: number): number {
  return Math.round(bytes / 1e5) / 10;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function percent(share: number): string {
  return `${(100 * share).toFixed(0)} %`;
}

function formatCount(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)} M` : n >= 10_000 ? `${(n / 1000).toFixed(0)} k` : `${n}`;
}

function formatRate(perSecond: number): string {
  return perSecond >= 10_000 ? `${(perSecond / 1000).toFixed(1)} k` : perSecond.toFixed(0);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(2)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes.toFixed(0)} B`;
}
