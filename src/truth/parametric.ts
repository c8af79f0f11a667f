/**
 * Closed-form trajectories given by a position formula and its first three derivatives: circles (and the
 * climbing orbit), ellipses, figure-8s and a missile. Attitude follows the velocity; aircraft bank as in a
 * coordinated turn.
 */
import type { TruthState } from '../dr/owner/truth-state.js';
import { sinCos } from '../math/trig.js';
import {
  STANDARD_GRAVITY,
  LocalFrame,
  alignAttitudeWithVelocity,
  createLocalMotion,
  type Origin,
  type Trajectory,
} from './trajectory.js';

/** Options every parametric trajectory takes. */
export interface ParametricOptions {
  /** Start of the local frame. Defaults to `DEFAULT_ORIGIN` (Monterey Bay, sea level). */
  readonly origin?: Origin;
  /** Height above the origin at the start, m. Defaults to 0 (1000 for the aircraft orbit). */
  readonly altitudeM?: number;
  /** Roll into turns as a coordinated aircraft does (roll = atan(lateral acceleration / g)). Defaults to false. */
  readonly banked?: boolean;
}

/** [sin, cos] of the sample's phase (one range reduction for both). */
const scratch = new Float64Array(2);

/** Steps between closed-form anchors of a step sampler's phase: drift after 64 angle additions stays < 1e-13 rad. */
const ANCHOR_STEPS = 64;

/**
 * Position and its first three derivatives (NED) at time t, given s, c = sin and cos of the phase φ0 + ω·t
 * (the one angle each curve depends on), so that a step sampler can advance them without trigonometry.
 */
type Kinematics = (
  t: number,
  s: number,
  c: number,
  p: Float64Array,
  v: Float64Array,
  a: Float64Array,
  j: Float64Array,
) => void;

/** A trajectory's phase φ(t) = initialRad + rateRadPerSecond · t. */
interface Phase {
  readonly initialRad: number;
  readonly rateRadPerSecond: number;
}

/** Builds a Trajectory from a kinematics function in the local NED frame. */
function parametric(
  name: string,
  durationSeconds: number,
  options: ParametricOptions,
  phase: Phase,
  kinematics: Kinematics,
  fallbackHeadingRad = 0,
  fallbackPitchRad = 0,
  endless = false,
): Trajectory {
  const frame = new LocalFrame(options.origin);
  const motion = createLocalMotion();
  const jerk = new Float64Array(3);
  const banked = options.banked ?? false;
  const altitude = options.altitudeM ?? 0;
  const { initialRad, rateRadPerSecond } = phase;
  const toTruth = (t: number, s: number, c: number, out: TruthState): TruthState => {
    kinematics(t, s, c, motion.position, motion.velocity, motion.acceleration, jerk);
    motion.position[2]! -= altitude;
    alignAttitudeWithVelocity(motion, jerk, banked, fallbackHeadingRad, fallbackPitchRad);
    return frame.toTruth(out, motion);
  };
  return {
    name,
    durationSeconds,
    endless,
    sample(timeSeconds: number, out: TruthState): TruthState {
      sinCos(scratch, initialRad + rateRadPerSecond * timeSeconds);
      return toTruth(timeSeconds, scratch[0]!, scratch[1]!, out);
    },
    stepSampler(rateHz: number) {
      // sin and cos of φ0 + ω·k/rate by angle addition, (s, c) ← (s·cos Δ + c·sin Δ, c·cos Δ − s·sin Δ) with
      // Δ = ω/rate: four products instead of a sine and a cosine. Every ANCHOR_STEPS steps (and on any step
      // out of sequence) the closed form re-anchors them, so rounding cannot build up.
      const cs = new Float64Array(2);
      sinCos(cs, rateRadPerSecond / rateHz);
      const sinStep = cs[0]!,
        cosStep = cs[1]!;
      let previous = -2,
        s = 0,
        c = 1;
      return (step: number, out: TruthState): TruthState => {
        const t = step / rateHz;
        if (step === previous + 1 && step % ANCHOR_STEPS !== 0) {
          const s1 = s * cosStep + c * sinStep;
          c = c * cosStep - s * sinStep;
          s = s1;
        } else {
          sinCos(scratch, initialRad + rateRadPerSecond * t);
          s = scratch[0]!;
          c = scratch[1]!;
        }
        previous = step;
        return toTruth(t, s, c, out);
      };
    },
  };
}

