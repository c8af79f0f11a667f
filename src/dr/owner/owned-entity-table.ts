/**
 * The owner's table of local entities: an `EmitterBank` (truth in, decisions, the sent models) with each entity's
 * identity (site, application, entity, force, type, marking) and the PDU header (exercise, version, timestamps) as
 * struct-of-arrays, so that a pass over many entities writes its Entity State PDUs straight into the caller's
 * datagram (`PduSink`, e.g. a `PduBundler`) through one reused record: nothing is allocated per entity or per PDU.
 * Nothing here knows sockets or clocks: time is a parameter.
 */
import { APPEARANCE_DEACTIVATED, isDeactivated } from '../models/algorithm.js';
import { EMIT_REASON_NAMES } from './emitter.js';
import { EmitterBank, type BankAttitude, type BankTruth } from './emitter-bank.js';
import { ENTITY_STATE_BYTES } from '../../pdu/wire/constants.js';
import { encodeEntityStateInto } from '../../pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';
import { codecStatusMessage } from '../../pdu/wire/status.js';
import { advanceTimestamp, isNewerTimestamp, timestampFromSeconds } from '../../pdu/wire/timestamp.js';

/** Where PDUs go: a `PduBundler`, or a stand-in with its `claim` and `buffer`. */
export interface PduSink {
  /** Reserves `length` bytes in `buffer` and returns their offset (read `buffer` after the call). */
  claim(length: number): number;
  readonly buffer: Uint8Array;
}

/** Counters of a table, updated in place. */
export interface OwnedEntityStats {
  /** PDUs written, and their bytes. */
  pdus: number;
  bytes: number;
  /** PDUs by reason, indexed as EMIT_REASON_NAMES (a PDU may have several). */
  readonly reasons: Float64Array;
}

/** Zeroed counters for an `OwnedEntityTable`. */
export function createOwnedEntityStats(): OwnedEntityStats {
  return { pdus: 0, bytes: 0, reasons: new Float64Array(EMIT_REASON_NAMES.length) };
}

/** Who an entity is, as its PDUs say. */
export interface OwnedEntityIdentity {
  readonly site: number;
  readonly application: number;
  /** Entity number, 1–65534. */
  readonly entity: number;
  /** 0 other, 1 friendly, 2 opposing, 3 neutral. Defaults to 1. */
  readonly forceId?: number;
  /** Kind, domain, country, category, subcategory, specific, extra. Defaults to a platform (kind 1), all else 0. */
  readonly entityType?: ArrayLike<number>;
  /** Up to 11 ASCII characters (more are cut off). Defaults to none. */
  readonly marking?: string;
}

/** Options of an `OwnedEntityTable`. */
export interface OwnedEntityTableOptions {
  /** Entities held; `grow` makes room for more. */
  readonly capacity: number;
  /** How the truth's attitude is given (`EmitterBankOptions.attitude`). Defaults to 'angles'. */
  readonly attitude?: BankAttitude;
  /** Exercise id of every PDU. Defaults to 1. */
  readonly exercise?: number;
  /** Protocol version of every PDU. Defaults to 7. */
  readonly protocolVersion?: number;
  /** Stamp PDUs absolute (times are then Unix epoch seconds, UTC). Defaults to false (relative). */
  readonly absoluteTimestamps?: boolean;
  /** Counters to update. Defaults to new ones. */
  readonly stats?: OwnedEntityStats;
}

/** Bytes per entity in `marking`: the character set, then 11 characters. */
const MARKING_STRIDE = 12;

/** An owner's local entities: identities, decisions and their Entity State PDUs written into a `PduSink`. */
export class OwnedEntityTable {
  readonly bank: EmitterBank;
  readonly stats: OwnedEntityStats;
  readonly absoluteTimestamps: boolean;
  /** Site, application, entity of each entity (3 per entity). */
  entityId!: Uint16Array;
  forceId!: Uint8Array;
  /** 7 per entity. */
  entityType!: Uint16Array;
  /** Per entity: the marking's character set, then its 11 characters (zero-filled). */
  marking!: Uint8Array;
  /** The timestamp of each entity's last PDU (raw field). */
  timestampRaw!: Uint32Array;
  /** The one record every PDU is written through. */
  private readonly record = new EntityStateRecord(0);

