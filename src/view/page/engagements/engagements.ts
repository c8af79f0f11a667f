/**
 * The page's model of what happens between entities, free of DOM and WebGL (tests run it as is): shots drawn as a
 * line from the shooter to its target (or to where the shot went off), detonations as bursts coloured by their
 * result, collisions as markers, each fading out over `FADE_SECONDS`; what Remove Entity, Stop/Freeze and
 * Start/Resume do to the page's table; each entity's radios, and its last shots for the detail panel. Fed by the
 * gateway's text messages (src/view/engagement-messages.ts). Time is a parameter (server-clock seconds).
 */
import { entityKey } from '../../../pdu/wire/entity-state-record.js';
import { addressedSlots } from '../../../dr/receiver/addressed-slots.js';
import { FreezeOrders } from '../../../dr/receiver/freeze-orders.js';
import type {
  CollisionMessage,
  DetonationMessage,
  EngagementMessage,
  FireMessage,
  GeoPoint,
  RadioMessage,
} from '../../engagement-messages.js';
import { nearLongitude, type PageEntities } from '../entities.js';

/** Seconds a shot, a burst or a collision stays on the map, fading out. */
export const FADE_SECONDS = 8;
/** Shots, bursts and collisions kept on the map; the oldest go first. */
export const MAX_ON_MAP = 512;
/** Engagement lines kept per entity for its detail panel. */
export const HISTORY_PER_ENTITY = 10;
/** Entities whose history is kept. */
const MAX_HISTORIES = 4096;
/** Freezes in force kept, as the gateway keeps them (src/view/engagement-feed.ts). */
const MAX_FREEZES = 64;

/** The server messages this model takes. */
const TYPES = new Set(['fire', 'detonation', 'collision', 'entity-control', 'radio']);

/** Whether a server message is one of src/view/engagement-messages.ts (its fields are checked on use). */
export function isEngagementMessage(message: { readonly type: string }): message is EngagementMessage {
  return TYPES.has(message.type);
}

type Rgba = [number, number, number, number];

/** Burst colour by detonation result (SISO-REF-010 UID 62). */
export function resultColour(result: number): Rgba {
  if (result === 1 || result === 2 || (result >= 7 && result <= 9) || result === 17) return [255, 60, 60, 255]; // hit
  if (result === 3 || result === 4) return [255, 170, 40, 255]; // ground impact
  if (result === 5) return [255, 235, 80, 255]; // detonation
  if (result === 6) return [160, 160, 160, 255]; // none (dud)
  return [200, 120, 255, 255]; // other
}

interface Shot {
  readonly message: FireMessage;
  readonly timeSeconds: number;
}

interface Burst {
  readonly message: DetonationMessage;
  readonly timeSeconds: number;
}

interface Crash {
  readonly message: CollisionMessage;
  readonly timeSeconds: number;
  /** Where it was drawn when it came in: [lon, lat] (the issuing entity then, plus the offset). */
  readonly at: [number, number] | null;
}

/** What the map draws at one time, in plain arrays deck.gl layers take as data. */
export interface EngagementPicture {
  /** [fromLon, fromLat, toLon, toLat, alpha 0–1, highlighted 0/1] per shot. */
  readonly shots: number[][];
  /** [lon, lat, alpha, result] per burst. */
  readonly bursts: number[][];
  /** [lon, lat, alpha] per collision. */
  readonly collisions: number[][];
}

const NOTHING: EngagementPicture = { shots: [], bursts: [], collisions: [] };

const keyOf = (id: string): number => {
  const [site, application, entity] = id.split(':').map(Number);
  return entityKey(site!, application!, entity!);
};

const TRANSMIT_STATES = ['off', 'on', 'transmitting'];

/** "Radio 1: 72.275 MHz, 1.0 dBm, on". */
export function radioText(radio: RadioMessage): string {
  const mhz = radio.frequencyHz / 1e6;
  const frequency =
    radio.transmitState < 0 ? 'no Transmitter PDU yet' : `${+mhz.toFixed(6)} MHz, ${radio.powerDbm.toFixed(1)} dBm`;
  const state = radio.transmitting
    ? 'transmitting'
    : (TRANSMIT_STATES[radio.transmitState] ?? (radio.transmitState < 0 ? 'unknown' : `state ${radio.transmitState}`));
  return `Radio ${radio.radioId}: ${frequency}, ${state}${radio.signals > 0 ? ` (${radio.signals} signal${radio.signals === 1 ? '' : 's'})` : ''}`;
}

export class PageEngagements {
  private shots: Shot[] = [];
  private bursts: Burst[] = [];
  private crashes: Crash[] = [];
  /** Radios by entity id, each by radio number. */
  readonly radios = new Map<string, Map<number, RadioMessage>>();
  /** The last engagements each entity took part in, newest first, as text. */
  private readonly history = new Map<string, string[]>();
  /** Messages with fields missing or of the wrong type (ignored). */
  invalid = 0;
  /** Stop/Freeze and Start/Resume orders in force: they hold entities that arrive later too. */
  private readonly orders = new FreezeOrders(MAX_FREEZES);

