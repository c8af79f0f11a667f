/** What `reckon subscribe` shows: remote entities as a live table (or plain lines), from render-rate frames. */
import { DR_ALGORITHM_NAMES } from '../../dr/models/algorithm.js';
import { ecefToGeodetic, headingPitchRollFromEuler } from '../../math/geodesy.js';
import { appearanceDamage } from '../../names/appearance.js';
import { entityTypeNameOf } from '../../names/entity-type-names.js';
import type { EngagementEvent } from '../../stream/engagement-events.js';
import type { EntityEvent } from '../../stream/entity-events.js';
import { markingAt, type EntityFrame } from '../../stream/frame.js';
import type { SubscriberStats } from '../../stream/subscriber.js';
import { formatRejections } from '../../transport/transport.js';
import { formatFittedTable, type FitColumn } from './fit.js';
import { formatCount, formatLatLonAlt } from './format.js';
import type { TerminalSize } from './live-view.js';
import { styles } from './live-view.js';
import { printable } from './printable.js';
import { RecentEvents, recentLine } from './subscribe-events.js';

/** Plain lines list at most this many entities; the rest are counted. The live table fits the screen instead. */
const MAX_PLAIN_ROWS = 25;
/** Leaves and timeouts named in the plain lines. */
const RECENT_GONE = 3;

interface Seen {
  pdus: number;
  firstSeconds: number;
  forceId: number;
}

/** An entity that left or timed out, as listed under the live table. */
export interface GoneEntity {
  readonly how: 'left' | 'timed out';
  /** `site:application:entity`. */
  readonly id: string;
  /** As received (not yet made printable). */
  readonly marking: string;
  readonly timeSeconds: number;
}

/**
 * Per-entity counts kept from the events (the frames carry the rest), and the leaves and timeouts. Holds only
 * entities still present: an entity that leaves or times out is forgotten (so the list is as bounded as the table).
 */
export class EntityList {
  private readonly byKey = new Map<number, Seen>();
  /** Appearances so far (an entity that comes back counts again). */
  seen = 0;
  /** Entities that announced they left (IEEE 1278.1 appearance State = Deactivated). */
  left = 0;
  /** Entities dropped after falling silent. */
  timedOut = 0;
  /** The last few leaves and timeouts, newest last. */
  readonly recentGone: GoneEntity[] = [];
  /** Shots, detonations and collisions seen. */
  fires = 0;
  detonations = 0;
  collisions = 0;
  /** What happened lately, for the lines under the live table: engagements, freezes, leaves (newest last). */
  readonly recent = new RecentEvents();

  /** Entities seen: appearances, so that the count stays right once gone entities are forgotten. */
  get size(): number {
    return this.seen;
  }

  /** A shot, detonation or collision: counted and listed. */
  applyEngagement(event: EngagementEvent): void {
    if (event.type === 'fire') this.fires++;
    else if (event.type === 'detonation') this.detonations++;
    else this.collisions++;
    this.recent.engagement(event);
  }

  apply(event: EntityEvent): void {
    if (event.type === 'frozen' || event.type === 'resumed') {
      this.recent.entity(event);
      return;
    }
    if (event.type === 'appeared' || event.type === 'updated') {
      let entity = this.byKey.get(event.key);
      if (!entity) {
        entity = { pdus: 0, firstSeconds: event.timeSeconds, forceId: 0 };
        this.byKey.set(event.key, entity);
      }
      if (event.type === 'appeared') this.seen++;
      entity.pdus++;
      entity.forceId = event.state.forceId;
      return;
    }
    this.byKey.delete(event.key);
    if (event.type === 'removed') this.left++;
    else this.timedOut++;
    const { site, application, entity } = event.entityId;
    const gone: GoneEntity = {
      how: event.type === 'removed' ? 'left' : 'timed out',
      id: `${site}:${application}:${entity}`,
      marking: event.marking,
      timeSeconds: event.timeSeconds,
    };
    this.recentGone.push(gone);
    if (this.recentGone.length > RECENT_GONE) this.recentGone.shift();
    this.recent.add(goneText(gone), gone.timeSeconds);
  }

  pdus(key: number): number {
    return this.byKey.get(key)?.pdus ?? 0;
  }

  /**
   * PDUs per second since the entity's first PDU, that one not counted: an entity sending every P seconds shows
   * about 1/P, one that falls silent shows a falling rate, and a burst at appearance does not show as hundreds per
   * second. NaN during the first second.
   * @param nowSeconds - scheduler time, seconds (the frame's).
   */
  pduRatePerSecond(key: number, nowSeconds: number): number {
    const e = this.byKey.get(key);
    const seconds = e ? nowSeconds - e.firstSeconds : NaN;
    return e && seconds >= 1 ? (e.pdus - 1) / seconds : NaN;
  }

