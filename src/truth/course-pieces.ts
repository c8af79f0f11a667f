/**
 * Courses as tables of pieces of closed-form motion, for sampling very many entities on a few courses (the load
 * generator's `tankRoadCourse`, `shipTurningCircles` and `aircraftOrbit`), each entity placed by its own turn and
 * offset in the local tangent plane. Within a piece the vehicle moves along one line or arc at a constant
 * along-track acceleration and climb rate, with constant pitch and roll; a piece ends where the speed schedule has
 * a knot or the path a new segment. A sample is one lookup of the piece by time, a sine and cosine on arcs and the
 * conversion to ECEF, in one function for every course: the motion of the course's `Trajectory` (same formulas,
 * regrouped; test/truth/course-pieces.test.ts compares them), at a fraction of its cost for a caller that samples
 * the courses in turn (no per-course closures to call, nothing converted twice).
 */
import type { CircleOptions } from './parametric.js';
import { SortedLookup, pathGeometry, type SpeedKnot } from './path.js';
import { STANDARD_GRAVITY, type LocalFrame } from './trajectory.js';
import type { PathPlan } from './vehicles.js';
import { sinCosInPlace } from '../math/trig.js';

/** Fields of a piece, PIECE doubles each. N0/E0: the start (lines) or the centre (arcs), m north and east. */
const T0 = 0,
  N0 = 1,
  E0 = 2,
  /** Down at the start, m. */
  D0 = 3,
  /** Heading at the start, radians clockwise from north, and its cosine and sine. */
  H0 = 4,
  COS_H0 = 5,
  SIN_H0 = 6,
  /** Signed curvature, 1/m (positive turning right; 0 on a line), and its inverse (0 on a line). */
  KAPPA = 7,
  RADIUS = 8,
  /** Along-track speed at the start, m/s, and acceleration, m/s². */
  V0 = 9,
  ACC = 10,
  /** Up, m/s. */
  CLIMB = 11,
  COS_PITCH = 12,
  SIN_PITCH = 13,
  COS_ROLL = 14,
  SIN_ROLL = 15,
  PIECE = 16;

/** One piece as the builders make it, before it is packed. */
interface Piece {
  t0: number;
  north: number;
  east: number;
  down: number;
  heading: number;
  kappa: number;
  speed: number;
  acceleration: number;
  climb: number;
  pitchCos: number;
  pitchSin: number;
  rollCos: number;
  rollSin: number;
}

/** Several courses in one local frame, each a run of pieces; `write` samples one for a placed entity. */
export class CourseSet {
  private pieces = new Float64Array(0);
  private readonly first: number[] = [];
  private readonly lookups: SortedLookup[] = [];
  private readonly durations: number[] = [];
  private readonly angle = new Float64Array(2);

  /** @param frame - the local frame every course starts at the origin of. */
  constructor(readonly frame: LocalFrame) {}

  /** Courses held. */
  get count(): number {
    return this.first.length;
  }

  /** How long course k runs before it is over or starts again, s (its trajectory's `durationSeconds`). */
  durationSeconds(course: number): number {
    return this.durations[course]!;
  }

  /** Adds the course of `pathTrajectory(plan…)`. @returns its number. */
  addPath(plan: PathPlan): number {
    const options = plan.options;
    this.checkOrigin(options.origin);
    const pieces = pathPieces(plan.segments, plan.knots, options.headingRad ?? 0, options.altitudeM ?? 0);
    const end = plan.knots[plan.knots.length - 1]!.timeSeconds;
    return this.add(pieces, options.durationSeconds ?? end);
  }

