// Land and sea from polygons (src/truth/land-mask.ts).
import { describe, expect, it } from 'vitest';
import { LandMask } from '../../src/truth/land-mask.js';

describe('LandMask', () => {
  // A square island 2° across with a square lagoon 1° across in it (a hole, wound the other way).
  const island = [
    [
      [10, 10],
      [12, 10],
      [12, 12],
      [10, 12],
      [10, 10],
    ],
    [
      [10.5, 10.5],
      [10.5, 11.5],
      [11.5, 11.5],
      [11.5, 10.5],
      [10.5, 10.5],
    ],
  ];
  const mask = new LandMask([island], { west: 9, south: 9, east: 13, north: 13 }, 0.01);

  it.each([
    [10.2, 10.2, true],
    [11.8, 11.9, true],
    [11, 11, false], // the lagoon
    [9.5, 9.5, false],
    [12.5, 11, false],
    [50, 50, false], // outside the area: sea
  ])('at %f° N %f° E: land %s', (lat, lon, land) => {
    expect(mask.isLand(lat, lon)).toBe(land);
  });

  it('measures the land: the island less its lagoon, 3 of the 16 square degrees', () => {
    expect(mask.landShare()).toBeCloseTo(3 / 16, 2);
  });

  it('takes the union of several polygons, and of polygons cut at a cell edge', () => {
    const west = [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ],
    ];
    const east = [
      [
        [1, 0],
        [2, 0],
        [2, 1],
        [1, 1],
        [1, 0],
      ],
    ];
    const joined = new LandMask([west, east], { west: -1, south: -1, east: 3, north: 2 }, 0.01);
    for (const lon of [0.5, 0.999, 1.001, 1.5]) expect(joined.isLand(0.5, lon), String(lon)).toBe(true);
    expect(joined.isLand(0.5, 2.5)).toBe(false);
  });
});
