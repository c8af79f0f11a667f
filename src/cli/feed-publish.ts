/**
 * `reckon publish --truth SRC` and `--feed URL…`: live sources as entities. Each source's vehicles go through the
 * dead-reckoning emitter (sent only when needed, heartbeats between fixes, leave notices), with a status line per
 * source while it runs (messages, vehicles, glitches, PDUs saved against one per fix), each source's first bad
 * message and connection trouble said once, and a summary at the end.
 */
import { booleanFlag, stringFlag } from './args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CommandIo, type ParsedArgs, type UsageProblem } from './command.js';
import { destinationPortProblem, everySendFailed, sendDestination, sendFailureSummary } from './network.js';
import { algorithmFlag } from './terminal/algorithm-flag.js';
import { wrapWords } from './terminal/fit.js';
import { formatCount } from './terminal/format.js';
import { printable } from './terminal/printable.js';
import type { FeedSpec } from '../feeds/feed-url.js';
import type { FeedStats } from '../feeds/live-feed.js';

const VEHICLES: Readonly<Record<string, [string, string]>> = {
  sbs: ['aircraft', 'aircraft'],
  beast: ['aircraft', 'aircraft'],
  'aircraft-json': ['aircraft', 'aircraft'],
  aivdm: ['vessel', 'vessels'],
  truth: ['entity', 'entities'],
};

/** `--altitude-band MIN..MAX` with units ("0..10000 ft", "..3 km"): metres; a problem when malformed. */
async function altitudeBandFlag(
  text: string | undefined,
  problems: UsageProblem[],
): Promise<{ minM: number; maxM: number } | undefined> {
  if (text === undefined) return undefined;
  const { readQuantity } = await import('../config/units.js');
  const m = /^\s*([^.]*?)\s*\.\.\s*(.*?)\s*$/.exec(text);
  const unit = /[a-z]+\s*$/i.exec(text)?.[0] ?? '';
  const read = (part: string, otherwise: number): number => {
    if (part === '') return otherwise;
    const withUnit = /[a-z]/i.test(part) ? part : `${part} ${unit}`.trim();
    const q = readQuantity(withUnit, 'length');
    return q.ok ? q.value : Number.NaN;
  };
  const minM = m ? read(m[1]!, Number.NEGATIVE_INFINITY) : Number.NaN;
  const maxM = m ? read(m[2]!, Number.POSITIVE_INFINITY) : Number.NaN;
  if (!Number.isNaN(minM) && !Number.isNaN(maxM) && minM < maxM) return { minM, maxM };
  problems.push({
    path: '--altitude-band',
    message: `expected MIN..MAX with a unit, e.g. "0..10000 ft", "1 km..3 km" or "..3000 m"; got "${text}"`,
  });
  return undefined;
}