/** Options of `circle`. */
export interface CircleOptions extends ParametricOptions {
  /** Horizontal (ground) speed, m/s. Defaults to 100. */
  readonly speed?: number;
  /** Radius, m. Defaults to 1000. */
  readonly radius?: number;
  /** Number of full orbits; sets the duration. Defaults to 1. */
  readonly orbits?: number;
  /** Turn direction. Defaults to `'right'` (clockwise seen from above). */
  readonly direction?: 'right' | 'left';
  /** Initial heading, radians clockwise from north. Defaults to 0. */
  readonly headingRad?: number;
  /** Vertical speed, m/s, positive up: a helix. Defaults to 0. */
  readonly climbRate?: number;
}

/** A level (or climbing) circle at constant speed, starting at the origin. */
export function circle(options: CircleOptions = {}, name = 'circle'): Trajectory {
  const speed = options.speed ?? 100;
  const radius = options.radius ?? 1000;
  const sign = options.direction === 'left' ? -1 : 1;
  const h0 = options.headingRad ?? 0;
  const climb = options.climbRate ?? 0;
  const rate = (sign * speed) / radius;
  const sinH0 = Math.sin(h0),
    cosH0 = Math.cos(h0);
  const duration = ((options.orbits ?? 1) * 2 * Math.PI * radius) / speed;
  // Heading H(t) = H0 + rate·t, the phase; position = centre + sign·R·(sin H, −cos H), which is 0 at t = 0.
  return parametric(
    name,
    duration,
    options,
    { initialRad: h0, rateRadPerSecond: rate },
    (t, s, c, p, v, a, j) => {
      p[0] = sign * radius * (s - sinH0);
      p[1] = -sign * radius * (c - cosH0);
      p[2] = -climb * t;
      v[0] = speed * c;
      v[1] = speed * s;
      v[2] = -climb;
      a[0] = -speed * rate * s;
      a[1] = speed * rate * c;
      a[2] = 0;
      j[0] = -speed * rate * rate * c;
      j[1] = -speed * rate * rate * s;
      j[2] = 0;
    },
    h0,
    0,
    true,
  );
}

/** Options of `aircraftOrbit`. */
export interface AircraftOrbitOptions extends CircleOptions {}

/**
 * An aircraft orbiting in a coordinated, banked turn while climbing: a helix. Defaults: 120 m/s, radius 3 km,
 * 5 m/s climb from 1000 m, 2 orbits.
 */
export function aircraftOrbit(options: AircraftOrbitOptions = {}): Trajectory {
  return circle(aircraftOrbitOptions(options), 'aircraft-orbit');
}

/** The circle of `aircraftOrbit`: its defaults under `options`. */
export function aircraftOrbitOptions(options: AircraftOrbitOptions = {}): CircleOptions {
  return { speed: 120, radius: 3000, climbRate: 5, orbits: 2, altitudeM: 1000, banked: true, ...options };
}

/** Options of `ellipse`. */
export interface EllipseOptions extends ParametricOptions {
  /** Semi-axis along north, m. Defaults to 1500. */
  readonly semiAxisNorth?: number;
  /** Semi-axis along east, m. Defaults to 600. */
  readonly semiAxisEast?: number;
  /** Mean speed, m/s: sets the period (the speed varies around the ellipse). Defaults to 50. */
  readonly speed?: number;
  /** Number of laps. Defaults to 1. */
  readonly laps?: number;
}

