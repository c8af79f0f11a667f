/**
 * The gateway's side of the engagement messages (src/view/engagement-messages.ts): decodes the Fire, Detonation,
 * Collision, Remove Entity, Stop/Freeze, Start/Resume, Transmitter and Signal PDUs it is handed, checks them as a
 * subscriber does, names what they carry, and keeps what a page that connects later must know (the radios, the
 * freezes in force). Bounded: at most `MAX_RADIOS` radios (src/view/radio-table.ts) and `MAX_FREEZES` freeze and
 * resume orders are kept.
 */
import { actionTimeSeconds } from '../dr/receiver/exercise-freeze.js';
import { FreezeOrders } from '../dr/receiver/freeze-orders.js';
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { enumerationName, entityTypeName } from '../names/index.js';
import { PduRecords } from '../pdu/wire/any-pdu.js';
import { CollisionElasticRecord, CollisionRecord } from '../pdu/wire/collision.js';
import { PduType } from '../pdu/wire/constants.js';
import type { EntityIdFields } from '../pdu/wire/pdu-fields.js';
import { SignalRecord, TransmitterRecord } from '../pdu/wire/radio.js';
import { EntityManagementRecord, StartResumeRecord, StopFreezeRecord } from '../pdu/wire/simulation-management.js';
import { CodecStatus } from '../pdu/wire/status.js';
import { validateCollision, validateRadio, validateShot } from '../pdu/checks/validate-engagement.js';
import { DetonationRecord, FireRecord, type MunitionDescriptorFields } from '../pdu/wire/warfare.js';
import type { EngagementMessage, GeoPoint, RadioMessage } from './engagement-messages.js';
import { RadioTable, type EntityHeld, type Radio } from './radio-table.js';

/** The PDU types the gateway hands to an `EngagementFeed`. */
export const ENGAGEMENT_PDU_TYPES: readonly number[] = [
  PduType.FIRE,
  PduType.DETONATION,
  PduType.COLLISION,
  PduType.COLLISION_ELASTIC,
  PduType.REMOVE_ENTITY,
  PduType.START_RESUME,
  PduType.STOP_FREEZE,
  PduType.TRANSMITTER,
  PduType.SIGNAL,
];

export { MAX_RADIOS } from './radio-table.js';
/** Stop/Freeze and Start/Resume orders in force kept; the oldest goes when a new one comes beyond it. */
export const MAX_FREEZES = 64;
/** A radio counts as transmitting this long after its last Signal PDU, ms. */
const SIGNAL_HOLD_MS = 1000;
/** A radio's state is sent again at least this often while its Transmitter PDUs keep coming, ms. */
const RADIO_REFRESH_MS = 5000;

const DETONATION_RESULT_UID = 62;
const COLLISION_TYPE_UID = 189;

const idText = (id: EntityIdFields): string => `${id.site}:${id.application}:${id.entity}`;
const orNull = (id: EntityIdFields): string | null =>
  id.site === 0 && id.application === 0 && id.entity === 0 ? null : idText(id);

export class EngagementFeed {
  /**
   * Messages made; PDUs taken, and PDUs refused as malformed or invalid, by PDU type; radios evicted to make room
   * for new ones.
   */
  readonly stats = {
    messages: 0,
    pdus: {} as Record<number, number>,
    rejected: {} as Record<number, number>,
    radiosEvicted: 0,
  };
  private readonly records = new PduRecords();
  private readonly radios: RadioTable;
  private readonly orders = new FreezeOrders(MAX_FREEZES);
  private readonly geodetic = new Float64Array(3);

  /** @param held - whether the gateway holds an entity: radios of others are evicted first and not sent to a late page. */
  constructor(held?: EntityHeld) {
    this.radios = new RadioTable(held);
  }