  /** Force ID of the last PDU (SISO-REF-010 UID 4: 0 other, 1 friendly, 2 opposing, 3 neutral, 4 friendly 2, …). */
  forceId(key: number): number {
    return this.byKey.get(key)?.forceId ?? 0;
  }
}

/**
 * Force ID of the Entity State PDU (SISO-REF-010 UID 4): 0 other, then friendly, opposing, neutral in turn
 * (1–3, then 4–6 as "friendly 2" …), each side with its colour (SGR code: blue, red, green).
 */
const SIDES = [
  { name: 'friendly', sgr: '34' },
  { name: 'opposing', sgr: '31' },
  { name: 'neutral', sgr: '32' },
] as const;

function forceName(forceId: number): string {
  if (forceId === 0) return 'other';
  const group = Math.floor((forceId - 1) / 3) + 1;
  return `${SIDES[(forceId - 1) % 3]!.name}${group > 1 ? ` ${group}` : ''}`;
}

function forceSgr(forceId: number): string {
  return forceId === 0 ? '' : SIDES[(forceId - 1) % 3]!.sgr;
}

/** Columns of the live table; `dropRank` says which go first on a narrow screen. */
function columns(color: boolean, forces: readonly number[]): FitColumn[] {
  return [
    { title: 'entity' },
    // A marking tells apart what the type does not (seven T-80s): the type is shortened first.
    { title: 'marking', minWidth: 7, shrinkRank: 2 },
    { title: 'type', minWidth: 8, shrinkRank: 1 },
    {
      title: 'force',
      dropRank: 8,
      style: color ? (text, row) => colored(text, forceSgr(forces[row]!)) : undefined,
    },
    // Frozen by a Stop/Freeze PDU, and the damage: kept over the columns of motion (an empty one goes first).
    { title: 'state', dropRank: 9 },
    { title: 'DR', dropRank: 3 },
    { title: 'position (displayed)' },
    { title: 'heading', align: 'right', dropRank: 6 },
    { title: 'speed', align: 'right', dropRank: 7 },
    { title: 'rate', align: 'right', dropRank: 4 },
    { title: 'PDUs', align: 'right', dropRank: 1 },
    { title: 'last PDU', align: 'right', dropRank: 5 },
  ];
}

function colored(text: string, sgr: string): string {
  return sgr === '' ? text : `\x1b[${sgr}m${text}\x1b[0m`;
}

const geo = new Float64Array(3);
const hpr = new Float64Array(3);
const DEG = 180 / Math.PI;

interface Rows {
  rows: string[][];
  forces: number[];
  more: number;
}

/** Up to `max` rows (printable text); the other entities are counted in `more`. */
function rows(frame: EntityFrame, entities: EntityList, max: number): Rows {
  const out: string[][] = [];
  const forces: number[] = [];
  let more = 0;
  const t = frame.table;
  for (let slot = 0; slot < frame.slotCount; slot++) {
    if (frame.active[slot] !== 1) continue;
    if (out.length >= max) {
      more++;
      continue;
    }
    const j = 3 * slot,
      v = t.store.velocity,
      o = frame.orientation,
      key = frame.key[slot]!;
    ecefToGeodetic(geo, frame.location[j]!, frame.location[j + 1]!, frame.location[j + 2]!);
    headingPitchRollFromEuler(hpr, geo[0]!, geo[1]!, o[j]!, o[j + 1]!, o[j + 2]!);
    // Rounded before wrapping, so 359.7° shows as 0°, not 360°.
    const headingDeg = ((Math.round(hpr[0]! * DEG) % 360) + 360) % 360;
    const rate = entities.pduRatePerSecond(key, frame.timeSeconds);
    const e = 7 * slot,
      type = frame.entityType;
    const names = entityTypeNameOf(
      type[e]!,
      type[e + 1]!,
      type[e + 2]!,
      type[e + 3]!,
      type[e + 4]!,
      type[e + 5]!,
      type[e + 6]!,
    );
    const damage = appearanceDamage(type[e]!, type[e + 1]!, type[e + 3]!, t.appearance[slot]!);
    // A Stop/Freeze PDU holds it: no dead reckoning until Start/Resume.
    const state = [frame.frozen[slot] === 1 ? 'frozen' : '', damage === undefined ? '' : damage.toLowerCase()];
    forces.push(entities.forceId(key));
    out.push([
      `${frame.entityId[j]}:${frame.entityId[j + 1]}:${frame.entityId[j + 2]}`,
      printable(markingAt(frame, slot)) || '–',
      names.label,
      forceName(entities.forceId(key)),
      state.filter((part) => part !== '').join(', '),
      DR_ALGORITHM_NAMES[frame.algorithm[slot]!] ?? String(frame.algorithm[slot]),
      formatLatLonAlt(geo[0]! * DEG, geo[1]! * DEG, geo[2]!),
      Number.isFinite(headingDeg) ? `${headingDeg}°` : '–',
      `${Math.hypot(v[j]!, v[j + 1]!, v[j + 2]!).toFixed(1)} m/s`,
      Number.isFinite(rate) ? `${rate.toFixed(2)}/s` : '–',
      String(entities.pdus(key)),
      `${Math.max(0, frame.timeSeconds - t.arrivalSeconds[slot]!).toFixed(1)} s ago`,
    ]);
  }
  return { rows: out, forces, more };
}

