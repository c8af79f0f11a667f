/**
 * NATS subjects of DIS traffic (docs/nats.md):
 *
 * - Entity State (type 1) and Entity State Update (type 67) PDUs: `PREFIX.EXERCISE.CELL.KIND.DOMAIN`, where CELL is
 *   the H3 cell (hex index, e.g. `851f9d2ffffffff`) of the entity's location at the configured resolution, and KIND
 *   and DOMAIN are the first two fields of its entity type (IEEE 1278.1 §6.2.30). An Update PDU carries no entity
 *   type: it takes the kind and domain of the entity's last full PDU seen by the same publisher, else `0.0`.
 * - Every other PDU, and an Entity State PDU whose location is not a point near the Earth:
 *   `PREFIX.EXERCISE.all.TYPE` (TYPE the PDU type number), so a receiver of one exercise takes them with
 *   `PREFIX.EXERCISE.all.>`.
 *
 * Subject tokens never need escaping: cells are hex, the rest are decimal numbers.
 */
import { latLngToCell } from 'h3-js';
import { ecefToGeodetic } from '../math/geodesy.js';
import { EntityStateOffset, EntityStateUpdateOffset, HeaderOffset, PduType } from '../pdu/constants.js';

/** The CELL token of PDUs that are not routed by position. */
export const GLOBAL_TOKEN = 'all';
/** Header on a copy of an Entity State PDU sent to the cell its entity has just left (docs/nats.md). */
export const LEFT_CELL_HEADER = 'Reckon-Left-Cell';
/** Header on that copy naming the cell the entity is now in, so a receiver of both cells ignores the copy. */
export const NEW_CELL_HEADER = 'Reckon-Cell';

const RAD_TO_DEG = 180 / Math.PI;
/** Locations further than this from the Earth's centre are not routed by cell (geostationary orbit is 4.2e7 m). */
const MAX_ROUTED_RADIUS_M = 5e7;
/** Below this the location is not a point on or above the Earth (e.g. all zeros: unset). */
const MIN_ROUTED_RADIUS_M = 6.0e6;

/** Where one PDU goes. */
export interface PduRoute {
  /** Its subject. */
  subject: string;
  /** H3 cell of an Entity State (Update) PDU routed by position, else undefined. */
  cell: string | undefined;
  /** Entity key (site·2³² + application·2¹⁶ + entity) of an Entity State (Update) PDU, else -1. */
  entityKey: number;
}

/** Computes subjects; keeps scratch memory so that reading a location allocates nothing. */
export class SubjectRouter {
  private readonly scratch = new Uint8Array(24);
  private readonly view = new DataView(this.scratch.buffer);
  private readonly geodetic = new Float64Array(3);
  /** Kind·256 + domain of each entity seen in a full Entity State PDU, for its Update PDUs. Bounded. */
  private readonly kindDomain = new Map<number, number>();

  /**
   * @param prefix - first subject tokens, e.g. `dis`.
   * @param resolution - H3 resolution 0–15.
   * @param maxEntities - most entities whose kind and domain are remembered. Defaults to 1 048 576.
   */
  constructor(
    readonly prefix: string,
    readonly resolution: number,
    private readonly maxEntities = 1 << 20,
  ) {}

  /** `PREFIX.EXERCISE.all.TYPE`. */
  globalSubject(exercise: number, pduType: number): string {
    return `${this.prefix}.${exercise}.${GLOBAL_TOKEN}.${pduType}`;
  }

  /** `PREFIX.EXERCISE.CELL.KIND.DOMAIN`. */
  cellSubject(exercise: number, cell: string, kind: number, domain: number): string {
    return `${this.prefix}.${exercise}.${cell}.${kind}.${domain}`;
  }

