/**
 * The player input of the lockstep simulation: six buttons packed into the low 6 bits of a number, so that a
 * frame's input is one byte in memory and 6 bits on the wire.
 */
import { hash32 } from './hash.js';

export const INPUT_LEFT = 1 << 0;
export const INPUT_RIGHT = 1 << 1;
export const INPUT_UP = 1 << 2;
export const INPUT_DOWN = 1 << 3;
export const INPUT_SPACE = 1 << 4;
export const INPUT_Z = 1 << 5;
/** Bits of one input on the wire. */
export const INPUT_BITS = 6;
export const INPUT_MASK = (1 << INPUT_BITS) - 1;

/** The six buttons as booleans, for callers that read a keyboard or a gamepad. */
export interface InputButtons {
  readonly left: boolean;
  readonly right: boolean;
  readonly up: boolean;
  readonly down: boolean;
  readonly space: boolean;
  readonly z: boolean;
}

/** Packs six buttons into an input byte. */
export function packInput(buttons: InputButtons): number {
  return (
    (buttons.left ? INPUT_LEFT : 0) |
    (buttons.right ? INPUT_RIGHT : 0) |
    (buttons.up ? INPUT_UP : 0) |
    (buttons.down ? INPUT_DOWN : 0) |
    (buttons.space ? INPUT_SPACE : 0) |
    (buttons.z ? INPUT_Z : 0)
  );
}

/** Unpacks an input byte into six buttons. */
export function unpackInput(input: number): InputButtons {
  return {
    left: (input & INPUT_LEFT) !== 0,
    right: (input & INPUT_RIGHT) !== 0,
    up: (input & INPUT_UP) !== 0,
    down: (input & INPUT_DOWN) !== 0,
    space: (input & INPUT_SPACE) !== 0,
    z: (input & INPUT_Z) !== 0,
  };
}

/**
 * A deterministic bot standing in for a keyboard: it holds a button combination for a while (8 to 64 frames,
 * like a person does) and then picks another. A pure function of its arguments.
 * @param seed - the run's seed.
 * @param player - player index.
 * @param frame - frame number, ≥ 0.
 */
export function botInput(seed: number, player: number, frame: number): number {
  // Hold lengths come from a hash of a coarse time block so that every frame can be computed on its own.
  const block = frame >>> 6;
  const offset = hash32(seed, player, block) & 63;
  const segment = frame - block * 64 < offset ? block * 2 : block * 2 + 1;
  return hash32(seed ^ 0x5bd1e995, player, segment) & INPUT_MASK;
}
