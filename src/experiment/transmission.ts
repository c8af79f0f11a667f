/**
 * What the owner sent in a run: for each PDU, the step it was sent at, why, and its kinematic fields. An entity
 * owner never hears from the network (DIS dead reckoning is open loop), so runs that differ only in network,
 * smoothing, render rate or seed send the very same PDUs: a sweep records them in the first such run and replays
 * them in the others. Struct of arrays; grows by doubling, then allocates nothing.
 */
import type { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import type { RunSpec } from './spec.js';

/** Doubles per PDU: location, velocity, orientation, acceleration, body rates (3 each), algorithm, appearance. */
const STRIDE = 17;

export class Transmission {
  /** PDUs recorded. */
  count = 0;
  /** Sample step each PDU was sent at. */
  steps = new Int32Array(64);
  /** EMIT_* reason bits of each PDU. */
  reasons = new Uint8Array(64);
  private fields = new Float64Array(64 * STRIDE);

  /** Bytes held. */
  get byteLength(): number {
    return this.steps.byteLength + this.reasons.byteLength + this.fields.byteLength;
  }

  /** Records the PDU in `record` (its kinematics, algorithm and appearance) as sent at `step` for `reasons`. */
  add(step: number, reasons: number, record: EntityStateRecord): void {
    if (this.count === this.steps.length) this.grow();
    const n = this.count++,
      f = this.fields,
      b = STRIDE * n;
    this.steps[n] = step;
    this.reasons[n] = reasons;
    f.set(record.location, b);
    f.set(record.linearVelocity, b + 3);
    f.set(record.orientation, b + 6);
    f.set(record.linearAcceleration, b + 9);
    f.set(record.angularVelocity, b + 12);
    f[b + 15] = record.drAlgorithm;
    f[b + 16] = record.appearance;
  }

  /** Writes PDU k's recorded fields into `record` (the others are the caller's). */
  read(k: number, record: EntityStateRecord): EntityStateRecord {
    const f = this.fields,
      b = STRIDE * k;
    for (let c = 0; c < 3; c++) {
      record.location[c] = f[b + c]!;
      record.linearVelocity[c] = f[b + 3 + c]!;
      record.orientation[c] = f[b + 6 + c]!;
      record.linearAcceleration[c] = f[b + 9 + c]!;
      record.angularVelocity[c] = f[b + 12 + c]!;
    }
    record.drAlgorithm = f[b + 15]!;
    record.appearance = f[b + 16]!;
    return record;
  }

  private grow(): void {
    const size = 2 * this.steps.length;
    const steps = new Int32Array(size),
      reasons = new Uint8Array(size),
      fields = new Float64Array(size * STRIDE);
    steps.set(this.steps);
    reasons.set(this.reasons);
    fields.set(this.fields);
    this.steps = steps;
    this.reasons = reasons;
    this.fields = fields;
  }
}

/** The settings a run's PDUs depend on (runs with equal keys send the same PDUs), as a string. */
export function senderKey(spec: RunSpec): string {
  return JSON.stringify([spec.trajectory, spec.durationSeconds ?? null, spec.sampleRateHz, spec.emitter]);
}
