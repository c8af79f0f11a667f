/**
 * A simulation loop that moves 1,000 ships and publishes them as a fleet: each tick writes every ship's truth into
 * the fleet's typed arrays (ECEF location, velocity, acceleration, world-to-body matrix, body rates), then
 * `fleet.publish(t)` decides all of them in one pass and sends only the PDUs receivers need, bundled.
 * Watch it with `reckon view --port 3000` or `reckon subscribe`.
 *
 *   npx tsx examples/publish-fleet.ts [seconds=30] [port=3000] [ships=1000]
 */
import { createPublisher } from '../src/index.js';
import { createRandom } from '../src/math/index.js';
import { LocalFrame } from '../src/truth/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);
const count = Number(process.argv[4] ?? 1000);
const rateHz = 10;

const publisher = await createPublisher({ network: { address: '127.0.0.1', port } });
const ships = Array.from({ length: count }, (_, k) => ({
  entity: k + 1,
  marking: `SHIP ${k + 1}`,
  entityType: { kind: 1, domain: 3, country: 225 },
  algorithm: 'auto' as const,
}));
const fleet = publisher.fleet(ships, { attitude: 'matrix' });

// The simulation: each ship sails a circle of its own, somewhere in a 40 km square of Monterey Bay.
const bay = new LocalFrame({ latitudeDeg: 36.75, longitudeDeg: -122.05 });
const m = bay.ecefToNed, // rows: the north, east and down unit vectors in ECEF
  origin = bay.originEcef;
const random = createRandom(7);
const sim = ships.map(() => ({
  north: random.uniform(-20e3, 20e3),
  east: random.uniform(-20e3, 20e3),
  radius: random.uniform(200, 3000), // m
  speed: random.uniform(3, 12), // m/s
  phase: random.uniform(0, 2 * Math.PI),
}));
const { location, linearVelocity, linearAcceleration, worldToBody, angularVelocity } = fleet.truth;

function step(t: number): void {
  for (let k = 0; k < count; k++) {
    const s = sim[k]!,
      rate = s.speed / s.radius, // rad/s, turning right
      heading = s.phase + rate * t,
      c = Math.cos(heading),
      sn = Math.sin(heading);
    // North and east of the position, velocity and (centripetal) acceleration; ECEF = origin + Mᵀ·local.
    const n = s.north + s.radius * sn,
      e = s.east - s.radius * c;
    for (let i = 0; i < 3; i++) {
      location[3 * k + i] = origin[i]! + m[i]! * n + m[3 + i]! * e;
      linearVelocity[3 * k + i] = s.speed * (m[i]! * c + m[3 + i]! * sn);
      linearAcceleration[3 * k + i] = s.speed * rate * (m[3 + i]! * c - m[i]! * sn);
      // R_wb's rows: forward (along the heading), right, down.
      worldToBody[9 * k + i] = c * m[i]! + sn * m[3 + i]!;
      worldToBody[9 * k + 3 + i] = c * m[3 + i]! - sn * m[i]!;
      worldToBody[9 * k + 6 + i] = m[6 + i]!;
    }
    angularVelocity[3 * k + 2] = rate; // about the body's down axis
  }
}

console.log(`${count} ships at ${rateHz} Hz for ${seconds} s to 127.0.0.1:${port}`);
const started = performance.now();
let pdus = 0,
  ticks = 0;
const timer = setInterval(async () => {
  const t = (performance.now() - started) / 1000;
  step(t);
  pdus += fleet.publish(t);
  ticks++;
  if (t < seconds) return;
  clearInterval(timer);
  await publisher.close(); // sends every ship's leave notice
  const everyTick = ticks * count;
  console.log(`${pdus} PDUs for ${count} ships in ${seconds} s, instead of ${everyTick} at ${rateHz} Hz`);
}, 1000 / rateHz);
