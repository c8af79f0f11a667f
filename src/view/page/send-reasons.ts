/**
 * Why each PDU was sent, as far as the receiver can tell: the sender's threshold and heartbeat test
 * (IEEE 1278.1-2012 §5.3.2.4) replayed against the entity's current model at the new PDU's arrival.
 */
import type { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';
import type { RemoteEntityTable } from '../../dr/receiver/remote-entity-table.js';
import { positionAt } from '../../dr/models/store.js';
import { HEARTBEAT_TIMEOUT_MULTIPLIER } from '../../dr/owner/heartbeat.js';

/** Why a PDU was sent, as far as the receiver can tell (IEEE 1278.1-2012 §5.3.2.4: thresholds and heartbeat). */
export const PDU_REASON_UNKNOWN = 0;
/** The first PDU of an entity the page did not hold. */
export const PDU_REASON_APPEARED = 1;
/** The dead-reckoned position had drifted at least the position threshold from the new PDU's. */
export const PDU_REASON_POSITION = 2;
/** The orientation had drifted at least the orientation threshold (non-rotating models only). */
export const PDU_REASON_ORIENTATION = 3;
/** About one heartbeat after the previous PDU with both errors under their thresholds. */
export const PDU_REASON_HEARTBEAT = 4;
export const PDU_REASON_NAMES = ['other', 'appeared', 'position', 'orientation', 'heartbeat'] as const;

const DEG = Math.PI / 180;

/** Tells a PDU's `PDU_REASON_*` from the sender's thresholds (defaults 1 m and 3°). Allocates nothing per PDU. */
export class SendReasons {
  private readonly positionThresholdMeters: number;
  private readonly orientationThresholdRad: number;
  private readonly scratch = new Float64Array(3);

  constructor(positionThresholdMeters = 1, orientationThresholdDeg = 3) {
    this.positionThresholdMeters = positionThresholdMeters;
    this.orientationThresholdRad = orientationThresholdDeg * DEG;
  }

  /**
   * Why the PDU about to be applied to `slot` was sent: compares it with what the entity's current model
   * predicts at its arrival (the sender's test, IEEE 1278.1-2012 §5.3.2.4, seen from the receiver).
   */
  reasonFor(table: RemoteEntityTable, slot: number, record: EntityStateRecord, arrivalSeconds: number): number {
    const out = this.scratch;
    const models = table.store;
    positionAt(models, slot, arrivalSeconds, table.referenceSeconds, out, 0);
    const l = record.location;
    const positionError = Math.hypot(l[0]! - out[0]!, l[1]! - out[1]!, l[2]! - out[2]!);
    if (positionError >= 0.9 * this.positionThresholdMeters) return PDU_REASON_POSITION;
    const o = models.orientation0;
    const s3 = 3 * slot;
    const r = record.orientation;
    const rotating = models.omegaMagnitude[slot]! > 0;
    if (!rotating) {
      const dPsi = wrapAngle(r[0]! - o[s3]!);
      const dTheta = wrapAngle(r[1]! - o[s3 + 1]!);
      const dPhi = wrapAngle(r[2]! - o[s3 + 2]!);
      if (Math.max(Math.abs(dPsi), Math.abs(dTheta), Math.abs(dPhi)) >= 0.9 * this.orientationThresholdRad) {
        return PDU_REASON_ORIENTATION;
      }
    }
    const heartbeatSeconds = table.timeoutSeconds[slot]! / HEARTBEAT_TIMEOUT_MULTIPLIER;
    const interval = arrivalSeconds - table.arrivalSeconds[slot]!;
    if (interval >= 0.8 * heartbeatSeconds) return PDU_REASON_HEARTBEAT;
    return PDU_REASON_UNKNOWN;
  }
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}
