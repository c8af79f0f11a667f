// `publish --entities` puts tanks on land and ships at sea (src/stream/load-placement.ts): every point of every
// course, sampled from the generator's truth, is on the side of the coast its kind needs, by the Natural Earth land
// of the map page. Without the land map the same courses fall anywhere, tanks in Monterey Bay among them.
import { describe, expect, it } from 'vitest';
import { landAround } from '../../src/cli/land-mask.js';
import { defaultConfig } from '../../src/config/schema.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { LOAD_KINDS, LoadGenerator } from '../../src/stream/load-generator.js';
import type { LandMask } from '../../src/truth/land-mask.js';
import { DEFAULT_ORIGIN } from '../../src/truth/trajectory.js';

const around = await landAround(DEFAULT_ORIGIN.latitudeDeg, DEFAULT_ORIGIN.longitudeDeg, 25_000);
if (typeof around === 'string') throw new Error(around);
const land: LandMask = around;

/** Per kind: how many entities have a sampled point off their surface. */
function wrongSide(generator: LoadGenerator): Record<string, number> {
  const out: Record<string, number> = { tank: 0, ship: 0 };
  const lla = new Float64Array(3);
  for (let i = 0; i < generator.count; i++) {
    const kind = LOAD_KINDS[generator.kinds[i]!]!;
    if (kind.surface === 'any') continue;
    // Over one course (its longest is 760 s), every 10 s.
    for (let t = 0; t < 760; t += 10) {
      const l = generator.truthAt(i, t).location;
      ecefToGeodeticDegrees(lla, l[0]!, l[1]!, l[2]!);
      if (land.isLand(lla[0]!, lla[1]!) !== (kind.surface === 'land')) {
        out[kind.name]!++;
        break;
      }
    }
  }
  return out;
}

describe('load generator placement', () => {
  it('puts every tank’s course on land and every ship’s at sea', () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 400, rampSeconds: 0, surfaces: land });
    expect(generator.stats.unplaced).toBe(0);
    expect(wrongSide(generator)).toEqual({ tank: 0, ship: 0 });
  });

  it('without the land map puts tanks in the sea and ships on land', () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 400, rampSeconds: 0 });
    const wrong = wrongSide(generator);
    expect(wrong.tank).toBeGreaterThan(20);
    expect(wrong.ship).toBeGreaterThan(10);
  });

  it('says it could not when a kind has no room (all sea: no tank fits)', () => {
    const sea = { isLand: () => false };
    const generator = new LoadGenerator(defaultConfig(), { entities: 20, rampSeconds: 0, surfaces: sea });
    expect(generator.stats.unplaced).toBe(10); // the tanks; the ships fit anywhere
  });
});
