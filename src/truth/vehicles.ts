/**
 * Ready-made ground and sea courses built on `pathTrajectory`: a straight line with speed changes, a tank road
 * course with stops and turns, and a ship's turning circles.
 */
import { pathTrajectory, stopAndGoKnots, type PathOptions, type PathSegment, type SpeedKnot } from './path.js';
import type { Trajectory } from './trajectory.js';

const DEG = Math.PI / 180;

/** Options of `straightLine`. */
export interface StraightLineOptions extends PathOptions {
  /**
   * Speed knots, m/s; the speed ramps linearly between them. Defaults to 10 m/s, up to 20 m/s between 20 and
   * 30 s, down to 5 m/s between 60 and 65 s.
   */
  readonly speeds?: readonly SpeedKnot[];
  /** Constant speed, m/s, instead of `speeds`. */
  readonly speed?: number;
  /** Total time, s. Defaults to 120. */
  readonly durationSeconds?: number;
}

/** A straight line, at constant speed or with speed changes. */
export function straightLine(options: StraightLineOptions = {}): Trajectory {
  const knots: readonly SpeedKnot[] =
    options.speed !== undefined
      ? [{ timeSeconds: 0, speed: options.speed }]
      : (options.speeds ?? [
          { timeSeconds: 0, speed: 10 },
          { timeSeconds: 20, speed: 10 },
          { timeSeconds: 30, speed: 20 },
          { timeSeconds: 60, speed: 20 },
          { timeSeconds: 65, speed: 5 },
        ]);
  return pathTrajectory('straight-line', [], knots, { durationSeconds: 120, ...options });
}

/** Options of `tankRoadCourse`. */
export interface TankRoadCourseOptions extends PathOptions {
  /** Cruise speed, m/s. Defaults to 10 (36 km/h). */
  readonly speed?: number;
  /** m/s². Defaults to 1.5. */
  readonly accelerationMps2?: number;
  /** Braking, m/s². Defaults to 2.5. */
  readonly decelerationMps2?: number;
  /** Time at each stop, s. Defaults to 8. */
  readonly stopSeconds?: number;
}

/** What `pathTrajectory` is built from: the course of a vehicle as segments and a speed schedule. */
export interface PathPlan {
  readonly name: string;
  readonly segments: readonly PathSegment[];
  readonly knots: readonly SpeedKnot[];
  readonly options: PathOptions & { readonly durationSeconds?: number };
}

/**
 * A tank on a road course of about 2.7 km: straights joined by 35–60 m radius turns (at most ≈ 2.9 m/s²
 * lateral at 10 m/s), starting from rest, with two halts on the way and one at the end.
 */
export function tankRoadCourse(options: TankRoadCourseOptions = {}): Trajectory {
  const plan = tankRoadCoursePlan(options);
  return pathTrajectory(plan.name, plan.segments, plan.knots, plan.options);
}

/** The segments and speeds of `tankRoadCourse`. */
export function tankRoadCoursePlan(options: TankRoadCourseOptions = {}): PathPlan {
  const segments: PathSegment[] = [
    { line: 300 },
    { arc: { radius: 40, angleRad: 90 * DEG } },
    { line: 200 },
    { arc: { radius: 35, angleRad: -90 * DEG } },
    { line: 400 },
    { arc: { radius: 60, angleRad: 120 * DEG } },
    { line: 250 },
    { arc: { radius: 40, angleRad: 60 * DEG } },
    { line: 350 },
    { arc: { radius: 50, angleRad: -45 * DEG } },
    { line: 300 },
  ];
  const lengths = segments.map((s) => ('line' in s ? s.line : s.arc.radius * Math.abs(s.arc.angleRad)));
  const cumulative = lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const total = cumulative[cumulative.length - 1]!;
  // Halts at the ends of the second and fifth straights.
  const knots = stopAndGoKnots(
    total,
    [cumulative[2]!, cumulative[6]!],
    options.speed ?? 10,
    options.accelerationMps2 ?? 1.5,
    options.decelerationMps2 ?? 2.5,
    options.stopSeconds ?? 8,
  );
  return { name: 'tank-road-course', segments, knots, options };
}

/** Options of `shipTurningCircles`. */
export interface ShipTurningCirclesOptions extends PathOptions {
  /** m/s. Defaults to 7 (13.6 kn). */
  readonly speed?: number;
  /** Turning-circle radius, m. Defaults to 250. */
  readonly radius?: number;
  /** Straight run before, between and after the circles, m. Defaults to 600. */
  readonly straightLength?: number;
}

/** A ship's manoeuvring trial: a straight run, a full turn to starboard, a straight run, a full turn to port, a run out. */
export function shipTurningCircles(options: ShipTurningCirclesOptions = {}): Trajectory {
  const plan = shipTurningCirclesPlan(options);
  return pathTrajectory(plan.name, plan.segments, plan.knots, plan.options);
}

/** The segments and speed of `shipTurningCircles`. */
export function shipTurningCirclesPlan(options: ShipTurningCirclesOptions = {}): PathPlan {
  const radius = options.radius ?? 250;
  const straight = options.straightLength ?? 600;
  const speed = options.speed ?? 7;
  const segments: PathSegment[] = [
    { line: straight },
    { arc: { radius, angleRad: 2 * Math.PI } },
    { line: straight },
    { arc: { radius, angleRad: -2 * Math.PI } },
    { line: straight },
  ];
  const length = 3 * straight + 4 * Math.PI * radius;
  return {
    name: 'ship-turning-circles',
    segments,
    knots: [{ timeSeconds: 0, speed }],
    options: { durationSeconds: length / speed, ...options },
  };
}
