// The land around a place from the Natural Earth 1:10m cells the package ships for the map (src/cli/land-mask.ts),
// checked at places whose side of the coast is known.
import { describe, expect, it } from 'vitest';
import { landAround } from '../../src/cli/land-mask.js';

describe('the land around Monterey, from the map page’s Natural Earth 1:10m cells', async () => {
  const mask = await landAround(36.5973, -121.8731, 25_000);
  if (typeof mask === 'string') throw new Error(mask);

  it.each([
    ['Monterey Bay, off Moss Landing', 36.8, -121.9, false],
    ['the Pacific west of Point Pinos', 36.64, -122.05, false],
    ['the bay off Monterey harbour', 36.63, -121.86, false],
    ['Salinas', 36.677, -121.655, true],
    ['Carmel Valley', 36.48, -121.73, true],
    ['Seaside', 36.61, -121.84, true],
    ['Fort Ord', 36.66, -121.77, true],
  ])('%s is %s land', (_place, lat, lon, land) => {
    expect(mask.isLand(lat, lon)).toBe(land);
  });

  it('holds land and sea both (the load generator places tanks on one, ships on the other)', () => {
    expect(mask.landShare()).toBeGreaterThan(0.3);
    expect(mask.landShare()).toBeLessThan(0.8);
  });

  it('says why there is none without the built page', async () => {
    expect(await landAround(36.6, -121.9, 1000, '/nonexistent')).toMatch(/^no land polygons .*; run npm run build$/);
  });
});
