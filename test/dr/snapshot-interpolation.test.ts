import { describe, expect, it } from 'vitest';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { InterpolationStatus, SnapshotInterpolationBuffer } from '../../src/dr/receiver/snapshot-interpolation.js';

/** Angle of the rotation between two ψθφ orientations, from the trace of Ra·Rbᵀ (rad). */
function rotationAngle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ra = worldToBodyFromEuler(new Float64Array(9), a[0]!, a[1]!, a[2]!);
  const rb = worldToBodyFromEuler(new Float64Array(9), b[0]!, b[1]!, b[2]!);
  let trace = 0;
  for (let i = 0; i < 9; i++) trace += ra[i]! * rb[i]!;
  return Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2)));
}

const position = new Float64Array(3);
const orientation = new Float64Array(3);

describe('snapshot interpolation buffer', () => {
  it('interpolates position linearly and orientation along the short arc between bracketing states', () => {
    const buffer = new SnapshotInterpolationBuffer({ slots: 4, delaySeconds: 0.1 });
    buffer.add(2, 1.0, [6_378_137, 0, 0], [0.1, 0, 0]);
    buffer.add(2, 1.2, [6_378_147, 20, -4], [0.3, 0.2, 0]);
    expect(buffer.sample(2, 1.2, position, orientation)).toBe(InterpolationStatus.INTERPOLATED);
    expect(position[0]).toBeCloseTo(6_378_142, 6);
    expect(position[1]).toBeCloseTo(10, 9);
    expect(position[2]).toBeCloseTo(-2, 9);
    // The geodesic midpoint: half the rotation angle from each end (Euler angles themselves are not lerped).
    const total = rotationAngle([0.1, 0, 0], [0.3, 0.2, 0]);
    expect(rotationAngle([0.1, 0, 0], orientation)).toBeCloseTo(total / 2, 9);
    expect(rotationAngle(orientation, [0.3, 0.2, 0])).toBeCloseTo(total / 2, 9);
    expect(orientation[0]).toBeCloseTo(0.2, 2);
  });

  it('slerps through ψ = ±π instead of spinning the long way round', () => {
    const buffer = new SnapshotInterpolationBuffer({ slots: 1, delaySeconds: 0 });
    buffer.add(0, 0, [0, 0, 0], [Math.PI - 0.1, 0, 0]);
    buffer.add(0, 1, [0, 0, 0], [-Math.PI + 0.1, 0, 0]);
    buffer.sample(0, 0.5, position, orientation);
    expect(Math.abs(orientation[0]!)).toBeCloseTo(Math.PI, 6);
  });

  it('reports beyond-newest with the time to dead-reckon, and before-oldest', () => {
    const buffer = new SnapshotInterpolationBuffer({ slots: 1, delaySeconds: 0.1 });
    expect(buffer.sample(0, 5, position, orientation)).toBe(InterpolationStatus.EMPTY);
    buffer.add(0, 1, [1, 2, 3], [0, 0, 0]);
    buffer.add(0, 2, [2, 2, 3], [0, 0, 0]);
    expect(buffer.sample(0, 2.35, position, orientation)).toBe(InterpolationStatus.BEYOND_NEWEST);
    expect(buffer.beyondNewestSeconds).toBeCloseTo(0.25, 12);
    expect(Array.from(position)).toEqual([2, 2, 3]);
    expect(buffer.sample(0, 0.5, position, orientation)).toBe(InterpolationStatus.BEFORE_OLDEST);
    expect(Array.from(position)).toEqual([1, 2, 3]);
  });

  it('returns the newest and oldest states exactly as added, Euler angles included', () => {
    const buffer = new SnapshotInterpolationBuffer({ slots: 1, delaySeconds: 0 });
    // Nose straight up (θ = π/2) and ψ beyond π: a trip through a rotation would give ψ, φ other values.
    const oldest = [Math.PI + 0.5, Math.PI / 2, 0.2],
      newest = [0.3, Math.PI / 2, -0.4];
    buffer.add(0, 1, [1, 2, 3], oldest);
    buffer.add(0, 2, [4, 5, 6], newest);
    expect(buffer.sample(0, 3, position, orientation)).toBe(InterpolationStatus.BEYOND_NEWEST);
    expect(Array.from(position)).toEqual([4, 5, 6]);
    expect(Array.from(orientation)).toEqual(newest);
    expect(buffer.sample(0, 0, position, orientation)).toBe(InterpolationStatus.BEFORE_OLDEST);
    expect(Array.from(orientation)).toEqual(oldest);
  });

  it('keeps the newest states in a ring, ignores out-of-order ones, and clears a slot', () => {
    const buffer = new SnapshotInterpolationBuffer({ slots: 2, depth: 3, delaySeconds: 0 });
    for (let t = 0; t < 5; t++) expect(buffer.add(1, t, [t * 10, 0, 0], [0, 0, 0])).toBe(true);
    expect(buffer.add(1, 3.5, [0, 0, 0], [0, 0, 0])).toBe(false);
    expect(buffer.sample(1, 2.5, position, orientation)).toBe(InterpolationStatus.INTERPOLATED);
    expect(position[0]).toBeCloseTo(25, 12);
    expect(buffer.sample(1, 1.5, position, orientation)).toBe(InterpolationStatus.BEFORE_OLDEST);
    expect(position[0]).toBe(20);
    expect(buffer.sample(0, 1, position, orientation)).toBe(InterpolationStatus.EMPTY);
    buffer.clear(1);
    expect(buffer.sample(1, 2.5, position, orientation)).toBe(InterpolationStatus.EMPTY);
  });
});