/** `2 left, 1 timed out`, or '' when none did. */
function goneCounts(entities: EntityList): string {
  const parts = [
    ...(entities.left > 0 ? [`${entities.left} left`] : []),
    ...(entities.timedOut > 0 ? [`${entities.timedOut} timed out`] : []),
  ];
  return parts.join(', ');
}

function goneText(gone: GoneEntity): string {
  const marking = gone.marking === '' ? '' : ` ${printable(gone.marking)}`;
  return `${gone.how} ${gone.id}${marking}`;
}

function goneLine(gone: GoneEntity, nowSeconds: number): string {
  return `${goneText(gone)} ${Math.max(0, nowSeconds - gone.timeSeconds).toFixed(0)} s ago`;
}

/** `1 fire, 1 detonation`, or '' when none came. */
function engagementCounts(entities: EntityList): string {
  const parts = [
    ...(entities.fires > 0 ? [`${entities.fires} fire${entities.fires === 1 ? '' : 's'}`] : []),
    ...(entities.detonations > 0 ? [`${entities.detonations} detonation${entities.detonations === 1 ? '' : 's'}`] : []),
    ...(entities.collisions > 0 ? [`${entities.collisions} collision${entities.collisions === 1 ? '' : 's'}`] : []),
  ];
  return parts.join(', ');
}

/**
 * The live table, fitted to `size` (columns dropped or shortened by priority, rows beyond the height counted as
 * "… and N more"), with the leaves and timeouts and the receive counters under it.
 * @param color - colour the force column. Defaults to `tty`.
 */
export function subscribeLiveLines(
  frame: EntityFrame,
  entities: EntityList,
  stats: SubscriberStats,
  tty: boolean,
  size: TerminalSize = { columns: Number.POSITIVE_INFINITY, rows: Number.POSITIVE_INFINITY },
  color = tty,
): string[] {
  const s = styles(tty, color);
  const x = stats.transport;
  const gone = goneCounts(entities);
  const shots = engagementCounts(entities);
  const title = s.bold(`${frame.entityCount} remote entities${gone ? ` · ${gone}` : ''}${shots ? ` · ${shots}` : ''}`);
  const status = s.dim(
    `${formatCount(x.datagramsIn, 'datagram')}, ${formatCount(x.pdusAccepted, 'PDU')} accepted${formatRejections(x.rejected)} · Ctrl-C to stop`,
  );
  // Title, header and status always; then what happened lately while at least 3 entity rows still fit.
  const events = entities.recent.all;
  const recentCount = Math.max(0, Math.min(events.length, size.rows - 3 - 3));
  const recent = recentCount > 0 ? events.slice(-recentCount) : [];
  const fixed = 3 + recent.length;
  const room = Math.max(1, size.rows - fixed);
  // One line goes to "… and N more" when not every entity fits.
  const max = frame.entityCount <= room ? room : room - 1;
  const body = rows(frame, entities, Math.max(0, max));
  const [header, ...lines] = formatFittedTable(columns(color, body.forces), body.rows, size.columns);
  return [
    title,
    s.bold(header!),
    ...lines,
    ...(body.more > 0 ? [s.dim(`… and ${body.more} more`)] : []),
    ...recent.map((line) => s.dim(recentLine(line, frame.timeSeconds))),
    status,
  ];
}

/** One plain line per entity, for logs, then the leaves and timeouts since the last lines. */
export function subscribePlainLines(frame: EntityFrame, entities: EntityList): string[] {
  const { rows: body, more } = rows(frame, entities, MAX_PLAIN_ROWS);
  const lines = body.map(
    (r) =>
      `subscribe: ${r[0]} ${r[1]} ${r[3]} type="${r[2]}"${r[4] ? ` state="${r[4]}"` : ''} DR=${r[5]} ${r[6]} ` +
      `heading=${r[7]} ${r[8]} rate=${r[9]} pdus=${r[10]} last=${r[11]}`,
  );
  const gone = goneCounts(entities);
  const recent = entities.recentGone.map((g) => goneLine(g, frame.timeSeconds)).join('; ');
  return [
    ...(lines.length > 0 ? lines : ['subscribe: no entities yet']),
    ...(more > 0 ? [`subscribe: … and ${more} more`] : []),
    ...(gone ? [`subscribe: ${gone}${recent ? `; last ${recent}` : ''}`] : []),
  ];
}
