/** What `reckon subscribe` shows: remote entities as a live table (or plain lines), from render-rate frames. */
import { DR_ALGORITHM_NAMES } from '../../dr/algorithm.js';
import { ecefToGeodeticDegrees } from '../../math/geodesy.js';
import type { EntityEvent } from '../../stream/entity-events.js';
import { markingAt, type EntityFrame } from '../../stream/frame.js';
import type { SubscriberStats } from '../../stream/subscriber.js';
import { formatRejections } from '../../transport/transport.js';
import { formatLatLonAlt, formatTable, formatCount } from './format.js';
import { styles } from './live-view.js';

/** Rows shown at most; the rest are counted. */
const MAX_ROWS = 25;

/** Per-entity counts kept from the events (the frames carry the rest). */
export class EntityList {
  private readonly updates = new Map<number, number>();
  /** Entities that appeared at least once. */
  get size(): number {
    return this.updates.size;
  }
  apply(event: EntityEvent): void {
    if (event.type === 'appeared' || event.type === 'updated') this.updates.set(event.key, (this.updates.get(event.key) ?? 0) + 1);
  }
  pdus(key: number): number {
    return this.updates.get(key) ?? 0;
  }
}

const COLUMNS = [
  { title: 'entity' },
  { title: 'marking' },
  { title: 'type' },
  { title: 'DR' },
  { title: 'position (displayed)' },
  { title: 'speed', align: 'right' },
  { title: 'PDUs', align: 'right' },
  { title: 'last PDU', align: 'right' },
] as const;

const geo = new Float64Array(3);

function rows(frame: EntityFrame, entities: EntityList): { rows: string[][]; more: number } {
  const out: string[][] = [];
  let more = 0;
  const t = frame.table;
  for (let slot = 0; slot < frame.slotCount; slot++) {
    if (frame.active[slot] !== 1) continue;
    if (out.length === MAX_ROWS) {
      more++;
      continue;
    }
    const j = 3 * slot, v = t.models.velocity;
    ecefToGeodeticDegrees(geo, frame.location[j]!, frame.location[j + 1]!, frame.location[j + 2]!);
    const type = Array.from(frame.entityType.subarray(7 * slot, 7 * slot + 7)).join(':');
    out.push([
      `${frame.entityId[j]}:${frame.entityId[j + 1]}:${frame.entityId[j + 2]}`,
      markingAt(frame, slot) || '–',
      type,
      DR_ALGORITHM_NAMES[frame.algorithm[slot]!] ?? String(frame.algorithm[slot]),
      formatLatLonAlt(geo[0]!, geo[1]!, geo[2]!),
      `${Math.hypot(v[j]!, v[j + 1]!, v[j + 2]!).toFixed(1)} m/s`,
      String(entities.pdus(frame.key[slot]!)),
      `${Math.max(0, frame.timeSeconds - t.arrivalSeconds[slot]!).toFixed(1)} s ago`,
    ]);
  }
  return { rows: out, more };
}

/** The live table. */
export function subscribeLiveLines(frame: EntityFrame, entities: EntityList, stats: SubscriberStats, tty: boolean): string[] {
  const s = styles(tty);
  const { rows: body, more } = rows(frame, entities);
  const [header, ...lines] = formatTable(COLUMNS, body);
  const x = stats.transport;
  return [
    s.bold(`${frame.entityCount} remote entities`),
    s.bold(header!),
    ...lines,
    ...(more > 0 ? [s.dim(`… and ${more} more`)] : []),
    s.dim(`${formatCount(x.datagramsIn, 'datagram')}, ${formatCount(x.pdusAccepted, 'PDU')} accepted${formatRejections(x.rejected)}, ${x.timeouts} timed out · Ctrl-C to stop`),
  ];
}

/** One plain line per entity, for logs. */
export function subscribePlainLines(frame: EntityFrame, entities: EntityList): string[] {
  const { rows: body, more } = rows(frame, entities);
  const lines = body.map((r) => `subscribe: ${r[0]} ${r[1]} DR=${r[3]} ${r[4]} ${r[5]} pdus=${r[6]} last=${r[7]}`);
  return [...(lines.length > 0 ? lines : ['subscribe: no entities yet']), ...(more > 0 ? [`subscribe: … and ${more} more`] : [])];
}
