/**
 * A small deterministic world for lockstep: players push bodies around an arena. All state is int32 fixed point
 * (1/1024 of a unit) and every operation is integer arithmetic in a fixed order, so two instances fed the same
 * inputs agree bit for bit on every machine. Randomness is a hash of seed, frame and body, never a shared
 * generator, so it cannot drift between instances.
 */
import { FNV_OFFSET, fnv1aWord, hash32 } from './hash.js';
import { INPUT_DOWN, INPUT_LEFT, INPUT_RIGHT, INPUT_SPACE, INPUT_UP, INPUT_Z } from './input.js';

/** Fixed-point scale: 1 unit = 1024. */
const ONE = 1024;
const ARENA = 64 * ONE;
const RADIUS = ONE;
const ACCELERATION = 24;
const FRICTION_SHIFT = 4;
/** A drifting body gets a random kick with probability 1/KICK_ODDS per frame. */
const KICK_ODDS = 64;

/** Options of a `LockstepSimulation`. */
export interface SimulationOptions {
  /** Players, each driven by one input per frame. Defaults to 2. */
  readonly players?: number;
  /** Bodies in the arena, players included. Defaults to 16. */
  readonly bodies?: number;
  /** Seeds the layout and the random kicks. Defaults to 1. */
  readonly seed?: number;
}

/** The world state: struct-of-arrays, int32 fixed point. */
export class LockstepSimulation {
  /** Frames simulated so far; the next `step` simulates frame `frame`. */
  frame = 0;
  readonly players: number;
  readonly seed: number;
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly vx: Int32Array;
  readonly vy: Int32Array;

  constructor(options: SimulationOptions = {}) {
    this.players = options.players ?? 2;
    this.seed = (options.seed ?? 1) >>> 0;
    const n = Math.max(this.players, options.bodies ?? 16);
    this.x = new Int32Array(n);
    this.y = new Int32Array(n);
    this.vx = new Int32Array(n);
    this.vy = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.x[i] = hash32(this.seed, -1, i) % ARENA;
      this.y[i] = hash32(this.seed, -2, i) % ARENA;
    }
  }

  /**
   * Simulates frame `this.frame` and advances to the next.
   * @param inputs - one input byte per player for this frame.
   */
  step(inputs: ArrayLike<number>): void {
    const { x, y, vx, vy, players } = this;
    const n = x.length;
    for (let p = 0; p < players; p++) {
      const input = inputs[p]! | 0;
      const a = input & INPUT_SPACE ? ACCELERATION * 2 : ACCELERATION;
      if (input & INPUT_LEFT) vx[p]! -= a;
      if (input & INPUT_RIGHT) vx[p]! += a;
      if (input & INPUT_UP) vy[p]! -= a;
      if (input & INPUT_DOWN) vy[p]! += a;
      if (input & INPUT_Z) {
        vx[p] = vx[p]! >> 1;
        vy[p] = vy[p]! >> 1;
      }
    }
    for (let i = players; i < n; i++) {
      const h = hash32(this.seed, this.frame, i);
      if (h % KICK_ODDS === 0) {
        vx[i]! += ((h >>> 8) & 0xff) - 128;
        vy[i]! += ((h >>> 16) & 0xff) - 128;
      }
    }
    for (let i = 0; i < n; i++) {
      vx[i]! -= vx[i]! >> FRICTION_SHIFT;
      vy[i]! -= vy[i]! >> FRICTION_SHIFT;
      x[i] = bounce(vx, i, x[i]! + vx[i]!);
      y[i] = bounce(vy, i, y[i]! + vy[i]!);
    }
    // Players shove overlapping bodies out along the axis of least overlap; fixed (i, j) order keeps it deterministic.
    for (let p = 0; p < players; p++) {
      for (let j = 0; j < n; j++) {
        if (j === p) continue;
        const dx = x[j]! - x[p]!;
        const dy = y[j]! - y[p]!;
        const ox = 2 * RADIUS - Math.abs(dx);
        const oy = 2 * RADIUS - Math.abs(dy);
        if (ox <= 0 || oy <= 0) continue;
        if (ox < oy) {
          x[j] = clamp(x[j]! + (dx < 0 ? -ox : ox));
          vx[j] = vx[p]!;
        } else {
          y[j] = clamp(y[j]! + (dy < 0 ? -oy : oy));
          vy[j] = vy[p]!;
        }
      }
    }
    this.frame++;
  }

  /** FNV-1a over the frame number and the whole state: equal checksums mean equal worlds (with high probability). */
  checksum(): number {
    let h = fnv1aWord(FNV_OFFSET, this.frame);
    const n = this.x.length;
    for (let i = 0; i < n; i++) {
      h = fnv1aWord(h, this.x[i]!);
      h = fnv1aWord(h, this.y[i]!);
      h = fnv1aWord(h, this.vx[i]!);
      h = fnv1aWord(h, this.vy[i]!);
    }
    return h;
  }
}

/** Reflects a coordinate off the arena walls (and the velocity with it). */
function bounce(velocity: Int32Array, i: number, next: number): number {
  if (next < 0) {
    velocity[i] = -velocity[i]!;
    return clamp(-next);
  }
  if (next > ARENA) {
    velocity[i] = -velocity[i]!;
    return clamp(2 * ARENA - next);
  }
  return next;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > ARENA ? ARENA : v;
}