/** Runs publish with its truth and feeds (the caller saw --truth or --feed). */
export async function runFeedPublish(args: ParsedArgs, io: CommandIo): Promise<number> {
  const [{ configOrProblems, durationFlag, frequencyFlag, integerFlag }, { parseFeedUrl, parseTruthSource }] =
    await Promise.all([import('./config-from-flags.js'), import('../feeds/feed-url.js')]);
  const problems: UsageProblem[] = [];
  const specs: FeedSpec[] = [];
  const truth = stringFlag(args.flags, 'truth');
  if (truth !== undefined) {
    const spec = parseTruthSource(truth);
    if (typeof spec === 'string') problems.push({ path: '--truth', message: spec });
    else specs.push(spec);
  }
  for (const url of (args.flags.feed as string[] | undefined) ?? []) {
    const spec = parseFeedUrl(url);
    if (typeof spec === 'string') problems.push({ path: '--feed', message: spec });
    else specs.push(spec);
  }
  if (truth === '-' && !io.stdin) problems.push({ path: '--truth', message: 'there is no standard input to read' });
  for (const flag of ['entity', 'track', 'segment', 'speed', 'from', 'entities']) {
    if (args.flags[flag] !== undefined) {
      problems.push({
        path: `--${flag}`,
        message:
          'publishes simulated or recorded entities: run it in a publish of its own, apart from --truth and --feed',
      });
    }
  }
  const truthFile = specs.find((s) => s.transport === 'file');
  if (truthFile) {
    const { statSync } = await import('node:fs');
    try {
      if (!statSync(truthFile.location).isFile())
        problems.push({ path: '--truth', message: `${truthFile.location} is not a regular file` });
    } catch {
      problems.push({
        path: '--truth',
        message: `${truthFile.location}: no such file (or give -, udp://ADDR:PORT or tcp://ADDR:PORT)`,
      });
    }
  }
  const durationSeconds = durationFlag(args.flags, 'duration', problems);
  const staleSeconds = durationFlag(args.flags, 'stale', problems);
  const pollSeconds = durationFlag(args.flags, 'poll', problems);
  const stallSeconds = durationFlag(args.flags, 'stall', problems);
  const retries = integerFlag(args.flags, 'retries', problems, 0);
  const rateHz = frequencyFlag(args.flags, 'rate', problems, 1000) ?? 2;
  const algorithm = algorithmFlag(stringFlag(args.flags, 'algorithm'), problems);
  const altitudeBand = await altitudeBandFlag(stringFlag(args.flags, 'altitude-band'), problems);
  const config = configOrProblems(args.flags, problems);
  const portProblem = config && destinationPortProblem(config.network.port);
  if (portProblem) problems.push(portProblem);
  if (problems.length > 0 || !config) throw new UsageError(problems);

  const [{ merge }, { createPublisher }, { deadReckonEmit }, { emitReasonNames }, { entityStateRecordToPdu }, feeds] =
    await Promise.all([
      import('rxjs'),
      import('../stream/publisher.js'),
      import('../stream/operators.js'),
      import('../dr/owner/emitter.js'),
      import('../pdu/json/entity-state-json.js'),
      import('../feeds/index.js'),
    ]);
  const tracks = new feeds.FeedTracks({
    algorithm: algorithm ?? 'auto',
    ...(altitudeBand ? { altitudeBand } : {}),
    ...(staleSeconds === undefined ? {} : { staleSeconds }),
  });
  const sources = specs.map((spec) =>
    feeds.liveFeed(spec, {
      tracks,
      rateHz,
      ...(io.stdin ? { stdin: io.stdin } : {}),
      ...(pollSeconds === undefined ? {} : { pollSeconds }),
      ...(stallSeconds === undefined ? {} : { stallSeconds }),
      ...(retries === undefined ? {} : { retries }),
    }),
  );
  const publisher = await createPublisher(config, { absoluteTimestamps: false });
  const json = booleanFlag(args.flags, 'json');
  const pdusBySource = specs.map(() => 0);
  const destination = await sendDestination(config);
  // On a terminal a line breaks at its width (continued indented); in a log it stays one line.
  const terminal = io.stderr as { isTTY?: boolean; columns?: number };
  const width = terminal.isTTY && terminal.columns ? terminal.columns - 1 : Number.POSITIVE_INFINITY;
  /** A message as lines of the terminal's width, each after the first indented by `indent` more. */
  const toWidth = (text: string, indent = 2): string => {
    const lead = /^ */.exec(text)![0];
    return wrapWords(text.slice(lead.length), width - lead.length, ' '.repeat(indent))
      .map((line) => lead + line)
      .join('\n');
  };
  const say = (text: string): void => void io.stderr.write(`${toWidth(text)}\n`);
  say(
    `publish: ${specs.map((s) => sourceName(s.text)).join(', ')} → ${destination}, exercise ${config.dis.exercise}; Ctrl-C to stop`,
  );
  const startedMs = Date.now();
  let failure: Error | undefined;
  let subscription: { unsubscribe(): void } | undefined;
  const finished = new Promise<string>((resolve) => {
    subscription = merge(...sources)
      .pipe(deadReckonEmit({ config }), publisher.transmit())
      .subscribe({
        next(pdu) {
          const track = tracks.table.trackOfEntity(pdu.entity);
          if (track) pdusBySource[track.source]!++;
          if (json) {
            io.stdout.write(
              JSON.stringify({
                entity: track ? track.displayName() : pdu.entity,
                source: track ? specs[track.source]!.text : undefined,
                reasons: emitReasonNames(pdu.reasons),
                timeSeconds: pdu.timeSeconds,
                state: entityStateRecordToPdu(pdu.record),
              }) + '\n',
            );
          }
        },
        error(error: unknown) {
          failure = error instanceof Error ? error : new Error(String(error));
          resolve('failed');
        },
        complete: () => resolve('the input ended'),
      });
    if (durationSeconds !== undefined)
      setTimeout(() => resolve(`${durationSeconds} s elapsed`), durationSeconds * 1000).unref();
    io.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
    if (io.signal.aborted) resolve('interrupted');
  });
  const said = specs.map(() => ({ listening: false, problem: false, error: undefined as string | undefined }));
  const tell = (): void => {
    sources.forEach(({ stats }, i) => {
      const s = said[i]!;
      const name = sourceName(stats.name);
      if (!s.listening && stats.connection.listening) {
        s.listening = true;
        say(`publish: ${name}: listening on ${stats.connection.listening}`);
      }
      if (!s.problem && stats.decoder.firstProblem) {
        s.problem = true;
        say(`publish: ${name}: bad input (counted, skipped); the first: ${printable(stats.decoder.firstProblem)}`);
      }
      // A failure is said when it is new: a feed that fails the same way again and again says it once.
      const error = stats.connection.connected ? undefined : stats.connection.lastError;
      if (error !== undefined && error !== s.error && !failure) {
        s.error = error;
        say(`publish: ${name}: ${printable(error)}; trying again`);
      }
    });
  };
  const watch = setInterval(tell, 100);
  const sourceLine = (stats: FeedStats, pdus: number): string => toWidth(`  ${statusLine(stats, pdus)}`, 4);
  const progress = setInterval(() => {
    say(`publish: ${((Date.now() - startedMs) / 1000).toFixed(0)} s, ${formatCount(publisher.sent.pdus, 'PDU')} sent`);
    sources.forEach(({ stats }, i) => io.stderr.write(`${sourceLine(stats, pdusBySource[i]!)}\n`));
  }, 5000);
  const reason = await finished;
  tell();
  subscription?.unsubscribe();
  clearInterval(watch);
  clearInterval(progress);
  await publisher.close();
  const seconds = (Date.now() - startedMs) / 1000;
  io.stderr.write(
    [
      toWidth(
        `publish: stopped (${reason}${failure ? `: ${printable(failure.message)}` : ''}) after ${seconds.toFixed(1)} s; DR ${algorithm === undefined ? 'auto' : algorithm}`,
      ),
      ...sources.map(({ stats }, i) => sourceLine(stats, pdusBySource[i]!)),
      toWidth(
        `  sent ${formatCount(publisher.sent.pdus, 'PDU')} (${formatCount(publisher.sent.bytes, 'byte')}, leave notices included) in ${formatCount(publisher.stats.datagramsOut, config.nats.servers.length > 0 ? 'NATS message' : 'datagram')}${sendFailureSummary(publisher.stats)}`,
      ),
    ].join('\n') + '\n',
  );
  return failure || everySendFailed(publisher.stats) ? EXIT_FAILURE : EXIT_OK;
}

