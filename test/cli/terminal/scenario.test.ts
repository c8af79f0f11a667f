// The demo's cast placed at an origin: Monterey Bay by default, elsewhere with the same layout a few km apart.
import { describe, expect, it } from 'vitest';
import { demoActors } from '../../../src/cli/terminal/scenario.js';
import { createTruthState } from '../../../src/dr/owner/truth-state.js';
import { ecefToGeodeticDegrees } from '../../../src/math/geodesy.js';

/** Latitude and longitude (degrees) of each actor at its start time. */
function places(origin?: { latitudeDeg: number; longitudeDeg: number }): Array<[string, number, number]> {
  const state = createTruthState();
  const lla = new Float64Array(3);
  return demoActors(origin).map((a) => {
    const { location } = a.trajectory.sample(a.startSeconds, state);
    ecefToGeodeticDegrees(lla, location[0]!, location[1]!, location[2]!);
    return [a.name, lla[0]!, lla[1]!];
  });
}

/** Great-circle distance on a 6371 km sphere, km: enough to tell Munich from Monterey. */
function km(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('demoActors', () => {
  it('puts the cast in Monterey Bay by default', () => {
    for (const [name, lat, lon] of places()) expect(km(lat, lon, 36.6, -121.87), name).toBeLessThan(20);
  });

  it('puts the cast within 20 km of another origin, in the same layout', () => {
    const monterey = places();
    const munich = places({ latitudeDeg: 48.1, longitudeDeg: 11.6 });
    for (const [i, [name, lat, lon]] of munich.entries()) {
      expect(km(lat, lon, 48.1, 11.6), name).toBeLessThan(20);
      expect(lat - 48.1).toBeCloseTo(monterey[i]![1] - 36.5973, 3);
    }
  });
});