  /**
   * Takes one PDU of `ENGAGEMENT_PDU_TYPES`.
   * @param nowMs - when it arrived, server clock.
   * @param emit - told each message to send; Remove Entity and freezes also go to `control` for the gateway's own
   *   entities.
   */
  consume(
    bytes: Uint8Array,
    offset: number,
    length: number,
    nowMs: number,
    emit: (message: EngagementMessage) => void,
  ): void {
    const type = bytes[offset + 2]!;
    this.stats.pdus[type] = (this.stats.pdus[type] ?? 0) + 1;
    let status = this.records.decode(bytes, offset, offset + length);
    const r = this.records.record;
    if (status === CodecStatus.OK && (r instanceof FireRecord || r instanceof DetonationRecord))
      status = validateShot(r);
    if (status === CodecStatus.OK && (r instanceof CollisionRecord || r instanceof CollisionElasticRecord)) {
      status = validateCollision(r);
    }
    if (status === CodecStatus.OK && (r instanceof TransmitterRecord || r instanceof SignalRecord)) {
      status = validateRadio(r);
    }
    if (status !== CodecStatus.OK || r === undefined) {
      this.stats.rejected[type] = (this.stats.rejected[type] ?? 0) + 1;
      return;
    }
    const message = this.message(r, nowMs);
    if (message === undefined) return;
    this.stats.messages++;
    emit(message);
  }

  private message(r: unknown, nowMs: number): EngagementMessage | undefined {
    if (r instanceof FireRecord) {
      return {
        type: 'fire',
        serverTimeMs: nowMs,
        exercise: r.exerciseId,
        shooter: idText(r.firingEntityId),
        target: orNull(r.targetEntityId),
        munition: this.munitionName(r.descriptor),
        event: `${r.eventId.site}:${r.eventId.application}:${r.eventId.eventNumber}`,
        from: this.place(r.location),
        rangeM: r.range,
      };
    }
    if (r instanceof DetonationRecord) {
      return {
        type: 'detonation',
        serverTimeMs: nowMs,
        exercise: r.exerciseId,
        shooter: idText(r.firingEntityId),
        target: orNull(r.targetEntityId),
        munition: this.munitionName(r.descriptor),
        event: `${r.eventId.site}:${r.eventId.application}:${r.eventId.eventNumber}`,
        at: this.place(r.location),
        result: r.result,
        resultName: enumerationName(DETONATION_RESULT_UID, r.result),
      };
    }
    if (r instanceof CollisionRecord || r instanceof CollisionElasticRecord) {
      const elastic = r instanceof CollisionElasticRecord;
      const offset = elastic ? r.locationOfImpact : r.location;
      return {
        type: 'collision',
        serverTimeMs: nowMs,
        exercise: r.exerciseId,
        issuing: idText(r.issuingEntityId),
        colliding: orNull(r.collidingEntityId),
        offset: [offset[0]!, offset[1]!, offset[2]!],
        collisionType: enumerationName(COLLISION_TYPE_UID, elastic ? 1 : r.collisionType),
      };
    }
    if (r instanceof EntityManagementRecord) {
      if (r.pduType !== PduType.REMOVE_ENTITY) return undefined;
      const receiving = { ...r.receivingId };
      return {
        type: 'entity-control',
        action: 'remove',
        serverTimeMs: nowMs,
        atMs: nowMs,
        exercise: r.exerciseId,
        receiving,
      };
    }
    if (r instanceof StopFreezeRecord || r instanceof StartResumeRecord) {
      const time = r.realWorldTime;
      const atMs = 1000 * actionTimeSeconds(time.hour, time.timePastHour, nowMs / 1000);
      const receiving = { ...r.receivingId };
      const freeze = r instanceof StopFreezeRecord;
      this.orders.add({ freeze, exercise: r.exerciseId, receiving, atSeconds: atMs / 1000 });
      return {
        type: 'entity-control',
        action: freeze ? 'freeze' : 'resume',
        serverTimeMs: nowMs,
        atMs,
        exercise: r.exerciseId,
        receiving,
      };
    }
    if (r instanceof TransmitterRecord) return this.transmitter(r, nowMs);
    if (r instanceof SignalRecord) return this.signal(r, nowMs);
    return undefined;
  }