/** One source's counts: `sbs://…: 5012 messages (3 bad ones), 42 aircraft (58 seen), 3 glitches, 1204 positions → 130 PDUs (89 % saved)`. */
export function statusLine(stats: FeedStats, pdus: number): string {
  const d = stats.decoder;
  const [one, many] = VEHICLES[stats.format] ?? ['vehicle', 'vehicles'];
  const bad = d.malformed + d.overlong;
  const parts = [
    `${formatCount(d.messages, 'message')}${bad > 0 ? ` (${formatCount(bad, 'bad one', 'bad ones')})` : ''}`,
    `${formatCount(stats.vehicles, one, many)} (${stats.vehiclesSeen} seen${stats.left > 0 ? `, ${stats.left} left` : ''})`,
  ];
  if (stats.glitches > 0) parts.push(formatCount(stats.glitches, 'glitch', 'glitches'));
  if (stats.refused > 0) parts.push(`${stats.refused} refused (table full or outside the altitude band)`);
  // Against a bridge that sends a PDU for every position it hears, and the heartbeat and leave notices it owes too.
  const positions = stats.positionFixes;
  const saved = stats.bridgePdus > 0 ? 1 - pdus / stats.bridgePdus : 0;
  const share = Math.abs(Math.round(100 * saved));
  parts.push(
    `${formatCount(positions, 'position')} → ${formatCount(pdus, 'PDU')}${stats.bridgePdus > 0 ? ` (${share} % ${saved >= 0 ? 'saved' : 'more'})` : ''}`,
  );
  if (!stats.connection.connected && stats.connection.lastError)
    parts.push(`not connected: ${stats.connection.lastError}`);
  return `${sourceName(stats.name)}: ${parts.join(', ')}`;
}

/** A source as publish names it to a person: `-` is standard input; network text made printable. */
function sourceName(text: string): string {
  return text === '-' ? 'standard input' : printable(text);
}
