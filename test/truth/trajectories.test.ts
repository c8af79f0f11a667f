import { describe, expect, it } from 'vitest';
import { createTruthState, type TruthState } from '../../src/dr/owner/truth-state.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { ecefToGeodeticDegrees, headingPitchRollFromEuler } from '../../src/math/geodesy.js';
import {
  aircraftOrbit,
  circle,
  ellipse,
  figureEight,
  missile,
  recordedTrajectory,
  shipTurningCircles,
  straightLine,
  tankRoadCourse,
  zeroGParabolas,
  type TrackPoint,
  type Trajectory,
} from '../../src/truth/index.js';
import { DEFAULT_ORIGIN } from '../../src/truth/trajectory.js';

/** Fails naming the component that is off. */
function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, tolerance: number): void {
  for (let i = 0; i < want.length; i++) {
    const diff = Math.abs(got[i]! - want[i]!);
    if (!(diff <= tolerance)) {
      expect.fail(`${label}[${i}]: got ${got[i]}, want ${want[i]} (off by ${diff.toExponential(2)} > ${tolerance})`);
    }
  }
}

const TRAJECTORIES: ReadonlyArray<[string, Trajectory]> = [
  ['circle', circle({ speed: 50, radius: 400 })],
  [
    'banked climbing circle (left)',
    circle({ speed: 80, radius: 900, direction: 'left', banked: true, climbRate: 3, headingRad: 1 }),
  ],
  ['aircraft orbit', aircraftOrbit()],
  ['ellipse (banked)', ellipse({ banked: true })],
  ['figure-8 (banked)', figureEight({ banked: true })],
  ['missile', missile()],
  ['straight line with speed changes', straightLine({ headingRad: 2 })],
  ['tank road course', tankRoadCourse({ origin: { latitudeDeg: 59.7, longitudeDeg: 24.7 } })],
  ['ship turning circles', shipTurningCircles()],
  ['zero-g parabolas', zeroGParabolas({ headingRad: 0.7 })],
  [
    'recorded parabolas (the estimator)',
    recordedTrajectory('fixes', fixesOf(zeroGParabolas({ parabolas: 1 }), 1), { kind: 'air' }),
  ],
  [
    "recorded 120 km flight across the estimator's frames, fixes 8 s apart",
    recordedTrajectory('fixes', fixesOf(straightLine({ speed: 240, headingRad: 0.6, durationSeconds: 500 }), 8), {
      kind: 'air',
    }),
  ],
];