  /** Adds the course of `circle(options)` (and so of `aircraftOrbit`, given `aircraftOrbitOptions`). */
  addCircle(options: CircleOptions): number {
    this.checkOrigin(options.origin);
    const speed = options.speed ?? 100;
    const radius = options.radius ?? 1000;
    const sign = options.direction === 'left' ? -1 : 1;
    const climb = options.climbRate ?? 0;
    const kappa = sign / radius;
    // As `alignAttitudeWithVelocity` finds them: pitch along the flight path, roll of a coordinated turn.
    const invSpeed = climb === 0 ? 0 : 1 / Math.sqrt(speed * speed + climb * climb);
    const lateral = speed * ((sign * speed) / radius);
    const ratio = lateral * (1 / STANDARD_GRAVITY);
    const rollCos = options.banked ? Math.sqrt(1 / (1 + ratio * ratio)) : 1;
    const piece: Piece = {
      t0: 0,
      north: 0,
      east: 0,
      down: -(options.altitudeM ?? 0),
      heading: options.headingRad ?? 0,
      kappa,
      speed,
      acceleration: 0,
      climb,
      pitchCos: climb === 0 ? 1 : speed * invSpeed,
      pitchSin: climb === 0 ? 0 : climb * invSpeed,
      rollCos,
      rollSin: options.banked ? ratio * rollCos : 0,
    };
    return this.add([piece], ((options.orbits ?? 1) * 2 * Math.PI * radius) / speed);
  }

  /**
   * Writes course k at the time `times[ti]` (s from its start), turned by the heading whose cosine and sine are
   * placement[pi], placement[pi + 1] and moved by placement[pi + 2] m north and placement[pi + 3] m east, in ECEF:
   * location, velocity, acceleration and body rates at offset i3, R_wb (row-major) at i9. Time comes in an array,
   * as a double passed to a function V8 does not inline is boxed on the heap.
   */
  write(
    course: number,
    times: Float64Array,
    ti: number,
    placement: Float64Array,
    pi: number,
    location: Float64Array,
    velocity: Float64Array,
    acceleration: Float64Array,
    angularVelocity: Float64Array,
    worldToBody: Float64Array,
    i3: number,
    i9: number,
  ): void {
    const p = this.pieces,
      tau = times[ti]!;
    const found = this.lookups[course]!.lastAtOrBefore(tau);
    const o = PIECE * (this.first[course]! + Math.max(0, found));
    const t = tau - p[o + T0]!;
    // Before the first piece the speed is the first one's, held (as the speed schedule holds its first knot's).
    const v0 = p[o + V0]!,
      acc = found < 0 ? 0 : p[o + ACC]!,
      kappa = p[o + KAPPA]!;
    const along = (v0 + 0.5 * acc * t) * t,
      speed = v0 + acc * t;
    const c = placement[pi]!,
      s = placement[pi + 1]!;
    // The start (or centre) turned and moved.
    const n0 = p[o + N0]!,
      e0 = p[o + E0]!;
    const rn = c * n0 - s * e0 + placement[pi + 2]!,
      re = s * n0 + c * e0 + placement[pi + 3]!;
    let ch: number, sh: number, pn: number, pe: number;
    if (kappa === 0) {
      const c0 = p[o + COS_H0]!,
        s0 = p[o + SIN_H0]!;
      ch = c0 * c - s0 * s;
      sh = s0 * c + c0 * s;
      pn = rn + along * ch;
      pe = re + along * sh;
    } else {
      const angle = this.angle;
      angle[0] = p[o + H0]! + kappa * along;
      sinCosInPlace(angle);
      const sa = angle[0],
        ca = angle[1]!;
      ch = ca * c - sa * s;
      sh = sa * c + ca * s;
      const r = p[o + RADIUS]!;
      pn = rn + r * sh;
      pe = re - r * ch;
    }
    const climb = p[o + CLIMB]!,
      pd = p[o + D0]! - climb * t;
    const f = this.frame,
      m = f.ecefToNed,
      origin = f.originEcef;
    // Body x and y of a level vehicle in ECEF: (cos H, sin H, 0) and (−sin H, cos H, 0) in NED, and down.
    const xx = ch * m[0]! + sh * m[3]!,
      xy = ch * m[1]! + sh * m[4]!,
      xz = ch * m[2]! + sh * m[5]!;
    const yx = ch * m[3]! - sh * m[0]!,
      yy = ch * m[4]! - sh * m[1]!,
      yz = ch * m[5]! - sh * m[2]!;
    const dx = m[6]!,
      dy = m[7]!,
      dz = m[8]!;
    location[i3] = m[0]! * pn + m[3]! * pe + dx * pd + origin[0]!;
    location[i3 + 1] = m[1]! * pn + m[4]! * pe + dy * pd + origin[1]!;
    location[i3 + 2] = m[2]! * pn + m[5]! * pe + dz * pd + origin[2]!;
    velocity[i3] = speed * xx - climb * dx;
    velocity[i3 + 1] = speed * xy - climb * dy;
    velocity[i3 + 2] = speed * xz - climb * dz;
    // Along-track s̈ and centripetal ṡ²κ toward the body's right.
    const centripetal = speed * speed * kappa;
    acceleration[i3] = acc * xx + centripetal * yx;
    acceleration[i3 + 1] = acc * xy + centripetal * yy;
    acceleration[i3 + 2] = acc * xz + centripetal * yz;
    const cp = p[o + COS_PITCH]!,
      sp = p[o + SIN_PITCH]!,
      cr = p[o + COS_ROLL]!,
      sr = p[o + SIN_ROLL]!;
    const w = worldToBody;
    if (sp === 0 && sr === 0) {
      w[i9] = xx;
      w[i9 + 1] = xy;
      w[i9 + 2] = xz;
      w[i9 + 3] = yx;
      w[i9 + 4] = yy;
      w[i9 + 5] = yz;
      w[i9 + 6] = dx;
      w[i9 + 7] = dy;
      w[i9 + 8] = dz;
    } else {
      // R_nb(H, θ, φ) (docs/dis-reference.md §3.2) row by row over the level rows: x·cθ − d·sθ, …
      const a = sr * sp,
        b = cr * sp,
        g = sr * cp,
        h = cr * cp;
      w[i9] = cp * xx - sp * dx;
      w[i9 + 1] = cp * xy - sp * dy;
      w[i9 + 2] = cp * xz - sp * dz;
      w[i9 + 3] = a * xx + cr * yx + g * dx;
      w[i9 + 4] = a * xy + cr * yy + g * dy;
      w[i9 + 5] = a * xz + cr * yz + g * dz;
      w[i9 + 6] = b * xx - sr * yx + h * dx;
      w[i9 + 7] = b * xy - sr * yy + h * dy;
      w[i9 + 8] = b * xz - sr * yz + h * dz;
    }
    // Body rates of a turn at constant pitch and roll: the heading rate κ·v seen in the body axes.
    const turn = kappa * speed;
    angularVelocity[i3] = -turn * sp;
    angularVelocity[i3 + 1] = turn * sr * cp;
    angularVelocity[i3 + 2] = turn * cr * cp;
  }

