/**
 * The receiving side of a run: one `RemoteEntityTable` (with the spec's smoothing) holding the simulated
 * entity, fed with delivered PDUs and read at the render rate.
 */
import { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import type { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import type { RunSpec } from './spec.js';

const UNITS_PER_SECOND = 0x8000_0000 / 3600;

/** What the runner needs of a receiver. */
export interface Display {
  /** Applies a PDU delivered at arrivalSeconds. */
  apply(record: EntityStateRecord, arrivalSeconds: number): void;
  /**
   * Writes the displayed location (ECEF m) and world-to-body matrix at tSeconds.
   * @returns false while nothing has been received.
   */
  read(tSeconds: number, outLocation: Float64Array, outWorldToBody: Float64Array): boolean;
}

/**
 * The receiver of a run: its smoothing, and how it times each PDU (`latencyCompensation`, as the live receiver's
 * setting): from its arrival, or from the absolute timestamp it was sent with — sender and receiver share the
 * simulated clock, whose seconds count from an hour's start as the table expects.
 */
export function createDisplay(
  smoothing: RunSpec['smoothing'],
  latencyCompensation: RunSpec['latencyCompensation'] = 'arrival',
): Display {
  const table = new RemoteEntityTable({
    capacity: 1,
    timeReference: latencyCompensation,
    smoothing: {
      method: smoothing.method,
      durationSeconds: smoothing.time,
      teleportMeters: smoothing.teleportDistance,
    },
  });
  return {
    apply(record, arrivalSeconds) {
      table.apply(record, arrivalSeconds);
    },
    read(tSeconds, outLocation, outWorldToBody) {
      if (table.size === 0) return false;
      // The one entity is in slot 0 (capacity 1); its displayed R_wb as the table computes it, no Euler angles.
      table.renderSlot(0, tSeconds, outLocation, outWorldToBody);
      return true;
    },
  };
}

/**
 * Stamps a record as the Entity State PDU of the one simulated entity (1:1:1) sent at sendSeconds: a DIS timestamp
 * (IEEE 1278.1 §6.2.88), which the table uses to drop duplicated and overtaken PDUs and, absolute, to dead-reckon
 * from the time of sending.
 * @param absolute - an absolute timestamp (bit 0 set); else relative. Defaults to false.
 */
export function stampRecord(record: EntityStateRecord, sendSeconds: number, absolute = false): void {
  record.protocolVersion = 7;
  record.pduType = 1;
  record.protocolFamily = 1;
  record.site = 1;
  record.application = 1;
  record.entity = 1;
  const units = Math.floor((((sendSeconds % 3600) + 3600) % 3600) * UNITS_PER_SECOND) % 0x8000_0000;
  record.timestampRaw = units * 2 + (absolute ? 1 : 0);
}
