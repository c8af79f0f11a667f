/**
 * Subscribes to Entity State PDUs and prints a table of the remote entities every second: what `reckon
 * subscribe` shows, in a few lines of the stream API.
 *
 *   npx tsx examples/subscribe-table.ts [seconds=30] [port=3000]
 */
import { interval, takeUntil, timer } from 'rxjs';
import { DR_ALGORITHM_NAMES, createSubscriber, ecefToGeodeticDegrees, type EntityEvent } from '../src/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);

const subscriber = createSubscriber({ network: { address: '127.0.0.1', port } });
const latest = new Map<number, { event: EntityEvent; pdus: number }>();
const stop$ = timer(seconds * 1000);

subscriber.listening$.pipe(takeUntil(stop$)).subscribe(({ port }) => console.log(`listening on 127.0.0.1:${port}`));
subscriber.diagnostics$.pipe(takeUntil(stop$)).subscribe((d) => console.log(`rejected from ${d.source.address}: ${d.reason}`));
subscriber.events$.pipe(takeUntil(stop$)).subscribe((event) => {
  if (event.type === 'appeared' || event.type === 'updated') {
    latest.set(event.key, { event, pdus: (latest.get(event.key)?.pdus ?? 0) + 1 });
  } else {
    latest.delete(event.key);
    console.log(`${event.marking} ${event.type}`);
  }
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
    complete: () => console.log(`done: ${subscriber.stats.transport.pdusAccepted} PDUs received`),
  });
