/**
 * The engagements of a capture: each shot (a Fire PDU, IEEE 1278.1-2012 §7.3.2) paired by its event id with where it
 * went off (the Detonation PDU, §7.3.3): who fired what at whom, when, the range the shooter gave and the result.
 * Numbers only; the decode summary, the capture report and the NDJSON name them. A shot or detonation whose numbers
 * no entity could have (`validateShot`) is counted, not kept.
 */
import { CodecStatus } from '../pdu/wire/status.js';
import { validateShot } from '../pdu/checks/validate-engagement.js';
import { type DetonationRecord, FireRecord } from '../pdu/wire/warfare.js';

/** Engagements kept; further ones are counted in `dropped`. */
export const MAX_ENGAGEMENTS = 2000;
/** Shots kept waiting for their detonation (by event id); the oldest is forgotten beyond it. */
const MAX_PENDING = 4096;

/** One shot and its detonation (either may be missing from the capture). */
export interface Engagement {
  /** `site:application:event number` of the event id. */
  readonly event: string;
  /** `site:application:entity` of the firing entity. */
  readonly shooter: string;
  /** null when the shooter named no target (0:0:0). */
  readonly target: string | null;
  /** The munition's entity type, `kind:domain:country:category:subcategory:specific:extra`. */
  readonly munitionType: string;
  /** Warhead and fuse (SISO-REF-010 UIDs 60 and 61), and rounds in the burst, of the first PDU seen. */
  readonly warhead: number;
  readonly fuse: number;
  readonly quantity: number;
  /** Capture times, seconds since the epoch; null without a Fire (or Detonation) PDU. */
  fireTimeSeconds: number | null;
  detonationTimeSeconds: number | null;
  /** Range to the target the shooter gave, metres; null without a Fire PDU. */
  rangeM: number | null;
  /** Detonation result (SISO-REF-010 UID 62); null without a Detonation PDU. */
  result: number | null;
  /** ECEF metres: where the round left, and where it went off. */
  fireLocationEcef: [number, number, number] | null;
  detonationLocationEcef: [number, number, number] | null;
}

const id = (e: { site: number; application: number; entity: number }) => `${e.site}:${e.application}:${e.entity}`;
const none = (e: { site: number; application: number; entity: number }) =>
  e.site === 0 && e.application === 0 && e.entity === 0;
const xyz = (v: Float64Array): [number, number, number] => [v[0]!, v[1]!, v[2]!];

/** Gathers the engagements of a capture's Fire and Detonation PDUs, in the order they were fired. */
export class EngagementLog {
  readonly rows: Engagement[] = [];
  /** Engagements beyond `MAX_ENGAGEMENTS`, not kept. */
  dropped = 0;
  /** Fire and Detonation PDUs with values no entity could have, not kept. */
  invalid = 0;
  /** Fire and Detonation PDUs taken in (valid or not). */
  firePdus = 0;
  detonationPdus = 0;
  private readonly pending = new Map<string, Engagement>();

  /** Takes a Fire or Detonation PDU captured at `timeSeconds`. */
  add(record: FireRecord | DetonationRecord, timeSeconds: number): void {
    const fire = record instanceof FireRecord;
    if (fire) this.firePdus++;
    else this.detonationPdus++;
    if (validateShot(record) !== CodecStatus.OK) {
      this.invalid++;
      return;
    }
    const e = record.eventId;
    const event = `${e.site}:${e.application}:${e.eventNumber}`;
    // Event number 0 names no event: such a PDU stands alone.
    const key = e.eventNumber === 0 ? undefined : `${record.exerciseId}/${event}/${id(record.firingEntityId)}`;
    let row = key === undefined ? undefined : this.pending.get(key);
    if (row === undefined || (fire ? row.fireTimeSeconds : row.detonationTimeSeconds) !== null) {
      if (this.rows.length >= MAX_ENGAGEMENTS) {
        this.dropped++;
        return;
      }
      const d = record.descriptor;
      row = {
        event,
        shooter: id(record.firingEntityId),
        target: none(record.targetEntityId) ? null : id(record.targetEntityId),
        munitionType: Array.from(d.munitionType).join(':'),
        warhead: d.warhead,
        fuse: d.fuse,
        quantity: d.quantity,
        fireTimeSeconds: null,
        detonationTimeSeconds: null,
        rangeM: null,
        result: null,
        fireLocationEcef: null,
        detonationLocationEcef: null,
      };
      this.rows.push(row);
      if (key !== undefined) {
        this.pending.delete(key);
        this.pending.set(key, row);
        if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      }
    }
    if (record instanceof FireRecord) {
      row.fireTimeSeconds = timeSeconds;
      row.rangeM = record.range;
      row.fireLocationEcef = xyz(record.location);
    } else {
      row.detonationTimeSeconds = timeSeconds;
      row.result = record.result;
      row.detonationLocationEcef = xyz(record.location);
    }
  }
}