  private munitionName(d: MunitionDescriptorFields): string {
    return entityTypeName(d.munitionType).label;
  }

  private place(ecef: Float64Array): GeoPoint {
    const g = ecefToGeodeticDegrees(this.geodetic, ecef[0]!, ecef[1]!, ecef[2]!);
    return [g[1]!, g[0]!, g[2]!];
  }

  private radio(exercise: number, entity: EntityIdFields, radioId: number, nowMs: number): Radio {
    const radio = this.radios.heard(exercise, entity.site, entity.application, entity.entity, radioId, nowMs);
    this.stats.radiosEvicted = this.radios.evicted;
    return radio;
  }

  /** A Transmitter PDU: sent on when the radio changed, or every few seconds. */
  private transmitter(r: TransmitterRecord, nowMs: number): RadioMessage | undefined {
    const radio = this.radio(r.exerciseId, r.entityId, r.radioId, nowMs);
    const previous = radio.message;
    const a = r.antennaLocation;
    const antenna = a[0] === 0 && a[1] === 0 && a[2] === 0 ? null : this.place(a);
    const transmitting = r.transmitState === 2 || nowMs - radio.lastSignalMs <= SIGNAL_HOLD_MS;
    const changed =
      previous.frequencyHz !== r.frequencyHz ||
      previous.powerDbm !== r.powerDbm ||
      previous.transmitState !== r.transmitState ||
      previous.transmitting !== transmitting;
    radio.message = {
      ...previous,
      serverTimeMs: nowMs,
      frequencyHz: r.frequencyHz,
      powerDbm: Number.isFinite(r.powerDbm) ? r.powerDbm : 0,
      transmitState: r.transmitState,
      transmitting,
      antenna,
    };
    if (!changed && nowMs - radio.sentMs < RADIO_REFRESH_MS) return undefined;
    radio.sentMs = nowMs;
    return radio.message;
  }

  /** A Signal PDU: counted; sent on when the radio starts sending. */
  private signal(r: SignalRecord, nowMs: number): RadioMessage | undefined {
    const radio = this.radio(r.exerciseId, r.entityId, r.radioId, nowMs);
    radio.lastSignalMs = nowMs;
    const started = !radio.message.transmitting;
    radio.message = { ...radio.message, serverTimeMs: nowMs, transmitting: true, signals: radio.message.signals + 1 };
    if (!started) return undefined;
    radio.sentMs = nowMs;
    return radio.message;
  }

  /** Once a second: radios whose signals stopped (and whose Transmitter PDU does not say so) are sent as quiet. */
  everySecond(nowMs: number, emit: (message: EngagementMessage) => void): void {
    for (const radio of this.radios.values()) {
      const m = radio.message;
      if (!m.transmitting || m.transmitState === 2 || nowMs - radio.lastSignalMs <= SIGNAL_HOLD_MS) continue;
      radio.message = { ...m, serverTimeMs: nowMs, transmitting: false };
      radio.sentMs = nowMs;
      emit(radio.message);
    }
  }

  /**
   * What a page connecting now must know: the radios of the entities the gateway holds (a page shows no other), and
   * the Stop/Freeze and Start/Resume orders in force.
   */
  state(nowMs: number): EngagementMessage[] {
    const orders = this.orders.orders.map((o) => ({
      type: 'entity-control' as const,
      action: o.freeze ? ('freeze' as const) : ('resume' as const),
      serverTimeMs: nowMs,
      atMs: o.atSeconds * 1000,
      exercise: o.exercise,
      receiving: o.receiving,
    }));
    const radios: EngagementMessage[] = [];
    for (const radio of this.radios.values()) if (this.radios.ofHeldEntity(radio)) radios.push(radio.message);
    return [...radios, ...orders];
  }

  /** Whether a freeze in force holds this entity (the gateway does not time it out). */
  holds(exercise: number, site: number, application: number, entity: number): boolean {
    return !Number.isNaN(this.orders.heldFrom(exercise, site, application, entity));
  }
}