  /**
   * The route of the PDU at `bytes[offset, offset + length)` (a whole PDU, its Length checked by the caller).
   * @param out - receives the route.
   */
  route(bytes: Uint8Array, offset: number, length: number, out: PduRoute): PduRoute {
    const type = bytes[offset + HeaderOffset.PDU_TYPE]!;
    const exercise = bytes[offset + HeaderOffset.EXERCISE_ID]!;
    out.cell = undefined;
    out.entityKey = -1;
    const isState = type === PduType.ENTITY_STATE && length >= EntityStateOffset.PARAMETERS;
    const isUpdate = type === PduType.ENTITY_STATE_UPDATE && length >= EntityStateUpdateOffset.PARAMETERS;
    if (!isState && !isUpdate) {
      out.subject = this.globalSubject(exercise, type);
      return out;
    }
    const id = offset + EntityStateOffset.ENTITY_ID;
    const key =
      ((bytes[id]! << 8) | bytes[id + 1]!) * 2 ** 32 +
      ((bytes[id + 2]! << 8) | bytes[id + 3]!) * 2 ** 16 +
      ((bytes[id + 4]! << 8) | bytes[id + 5]!);
    out.entityKey = key;
    let kindDomain: number;
    if (isState) {
      kindDomain = (bytes[offset + EntityStateOffset.ENTITY_TYPE]! << 8) | bytes[offset + EntityStateOffset.ENTITY_TYPE + 1]!;
      if (this.kindDomain.get(key) !== kindDomain) this.remember(key, kindDomain);
    } else {
      kindDomain = this.kindDomain.get(key) ?? 0;
    }
    const cell = this.cellAt(bytes, offset + (isState ? EntityStateOffset.LOCATION : EntityStateUpdateOffset.LOCATION));
    if (cell === undefined) {
      out.subject = this.globalSubject(exercise, type);
      return out;
    }
    out.cell = cell;
    out.subject = this.cellSubject(exercise, cell, kindDomain >> 8, kindDomain & 0xff);
    return out;
  }

  /** The H3 cell of the ECEF location (three big-endian float64) at `bytes[at]`, or undefined if it has none. */
  cellAt(bytes: Uint8Array, at: number): string | undefined {
    const scratch = this.scratch;
    for (let i = 0; i < 24; i++) scratch[i] = bytes[at + i]!;
    const x = this.view.getFloat64(0), y = this.view.getFloat64(8), z = this.view.getFloat64(16);
    const radius = Math.hypot(x, y, z);
    // NaN fails both comparisons too.
    if (!(radius >= MIN_ROUTED_RADIUS_M && radius <= MAX_ROUTED_RADIUS_M)) return undefined;
    const g = ecefToGeodetic(this.geodetic, x, y, z);
    return latLngToCell(g[0]! * RAD_TO_DEG, g[1]! * RAD_TO_DEG, this.resolution);
  }

  private remember(key: number, kindDomain: number): void {
    if (!this.kindDomain.has(key) && this.kindDomain.size >= this.maxEntities) {
      // Forget the entity seen first: a Map iterates in insertion order.
      const oldest = this.kindDomain.keys().next().value;
      if (oldest !== undefined) this.kindDomain.delete(oldest);
    }
    this.kindDomain.set(key, kindDomain);
  }
}

/** A fresh route to pass to `SubjectRouter.route`. */
export function createRoute(): PduRoute {
  return { subject: '', cell: undefined, entityKey: -1 };
}

/** The CELL token of a subject `PREFIX.EXERCISE.CELL.…` (prefix of `prefixTokens` tokens), else undefined. */
export function cellOfSubject(subject: string, prefixTokens: number): string | undefined {
  const tokens = subject.split('.');
  const cell = tokens[prefixTokens + 1];
  return cell === undefined || cell === GLOBAL_TOKEN ? undefined : cell;
}

/** Hides the user name, password or token in a server URL (`nats://u:p@host` → `nats://***@host`). */
export function redactUrl(url: string): string {
  return url.replace(/^((?:[a-z]+:\/\/)?)[^@/]*@/i, '$1***@');
}