  /** Takes one engagement message; entity control acts on `entities`' table at once. */
  onMessage(message: EngagementMessage, entities: PageEntities, nowSeconds: number): void {
    if (!valid(message)) {
      this.invalid++;
      return;
    }
    switch (message.type) {
      case 'fire':
        this.push(this.shots, { message, timeSeconds: message.serverTimeMs / 1000 });
        this.remember(message.shooter, `fired ${message.munition} at ${message.target ?? 'an unknown target'}`);
        if (message.target !== null)
          this.remember(message.target, `fired at by ${message.shooter}: ${message.munition}`);
        break;
      case 'detonation':
        this.push(this.bursts, { message, timeSeconds: message.serverTimeMs / 1000 });
        this.remember(message.shooter, `${message.munition}: ${message.resultName}`);
        if (message.target !== null) this.remember(message.target, `hit by ${message.shooter}: ${message.resultName}`);
        break;
      case 'collision': {
        this.push(this.crashes, {
          message,
          timeSeconds: message.serverTimeMs / 1000,
          at: this.where(message, entities),
        });
        this.remember(message.issuing, `collided with ${message.colliding ?? 'something not an entity'}`);
        if (message.colliding !== null) this.remember(message.colliding, `collided with ${message.issuing}`);
        break;
      }
      case 'entity-control': {
        const table = entities.table;
        for (const slot of addressedSlots(table, message.exercise, message.receiving)) {
          if (message.action === 'remove') table.remove(table.key[slot]!);
          else if (message.action === 'freeze') table.freeze(slot, message.atMs / 1000);
          else table.resume(slot, message.atMs / 1000);
        }
        if (message.action !== 'remove') {
          const { exercise, receiving, atMs } = message;
          this.orders.add({ freeze: message.action === 'freeze', exercise, receiving, atSeconds: atMs / 1000 });
        }
        break;
      }
      case 'radio': {
        let radios = this.radios.get(message.entity);
        if (radios === undefined) {
          if (this.radios.size >= MAX_HISTORIES) break;
          this.radios.set(message.entity, (radios = new Map()));
        }
        radios.set(message.radioId, message);
        break;
      }
    }
    this.expire(nowSeconds);
  }

  /** Forgets everything (a new server's hello: it sends its radios and freezes again). */
  clear(): void {
    this.shots = [];
    this.bursts = [];
    this.crashes = [];
    this.orders.clear();
    this.radios.clear();
    this.history.clear();
  }

  /**
   * Holds the entities that came after a freeze in force (a page connecting during a freeze, a snapshot after a
   * filter change) from their arrival, as the gateway does not time them out. Per frame; nothing allocated.
   */
  holdArrivals(entities: PageEntities): void {
    const orders = this.orders;
    if (orders.orders.length === 0) return;
    const t = entities.table,
      ids = t.entityId;
    for (let slot = 0; slot < t.highWater; slot++) {
      if (t.active[slot] !== 1 || t.frozen[slot] === 1) continue;
      const s3 = 3 * slot;
      const from = orders.heldFrom(t.exerciseId[slot]!, ids[s3]!, ids[s3 + 1]!, ids[s3 + 2]!);
      if (!Number.isNaN(from)) t.freeze(slot, Math.max(from, t.arrivalSeconds[slot]!));
    }
  }

  /** How many shots, bursts and collisions are drawn at `nowSeconds`, and how many entities have radios. */
  counts(
    entities: PageEntities,
    nowSeconds: number,
  ): { shots: number; bursts: number; collisions: number; radios: number } {
    const p = this.picture(entities, nowSeconds, null);
    return {
      shots: p.shots.length,
      bursts: p.bursts.length,
      collisions: p.collisions.length,
      radios: this.radios.size,
    };
  }

  /** The engagements `id` took part in lately, newest first. */
  historyOf(id: string): readonly string[] {
    return this.history.get(id) ?? [];
  }

  /** The radios of `id`, by radio number. */
  radiosOf(id: string): RadioMessage[] {
    return [...(this.radios.get(id)?.values() ?? [])].sort((a, b) => a.radioId - b.radioId);
  }