/** An ellipse at uniform parameter rate (speed varies: fastest along the long sides), starting at the origin. */
export function ellipse(options: EllipseOptions = {}): Trajectory {
  const a = options.semiAxisNorth ?? 1500;
  const b = options.semiAxisEast ?? 600;
  // Ramanujan's perimeter approximation; exact enough to set a mean speed.
  const h = ((a - b) / (a + b)) ** 2;
  const perimeter = Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h)));
  const period = perimeter / (options.speed ?? 50);
  const w = (2 * Math.PI) / period;
  return parametric(
    'ellipse',
    period * (options.laps ?? 1),
    options,
    { initialRad: 0, rateRadPerSecond: w },
    (_t, s, c, p, v, acc, j) => {
      p[0] = a * (1 - c);
      p[1] = b * s;
      p[2] = 0;
      v[0] = a * w * s;
      v[1] = b * w * c;
      v[2] = 0;
      acc[0] = a * w * w * c;
      acc[1] = -b * w * w * s;
      acc[2] = 0;
      j[0] = -a * w * w * w * s;
      j[1] = -b * w * w * w * c;
      j[2] = 0;
    },
    0,
    0,
    true,
  );
}

/** Options of `figureEight`. */
export interface FigureEightOptions extends ParametricOptions {
  /** Extent along north (tip to tip), m. Defaults to 2000. */
  readonly length?: number;
  /** Extent along east, m. Defaults to 800. */
  readonly width?: number;
  /** Mean speed, m/s. Defaults to 60. */
  readonly speed?: number;
  /** Number of laps. Defaults to 1. */
  readonly laps?: number;
}

/** A figure-8 (Lissajous 1:2 curve) crossing itself at the origin. */
export function figureEight(options: FigureEightOptions = {}): Trajectory {
  const halfLength = (options.length ?? 2000) / 2;
  const halfWidth = (options.width ?? 800) / 2;
  // Curve: n = L·sin u, e = W·sin u·cos u = (W/2)·sin 2u. Its length, for the period, by summing chords.
  let perimeter = 0;
  for (let i = 0, n0 = 0, e0 = 0; i <= 4096; i++) {
    const u = (2 * Math.PI * i) / 4096;
    const n = halfLength * Math.sin(u),
      e = (halfWidth / 2) * Math.sin(2 * u);
    if (i > 0) perimeter += Math.hypot(n - n0, e - e0);
    n0 = n;
    e0 = e;
  }
  const period = perimeter / (options.speed ?? 60);
  const w = (2 * Math.PI) / period;
  const k = halfWidth / 2;
  return parametric(
    'figure-8',
    period * (options.laps ?? 1),
    options,
    { initialRad: 0, rateRadPerSecond: w },
    (_t, s1, c1, p, v, a, j) => {
      const s2 = 2 * s1 * c1,
        c2 = (c1 - s1) * (c1 + s1); // double-angle forms: two fewer sines per sample
      p[0] = halfLength * s1;
      p[1] = k * s2;
      p[2] = 0;
      v[0] = halfLength * w * c1;
      v[1] = 2 * k * w * c2;
      v[2] = 0;
      a[0] = -halfLength * w * w * s1;
      a[1] = -4 * k * w * w * s2;
      a[2] = 0;
      j[0] = -halfLength * w * w * w * c1;
      j[1] = -8 * k * w * w * w * c2;
      j[2] = 0;
    },
    0,
    0,
    true,
  );
}

/** Options of `missile`. */
export interface MissileOptions extends ParametricOptions {
  /** Launch azimuth, radians clockwise from north. Defaults to 0. */
  readonly headingRad?: number;
  /** Launch elevation above the horizon, radians. Defaults to 30°. */
  readonly elevationRad?: number;
  /** Net acceleration along the launch line while the motor burns, m/s². Defaults to 100. */
  readonly boostAcceleration?: number;
  /** Burn time, s. Defaults to 6. */
  readonly burnSeconds?: number;
  /** Total time, s. Defaults to the time of flight back to launch height (or 120 s, whichever is less). */
  readonly durationSeconds?: number;
}