  private checkOrigin(origin: { latitudeDeg: number; longitudeDeg: number; heightM?: number } | undefined): void {
    const o = this.frame.origin;
    if (origin === undefined || origin === o) return;
    if (origin.latitudeDeg !== o.latitudeDeg || origin.longitudeDeg !== o.longitudeDeg || origin.heightM !== o.heightM)
      throw new RangeError('a course set holds courses of one origin');
  }

  private add(pieces: readonly Piece[], durationSeconds: number): number {
    const at = this.pieces.length / PIECE;
    const packed = new Float64Array(this.pieces.length + PIECE * pieces.length);
    packed.set(this.pieces);
    pieces.forEach((piece, k) => packPiece(packed, PIECE * (at + k), piece));
    this.pieces = packed;
    this.first.push(at);
    this.lookups.push(new SortedLookup(Float64Array.from(pieces, (piece) => piece.t0)));
    this.durations.push(durationSeconds);
    return this.first.length - 1;
  }
}

function packPiece(out: Float64Array, o: number, piece: Piece): void {
  const kappa = piece.kappa;
  const cosH = Math.cos(piece.heading),
    sinH = Math.sin(piece.heading);
  // An arc is held by its centre: the start less the radius toward the right of the heading.
  out[o + T0] = piece.t0;
  out[o + N0] = kappa === 0 ? piece.north : piece.north - sinH / kappa;
  out[o + E0] = kappa === 0 ? piece.east : piece.east + cosH / kappa;
  out[o + D0] = piece.down;
  out[o + H0] = piece.heading;
  out[o + COS_H0] = cosH;
  out[o + SIN_H0] = sinH;
  out[o + KAPPA] = kappa;
  out[o + RADIUS] = kappa === 0 ? 0 : 1 / kappa;
  out[o + V0] = piece.speed;
  out[o + ACC] = piece.acceleration;
  out[o + CLIMB] = piece.climb;
  out[o + COS_PITCH] = piece.pitchCos;
  out[o + SIN_PITCH] = piece.pitchSin;
  out[o + COS_ROLL] = piece.rollCos;
  out[o + SIN_ROLL] = piece.rollSin;
}

