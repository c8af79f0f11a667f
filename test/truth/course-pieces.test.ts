// Courses as tables of pieces (src/truth/course-pieces.ts) against the trajectories they stand for: every course of
// the load generator, placed by a turn and an offset, equals its `Trajectory` moved rigidly (computed apart, as a
// rotation about the origin's vertical in ECEF), at random times and just either side of every piece's start.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CourseSet } from '../../src/truth/course-pieces.js';
import { aircraftOrbitOptions, circle } from '../../src/truth/parametric.js';
import { SortedLookup, pathTrajectory, type SpeedKnot } from '../../src/truth/path.js';
import { DEFAULT_ORIGIN, LocalFrame, createTruthWithAttitude, type Trajectory } from '../../src/truth/trajectory.js';
import { shipTurningCirclesPlan, tankRoadCoursePlan, type PathPlan } from '../../src/truth/vehicles.js';
import { expectClose } from '../support/close.js';

const frame = new LocalFrame(DEFAULT_ORIGIN);
const origin = DEFAULT_ORIGIN;

/** The trajectory of a plan, built as `tankRoadCourse` and `shipTurningCircles` build it. */
const fromPlan = (plan: PathPlan): Trajectory => pathTrajectory(plan.name, plan.segments, plan.knots, plan.options);

const courses: Array<{ name: string; trajectory: Trajectory; add: (set: CourseSet) => number; breaks: number[] }> = [];
for (const speed of [8, 10, 12]) {
  const plan = tankRoadCoursePlan({ origin, speed });
  courses.push({
    name: `tank ${speed}`,
    trajectory: fromPlan(plan),
    add: (s) => s.addPath(plan),
    breaks: knotTimes(plan.knots),
  });
}
for (const [speed, radius] of [
  [5, 200],
  [7, 250],
  [9, 400],
] as const) {
  const plan = shipTurningCirclesPlan({ origin, speed, radius });
  // Constant speed: the segments start at distance / speed.
  const starts = [600, 600 + 2 * Math.PI * radius, 1200 + 2 * Math.PI * radius, 1200 + 4 * Math.PI * radius];
  courses.push({
    name: `ship ${speed}`,
    trajectory: fromPlan(plan),
    add: (s) => s.addPath(plan),
    breaks: starts.map((d) => d / speed),
  });
}
for (const [speed, radius, direction] of [
  [100, 2000, 'right'],
  [120, 3000, 'left'],
  [150, 5000, 'right'],
] as const) {
  const options = aircraftOrbitOptions({ origin, speed, radius, direction, headingRad: 0.7 });
  courses.push({
    name: `orbit ${speed} ${direction}`,
    trajectory: circle(options, 'aircraft-orbit'),
    add: (s) => s.addCircle(options),
    breaks: [],
  });
}
// A path that starts late, stops, turns both ways and runs on past its end, level but up in the air.
const winding: PathPlan = {
  name: 'winding',
  segments: [
    { line: 50 },
    { arc: { radius: 20, angleRad: 2 } },
    { line: 0 },
    { arc: { radius: 30, angleRad: -3 } },
    { line: 40 },
  ],
  knots: [
    { timeSeconds: 2, speed: 3 },
    { timeSeconds: 10, speed: 9 },
    { timeSeconds: 14, speed: 0 },
    { timeSeconds: 20, speed: 0 },
    { timeSeconds: 24, speed: 6 },
  ],
  options: { origin, headingRad: -1.2, altitudeM: 300, durationSeconds: 60 },
};
courses.push({
  name: 'winding',
  trajectory: fromPlan(winding),
  add: (s) => s.addPath(winding),
  breaks: [2, 10, 14, 20, 24],
});

function knotTimes(knots: readonly SpeedKnot[]): number[] {
  return knots.map((k) => k.timeSeconds);
}

