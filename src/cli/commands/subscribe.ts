/**
 * `reckon subscribe`: receives Entity State PDUs and shows the remote entities live (a table redrawn in place on
 * a terminal, fitted to its size, with shots, detonations, freezes and leaves listed under it as they happen; plain
 * lines otherwise, and a line per such event), or prints every event (entity events, and the fires, detonations and
 * collisions between entities) as one JSON line (`--json`).
 * Stops on Ctrl-C, after `--duration` or after `--count` events, then prints what was received and rejected on
 * stderr.
 */
import { booleanFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { natsFlags, settingFlags } from '../config-flags.js';
import { formatCount } from '../terminal/format.js';
import { untilStopped } from '../until-stopped.js';

export const command: Command = {
  name: 'subscribe',
  summary: 'Receive Entity State PDUs and show remote entities live (or as NDJSON events)',
  usage:
    'reckon subscribe [--json] [--duration T] [--count N] [--display extrapolate|interpolate] [--address A] [--port P] [--exercise N] [--multicast GROUP] …',
  flags: {
    json: {
      type: 'boolean',
      description:
        'Print each event as one JSON line on stdout: entity events (appeared, updated, timedOut, removed, frozen, ' +
        'resumed) with the state as received (ECEF) and its geodetic latitude, longitude, height, heading, pitch and ' +
        'roll; engagements (fire, detonation, collision).',
    },
    duration: {
      type: 'string',
      value: 'T',
      description: 'Stop after this time, e.g. "30 s" or 30 (seconds). Defaults to until Ctrl-C.',
    },
    count: { type: 'string', value: 'N', description: 'Stop after N entity events. Defaults to no limit.' },
    diagnostics: { type: 'boolean', description: 'Report each rejected datagram or PDU (reason, sender) on stderr.' },
    ...settingFlags(['network', 'dis', 'filter', 'heartbeat', 'receiver'], {
      side: 'receive',
      detailed: ['dis', 'receiver'],
    }),
    ...natsFlags({ area: true }),
  },
  examples: [
    'reckon subscribe',
    'reckon subscribe --port 3000 --exercise 2 --json > events.ndjson',
    'reckon subscribe --multicast 239.1.2.3 --smoothing linear --diagnostics',
    'reckon subscribe --display interpolate --interpolation-delay "150 ms"   # shown 150 ms late, between received states',
    'reckon subscribe --port 0 --count 10 --json   # a free port, printed on stderr',
    'reckon subscribe --nats nats://127.0.0.1:4222 --area "48.1,11.6,50 km"   # only the H3 cells covering the area',
  ],
  async run(args, io) {
    const { configOrProblems, durationFlag, integerFlag } = await import('../config-from-flags.js');
    const problems: UsageProblem[] = [];
    const durationSeconds = durationFlag(args.flags, 'duration', problems);
    const count = integerFlag(args.flags, 'count', problems);
    const config = configOrProblems(args.flags, problems);
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), [])));
    if (problems.length > 0 || !config) throw new UsageError(problems);

    const [
      { createSubscriber },
      view,
      { LiveView },
      { formatRejections, formatWarnings },
      { jsonLine, printable },
      { formatOtherPdus, formatEngagements, formatDecodeErrors, formatOrdersNotCarriedOut },
      { entityStatePduNames },
      { geodeticJson },
    ] = await Promise.all([
      import('../../stream/subscriber.js'),
      import('../terminal/subscribe-view.js'),
      import('../terminal/live-view.js'),
      import('../../transport/transport.js'),
      import('../terminal/printable.js'),
      import('../terminal/other-pdus.js'),
      import('../../names/pdu-names.js'),
      import('../terminal/geodetic-json.js'),
    ]);
    const subscriber = createSubscriber(config);
    // Over NATS: the transport's cells and counters (the subscriber opens it on the first subscription).
    const nats = () => subscriber.nats;
    const describeArea = config.nats.servers.length > 0 ? (await import('../../nats/area.js')).describeArea : undefined;
    const json = booleanFlag(args.flags, 'json');
    const live = new LiveView(io.stdout, { plainIntervalSeconds: 5 });
    const entities = new view.EntityList();
    const startedMs = Date.now();
    let events = 0;
    let lastFrame: import('../../stream/frame.js').EntityFrame | undefined;
    const { stop, stopped } = untilStopped(io.signal, durationSeconds);
    // Without a terminal, what happens (shots, freezes, leaves) is printed as it comes, once the events of one PDU
    // are in (a Stop/Freeze for many entities is one line).
    let eventsPending = false;
    const printEventsSoon = () => {
      if (eventsPending) return;
      eventsPending = true;
      queueMicrotask(() => {
        eventsPending = false;
        for (const line of entities.recent.takeNew()) io.stdout.write(`subscribe: ${line.text}\n`);
      });
    };
    // A failure before the socket (or NATS) is open is reported in one line, without a summary of nothing.
    let listening = false;
    let failure: string | undefined;
    const fail = (error: unknown) => {
      // A failure to connect may name a file (a NATS credentials file): shown with visible escapes.
      failure ??= printable(error instanceof Error ? error.message : String(error));
      stop(`failed: ${failure}`);
    };

    const subscriptions = [
      subscriber.events$.subscribe({
        next(event) {
          events++;
          if (event.type === 'fire' || event.type === 'detonation' || event.type === 'collision') {
            // Engagement events carry their places and names already.
            if (json) io.stdout.write(jsonLine(event) + '\n');
            else entities.applyEngagement(event);
          } else {
            if (json) {
              const { location, orientation } = event.state;
              const geodetic = geodeticJson(location, orientation);
              io.stdout.write(jsonLine({ ...event, geodetic, names: entityStatePduNames(event.state) }) + '\n');
            }
            entities.apply(event);
          }
          if (!json && !live.tty) printEventsSoon();
          if (count !== undefined && events >= count) stop(`${count} events`);
        },
        error: fail,
      }),
      subscriber.listening$.subscribe({
        next: (local) => {
          listening = true;
          if (nats()) {
            const transport = nats()!;
            const area = transport.currentArea;
            const where = area
              ? `area ${describeArea!(area)} (${transport.cells!.length} H3 cells at resolution ${transport.subjects.resolution})`
              : 'the whole exercise';
            io.stderr.write(
              `subscribe: connected to NATS ${local.address}, exercise ${config.dis.exercise}, ${where}; Ctrl-C to stop\n`,
            );
            return;
          }
          io.stderr.write(
            `subscribe: listening on ${local.address} port ${local.port}${config.network.multicast ? ` (group ${config.network.multicast})` : ''}, exercise ${config.dis.exercise}; Ctrl-C to stop\n`,
          );
        },
        error: fail,
      }),
    ];
    if (booleanFlag(args.flags, 'diagnostics')) {
      subscriptions.push(
        subscriber.diagnostics$.subscribe({
          next: (d) =>
            io.stderr.write(
              `subscribe: rejected ${d.bytes}-byte datagram from ${d.source.address}:${d.source.port}: ${d.reason} (${d.message})\n`,
            ),
          error: fail,
        }),
      );
    }
    if (!json) {
      subscriptions.push(
        subscriber.frames({ rateHz: 4 }).subscribe({
          next: (frame) => {
            lastFrame = frame;
            live.update(
              live.tty
                ? view.subscribeLiveLines(frame, entities, subscriber.stats, live.tty, live.size, live.color)
                : [],
              view.subscribePlainLines(frame, entities),
            );
          },
          error: fail,
        }),
      );
    }

    const reason = await stopped;
    // Without a terminal, the entities as last seen (the periodic lines may be seconds old).
    if (!json && !live.tty && lastFrame)
      io.stdout.write(view.subscribePlainLines(lastFrame, entities).join('\n') + '\n');
    const natsStats = nats()?.natsStats;
    for (const s of subscriptions) s.unsubscribe();
    live.close();
    if (!listening && failure !== undefined) {
      io.stderr.write(`reckon subscribe: ${failure}\n`);
      return EXIT_FAILURE;
    }
    const s = subscriber.stats;
    io.stderr.write(
      [
        `subscribe: stopped (${reason}) after ${((Date.now() - startedMs) / 1000).toFixed(1)} s`,
        `  entities  ${entities.size} seen, ${events} events`,
        `  received  ${formatCount(s.transport.datagramsIn, 'datagram')}, ${formatCount(s.transport.pdusAccepted, 'PDU')} accepted${formatOtherPdus(s.transport)}${formatEngagements(s)}${formatRejections(s.transport.rejected)}${formatWarnings(s.transport.warnings)}` +
          formatDecodeErrors(s) +
          formatOrdersNotCarriedOut(s.control) +
          formatNotTaken(s.notTaken, subscriber.config.receiver.maxEntities),
        ...(natsStats
          ? [
              `  nats      ${formatCount(natsStats.messagesIn, 'message')}, ${natsStats.leftArea} left the area, ` +
                `${natsStats.disconnects} disconnects, ${natsStats.reconnects} reconnects (gap ${natsStats.gapSeconds.toFixed(1)} s), ` +
                `${natsStats.slowConsumers} slow-consumer events`,
            ]
          : []),
      ].join('\n') + '\n',
    );
    return reason.startsWith('failed') ? EXIT_FAILURE : EXIT_OK;
  },
};

/** The valid PDUs the table did not take, as view's summary says them; empty when none. */
function formatNotTaken(notTaken: { tableFull: number; unknownUpdates: number }, maxEntities: number): string {
  if (notTaken.tableFull + notTaken.unknownUpdates === 0) return '';
  const parts = [];
  if (notTaken.tableFull > 0)
    parts.push(
      `${notTaken.tableFull} of new entities over receiver.maxEntities (${maxEntities}; raise it with --max-entities)`,
    );
  if (notTaken.unknownUpdates > 0) parts.push(`${notTaken.unknownUpdates} updates of unknown entities`);
  return `; not taken: ${parts.join(', ')}`;
}
