import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createFloat64Arena } from '../../src/dr/models/simd-kernel.js';
import { DrStore, extrapolateLinear } from '../../src/dr/models/store.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';

/** The quadratic P0 + (V + ½A·dt)·dt written out, as the reference the kernel must match to the bit. */
function referenceQuadratic(
  p: Float64Array,
  v: Float64Array,
  a: Float64Array,
  t0: Float64Array,
  t: number,
  count: number,
): Float64Array {
  const out = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    const dt = t - t0[i]!;
    for (let k = 0; k < 3; k++) out[3 * i + k] = p[3 * i + k]! + (v[3 * i + k]! + a[3 * i + k]! * dt) * dt;
  }
  return out;
}

describe('WebAssembly SIMD quadratic kernel', () => {
  it('is available on the supported Node versions (else every table would silently run the slower loop)', () => {
    const arena = createFloat64Arena(1000);
    expect(arena).not.toBeNull();
    expect(arena!.allocate(1000)).toHaveLength(1000);
    // Bounded: what does not fit is null, never a view past the end.
    expect(arena!.allocate(arena!.buffer.byteLength / 8)).toBeNull();
  });

  it('falls back to plain arrays where compiling is refused (a page whose CSP lacks wasm-unsafe-eval)', async () => {
    const real = (globalThis as unknown as { WebAssembly: { validate: unknown } }).WebAssembly;
    vi.resetModules();
    vi.stubGlobal('WebAssembly', {
      ...real,
      validate: real.validate,
      Module: function Refused() {
        throw new Error('WebAssembly.Module(): Compiling or instantiating WebAssembly module violates the CSP');
      },
    });
    try {
      const kernel = await import('../../src/dr/models/simd-kernel.js');
      const { RemoteEntityTable: FreshTable } = await import('../../src/dr/receiver/remote-entity-table.js');
      expect(kernel.createFloat64Arena(1000)).toBeNull();
      const table = new FreshTable({ capacity: 100 });
      table.extrapolate(1);
      expect(table.location).toHaveLength(300);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('equals the scalar quadratic bit for bit, for even and odd counts and any values', () => {
    const finite = fc.double({ min: -1e7, max: 1e7, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 80 }),
        fc.array(finite, { minLength: 10 * 80, maxLength: 10 * 80 }),
        finite,
        (count, values, t) => {
          const capacity = 80;
          const arena = createFloat64Arena(4 * 3 * capacity + capacity)!;
          const store = new DrStore(capacity, arena);
          const t0 = arena.allocate(capacity)!,
            out = arena.allocate(3 * capacity)!;
          for (let j = 0; j < 3 * capacity; j++) {
            store.location0[j] = values[j]!;
            store.velocityWorld[j] = values[3 * capacity + j]! / 1e4;
            store.halfAccelerationWorld[j] = values[6 * capacity + j]! / 1e6;
          }
          for (let i = 0; i < capacity; i++) t0[i] = values[9 * capacity + i]! / 1e3;
          extrapolateLinear(store, count, t0, t, out);
          const expected = referenceQuadratic(
            store.location0,
            store.velocityWorld,
            store.halfAccelerationWorld,
            t0,
            t,
            count,
          );
          expect(Array.from(out.subarray(0, 3 * count))).toEqual(Array.from(expected));
          expect(out.subarray(3 * count).every((x) => x === 0)).toBe(true); // nothing written past count
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is what a large table runs on, with its arrays in the arena', () => {
    const table = new RemoteEntityTable({ capacity: 1000 });
    const arena = table.store.arena;
    expect(arena).not.toBeNull();
    for (const array of [
      table.location,
      table.displayLocation,
      table.referenceSeconds,
      table.store.location0,
      table.store.halfAccelerationWorld,
    ]) {
      expect(array.buffer).toBe(arena!.buffer);
    }
    // Small tables (one entity per experiment run) keep plain arrays: a call into WebAssembly costs more there.
    expect(new RemoteEntityTable({ capacity: 1 }).store.arena).toBeNull();
  });
});