/** The trajectory's ECEF state at tau, turned by θ about the origin's vertical and moved (north, east): G·p + c. */
function movedRigidly(trajectory: Trajectory, tau: number, theta: number, north: number, east: number) {
  const truth = trajectory.sample(tau, createTruthWithAttitude(true)) as ReturnType<typeof createTruthWithAttitude>;
  const m = frame.ecefToNed,
    o = frame.originEcef;
  // G = Mᵀ·Rz(θ)·M with Rz the turn (n, e, d) → (c·n − s·e, s·n + c·e, d).
  const c = Math.cos(theta),
    s = Math.sin(theta);
  const rz = [c, -s, 0, s, c, 0, 0, 0, 1];
  const g = new Float64Array(9);
  for (let row = 0; row < 3; row++)
    for (let col = 0; col < 3; col++)
      for (let a = 0; a < 3; a++)
        for (let b = 0; b < 3; b++) g[3 * row + col]! += m[3 * a + row]! * rz[3 * a + b]! * m[3 * b + col]!;
  const apply = (v: ArrayLike<number>) =>
    [0, 1, 2].map((r) => g[3 * r]! * v[0]! + g[3 * r + 1]! * v[1]! + g[3 * r + 2]! * v[2]!);
  const relative = [0, 1, 2].map((k) => truth.location[k]! - o[k]!);
  const location = apply(relative).map((x, k) => x + o[k]! + m[k]! * north + m[3 + k]! * east);
  // R' = R·Gᵀ: row r of R turned by G.
  const worldToBody = [0, 1, 2].flatMap((r) => apply(truth.worldToBody.subarray(3 * r, 3 * r + 3)));
  return {
    location,
    velocity: apply(truth.linearVelocity),
    acceleration: apply(truth.linearAcceleration),
    angularVelocity: [...truth.angularVelocity],
    worldToBody,
  };
}

describe('CourseSet', () => {
  it.each(courses.map((c) => [c.name, c] as const))('%s: the trajectory, turned and moved', (_, course) => {
    const set = new CourseSet(frame);
    const k = course.add(set);
    expect(set.durationSeconds(k)).toBeCloseTo(course.trajectory.durationSeconds, 9);
    const duration = course.trajectory.durationSeconds;
    const times = new Float64Array(1),
      placement = new Float64Array(4);
    const out = {
      location: new Float64Array(3),
      velocity: new Float64Array(3),
      acceleration: new Float64Array(3),
      angularVelocity: new Float64Array(3),
      worldToBody: new Float64Array(9),
    };
    const check = (tau: number, theta: number, north: number, east: number): void => {
      times[0] = tau;
      placement.set([Math.cos(theta), Math.sin(theta), north, east]);
      set.write(
        k,
        times,
        0,
        placement,
        0,
        out.location,
        out.velocity,
        out.acceleration,
        out.angularVelocity,
        out.worldToBody,
        0,
        0,
      );
      const want = movedRigidly(course.trajectory, tau, theta, north, east);
      const at = `${course.name} at ${tau} s, turned ${theta}`;
      expectClose(out.location, want.location, 2e-6, `${at}: location`);
      expectClose(out.velocity, want.velocity, 1e-9, `${at}: velocity`);
      expectClose(out.acceleration, want.acceleration, 1e-9, `${at}: acceleration`);
      expectClose(out.worldToBody, want.worldToBody, 1e-12, `${at}: R_wb`);
      expectClose(out.angularVelocity, want.angularVelocity, 1e-13, `${at}: body rates`);
    };
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1.2 * duration, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -20_000, max: 20_000, noNaN: true }),
        fc.double({ min: -20_000, max: 20_000, noNaN: true }),
        (tau, theta, north, east) => check(tau, theta, north, east),
      ),
      { numRuns: 300 },
    );
    // Either side of where a piece starts (at the start itself either side's derivatives are right).
    for (const t of course.breaks) for (const d of [-1e-6, 1e-6]) check(t + d, 2.1, 1500, -700);
  });

  it('refuses a course of another origin', () => {
    const set = new CourseSet(frame);
    expect(() => set.addCircle({ origin: { latitudeDeg: 10, longitudeDeg: 20 } })).toThrow(/one origin/);
  });
});

describe('SortedLookup', () => {
  it('finds the last index at or before any value, as a scan does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.oneof(fc.double({ min: -2e3, max: 2e3 }), fc.constantFrom(-Infinity, Infinity, Number.NaN))),
        (raw, queries) => {
          // Sorted, with repeats kept (and some added).
          const values = Float64Array.from([...raw, ...raw.slice(0, 3)].sort((a, b) => a - b));
          const lookup = new SortedLookup(values);
          for (const x of [...queries, ...values]) {
            let expected = -1;
            for (let i = 0; i < values.length; i++) if (values[i]! <= x) expected = i;
            expect(lookup.lastAtOrBefore(x), `last at or before ${x} in ${values}`).toBe(expected);
          }
        },
      ),
    );
  });
});
