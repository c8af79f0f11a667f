/**
 * Subscribes to Entity State PDUs and prints a table of the remote entities every second: what `reckon
 * subscribe` shows, in a few lines of the stream API.
 *
 *   npx tsx examples/subscribe-table.ts [seconds=30] [port=3000]
 */
import { Subject, interval, race, takeUntil, timer } from 'rxjs';
import { DR_ALGORITHM_NAMES, createSubscriber, type EntityEvent } from '../src/index.js';
import { ecefToGeodeticDegrees } from '../src/math/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);

const subscriber = createSubscriber({ network: { address: '127.0.0.1', port } });
const latest = new Map<number, { event: EntityEvent; pdus: number }>();
const failed$ = new Subject<void>();
const stop$ = race(timer(seconds * 1000), failed$);

// The streams fail together when the socket cannot be bound (the port is taken) or breaks: say why once, stop,
// and exit 1 — an error left unhandled would end the program with a stack trace instead.
let failure: unknown;
const fail = (error: unknown): void => {
  if (failure !== undefined) return;
  failure = error;
  console.error(`subscribe-table: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
  failed$.next();
};

subscriber.listening$
  .pipe(takeUntil(stop$))
  .subscribe({ next: ({ port }) => console.log(`listening on 127.0.0.1:${port}`), error: fail });
subscriber.diagnostics$
  .pipe(takeUntil(stop$))
  .subscribe({ next: (d) => console.log(`rejected from ${d.source.address}: ${d.reason}`), error: fail });
subscriber.events$.pipe(takeUntil(stop$)).subscribe({
  next(event) {
    if (event.type === 'fire' || event.type === 'detonation' || event.type === 'collision') {
      console.log(event.type === 'fire' ? `${event.shooter.marking ?? '?'} fired ${event.munition.name}` : event.type);
    } else if (
      event.type === 'appeared' ||
      event.type === 'updated' ||
      event.type === 'frozen' ||
      event.type === 'resumed'
    ) {
      latest.set(event.key, { event, pdus: (latest.get(event.key)?.pdus ?? 0) + 1 });
    } else {
      latest.delete(event.key);
      console.log(`${event.marking} ${event.type}`);
    }
  },
  error: fail,
});

const geo = new Float64Array(3);
interval(1000)
  .pipe(takeUntil(stop$))
  .subscribe({
    next: () => {
      const rows = [...latest.values()].map(({ event, pdus }) => {
        const [x, y, z] = event.state.location;
        ecefToGeodeticDegrees(geo, x, y, z);
        const { site, application, entity } = event.entityId;
        const dr = DR_ALGORITHM_NAMES[event.state.deadReckoning.algorithm];
        return `${`${site}:${application}:${entity}`.padEnd(12)} ${event.marking.padEnd(11)} ${String(dr).padEnd(6)} ${geo[0]!.toFixed(5)} ${geo[1]!.toFixed(5)} ${geo[2]!.toFixed(0).padStart(6)} m  ${pdus} PDUs`;
      });
      console.log(['entity       marking     DR     lat      lon       height', ...rows].join('\n'));
    },
    complete: () => {
      if (failure === undefined) console.log(`done: ${subscriber.stats.transport.pdusAccepted} PDUs received`);
    },
  });
