/**
 * `reckon publish`: simulated entities (`--entity tank|ship|aircraft`, repeatable) or recorded tracks (`--track
 * FILE`) taken as the truth, each run through the dead-reckoning emitter, and Entity State PDUs sent over UDP only
 * when receivers need one. Progress on stderr; a summary (or NDJSON of every PDU with `--json`) at the end.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type FlagValues, type UsageProblem } from '../command.js';
import { natsFlags, settingFlags } from '../config-flags.js';
import { destinationPortProblem, everySendFailed, sendDestination, sendFailureSummary } from '../network.js';
import { algorithmFlag } from '../terminal/algorithm-flag.js';
import { formatCount } from '../terminal/format.js';
import { linesFor } from '../help.js';
import { longest } from '../terminal/column-widths.js';
import { printable } from '../terminal/printable.js';
import { timeScaleFlag } from '../time-scale.js';
import { columnFlags, columnsFromFlags, type TrackActor } from '../track-actors.js';

const SIMULATED = ['tank', 'ship', 'aircraft'];
/** The track kinds of `truth/track-checks.ts` (kept here: a command module's top level stays light). */
const TRACK_KIND_NAMES = ['ground', 'surface', 'subsurface', 'air', 'space', 'munition'] as const;
const CAPTURED_ENTITY = /^\d+:\d+:\d+$/;
// Help's headings for the flags of each source of truth.
const SIMULATED_GROUP = 'Simulated entities (--entity)';
const TRACKS = 'Recorded tracks (--track)';
const LOAD = 'Load generator (--entities)';
const isCapture = (path: string) => /\.pcap(ng)?(\.gz)?$/i.test(path);