  /** What to draw at `nowSeconds` (after `entities.frame`): shots from where their shooter is shown. */
  picture(entities: PageEntities, nowSeconds: number, selectedId: string | null): EngagementPicture {
    this.expire(nowSeconds);
    if (this.shots.length === 0 && this.bursts.length === 0 && this.crashes.length === 0) return NOTHING;
    const alpha = (t: number) => Math.max(0, Math.min(1, 1 - (nowSeconds - t) / FADE_SECONDS));
    const reference = entities.referenceLonDeg;
    const shots = this.shots.map(({ message: m, timeSeconds }) => {
      const from = this.shownAt(entities, m.shooter) ?? [m.from[0], m.from[1]];
      const burst = this.bursts.find((b) => b.message.event === m.event);
      const to =
        (m.target !== null ? this.shownAt(entities, m.target) : null) ??
        (burst ? [burst.message.at[0], burst.message.at[1]] : from);
      const highlighted = selectedId !== null && (m.shooter === selectedId || m.target === selectedId) ? 1 : 0;
      return [
        nearLongitude(from[0]!, reference),
        from[1]!,
        nearLongitude(to[0]!, reference),
        to[1]!,
        alpha(timeSeconds),
        highlighted,
      ];
    });
    const bursts = this.bursts.map(({ message: m, timeSeconds }) => [
      nearLongitude(m.at[0], reference),
      m.at[1],
      alpha(timeSeconds),
      m.result,
    ]);
    const collisions = this.crashes
      .filter((c) => c.at !== null)
      .map(({ at, timeSeconds }) => [nearLongitude(at![0], reference), at![1], alpha(timeSeconds)]);
    return { shots, bursts, collisions };
  }

  /** Forgets what has faded. */
  private expire(nowSeconds: number): void {
    const stale = (item: { timeSeconds: number }) => nowSeconds - item.timeSeconds >= FADE_SECONDS;
    const fresh = <T extends { timeSeconds: number }>(items: T[]) =>
      items.some(stale) ? items.filter((item) => !stale(item)) : items;
    this.shots = fresh(this.shots);
    this.bursts = fresh(this.bursts);
    this.crashes = fresh(this.crashes);
  }

  private push<T>(items: T[], item: T): void {
    items.push(item);
    if (items.length > MAX_ON_MAP) items.shift();
  }

  private remember(id: string, text: string): void {
    let lines = this.history.get(id);
    if (lines === undefined) {
      if (this.history.size >= MAX_HISTORIES) this.history.delete(this.history.keys().next().value!);
      this.history.set(id, (lines = []));
    }
    lines.unshift(text);
    if (lines.length > HISTORY_PER_ENTITY) lines.pop();
  }

  /** Where the page shows an entity now: [lon, lat, height, heading°], or null when it does not hold it. */
  private shownAt(entities: PageEntities, id: string): Float64Array | null {
    const slot = entities.table.slotOf(keyOf(id));
    if (slot < 0) return null;
    return entities.placeOf(slot, new Float64Array(4));
  }

  /** A collision's place: the issuing entity as shown, moved by the offset turned by its heading (flat, metres). */
  private where(message: CollisionMessage, entities: PageEntities): [number, number] | null {
    const at = this.shownAt(entities, message.issuing);
    if (at === null) return null;
    const heading = (at[3]! * Math.PI) / 180;
    const [forward, right] = message.offset;
    const north = forward * Math.cos(heading) - right * Math.sin(heading);
    const east = forward * Math.sin(heading) + right * Math.cos(heading);
    const metresPerDegree = 111_320;
    return [at[0]! + east / (metresPerDegree * Math.cos((at[1]! * Math.PI) / 180)), at[1]! + north / metresPerDegree];
  }
}

const isPoint = (p: unknown): p is GeoPoint =>
  Array.isArray(p) && p.length === 3 && p.every((v) => typeof v === 'number' && Number.isFinite(v));
const isId = (v: unknown): v is string => typeof v === 'string' && /^\d{1,5}:\d{1,5}:\d{1,5}$/.test(v);
const isIdOrNull = (v: unknown): boolean => v === null || isId(v);

/** The fields the page reads are there and of the right type (a message from a newer or broken server is ignored). */
function valid(m: EngagementMessage): boolean {
  if (typeof m.serverTimeMs !== 'number' || !Number.isFinite(m.serverTimeMs)) return false;
  switch (m.type) {
    case 'fire':
      return isId(m.shooter) && isIdOrNull(m.target) && isPoint(m.from) && typeof m.munition === 'string';
    case 'detonation':
      return isId(m.shooter) && isIdOrNull(m.target) && isPoint(m.at) && typeof m.resultName === 'string';
    case 'collision':
      return isId(m.issuing) && isIdOrNull(m.colliding) && isPoint(m.offset as unknown as GeoPoint);
    case 'entity-control':
      return (
        (m.action === 'remove' || m.action === 'freeze' || m.action === 'resume') &&
        Number.isFinite(m.atMs) &&
        Number.isInteger(m.exercise) &&
        typeof m.receiving === 'object' &&
        m.receiving !== null &&
        [m.receiving.site, m.receiving.application, m.receiving.entity].every((v) => Number.isInteger(v))
      );
    case 'radio':
      return isId(m.entity) && Number.isInteger(m.radioId) && typeof m.transmitting === 'boolean';
    default:
      return false;
  }
}