  constructor(options: OwnedEntityTableOptions) {
    this.bank = new EmitterBank({ capacity: 0, attitude: options.attitude ?? 'angles' });
    this.stats = options.stats ?? createOwnedEntityStats();
    this.absoluteTimestamps = options.absoluteTimestamps ?? false;
    const r = this.record;
    r.protocolVersion = options.protocolVersion ?? 7;
    r.exerciseId = options.exercise ?? 1;
    r.length = ENTITY_STATE_BYTES; // no variable parameter records
    this.grow(options.capacity);
  }

  get capacity(): number {
    return this.bank.capacity;
  }

  /** The truth of every entity, to be written before each pass (replaced by `grow`: read it after growing). */
  get truth(): BankTruth {
    return this.bank.truth;
  }

  /** Makes room for `capacity` entities, keeping every entity (the arrays, `truth` included, are replaced). */
  grow(capacity: number): void {
    const old = this.bank.capacity;
    if (capacity <= old && this.entityId !== undefined) return;
    this.bank.grow(capacity);
    const keep = <T extends Uint8Array | Uint16Array | Uint32Array>(array: T | undefined, made: T): T => {
      if (array !== undefined) made.set(array);
      return made;
    };
    this.entityId = keep(this.entityId, new Uint16Array(3 * capacity));
    this.forceId = keep(this.forceId, new Uint8Array(capacity));
    this.entityType = keep(this.entityType, new Uint16Array(7 * capacity));
    this.marking = keep(this.marking, new Uint8Array(MARKING_STRIDE * capacity));
    this.timestampRaw = keep(this.timestampRaw, new Uint32Array(capacity));
  }

  /**
   * Entity i is this identity, dead-reckoned with `profile` (`bank.addProfile`); it starts afresh: its next
   * decision sends its first PDU.
   */
  define(i: number, identity: OwnedEntityIdentity, profile: number): void {
    this.bank.reset(i, profile);
    const id = this.entityId;
    id[3 * i] = identity.site;
    id[3 * i + 1] = identity.application;
    id[3 * i + 2] = identity.entity;
    this.forceId[i] = identity.forceId ?? 1;
    const type = identity.entityType;
    for (let k = 0; k < 7; k++) this.entityType[7 * i + k] = type === undefined ? (k === 0 ? 1 : 0) : (type[k] ?? 0);
    this.setMarking(i, identity.marking ?? '');
  }

  /** Sets entity i's marking (ASCII, up to 11 characters; character set 1). Send it with `bank.requestUpdate`. */
  setMarking(i: number, text: string): void {
    const m = this.marking,
      at = MARKING_STRIDE * i;
    m[at] = 1;
    const n = Math.min(text.length, MARKING_STRIDE - 1);
    for (let k = 0; k < n; k++) m[at + 1 + k] = text.charCodeAt(k) & 0xff;
    m.fill(0, at + 1 + n, at + MARKING_STRIDE);
  }

  /**
   * One pass over entities [from, to) at tSeconds: each one's decision, and the PDU of each that needs one written
   * to `sink`, at most `budget` of them. The entities after the last PDU the budget allowed are left for the next
   * pass (their decisions are not made: nothing of theirs changes).
   * @returns the entities evaluated, from `from` on (to − from unless the budget ran out).
   */
  tick(tSeconds: number, sink: PduSink, from = 0, to = this.capacity, budget = Number.POSITIVE_INFINITY): number {
    const bank = this.bank;
    const senders = bank.decide(tSeconds, from, to);
    const sending = senders <= budget ? senders : Math.max(0, Math.floor(budget));
    bank.commit(tSeconds, sending);
    for (let k = 0; k < sending; k++) {
      const i = bank.senders[k]!;
      this.sent(i, tSeconds, bank.reasons[i]!);
      this.encodeLast(i, sink);
    }
    return sending === senders ? to - from : bank.senders[sending]! - from;
  }

  /**
   * Entity i's decision at tSeconds on its own (`DeadReckoningEmitter.update`): when it returns non-zero, entity i's
   * PDU is stamped and ready (`encodeLast`, `writeRecord`).
   * @returns the reason bits (EMIT_*), 0 when nothing is to be sent.
   */
  update(i: number, tSeconds: number): number {
    const bank = this.bank;
    if (bank.decide(tSeconds, i, i + 1) === 0) return 0;
    bank.commit(tSeconds);
    const reasons = bank.reasons[i]!;
    this.sent(i, tSeconds, reasons);
    return reasons;
  }