export const command: Command = {
  name: 'publish',
  summary: 'Publish simulated, recorded or live entities as Entity State PDUs, sent only when needed',
  usage:
    'reckon publish [--entity tank|ship|aircraft|S:A:E]… [--track FILE]… [--truth -|FILE|URL] [--feed URL]… [--duration T] [--address A] [--port P] [--exercise N] …',
  flags: {
    entity: {
      type: 'string',
      group: SIMULATED_GROUP,
      value: 'NAME|S:A:E',
      multiple: true,
      description:
        `A simulated entity: ${SIMULATED.join(', ')}. Defaults to a tank when no --track is given. With a DIS capture as --track, ` +
        'site:application:entity picks the captured entity to publish (needed when the capture holds several).',
    },
    track: {
      type: 'string',
      group: TRACKS,
      value: 'FILE',
      multiple: true,
      description:
        'A recorded track as the truth: .csv (time, lat, lon[, alt, heading, speed, course, drive id]), .gpx, NMEA 0183 .nmea, ADS-B .json(.gz) or a DIS .pcap. Held, jumping and outlying fixes are repaired or dropped and named (docs/recorded-tracks.md).',
    },
    segment: {
      type: 'string',
      group: TRACKS,
      value: 'N|all',
      description:
        'Tracks that hold several recordings (an id column, or pauses longer than --max-gap): publish recording N, or all of them as entities of their own. Needed when there are several.',
    },
    'max-gap': {
      type: 'string',
      group: TRACKS,
      value: 'T',
      description:
        'A pause between fixes longer than this starts a new recording, e.g. "10 min". Defaults to 10 × the median interval.',
    },
    origin: {
      type: 'string',
      group: SIMULATED_GROUP,
      value: 'LAT,LON',
      description:
        'Where the simulated entities are: latitude and longitude in degrees, e.g. 48.1,11.6 (the tank, ship and aircraft keep their places a few km apart). Defaults to Monterey Bay, 36.597,-121.873.',
    },
    kind: {
      type: 'string',
      group: TRACKS,
      value: 'KIND',
      description: `What the tracks record: ${TRACK_KIND_NAMES.join(', ')}; sets the plausible speed the fixes are checked against and the entity type's domain. Defaults to air for ADS-B, the captured type for DIS, and for CSV and GPX air if the track flies (fast or high), else ground.`,
    },
    strict: {
      type: 'boolean',
      group: TRACKS,
      description:
        'Refuse a track with any implausible fix (held, a jump, an outlier, out of time order), listing each. By default each is repaired or dropped and its row and reason reported.',
    },
    type: {
      type: 'string',
      value: 'TYPE',
      description:
        'The entity type to publish the tracks as: SISO-REF-010 numbers (1:2:225:87:32:5:0) or a name SISO lists (B737, M1A2, T-72); its domain sets the kind when --kind does not. Defaults to the captured type for DIS, else a platform of the kind.',
    },
    ...columnFlags(TRACKS),
    speed: {
      type: 'string',
      value: 'X',
      description:
        'Time scale of the trajectories, from 0.001 to 1000: 10 = ten times as fast (velocities scaled to match), 0.5 = half speed. Defaults to 1.',
    },
    from: {
      type: 'string',
      group: TRACKS,
      value: 'T|TIME',
      description:
        'Start this far into the tracks, e.g. "2 h" or 7200 (seconds), or at a time of a recording, e.g. 2022-07-13T12:00:00Z. Defaults to their start.',
    },
    duration: {
      type: 'string',
      value: 'T',
      description:
        'Stop after this time, e.g. "30 s" or 30 (seconds). Defaults to the end of the trajectories, or Ctrl-C.',
    },
    rate: {
      type: 'string',
      value: 'HZ',
      description:
        'Truth samples per second per entity, e.g. "60 Hz" or 60. Defaults to 30 Hz; with --feed or --truth, the samples between fixes (heartbeats, dead reckoning through signal loss), 2 Hz.',
    },
    algorithm: {
      type: 'string',
      value: 'ALG',
      description: 'DR algorithm to send: auto (chosen by the motion), 1–9 or a name such as RVW. Defaults to auto.',
    },
    json: { type: 'boolean', description: 'Print every PDU sent as one JSON line on stdout (entity, reasons, state).' },
    entities: {
      type: 'string',
      group: LOAD,
      value: 'N',
      description:
        'Load generator: N simulated entities (1–1000000; 50 % tanks on land, 20 % ships at sea, 30 % aircraft, on varied courses off Monterey), each with its own emitter, in one tick loop at --rate (default 10 with --entities), PDUs bundled per datagram. A status line on stderr; with --json, the status lines and the summary as JSON lines on stdout instead of every PDU.',
    },
    'max-rate': {
      type: 'string',
      group: LOAD,
      value: 'PDUS',
      description:
        'With --entities: send at most this many PDUs per second; entities past the budget are evaluated next tick. Defaults to no cap.',
    },
    seed: {
      type: 'string',
      group: LOAD,
      value: 'N',
      description:
        'With --entities: seed of the courses, headings and offsets (same seed, same exercise). Defaults to 1.',
    },
    truth: {
      type: 'string',
      value: '-|FILE|udp://ADDR:PORT|tcp://ADDR:PORT',
      description:
        "Entities of any program: NDJSON truth records (schemas/truth.schema.json, docs/feeds.md) from standard input (-), a file (played at the pace of its records' times), or listened for on UDP or TCP. Bad lines are counted and the first one shown.",
    },
    feed: {
      type: 'string',
      value: 'URL',
      multiple: true,
      description:
        'Live traffic as entities: sbs://HOST:30003 (SBS-1), beast://HOST:30005 (Beast), http(s)://HOST/…/aircraft.json (readsb, dump1090), aivdm+udp://ADDR:PORT (listened to) or aivdm+tcp://HOST:PORT (AIS). Repeatable.',
    },
    'altitude-band': {
      type: 'string',
      value: 'MIN..MAX',
      description:
        'With --feed: publish only aircraft within this altitude band, e.g. "0..10000 ft" or "..3 km"; one that leaves it leaves the exercise.',
    },
    stale: {
      type: 'string',
      value: 'T',
      description:
        'With --feed or --truth: a vehicle unheard this long leaves (dead-reckoned until then), e.g. "2 min". Defaults to 60 s for aircraft, 10 min for vessels, never for records.',
    },
    poll: {
      type: 'string',
      value: 'T',
      description: 'With an aircraft.json feed: seconds between polls. Defaults to 1 s.',
    },
    stall: {
      type: 'string',
      value: 'T',
      description:
        'With --feed: a connection silent this long (or a poll unanswered) counts as failed and is made again. Defaults to 30 s.',
    },
    retries: {
      type: 'string',
      value: 'N',
      description:
        'With --feed: a feed that never connected gives up after this many attempts more (1, 2, 4 … s apart) and publish exits 1; 0 gives up at once. Once connected, a feed reconnects forever. Defaults to 5.',
    },
    ...settingFlags(['network', 'dis', 'emitter', 'heartbeat'], {
      side: 'send',
      detailed: ['dis', 'emitter', 'heartbeat'],
    }),
    ...natsFlags(),
  },
  examples: [
    'reckon publish --entity tank --entity aircraft --port 3000',
    'reckon publish --track test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv --duration "2 min"',
    'reckon publish --entity ship --multicast 239.1.2.3 --exercise 2 --position-threshold "0.5 m"',
    'reckon publish --entity tank --json | head',
    'reckon publish --track capture.pcap --entity 1:3001:54',
    'reckon publish --track drives.csv --kind ground --segment all',
    'reckon publish --track car.csv --longitude-column gps_long --latitude-column gps_lat',
    'reckon publish --track flight.json.gz --type B737   # published as a Boeing 737-700',
    'reckon publish --track flight.json.gz --from "1 h" --speed 10   # an hour in, ten times as fast',
    'reckon publish --entities 100000 --port 3000 --duration "10 min"',
    'reckon publish --entity tank --nats nats://127.0.0.1:4222   # to NATS, one subject per H3 cell (docs/nats.md)',
    'reckon publish --entity tank --origin 48.1,11.6 --nats nats://127.0.0.1:4222   # near Munich',
    "python3 examples/truth-from-python.py | reckon publish --truth -   # any program's NDJSON records (docs/feeds.md)",
    'reckon publish --feed beast://127.0.0.1:30005 --feed aivdm+udp://0.0.0.0:10110   # live aircraft and ships',
    'reckon publish --feed http://127.0.0.1:8080/data/aircraft.json --altitude-band "..10000 ft"',
  ],
  async run(args, io) {
    if (args.flags.truth !== undefined || args.flags.feed !== undefined) {
      return (await import('../feed-publish.js')).runFeedPublish(args, io);
    }
    if (args.flags.entities !== undefined) return (await import('../load-generator.js')).runLoadGenerator(args, io);
    const { configOrProblems, durationFlag, frequencyFlag } = await import('../config-from-flags.js');
    const problems: UsageProblem[] = [];
    const entityFlags = (args.flags.entity as string[] | undefined) ?? [];
    const names = entityFlags.filter((e) => !CAPTURED_ENTITY.test(e)).map((name) => name.toLowerCase()); // Tank, SHIP
    const capturedEntities = entityFlags.filter((e) => CAPTURED_ENTITY.test(e));
    const tracks = (args.flags.track as string[] | undefined) ?? [];
    for (const name of names) {
      if (!SIMULATED.includes(name)) {
        problems.push({
          path: '--entity',
          message: `expected one of ${SIMULATED.join(', ')}; got "${name}" (an entity of a DIS capture is site:application:entity)`,
        });
      }
    }
    if (capturedEntities.length > 0 && !tracks.some(isCapture)) {
      problems.push({
        path: '--entity',
        message: `${capturedEntities.join(', ')} picks an entity of a DIS capture: give the capture with --track FILE.pcap`,
      });
    }
    const segmentText = stringFlag(args.flags, 'segment');
    const segment = segmentText === undefined || segmentText === 'all' ? segmentText : Number(segmentText);
    if (typeof segment === 'number' && !(Number.isInteger(segment) && segment >= 1)) {
      problems.push({ path: '--segment', message: `expected a recording number from 1, or all; got "${segmentText}"` });
    }
    const maxGapSeconds = durationFlag(args.flags, 'max-gap', problems);
    const kindText = stringFlag(args.flags, 'kind');
    const kind = TRACK_KIND_NAMES.find((k) => k === kindText?.toLowerCase());
    if (kindText !== undefined && kind === undefined)
      problems.push({ path: '--kind', message: `expected one of ${TRACK_KIND_NAMES.join(', ')}; got "${kindText}"` });
    const typeText = stringFlag(args.flags, 'type');
    let entityType: import('../../pdu/schema/schema.js').EntityType | undefined;
    if (typeText !== undefined) {
      const { findEntityType } = await import('../../names/entity-type-lookup.js');
      const found = findEntityType(typeText);
      if ('type' in found) entityType = found.type;
      else {
        const listed = found.candidates.length > 0 ? `:\n${found.candidates.map((c) => `  ${c}`).join('\n')}` : '';
        problems.push({ path: '--type', message: `${found.problem}${listed}` });
      }
    }
    const durationSeconds = durationFlag(args.flags, 'duration', problems);
    const rateHz = frequencyFlag(args.flags, 'rate', problems, 1000) ?? 30;
    const algorithm = algorithmFlag(stringFlag(args.flags, 'algorithm'), problems);
    const origin = originFlag(stringFlag(args.flags, 'origin'), problems);
    const speed = timeScaleFlag(args.flags, 'speed', problems);
    const from = fromFlag(args.flags, problems, durationFlag);
    const config = configOrProblems(args.flags, problems);
    const portProblem = config && destinationPortProblem(config.network.port);
    if (portProblem) problems.push(portProblem);

    const [{ demoActors }, { trackActors }, { timeScaled }] = await Promise.all([
      import('../terminal/scenario.js'),
      import('../track-actors.js'),
      import('../../truth/time-scaled.js'),
    ]);
    const simulated = demoActors(origin).filter((a) =>
      names.length === 0 && tracks.length === 0 ? a.name === 'tank' : names.includes(a.name),
    );
    const cast: Array<ReturnType<typeof demoActors>[number] & { forceId?: number }> = [...simulated];
    const found: string[] = [];
    const columns = columnsFromFlags(args.flags);
    for (const path of tracks) {
      const entities = isCapture(path) && capturedEntities.length > 0 ? capturedEntities : [undefined];
      for (const entity of entities) {
        const { actors, lines } = await trackActors(
          path,
          {
            ...(entity === undefined ? {} : { entity }),
            ...(typeof segment === 'number' || segment === 'all' ? { segment } : {}),
            ...(kind === undefined ? {} : { kind }),
            ...(entityType === undefined ? {} : { entityType }),
            ...(maxGapSeconds === undefined ? {} : { maxGapSeconds }),
            strict: booleanFlag(args.flags, 'strict'),
            columns,
          },
          problems,
        );
        for (const line of lines) found.push(line);
        for (const actor of actors) cast.push(startedFrom(actor, from, problems));
      }
    }
    if (from !== undefined && tracks.length === 0)
      problems.push({ path: '--from', message: 'starts recorded tracks part-way: give them with --track FILE' });
    for (const [i, actor] of cast.entries()) {
      cast[i] = { ...actor, trajectory: timeScaled(actor.trajectory, speed), startSeconds: actor.startSeconds / speed };
    }
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    const inputs = [...tracks.map((track) => ({ path: track, name: '--track' })), ...configInputs(args.flags, config)];
    problems.push(...(await sameFileProblems(io, inputs, [])));
    if (problems.length > 0 || !config) throw new UsageError(problems);

    const [
      { merge },
      { createPublisher },
      { deadReckonEmit, sampleTrajectory },
      { emitReasonNames },
      { entityStateRecordToPdu },
      { DR_ALGORITHM_NAMES },
    ] = await Promise.all([
      import('rxjs'),
      import('../../stream/publisher.js'),
      import('../../stream/operators.js'),
      import('../../dr/owner/emitter.js'),
      import('../../pdu/json/entity-state-json.js'),
      import('../../dr/models/algorithm.js'),
    ]);
    const publisher = await createPublisher(config);
    const json = booleanFlag(args.flags, 'json');
    const counts = cast.map(() => ({ pdus: 0, reasons: new Map<string, number>() }));
    // A note lists rows: wrapped at words on a terminal, never cut mid-number; names from track files (a file's
    // name, a callsign) are shown with visible escapes.
    for (const line of found) for (const part of linesFor(io.stderr, printable(line))) io.stderr.write(`${part}\n`);
    const shownNames = cast.map((actor) => printable(actor.name));
    const entities = cast.map((actor, i) => ({
      entity: i + 1,
      marking: actor.marking,
      entityType: actor.entityType,
      ...(actor.forceId === undefined ? {} : { forceId: actor.forceId }),
      algorithm,
    }));
    const startedMs = Date.now();
    const truth$ = merge(
      ...cast.map((actor, i) =>
        sampleTrajectory(actor.trajectory, {
          entity: entities[i]!,
          rateHz,
          startSeconds: actor.startSeconds,
          ...(durationSeconds === undefined ? {} : { durationSeconds }),
        }),
      ),
    );
    const destination = await sendDestination(config);
    io.stderr.write(
      `publish: ${shownNames.map((name, i) => `${name} (${config.dis.site}:${config.dis.application}:${i + 1})`).join(', ')} → ${destination}, exercise ${config.dis.exercise}; Ctrl-C to stop\n`,
    );

    let failure: Error | undefined;
    // The first refused send is reported at once (a long run must not look healthy); the summary counts them all.
    let sendFailureShown = false;
    const showSendFailure = (): void => {
      if (sendFailureShown || publisher.stats.sendFailure === undefined) return;
      sendFailureShown = true;
      io.stderr.write(`publish: sends fail: ${publisher.stats.sendFailure}\n`);
    };
    let subscription: { unsubscribe(): void } | undefined;
    const finished = new Promise<string>((resolve) => {
      subscription = truth$.pipe(deadReckonEmit({ config, entities }), publisher.transmit()).subscribe({
        next(pdu) {
          const c = counts[pdu.entity - 1]!;
          c.pdus++;
          showSendFailure();
          for (const reason of emitReasonNames(pdu.reasons)) c.reasons.set(reason, (c.reasons.get(reason) ?? 0) + 1);
          if (json)
            io.stdout.write(
              JSON.stringify({
                entity: cast[pdu.entity - 1]!.name,
                reasons: emitReasonNames(pdu.reasons),
                timeSeconds: pdu.timeSeconds,
                state: entityStateRecordToPdu(pdu.record),
              }) + '\n',
            );
        },
        error(error: unknown) {
          failure = error instanceof Error ? error : new Error(String(error));
          resolve('failed');
        },
        complete: () =>
          resolve(durationSeconds === undefined ? 'the trajectories ended' : `${durationSeconds} s elapsed`),
      });
      io.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
      if (io.signal.aborted) resolve('interrupted');
    });
    const progress = setInterval(() => {
      showSendFailure();
      io.stderr.write(
        `publish: ${((Date.now() - startedMs) / 1000).toFixed(0)} s, ${formatCount(publisher.sent.pdus, 'PDU')} sent\n`,
      );
    }, 5000);
    const reason = await finished;
    subscription?.unsubscribe();
    clearInterval(progress);
    await publisher.close();
    const seconds = (Date.now() - startedMs) / 1000;
    const width = longest(shownNames);
    const lines = shownNames.map((name, i) => {
      const c = counts[i]!;
      const baseline = Math.floor(15 * seconds);
      const why = [...c.reasons].map(([r, n]) => `${r} ${n}`).join(', ');
      return `  ${name.padEnd(width)} ${String(c.pdus).padStart(6)} PDUs (${baseline > 0 ? ((100 * c.pdus) / baseline).toFixed(1) : '–'} % of 15 Hz)  ${why}`;
    });
    io.stderr.write(
      [
        `publish: stopped (${reason}${failure ? `: ${printable(failure.message)}` : ''}) after ${seconds.toFixed(1)} s; DR ${typeof algorithm === 'number' ? DR_ALGORITHM_NAMES[algorithm] : 'auto'}`,
        ...lines,
        `  sent ${formatCount(publisher.sent.pdus, 'PDU')} (${formatCount(publisher.sent.bytes, 'byte')}, leave notices included) in ${formatCount(publisher.stats.datagramsOut, config.nats.servers.length > 0 ? 'NATS message' : 'datagram')}${sendFailureSummary(publisher.stats)}`,
      ].join('\n') + '\n',
    );
    return failure || everySendFailed(publisher.stats) ? EXIT_FAILURE : EXIT_OK;
  },
};