/**
 * A missile: constant acceleration along the launch line while the motor burns, then a drag-free ballistic
 * coast under gravity. The nose follows the velocity, so pitch falls through the coast.
 */
export function missile(options: MissileOptions = {}): Trajectory {
  const heading = options.headingRad ?? 0;
  const elevation = options.elevationRad ?? Math.PI / 6;
  const boost = options.boostAcceleration ?? 100;
  const burn = options.burnSeconds ?? 6;
  // Unit launch direction in NED.
  const un = Math.cos(elevation) * Math.cos(heading);
  const ue = Math.cos(elevation) * Math.sin(heading);
  const ud = -Math.sin(elevation);
  const vBurn = boost * burn;
  const dBurn = 0.5 * boost * burn * burn;
  // Coast until back at launch height: −ud·dBurn + (−ud·vBurn)·τ − ½gτ² = 0.
  const up0 = -ud * vBurn;
  const coast = (up0 + Math.sqrt(up0 * up0 + 2 * STANDARD_GRAVITY * -ud * dBurn)) / STANDARD_GRAVITY;
  const duration = options.durationSeconds ?? Math.min(burn + coast, 120);
  // No periodic part: the phase stays 0.
  return parametric(
    'missile',
    duration,
    options,
    { initialRad: 0, rateRadPerSecond: 0 },
    (t, _s, _c, p, v, a, j) => {
      j[0] = j[1] = j[2] = 0;
      if (t <= burn) {
        const d = 0.5 * boost * t * t,
          speed = boost * t;
        p[0] = un * d;
        p[1] = ue * d;
        p[2] = ud * d;
        v[0] = un * speed;
        v[1] = ue * speed;
        v[2] = ud * speed;
        a[0] = un * boost;
        a[1] = ue * boost;
        a[2] = ud * boost;
        return;
      }
      const tau = t - burn;
      p[0] = un * (dBurn + vBurn * tau);
      p[1] = ue * (dBurn + vBurn * tau);
      p[2] = ud * (dBurn + vBurn * tau) + 0.5 * STANDARD_GRAVITY * tau * tau;
      v[0] = un * vBurn;
      v[1] = ue * vBurn;
      v[2] = ud * vBurn + STANDARD_GRAVITY * tau;
      a[0] = 0;
      a[1] = 0;
      a[2] = STANDARD_GRAVITY;
    },
    heading,
    elevation,
  );
}

/** Options of `zeroGParabolas`. */
export interface ZeroGParabolaOptions extends ParametricOptions {
  /** Heading of the whole flight, radians clockwise from north. Defaults to 0. */
  readonly headingRad?: number;
  /** Speed in level flight and at the ends of each parabola, m/s. Defaults to 160. */
  readonly speed?: number;
  /** Flight-path angle at which the parabola starts (nose up) and ends (nose down), radians. Defaults to 45°. */
  readonly flightPathAngleRad?: number;
  /** Centripetal acceleration of the pull-up and pull-out, m/s² (0.8 g: about 1.8 g felt). Defaults to 7.85. */
  readonly pullAcceleration?: number;
  /** Level flight before each pull-up and after the last pull-out, s. Defaults to 10. */
  readonly levelSeconds?: number;
  /** Number of parabolas. Defaults to 3. */
  readonly parabolas?: number;
}

/**
 * Parabolic ("zero-g") flight as flown for weightlessness: level flight, a pull-up at constant speed on a
 * vertical arc to the entry angle, a ballistic parabola under gravity alone (about 23 s of 0 g at the defaults)
 * down to the same angle nose down, a pull-out arc back to level, repeated. Pitch follows the flight path, so it
 * sweeps from +45° to −45° through each parabola while the speed drops to speed·cos 45° at the top.
 */