  /**
   * Writes entity i's last PDU, as sent (`bank.writeSentInto`) with its identity and timestamp, to `sink`.
   * @returns its bytes.
   */
  encodeLast(i: number, sink: PduSink): number {
    const r = this.fill(i);
    r.timestampRaw = this.timestampRaw[i]!;
    return this.encode(r, sink);
  }

  /**
   * Writes entity i's leave notice to `sink`: its last PDU with the appearance Deactivated, so that receivers drop
   * it at once, stamped tSeconds or, when that is not newer than its last PDU, 1 ms after it (receivers drop a PDU
   * that is not newer). Nothing is written for an entity that never sent, or whose last PDU was a leave notice.
   * @returns the notice's bytes, 0 when none was written.
   */
  writeLeaveNotice(i: number, tSeconds: number, sink: PduSink): number {
    if (this.bank.sentCount[i] === 0 || isDeactivated(this.bank.sentAppearance[i]!)) return 0;
    const r = this.fill(i);
    r.appearance = (r.appearance | APPEARANCE_DEACTIVATED) >>> 0;
    const last = this.timestampRaw[i]!;
    const raw = timestampFromSeconds(tSeconds, this.absoluteTimestamps);
    r.timestampRaw = isNewerTimestamp(raw, last) ? raw : advanceTimestamp(last, 1e-3);
    const written = this.encode(r, sink);
    this.bank.sentAppearance[i] = r.appearance;
    this.timestampRaw[i] = r.timestampRaw;
    return written;
  }

  /**
   * Writes entity i's last PDU into `out` (a record of the caller's): header, identity, kinematics as sent and the
   * timestamp of the last PDU.
   */
  writeRecord(i: number, out: EntityStateRecord): EntityStateRecord {
    const r = this.fill(i);
    out.protocolVersion = r.protocolVersion;
    out.exerciseId = r.exerciseId;
    out.length = r.length;
    out.site = r.site;
    out.application = r.application;
    out.entity = r.entity;
    out.forceId = r.forceId;
    out.entityType.set(r.entityType);
    out.markingCharacterSet = r.markingCharacterSet;
    out.markingBytes.set(r.markingBytes);
    this.bank.writeSentInto(i, out);
    out.timestampRaw = this.timestampRaw[i]!;
    return out;
  }

  /** The shared record filled with entity i's identity and last PDU (its timestamp is the caller's). */
  private fill(i: number): EntityStateRecord {
    const r = this.record,
      id = this.entityId;
    r.site = id[3 * i]!;
    r.application = id[3 * i + 1]!;
    r.entity = id[3 * i + 2]!;
    r.forceId = this.forceId[i]!;
    const type = this.entityType;
    for (let k = 0; k < 7; k++) r.entityType[k] = type[7 * i + k]!;
    const m = this.marking,
      at = MARKING_STRIDE * i;
    r.markingCharacterSet = m[at]!;
    for (let k = 0; k < MARKING_STRIDE - 1; k++) r.markingBytes[k] = m[at + 1 + k]!;
    this.bank.writeSentInto(i, r);
    return r;
  }

  /** Entity i sent at tSeconds for `reasons`: its timestamp, and the counts by reason. */
  private sent(i: number, tSeconds: number, reasons: number): void {
    this.timestampRaw[i] = timestampFromSeconds(tSeconds, this.absoluteTimestamps);
    const counts = this.stats.reasons;
    for (let bit = 0; bit < counts.length; bit++) if ((reasons & (1 << bit)) !== 0) counts[bit]!++;
  }

  private encode(r: EntityStateRecord, sink: PduSink): number {
    const at = sink.claim(ENTITY_STATE_BYTES);
    const written = encodeEntityStateInto(sink.buffer, r, at);
    if (written < 0)
      throw new RangeError(`cannot encode the PDU of entity ${r.entity}: ${codecStatusMessage(-written)}`);
    this.stats.pdus++;
    this.stats.bytes += written;
    return written;
  }
}
