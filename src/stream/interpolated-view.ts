/**
 * Display mode `interpolate` (`receiver.display`): remote entities shown a playout delay in the past, between the
 * two received states that bracket that time, and dead-reckoned by the table's own models only beyond the newest
 * state. Trades a fixed delay for motion that never jumps back after a correction, as game clients do. The
 * states live in a `SnapshotInterpolationBuffer` indexed by the table's slots; nothing allocates per PDU or frame.
 */
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import { TableEvent } from '../dr/receiver/table-results.js';
import { InterpolationStatus, SnapshotInterpolationBuffer } from '../dr/receiver/snapshot-interpolation.js';

/** States held per entity: enough for a delay spanning several PDUs of a fast sender. */
const DEPTH = 8;

export class InterpolatedView {
  /** Displayed location, ECEF metres, 3 per slot, as of the last `render`. */
  readonly location: Float64Array;
  /** Displayed orientation ψ, θ, φ radians, 3 per slot, as of the last `render`. */
  readonly orientation: Float64Array;
  /** Per slot, how the last `render` placed it (an `InterpolationStatus`). */
  readonly status: Uint8Array;
  private readonly states: SnapshotInterpolationBuffer;
  private readonly position = new Float64Array(3);
  private readonly angles = new Float64Array(3);
  /** A PDU's state as `RemoteEntityTable.receivedStateInto` writes it: location, angles, time; and views of both. */
  private readonly received = new Float64Array(7);
  private readonly receivedLocation = this.received.subarray(0, 3);
  private readonly receivedAngles = this.received.subarray(3, 6);

  /**
   * @param capacity - the table's slots.
   * @param delaySeconds - how far in the past entities are shown, seconds.
   */
  constructor(capacity: number, delaySeconds: number) {
    this.states = new SnapshotInterpolationBuffer({ slots: capacity, depth: DEPTH, delaySeconds });
    this.location = new Float64Array(3 * capacity);
    this.orientation = new Float64Array(3 * capacity);
    this.status = new Uint8Array(capacity);
  }

  /** The playout delay, seconds. */
  get delaySeconds(): number {
    return this.states.delaySeconds;
  }

  /**
   * Keeps the states in step with the table: call from its `onEvent`. An appeared or updated entity's new state
   * (the PDU's location and angles at the time its model is valid) is recorded; a departed one is forgotten.
   */
  onTableEvent(kind: TableEvent, slot: number, table: RemoteEntityTable): void {
    if (kind === TableEvent.TIMED_OUT || kind === TableEvent.REMOVED) return this.states.clear(slot);
    if (kind !== TableEvent.APPEARED && kind !== TableEvent.UPDATED) return;
    if (kind === TableEvent.APPEARED) this.states.clear(slot); // a reused slot
    // Read from the PDU as received: reading the models would load every PDU into them as it arrives, the work
    // the table defers to the next frame.
    const received = this.received;
    table.receivedStateInto(slot, received);
    // A state no newer than the last one held (same arrival time) is skipped: the table's model, which
    // continues beyond the newest state, already holds it.
    this.states.add(slot, received[6]!, this.receivedLocation, this.receivedAngles);
  }

  /**
   * Computes every entity's displayed state at nowSeconds − delay: interpolated between held states, held at the
   * oldest one for an entity that appeared less than the delay ago, and dead-reckoned from the newest one past it.
   * @param nowSeconds - the present, seconds on the table's time axis.
   * @returns the time shown, seconds.
   */
  render(table: RemoteEntityTable, nowSeconds: number): number {
    const renderSeconds = nowSeconds - this.states.delaySeconds;
    // Every slot's own dead reckoning at the render time; read only for slots beyond their newest state.
    table.extrapolate(renderSeconds);
    const dr = table.location,
      p = this.position,
      o = this.angles,
      location = this.location,
      orientation = this.orientation;
    let drAngles: Float64Array | null = null;
    for (let slot = 0; slot < table.highWater; slot++) {
      if (table.active[slot] !== 1) continue;
      // Past the newest state (the one the table's model holds), as most entities are between the sparse PDUs of
      // dead reckoning: no need to search the states.
      const status =
        renderSeconds >= table.referenceSeconds[slot]!
          ? InterpolationStatus.BEYOND_NEWEST
          : this.states.sample(slot, nowSeconds, p, o);
      this.status[slot] = status;
      const s3 = 3 * slot;
      if (status === InterpolationStatus.INTERPOLATED || status === InterpolationStatus.BEFORE_OLDEST) {
        for (let k = 0; k < 3; k++) {
          location[s3 + k] = p[k]!;
          orientation[s3 + k] = o[k]!;
        }
      } else {
        // Beyond the newest state: the table's model is that state's, dead-reckoned to the render time.
        drAngles ??= table.orientation; // converts rotating slots' angles once per frame, only when needed
        for (let k = 0; k < 3; k++) {
          location[s3 + k] = dr[s3 + k]!;
          orientation[s3 + k] = drAngles[s3 + k]!;
        }
      }
    }
    return renderSeconds;
  }
}