/**
 * The pieces of a path driven at the speeds of `knots` (`pathTrajectory`): a new piece at every knot and wherever the
 * distance reaches the start of a segment, the last one open-ended (straight on past the path, at the last speed).
 */
function pathPieces(
  segments: PathPlan['segments'],
  knots: readonly SpeedKnot[],
  headingRad: number,
  altitudeM: number,
): Piece[] {
  const geometry = pathGeometry(segments, headingRad);
  const { starts, north, east, headings, curvatures } = geometry;
  const n = segments.length;
  const segmentAt = new SortedLookup(starts);
  const pieces: Piece[] = [];
  // The piece starting at time t, distance s, speed v, accelerating at a along segment i.
  const start = (t: number, s: number, v: number, a: number): void => {
    const i = Math.max(0, segmentAt.lastAtOrBefore(s));
    const kappa = i < n ? curvatures[i]! : 0;
    const ds = s - starts[i]!,
      h = headings[i]!;
    const heading = h + kappa * ds;
    const north0 = kappa === 0 ? north[i]! + ds * Math.cos(h) : north[i]! + (Math.sin(heading) - Math.sin(h)) / kappa;
    const east0 = kappa === 0 ? east[i]! + ds * Math.sin(h) : east[i]! - (Math.cos(heading) - Math.cos(h)) / kappa;
    pieces.push({
      t0: t,
      north: north0,
      east: east0,
      down: -altitudeM,
      heading,
      kappa,
      speed: v,
      acceleration: a,
      climb: 0,
      pitchCos: 1,
      pitchSin: 0,
      rollCos: 1,
      rollSin: 0,
    });
  };
  // The schedule's intervals: before the first knot and after the last at constant speed, between knots at the
  // constant acceleration that joins them (as `SpeedSchedule.evaluate`).
  let distance = 0;
  const first = knots[0]!;
  if (first.timeSeconds > 0) {
    distance = -first.speed * first.timeSeconds;
    startInterval(0, distance, first.speed, 0, first.timeSeconds);
    distance = 0;
  }
  for (let k = 0; k < knots.length; k++) {
    const knot = knots[k]!,
      next = knots[k + 1];
    const length = next === undefined ? Number.POSITIVE_INFINITY : next.timeSeconds - knot.timeSeconds;
    const a = next === undefined || !(length > 0) ? 0 : (next.speed - knot.speed) / length;
    startInterval(knot.timeSeconds, distance, knot.speed, a, length);
    if (next !== undefined) distance += 0.5 * (knot.speed + next.speed) * length;
  }
  return pieces;

  /** Pieces of one interval of the schedule: from t, s, v at acceleration a for `length` seconds. */
  function startInterval(t: number, s: number, v: number, a: number, length: number): void {
    if (!(length > 0)) return;
    start(t, s, v, a);
    const end =
      length === Number.POSITIVE_INFINITY
        ? v > 0
          ? Number.POSITIVE_INFINITY
          : s
        : s + (v + 0.5 * a * length) * length;
    for (let j = 1; j <= n; j++) {
      const boundary = starts[j]!;
      if (!(boundary > s && boundary < end) || boundary === starts[j - 1]) continue;
      // s + v·τ + ½a·τ² = boundary, in the form without cancellation when a is small.
      const gap = boundary - s;
      const tau = (2 * gap) / (v + Math.sqrt(Math.max(0, v * v + 2 * a * gap)));
      start(t + tau, boundary, v + a * tau, a);
    }
  }
}