export function zeroGParabolas(options: ZeroGParabolaOptions = {}): Trajectory {
  const speed = options.speed ?? 160;
  const gamma = options.flightPathAngleRad ?? Math.PI / 4;
  const pull = options.pullAcceleration ?? 0.8 * STANDARD_GRAVITY;
  const level = options.levelSeconds ?? 10;
  const count = options.parabolas ?? 3;
  const heading = options.headingRad ?? 0;
  const cosH = Math.cos(heading),
    sinH = Math.sin(heading);
  const omega = pull / speed; // flight-path rate on the arcs, rad/s
  const arc = gamma / omega;
  const ballistic = (2 * speed * Math.sin(gamma)) / STANDARD_GRAVITY;
  const cycle = level + arc + ballistic + arc;
  // Along-track distance and height gained over one cycle: level, arc up, parabola, arc down (symmetric).
  const arcAlong = (speed / omega) * Math.sin(gamma),
    arcUp = (speed / omega) * (1 - Math.cos(gamma));
  const ballisticAlong = speed * Math.cos(gamma) * ballistic;
  const cycleAlong = speed * level + 2 * arcAlong + ballisticAlong;
  const out = new Float64Array(9); // along, up; their rates; accelerations; jerks (along, up) at 6–7
  /** Along-track and up motion at t into one cycle (starting level at along = up = 0). */
  const inCycle = (t: number): void => {
    let along = 0;
    if (t < level) {
      out[0] = speed * t;
      out[1] = 0;
      out[2] = speed;
      out[3] = 0;
      out[4] = out[5] = out[6] = out[7] = 0;
      return;
    }
    along = speed * level;
    t -= level;
    if (t < arc) return arcAt(along, 0, 0, t);
    along += arcAlong;
    t -= arc;
    if (t < ballistic) {
      const vx = speed * Math.cos(gamma),
        vu = speed * Math.sin(gamma);
      out[0] = along + vx * t;
      out[1] = arcUp + vu * t - 0.5 * STANDARD_GRAVITY * t * t;
      out[2] = vx;
      out[3] = vu - STANDARD_GRAVITY * t;
      out[4] = 0;
      out[5] = -STANDARD_GRAVITY;
      out[6] = out[7] = 0;
      return;
    }
    along += ballisticAlong;
    arcAt(along, arcUp, -gamma, Math.min(t - ballistic, arc));
  };
  /** A pull-up arc from flight-path angle γ0 at (along, up), τ seconds in. */
  const arcAt = (along: number, up: number, gamma0: number, tau: number): void => {
    const g = gamma0 + omega * tau,
      r = speed / omega;
    const c = Math.cos(g),
      s = Math.sin(g);
    out[0] = along + r * (s - Math.sin(gamma0));
    out[1] = up + r * (Math.cos(gamma0) - c);
    out[2] = speed * c;
    out[3] = speed * s;
    out[4] = -speed * omega * s;
    out[5] = speed * omega * c;
    out[6] = -speed * omega * omega * c;
    out[7] = -speed * omega * omega * s;
  };
  const duration = count * cycle + level;
  return parametric(
    'zero-g-parabolas',
    duration,
    { altitudeM: 6000, ...options },
    { initialRad: 0, rateRadPerSecond: 0 },
    (t, _s, _c, p, v, a, j) => {
      const k = Math.min(Math.floor(t / cycle), count);
      inCycle(k === count ? Math.min(t - k * cycle, level) : t - k * cycle);
      if (k === count && t - k * cycle > level) {
        // Past the end: straight and level on.
        out[0]! += speed * (t - k * cycle - level);
      }
      const along = out[0]! + k * cycleAlong;
      p[0] = along * cosH;
      p[1] = along * sinH;
      p[2] = -out[1]!;
      v[0] = out[2]! * cosH;
      v[1] = out[2]! * sinH;
      v[2] = -out[3]!;
      a[0] = out[4]! * cosH;
      a[1] = out[4]! * sinH;
      a[2] = -out[5]!;
      j[0] = out[6]! * cosH;
      j[1] = out[6]! * sinH;
      j[2] = -out[7]!;
    },
    heading,
  );
}