/** `--origin LAT,LON` in degrees; adds a problem and returns undefined when malformed. */
function originFlag(
  text: string | undefined,
  problems: UsageProblem[],
): { latitudeDeg: number; longitudeDeg: number } | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((p) => p.trim());
  const [latitudeDeg, longitudeDeg] = parts.map(Number);
  const ok =
    parts.length === 2 &&
    parts.every((p) => p !== '') &&
    Math.abs(latitudeDeg!) <= 85 &&
    Math.abs(longitudeDeg!) <= 180;
  if (ok) return { latitudeDeg: latitudeDeg!, longitudeDeg: longitudeDeg! };
  problems.push({
    path: '--origin',
    message: `expected LAT,LON in degrees (latitude within ±85, longitude within ±180), e.g. 48.1,11.6; got "${text}"`,
  });
  return undefined;
}

/** `--from`: an offset into the tracks (seconds) or a time of day of a recording (Unix seconds). */
type From = { readonly offsetSeconds: number } | { readonly atSeconds: number; readonly text: string };

function fromFlag(
  flags: FlagValues,
  problems: UsageProblem[],
  durationFlag: typeof import('../config-from-flags.js').durationFlag,
): From | undefined {
  const text = flags.from;
  if (typeof text !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const iso = text.trim().replace(' ', 'T');
    const atMs = Date.parse(/T\d{2}:\d{2}/.test(iso) && !/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso) ? `${iso}Z` : iso);
    if (Number.isFinite(atMs)) return { atSeconds: atMs / 1000, text };
    problems.push({ path: '--from', message: `"${text}" is not an ISO 8601 date-time` });
    return undefined;
  }
  const offsetSeconds = durationFlag(flags, 'from', problems);
  return offsetSeconds === undefined ? undefined : { offsetSeconds };
}

/** A track's actor started `from` into it; a start past its end adds a problem. */
function startedFrom(actor: TrackActor, from: From | undefined, problems: UsageProblem[]): TrackActor {
  if (from === undefined) return actor;
  const offset = 'offsetSeconds' in from ? from.offsetSeconds : from.atSeconds - actor.firstFixSeconds;
  const duration = actor.trajectory.durationSeconds;
  if (offset >= 0 && offset < duration) return { ...actor, startSeconds: offset };
  const asked = 'offsetSeconds' in from ? `${offset} s in` : `${from.text} (${offset.toFixed(0)} s from its start)`;
  problems.push({
    path: '--from',
    message: `${asked} is outside ${actor.name}, which lasts ${duration.toFixed(0)} s`,
  });
  return actor;
}
