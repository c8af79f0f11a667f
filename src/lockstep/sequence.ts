/**
 * 16-bit sequence numbers with wrap-around. Frames count up from 0 without bound on each side; only their low
 * 16 bits go on the wire, and the receiver restores the full number from the nearest one it already knows.
 */

/** The wire form of a frame number. */
export function toSequence(frame: number): number {
  return frame & 0xffff;
}

/** Signed distance a − b between two 16-bit sequence numbers, in [−32768, 32767]. */
export function sequenceDifference(a: number, b: number): number {
  return ((((a - b) & 0xffff) + 0x8000) & 0xffff) - 0x8000;
}

/** True when `a` comes after `b`, wrap-around included. */
export function isSequenceNewer(a: number, b: number): boolean {
  return sequenceDifference(a, b) > 0;
}

/**
 * The full frame number whose low 16 bits are `sequence` and which lies closest to `referenceFrame`.
 * @param sequence - 16-bit wire value.
 * @param referenceFrame - a full frame number known to be within ±32767 frames of the answer.
 */
export function unwrapSequence(sequence: number, referenceFrame: number): number {
  return referenceFrame + sequenceDifference(sequence, toSequence(referenceFrame));
}
