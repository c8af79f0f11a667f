/**
 * `reckon publish`: simulated entities (`--entity tank|ship|aircraft`, repeatable) or recorded tracks (`--track
 * FILE`) taken as the truth, each run through the dead-reckoning emitter, and Entity State PDUs sent over UDP only
 * when receivers need one. Progress on stderr; a summary (or NDJSON of every PDU with `--json`) at the end.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { configFlags } from '../../config/flags.js';
import { algorithmFlag } from '../terminal/algorithm-flag.js';

const SIMULATED = ['tank', 'ship', 'aircraft'];

export const command: Command = {
  name: 'publish',
  summary: 'Publish simulated or recorded entities as Entity State PDUs, sent only when needed',
  usage: 'reckon publish [--entity tank|ship|aircraft]… [--track FILE]… [--duration T] [--address A] [--port P] [--exercise N] …',
  flags: {
    entity: { type: 'string', value: 'NAME', multiple: true, description: `A simulated entity: ${SIMULATED.join(', ')}. Defaults to a tank when no --track is given.` },
    track: {
      type: 'string',
      value: 'FILE',
      multiple: true,
      description: 'A recorded track as the truth: .csv (time, lat, lon[, alt, heading]), .gpx, ADS-B .json(.gz) or a DIS .pcap.',
    },
    duration: { type: 'string', value: 'T', description: 'Stop after this time, e.g. "30 s" or 30 (seconds). Defaults to the end of the trajectories, or Ctrl-C.' },
    rate: { type: 'string', value: 'HZ', description: 'Truth samples per second per entity. Defaults to 30.' },
    algorithm: { type: 'string', value: 'ALG', description: 'DR algorithm to send: auto (chosen by the motion), 1–9 or a name such as RVW. Defaults to auto.' },
    json: { type: 'boolean', description: 'Print every PDU sent as one JSON line on stdout (entity, reasons, state).' },
    entities: {
      type: 'string',
      value: 'N',
      description: 'Load generator: N simulated entities (1–100000; 50 % tanks, 20 % ships, 30 % aircraft on varied courses), each with its own emitter, in one tick loop at --rate (default 10 with --entities), PDUs bundled per datagram. A status line on stderr; with --json, the status lines and the summary as JSON lines on stdout instead of every PDU.',
    },
    'max-rate': { type: 'string', value: 'PDUS', description: 'With --entities: send at most this many PDUs per second; entities past the budget are evaluated next tick. Defaults to no cap.' },
    seed: { type: 'string', value: 'N', description: 'With --entities: seed of the courses, headings and offsets (same seed, same exercise). Defaults to 1.' },
    ...configFlags(['network', 'dis', 'emitter', 'heartbeat']),
  },
  examples: [
    'reckon publish --entity tank --entity aircraft --port 3000',
    'reckon publish --track test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv --duration "2 min"',
    'reckon publish --entity ship --multicast 239.1.2.3 --exercise 2 --position-threshold "0.5 m"',
    'reckon publish --entity tank --json | head',
    'reckon publish --entities 100000 --port 3000 --duration "10 min"',
  ],
  async run(args, io) {
    if (args.flags.entities !== undefined) return (await import('../load-generator.js')).runLoadGenerator(args, io);
    const { configOrProblems, durationFlag } = await import('../../config/cli.js');
    const problems: UsageProblem[] = [];
    const names = (args.flags.entity as string[] | undefined) ?? [];
    const tracks = (args.flags.track as string[] | undefined) ?? [];
    for (const name of names) {
      if (!SIMULATED.includes(name)) problems.push({ path: '--entity', message: `expected one of ${SIMULATED.join(', ')}; got "${name}"` });
    }
    const durationSeconds = durationFlag(args.flags, 'duration', problems);
    const rateText = stringFlag(args.flags, 'rate');
    const rateHz = rateText === undefined ? 30 : Number(rateText);
    if (!(rateHz > 0 && rateHz <= 1000)) problems.push({ path: '--rate', message: `expected samples per second from 1 to 1000, got "${rateText}"` });
    const algorithm = algorithmFlag(stringFlag(args.flags, 'algorithm'), problems);
    const config = configOrProblems(args.flags, problems);

    const [{ demoActors }, { loadTrack }] = await Promise.all([import('../terminal/scenario.js'), import('../../experiment/trajectories/loaders.js')]);
    const cast = demoActors().filter((a) => (names.length === 0 && tracks.length === 0 ? a.name === 'tank' : names.includes(a.name)));
    for (const path of tracks) {
      try {
        const trajectory = await loadTrack(path);
        const marking = trajectory.name.replace(/[^ -~]/g, '').slice(0, 11).toUpperCase();
        cast.push({ name: trajectory.name, marking, entityType: { kind: 1, domain: 0, country: 0, category: 0, subcategory: 0, specific: 0, extra: 0 }, trajectory, startSeconds: 0 });
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
        problems.push({ path: '--track', message: `cannot load "${path}": ${reason}` });
      }
    }
    if (problems.length > 0 || !config) throw new UsageError(problems);

    const [{ merge }, { createPublisher }, { deadReckonEmit, sampleTrajectory }, { emitReasonNames }, { entityStateRecordToPdu }, { DR_ALGORITHM_NAMES }] = await Promise.all([
      import('rxjs'),
      import('../../stream/publisher.js'),
      import('../../stream/operators.js'),
      import('../../dr/emitter.js'),
      import('../../pdu/entity-state-json.js'),
      import('../../dr/algorithm.js'),
    ]);
    const publisher = await createPublisher(config);
    const json = booleanFlag(args.flags, 'json');
    const counts = cast.map(() => ({ pdus: 0, reasons: new Map<string, number>() }));
    const entities = cast.map((actor, i) => ({ entity: i + 1, marking: actor.marking, entityType: actor.entityType, algorithm }));
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
    const destination = `${config.network.address ?? config.network.multicast ?? '127.0.0.1'}:${config.network.port}`;
    io.stderr.write(`publish: ${cast.map((a, i) => `${a.name} (${config.dis.site}:${config.dis.application}:${i + 1})`).join(', ')} → ${destination}, exercise ${config.dis.exercise}; Ctrl-C to stop\n`);

    let failure: Error | undefined;
    let subscription: { unsubscribe(): void } | undefined;
    const finished = new Promise<string>((resolve) => {
      subscription = truth$.pipe(deadReckonEmit({ config, entities }), publisher.transmit()).subscribe({
        next(pdu) {
          const c = counts[pdu.entity - 1]!;
          c.pdus++;
          for (const reason of emitReasonNames(pdu.reasons)) c.reasons.set(reason, (c.reasons.get(reason) ?? 0) + 1);
          if (json) io.stdout.write(JSON.stringify({ entity: cast[pdu.entity - 1]!.name, reasons: emitReasonNames(pdu.reasons), timeSeconds: pdu.timeSeconds, state: entityStateRecordToPdu(pdu.record) }) + '\n');
        },
        error(error: unknown) {
          failure = error instanceof Error ? error : new Error(String(error));
          resolve('failed');
        },
        complete: () => resolve(durationSeconds === undefined ? 'the trajectories ended' : `${durationSeconds} s elapsed`),
      });
      io.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
      if (io.signal.aborted) resolve('interrupted');
    });
    const progress = setInterval(() => io.stderr.write(`publish: ${((Date.now() - startedMs) / 1000).toFixed(0)} s, ${publisher.sent.pdus} PDUs sent\n`), 5000);
    const reason = await finished;
    subscription?.unsubscribe();
    clearInterval(progress);
    await publisher.close();
    const seconds = (Date.now() - startedMs) / 1000;
    const width = Math.max(...cast.map((a) => a.name.length));
    const lines = cast.map((actor, i) => {
      const c = counts[i]!;
      const baseline = Math.floor(15 * seconds);
      const why = [...c.reasons].map(([r, n]) => `${r} ${n}`).join(', ');
      return `  ${actor.name.padEnd(width)} ${String(c.pdus).padStart(6)} PDUs (${baseline > 0 ? ((100 * c.pdus) / baseline).toFixed(1) : '–'} % of 15 Hz)  ${why}`;
    });
    io.stderr.write(
      [
        `publish: stopped (${reason}${failure ? `: ${failure.message}` : ''}) after ${seconds.toFixed(1)} s; DR ${typeof algorithm === 'number' ? DR_ALGORITHM_NAMES[algorithm] : 'auto'}`,
        ...lines,
        `  sent ${publisher.sent.pdus} PDUs (${publisher.sent.bytes} bytes, leave notices included) in ${publisher.stats.datagramsOut} datagrams${publisher.stats.sendErrors > 0 ? `, ${publisher.stats.sendErrors} sends failed` : ''}`,
      ].join('\n') + '\n',
    );
    return failure ? EXIT_FAILURE : EXIT_OK;
  },
};