/** Fixes of `trajectory` every `stepSeconds`, as a recorder would log them. */
function fixesOf(trajectory: Trajectory, stepSeconds: number): TrackPoint[] {
  const s = createTruthState(),
    geo = new Float64Array(3);
  const points: TrackPoint[] = [];
  for (let t = 0; t <= trajectory.durationSeconds; t += stepSeconds) {
    trajectory.sample(t, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    points.push({ timeSeconds: t, latitudeDeg: geo[0]!, longitudeDeg: geo[1]!, heightM: geo[2]! });
  }
  return points;
}

const H = 1e-3;
const FRACTIONS = [0.0123, 0.1371, 0.2649, 0.3917, 0.5183, 0.6427, 0.7719, 0.9031];

describe.each(TRAJECTORIES)('%s', (_name, trajectory) => {
  const before = createTruthState();
  const at = createTruthState();
  const after = createTruthState();
  const m0 = new Float64Array(9);
  const m1 = new Float64Array(9);
  const numeric = new Float64Array(3);

  const sampleAround = (t: number) => {
    trajectory.sample(t - H, before);
    trajectory.sample(t, at);
    trajectory.sample(t + H, after);
  };
  const derivative = (pick: (s: TruthState) => Float64Array) => {
    for (let i = 0; i < 3; i++) numeric[i] = (pick(after)[i]! - pick(before)[i]!) / (2 * H);
    return numeric;
  };

  it.each(FRACTIONS)('velocity and acceleration are the derivatives of position at %s of the run', (f) => {
    sampleAround(f * trajectory.durationSeconds);
    expectClose(
      'velocity',
      at.linearVelocity,
      derivative((s) => s.location),
      1e-4,
    );
    expectClose(
      'acceleration',
      at.linearAcceleration,
      derivative((s) => s.linearVelocity),
      1e-4,
    );
  });

  it.each(FRACTIONS)('body angular velocity matches the orientation’s derivative at %s of the run', (f) => {
    sampleAround(f * trajectory.durationSeconds);
    // R(t + h)·R(t − h)ᵀ ≈ I − 2h·skew(ω) for the world-to-body matrix (docs/dis-reference.md §3.3: DR(t) = exp(−Ωt)).
    worldToBodyFromEuler(m0, before.orientation[0]!, before.orientation[1]!, before.orientation[2]!);
    worldToBodyFromEuler(m1, after.orientation[0]!, after.orientation[1]!, after.orientation[2]!);
    const r = (i: number, j: number) =>
      m1[3 * i]! * m0[3 * j]! + m1[3 * i + 1]! * m0[3 * j + 1]! + m1[3 * i + 2]! * m0[3 * j + 2]!;
    numeric[0] = (r(1, 2) - r(2, 1)) / (4 * H);
    numeric[1] = (r(2, 0) - r(0, 2)) / (4 * H);
    numeric[2] = (r(0, 1) - r(1, 0)) / (4 * H);
    expectClose('angularVelocity', at.angularVelocity, numeric, 1e-5);
  });

  it('is pure: sampling out of order gives the same state', () => {
    const t = 0.4 * trajectory.durationSeconds;
    trajectory.sample(t, at);
    const first = [...at.location, ...at.orientation];
    trajectory.sample(0.9 * trajectory.durationSeconds, before);
    trajectory.sample(t, at);
    expect([...at.location, ...at.orientation]).toEqual(first);
  });

  it('gives the same bytes forwards, backwards and in jumps (searches start where the last sample was)', () => {
    const times = Array.from({ length: 241 }, (_, i) => (i / 240) * trajectory.durationSeconds);
    const state = (t: number) => {
      trajectory.sample(t, at);
      return [...at.location, ...at.linearVelocity, ...at.linearAcceleration, ...at.orientation, ...at.angularVelocity];
    };
    const forwards = times.map(state);
    const backwards = [...times].reverse().map(state).reverse();
    const jumps = times.map((_, i) => (i * 97) % times.length); // 97 is prime to 241: every index once
    const jumped: number[][] = [];
    for (const i of jumps) jumped[i] = state(times[i]!);
    expect(backwards).toEqual(forwards);
    expect(jumped).toEqual(forwards);
  });
});

describe('trajectory specifics', () => {
  const s = createTruthState();
  const geo = new Float64Array(3);
  const hpr = new Float64Array(3);
  // Attitude in the origin's tangent frame, the flat frame the trajectories are defined in.
  const localAttitude = (state: TruthState) => {
    ecefToGeodeticDegrees(geo, state.location[0]!, state.location[1]!, state.location[2]!);
    const lat = (DEFAULT_ORIGIN.latitudeDeg * Math.PI) / 180,
      lon = (DEFAULT_ORIGIN.longitudeDeg * Math.PI) / 180;
    return headingPitchRollFromEuler(
      hpr,
      lat,
      lon,
      state.orientation[0]!,
      state.orientation[1]!,
      state.orientation[2]!,
    );
  };

  it('a circle starts at the origin, heading north, keeps its speed and closes after one orbit', () => {
    const c = circle({ speed: 100, radius: 1000 });
    expect(c.durationSeconds).toBeCloseTo((2 * Math.PI * 1000) / 100, 9);
    c.sample(0, s);
    const start = Float64Array.from(s.location);
    ecefToGeodeticDegrees(geo, start[0]!, start[1]!, start[2]!);
    expectClose('origin', geo, [DEFAULT_ORIGIN.latitudeDeg, DEFAULT_ORIGIN.longitudeDeg, 0], 1e-6);
    expectClose('heading/pitch/roll', localAttitude(s), [0, 0, 0], 1e-9);
    c.sample(c.durationSeconds / 4, s);
    expect(Math.hypot(...s.linearVelocity)).toBeCloseTo(100, 9);
    expect(Math.hypot(...s.linearAcceleration)).toBeCloseTo(100 ** 2 / 1000, 9);
    // A flat right turn: ω_z = v/R (docs/dis-reference.md §3.2).
    expectClose('angularVelocity', s.angularVelocity, [0, 0, 0.1], 1e-12);
    c.sample(c.durationSeconds, s);
    expectClose('closed', s.location, start, 1e-6);
  });

  it('an aircraft orbit banks as a coordinated turn and climbs', () => {
    const orbit = aircraftOrbit({ speed: 100, radius: 2000, climbRate: 5 });
    orbit.sample(30, s);
    const [heading, pitch, roll] = localAttitude(s);
    expect(roll).toBeCloseTo(Math.atan(100 ** 2 / (2000 * 9.80665)), 9);
    expect(pitch).toBeCloseTo(Math.atan2(5, 100), 9);
    expect(heading).toBeCloseTo((100 / 2000) * 30, 9);
    // Height above the ellipsoid: the flat tangent frame rises by distance²/2R (≈ 0.6 m at 2.7 km).
    expect(Math.abs(geo[2]! - (1000 + 150))).toBeLessThan(1);
  });

  it('the tank halts: zero speed during stops, moving between them', () => {
    const tank = tankRoadCourse();
    let stoppedSeconds = 0;
    let maxSpeed = 0;
    for (let t = 0; t <= tank.durationSeconds; t += 0.5) {
      tank.sample(t, s);
      const speed = Math.hypot(...s.linearVelocity);
      maxSpeed = Math.max(maxSpeed, speed);
      if (speed === 0) stoppedSeconds += 0.5;
    }
    expect(maxSpeed).toBeCloseTo(10, 9);
    expect(stoppedSeconds).toBeGreaterThanOrEqual(3 * 8 - 1);
    expect(stoppedSeconds).toBeLessThanOrEqual(3 * 8 + 1.5);
  });

  it('the ship comes out of both circles on its original heading', () => {
    const ship = shipTurningCircles({ headingRad: 0.5 });
    ship.sample(ship.durationSeconds - 1, s);
    expect(localAttitude(s)[0]).toBeCloseTo(0.5, 9);
  });

  it('the missile climbs along its launch line, then falls back to launch height', () => {
    const m = missile({ elevationRad: 0.6 });
    m.sample(0, s);
    expect(localAttitude(s)[1]).toBeCloseTo(0.6, 9);
    m.sample(m.durationSeconds, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    // Flat tangent frame: "launch height" is in the plane, which sits above the ellipsoid by distance²/2R.
    expect(Math.abs(geo[2]!)).toBeLessThan(1000);
    expect(localAttitude(s)[1]).toBeLessThan(-0.6);
  });
});

describe('zero-g parabolas', () => {
  const speed = 150,
    gamma = Math.PI / 4,
    pull = 8,
    level = 10;
  const flight = zeroGParabolas({
    speed,
    flightPathAngleRad: gamma,
    pullAcceleration: pull,
    levelSeconds: level,
    parabolas: 2,
  });
  const arc = gamma / (pull / speed),
    ballistic = (2 * speed * Math.sin(gamma)) / 9.80665;
  const s = createTruthState();
  const hpr = new Float64Array(3);
  // Pitch in the origin's tangent frame (the flight is at the default origin).
  const pitchAt = (t: number) => {
    flight.sample(t, s);
    const lat = (DEFAULT_ORIGIN.latitudeDeg * Math.PI) / 180,
      lon = (DEFAULT_ORIGIN.longitudeDeg * Math.PI) / 180;
    return headingPitchRollFromEuler(hpr, lat, lon, s.orientation[0]!, s.orientation[1]!, s.orientation[2]!)[1];
  };

  it('pulls up to the entry angle, falls free to the same angle nose down, and pulls out level', () => {
    expect(flight.durationSeconds).toBeCloseTo(2 * (level + 2 * arc + ballistic) + level, 9);
    expect(pitchAt(level / 2)).toBeCloseTo(0, 9);
    expect(pitchAt(level + arc)).toBeCloseTo(gamma, 6);
    expect(pitchAt(level + arc + ballistic / 2)).toBeCloseTo(0, 6);
    expect(pitchAt(level + arc + ballistic)).toBeCloseTo(-gamma, 6);
    expect(pitchAt(level + 2 * arc + ballistic + level / 2)).toBeCloseTo(0, 9);
  });

  it('is weightless on the parabola: the acceleration is gravity alone, and the speed drops to v·cos γ at the top', () => {
    for (const f of [0.1, 0.5, 0.9]) {
      flight.sample(level + arc + f * ballistic, s);
      expect(Math.hypot(...s.linearAcceleration)).toBeCloseTo(9.80665, 9);
    }
    flight.sample(level + arc + ballistic / 2, s);
    expect(Math.hypot(...s.linearVelocity)).toBeCloseTo(speed * Math.cos(gamma), 6);
    // Back at the start height after each parabola (within the tangent plane's drop over the distance flown).
    flight.sample(0, s);
    const start = ecefToGeodeticDegrees(new Float64Array(3), s.location[0]!, s.location[1]!, s.location[2]!)[2]!;
    flight.sample(level + 2 * arc + ballistic + level, s);
    const end = ecefToGeodeticDegrees(new Float64Array(3), s.location[0]!, s.location[1]!, s.location[2]!)[2]!;
    expect(Math.abs(end - start)).toBeLessThan(20);
  });
});

describe('step samplers (angle addition between closed-form anchors)', () => {
  const RATE_HZ = 60;
  const parametric: ReadonlyArray<[string, Trajectory]> = [
    ['aircraft orbit', aircraftOrbit()],
    [
      'banked climbing circle (left)',
      circle({ speed: 80, radius: 900, direction: 'left', banked: true, climbRate: 3, headingRad: 1 }),
    ],
    ['ellipse (banked)', ellipse({ banked: true })],
    ['figure-8 (banked)', figureEight({ banked: true })],
    ['missile', missile()],
  ];

  it.each(parametric)(
    '%s: every step of 10 minutes at 60 Hz agrees with sample() within 1e-9 m',
    (_name, trajectory) => {
      const step = trajectory.stepSampler!(RATE_HZ);
      const stepped = createTruthState();
      const closed = createTruthState();
      for (let k = 0; k <= 600 * RATE_HZ; k++) {
        step(k, stepped);
        trajectory.sample(k / RATE_HZ, closed);
        expectClose(`location at step ${k}`, stepped.location, closed.location, 1e-9);
        expectClose(`velocity at step ${k}`, stepped.linearVelocity, closed.linearVelocity, 1e-11);
        expectClose(`acceleration at step ${k}`, stepped.linearAcceleration, closed.linearAcceleration, 1e-11);
        expectClose(`angular velocity at step ${k}`, stepped.angularVelocity, closed.angularVelocity, 1e-13);
        expectClose(`orientation at step ${k}`, stepped.orientation, closed.orientation, 1e-12);
      }
    },
  );

  it('a step out of sequence (and every anchor step) is the closed form to the bit', () => {
    const trajectory = aircraftOrbit();
    const step = trajectory.stepSampler!(RATE_HZ);
    const stepped = createTruthState();
    const closed = createTruthState();
    // Each of these follows a step other than its predecessor, or is a multiple of the anchor interval (64).
    for (const k of [0, 500, 448, 63, 512]) {
      step(k, stepped);
      trajectory.sample(k / RATE_HZ, closed);
      expect([...stepped.location, ...stepped.orientation], `step ${k}`).toEqual([
        ...closed.location,
        ...closed.orientation,
      ]);
    }
  });
});
