/**
 * Entities frozen by a Stop/Freeze PDU (IEEE 1278.1-2012 §7.5.5) until a Start/Resume PDU (§7.5.4): per slot, the
 * time its model is held at. A held slot is evaluated at that time whatever time is asked for (no extrapolation),
 * by shifting its model's reference time for the length of an evaluation; on resume the shift becomes permanent,
 * so the entity continues from where it stood. Time is a parameter. Besides one byte per slot, the arrays are made
 * at the first freeze (most exercises never freeze); nothing is allocated after that.
 */

export class ExerciseFreeze {
  /** 1 per slot held by a Stop/Freeze PDU. */
  readonly frozen: Uint8Array;
  /** Per slot, the time its model is held at, seconds; +∞ for a slot that runs. */
  private at: Float64Array | null = null;
  /** The frozen slots, densely, and where each sits in the list (−1 when not in it). */
  private slots: Int32Array | null = null;
  private position: Int32Array | null = null;
  private count = 0;
  /** The reference times `hold` replaced, to put back. */
  private saved: Float64Array | null = null;

  constructor(readonly capacity: number) {
    this.frozen = new Uint8Array(capacity);
  }

  /** Slots held. */
  get size(): number {
    return this.count;
  }

  isFrozen(slot: number): boolean {
    return this.frozen[slot] === 1;
  }

  /** The time the slot is held at, seconds; +∞ when it runs. */
  frozenAt(slot: number): number {
    return this.at === null ? Number.POSITIVE_INFINITY : this.at[slot]!;
  }

  /**
   * Holds the slot's model at `atSeconds` (a later freeze of a held slot keeps the earlier time).
   * @returns false when it was held already.
   */
  freeze(slot: number, atSeconds: number): boolean {
    if (this.frozen[slot] === 1) return false;
    if (this.at === null) {
      const n = this.capacity;
      this.at = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
      this.slots = new Int32Array(n);
      this.position = new Int32Array(n).fill(-1);
      this.saved = new Float64Array(n);
    }
    this.frozen[slot] = 1;
    this.at[slot] = atSeconds;
    this.position![slot] = this.count;
    this.slots![this.count++] = slot;
    return true;
  }

  /**
   * Lets the slot run again from `atSeconds`.
   * @returns how long it was held, seconds (0 when it was not, or the freeze time has not come): the shift to add
   *   to its model's reference time and its arrival time, so that it continues from where it stood.
   */
  resume(slot: number, atSeconds: number): number {
    if (this.frozen[slot] !== 1) return 0;
    const held = Math.max(0, atSeconds - this.at![slot]!);
    this.clear(slot);
    return held;
  }

  /** Forgets the slot (its entity left). */
  clear(slot: number): void {
    const position = this.position,
      slots = this.slots;
    if (position === null || slots === null) return;
    const at = position[slot]!;
    if (at < 0) return;
    const last = slots[--this.count]!;
    slots[at] = last;
    position[last] = at;
    position[slot] = -1;
    this.frozen[slot] = 0;
    this.at![slot] = Number.POSITIVE_INFINITY;
  }

  /** A PDU of a held entity was loaded with model time `referenceSeconds`: it is held as that PDU says. */
  rebase(slot: number, referenceSeconds: number): void {
    if (this.frozen[slot] === 1) this.at![slot] = referenceSeconds;
  }

  /**
   * Before an evaluation of the models at tSeconds: moves each held slot's reference time forward by the time
   * past its freeze, so that the evaluation lands on the freeze time. `unhold` puts them back.
   */
  hold(reference: Float64Array, tSeconds: number): void {
    const slots = this.slots!,
      at = this.at!,
      saved = this.saved!;
    for (let k = 0; k < this.count; k++) {
      const slot = slots[k]!;
      const past = tSeconds - at[slot]!;
      saved[slot] = reference[slot]!;
      if (past > 0) reference[slot] = reference[slot]! + past;
    }
  }

  unhold(reference: Float64Array): void {
    const slots = this.slots!,
      saved = this.saved!;
    for (let k = 0; k < this.count; k++) {
      const slot = slots[k]!;
      reference[slot] = saved[slot]!;
    }
  }
}

/**
 * Whether an entity falls under the receiving id of a simulation management PDU: each of site and application
 * equal or 65535 (all); entity equal, 65535 (all), or 0 (the simulation: all of its entities).
 */
export function addresses(
  receiving: { readonly site: number; readonly application: number; readonly entity: number },
  site: number,
  application: number,
  entity: number,
): boolean {
  return (
    (receiving.site === 0xffff || receiving.site === site) &&
    (receiving.application === 0xffff || receiving.application === application) &&
    (receiving.entity === 0xffff || receiving.entity === 0 || receiving.entity === entity)
  );
}

/**
 * When a Stop/Freeze or Start/Resume PDU asks for it to happen, on the caller's time axis (seconds since the Unix
 * epoch): its real-world time (Clock Time: hours since 1970 and a timestamp past the hour, §6.2.14) when that lies
 * from `pastSeconds` before now (the PDU's way over the network) to `aheadSeconds` after it, and now otherwise (a
 * relative clock, or a sender whose clock is off: entities are not sent back or held off by it).
 */
export function actionTimeSeconds(
  hour: number,
  timePastHour: number,
  nowSeconds: number,
  pastSeconds = 1,
  aheadSeconds = 10,
): number {
  const seconds = hour * 3600 + ((timePastHour >>> 1) * 3600) / 0x8000_0000;
  return seconds >= nowSeconds - pastSeconds && seconds <= nowSeconds + aheadSeconds ? seconds : nowSeconds;
}
