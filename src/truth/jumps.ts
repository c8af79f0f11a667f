/**
 * Jumps: a step between two positions longer than the vehicle could have flown between them — at the speed the
 * source reports (ADS-B ground speed, NMEA SOG) where it reports one, else at the kind's largest speed — once the
 * fixes' noise and timing are allowed for. A jump means one side of it is wrong: a glitch (a position decoded
 * kilometres off), or a run of positions the receiver extrapolated from an old velocity while the vehicle turned.
 * The fewest positions are dropped, on whichever side, that make the track consistent again — and with a run that
 * led away, the rest of the held report it belongs to (ground speed, track and climb repeated: the receiver
 * extrapolating from an old report); a step nothing explains is left to the smoother's gate. Repeated (held) positions carry no news and
 * are skipped. The velocity reported with a dropped position is dropped too.
 */
import { MAX_SPEED_MPS, type TrackKind } from './track-checks.js';
import type { MotionModel } from './motion-model.js';
import {
  DROP_HEIGHT,
  DROP_POSITION,
  DROP_VELOCITY,
  REPEATS_HEIGHT,
  REPEATS_POSITION,
  REPEATS_VELOCITY,
  VARIANCES,
  type PreparedFixes,
} from './smoother.js';

/** Most positions dropped to resolve one jump. */
export const MAX_JUMP_RUN = 20;
/** Longest span of positions dropped to resolve one jump, s. */
export const MAX_JUMP_RUN_SECONDS = 300;
/** Factor over the larger reported speed of a step's two ends that a step may show (a speed change between them). */
const REPORTED_SPEED_FACTOR = 1.1;
/** Speed added to a reported one, m/s (quantised speeds, gusts). */
const REPORTED_SPEED_SLACK_MPS = 2;
/** Vertical speed added to a reported one, m/s (64 ft/min steps, a late report). */
const REPORTED_CLIMB_SLACK_MPS = 2;
/** Factor over the recording's fastest reported speed that no step exceeds. */
const CEILING_FACTOR = 1.05;
/** Speed added to that, m/s. */
const CEILING_SLACK_MPS = 2;
/** Speed change a long step may hide, m/s² (a tenth of a g, kept up): reported speeds bound only short steps. */
const SUSTAINED_ACCELERATION_MPS2 = 0.5;
/** The same for the vertical speed, m/s². */
const SUSTAINED_CLIMB_ACCELERATION_MPS2 = 0.5;
/** Standard deviations of position and timing noise a step may show. */
const NOISE_SIGMAS = 3;

/** Positions dropped as jumps, by fix, with how far each was from the track that remains. */
export interface JumpResult {
  /**
   * Per fix: DROP_POSITION | DROP_VELOCITY when its position is dropped (its velocity goes with it), DROP_HEIGHT when
   * its height is.
   */
  readonly dropped: Uint8Array;
  /** Per fix: the distance of a dropped position from the nearest kept one before it, m. */
  readonly distanceM: Float64Array;
}

/**
 * Drops the fewest candidates that make consecutive ones consistent (see the module's comment); returns the dropped
 * ones with the distance of each from the nearest kept one before it (or after, at the start).
 * @param extendsRun - whether a candidate continues the held report of the one before it.
 */
function resolve(
  candidates: readonly number[],
  times: Float64Array,
  ratio: (i: number, j: number) => number,
  distance: (i: number, j: number) => number,
  extendsRun: (i: number) => boolean,
): Map<number, number> {
  const consistent = (i: number, j: number): boolean => ratio(i, j) <= 1;
  const dropped = new Map<number, number>();
  const kept: number[] = [];
  let c = 0;
  while (c < candidates.length) {
    const j = candidates[c]!;
    const previous = kept.length > 0 ? kept[kept.length - 1]! : -1;
    if (previous < 0 || consistent(previous, j)) {
      kept.push(j);
      c++;
      continue;
    }
    // A jump between `previous` and j: drop the fewest after it (a glitch run) or before it (a run that led
    // away), whichever makes the track consistent on both sides.
    let forward = -1;
    for (let k = 1; k <= MAX_JUMP_RUN && c + k < candidates.length; k++) {
      const next = candidates[c + k]!;
      if (times[next]! - times[j]! > MAX_JUMP_RUN_SECONDS) break;
      const after = candidates[c + k + 1];
      if (consistent(previous, next) && (after === undefined || consistent(next, after))) {
        forward = k;
        break;
      }
    }
    let backward = -1;
    const ahead = candidates[c + 1];
    if (ahead === undefined || consistent(j, ahead)) {
      // Dropping every one kept so far is allowed too: a glitch at the very start.
      for (let k = 1; k <= MAX_JUMP_RUN && k <= kept.length; k++) {
        const before = k < kept.length ? kept[kept.length - 1 - k]! : -1;
        if (times[previous]! - times[before < 0 ? kept[0]! : before]! > MAX_JUMP_RUN_SECONDS) break;
        if (before < 0 || consistent(before, j)) {
          backward = k;
          break;
        }
      }
    }
    if (backward >= 0) {
      // A run that led away and is one held report (speed, track and climb repeated: the receiver extrapolating
      // an old report while the vehicle turned): the rest of that report goes too, when what is left still agrees.
      let extended = backward;
      while (extended < MAX_JUMP_RUN && extended < kept.length - 1 && extendsRun(kept[kept.length - extended]!))
        extended++;
      if (extended > backward && consistent(kept[kept.length - 1 - extended]!, j)) backward = extended;
    }
    if (forward < 0 && backward < 0) {
      kept.push(j); // nothing explains it: the smoother's gate decides
      c++;
      continue;
    }
    // Of two ways out: the one that drops a held report (the receiver's extrapolation is wrong by nature), then
    // the one whose bridge is the more plausible step (a run of extrapolation can be as short as a glitch), then
    // the one dropping fewer.
    let useForward = forward >= 0;
    if (forward >= 0 && backward >= 0) {
      let heldForward = 0,
        heldBackward = 0;
      for (let k = 1; k < forward; k++) if (extendsRun(candidates[c + k]!)) heldForward++;
      for (let k = 1; k < backward; k++) if (extendsRun(kept[kept.length - k]!)) heldBackward++;
      const forwardRatio = ratio(previous, candidates[c + forward]!);
      const backwardRatio = backward < kept.length ? ratio(kept[kept.length - 1 - backward]!, j) : 0;
      if (heldForward !== heldBackward) useForward = heldForward > heldBackward;
      else if (Math.abs(forwardRatio - backwardRatio) >= 0.1 * Math.max(forwardRatio, backwardRatio))
        useForward = forwardRatio < backwardRatio;
      else useForward = forward <= backward;
    }
    if (useForward) {
      for (let k = 0; k < forward; k++) {
        const i = candidates[c + k]!;
        dropped.set(i, distance(previous, i));
      }
      c += forward;
    } else {
      const anchor = backward < kept.length ? kept[kept.length - 1 - backward]! : j;
      for (let k = 0; k < backward; k++) {
        const i = kept.pop()!;
        dropped.set(i, distance(anchor, i));
      }
    }
  }
  return dropped;
}

/**
 * Finds the jumps of the fixes' horizontal positions, and of their heights, and the positions (with their
 * velocities) and heights to drop for each.
 * @param timingSigmaSeconds - how late a fix may be timed (its source's `timingSigmaSeconds`).
 */
export function findJumps(
  prepared: PreparedFixes,
  kind: TrackKind,
  model: MotionModel,
  timingSigmaSeconds: number,
): JumpResult {
  const n = prepared.count;
  const dropped = new Uint8Array(n);
  const distanceM = new Float64Array(n);
  const a = new Float64Array(3),
    b = new Float64Array(3);
  const times = prepared.times,
    speeds = prepared.reportedSpeed;
  const position = prepared.position,
    frames = prepared.frames,
    frameIndex = prepared.frameIndex,
    heights = prepared.heights,
    velocity = prepared.velocity,
    variance = prepared.variance;
  const late = NOISE_SIGMAS * Math.SQRT2 * timingSigmaSeconds;
  // No step is faster than the fastest the recording ever reports: over a long step the reported speeds at its
  // ends bound little, but the vehicle did not fly faster than it ever said it did.
  let fastest = -1;
  for (let i = 0; i < n; i++) if (speeds[i]! > fastest) fastest = speeds[i]!;
  const ceiling = fastest >= 0 ? CEILING_FACTOR * fastest + CEILING_SLACK_MPS : Number.POSITIVE_INFINITY;
  /** Horizontal distance between fixes i and j (heights are judged apart: an altitude reply can be off). */
  const distance = (i: number, j: number): number => {
    let de = position[3 * j]! - position[3 * i]!,
      dn = position[3 * j + 1]! - position[3 * i + 1]!;
    if (frameIndex[i] !== frameIndex[j]) {
      b[0] = position[3 * j]!;
      b[1] = position[3 * j + 1]!;
      b[2] = 0;
      frames[frameIndex[j]!]!.toEcef(a, b);
      frames[frameIndex[i]!]!.fromEcef(b, 0, a);
      de = b[0]! - position[3 * i]!;
      dn = b[1]! - position[3 * i + 1]!;
    }
    return Math.sqrt(de * de + dn * dn);
  };
  /** How far i and j are apart, as a share of how far the vehicle can go between them (over 1: a jump). */
  const reachRatio = (i: number, j: number): number => {
    const dt = Math.abs(times[j]! - times[i]!);
    const si = speeds[i]!,
      sj = speeds[j]!;
    const reported = Math.max(Number.isFinite(si) ? si : -1, Number.isFinite(sj) ? sj : -1);
    // Speed reported at both ends bounds the step, allowing for a speed change between them over long steps.
    const reach =
      reported >= 0
        ? (REPORTED_SPEED_FACTOR * reported + REPORTED_SPEED_SLACK_MPS) * (dt + late) +
          0.25 * SUSTAINED_ACCELERATION_MPS2 * dt * dt
        : MAX_SPEED_MPS[kind] * (dt + late);
    const noise = NOISE_SIGMAS * Math.sqrt(variance[VARIANCES * i]! + variance[VARIANCES * j]!);
    return distance(i, j) / (Math.min(reach, ceiling * (dt + late)) + noise);
  };
  const climb = (i: number, j: number): number => Math.abs(heights[j]! - heights[i]!);
  const climbRatio = (i: number, j: number): number => {
    const dt = Math.abs(times[j]! - times[i]!);
    const ri = velocity[3 * i + 2]!,
      rj = velocity[3 * j + 2]!;
    const reported = Math.max(Number.isFinite(ri) ? Math.abs(ri) : -1, Number.isFinite(rj) ? Math.abs(rj) : -1);
    const reach =
      reported >= 0
        ? (REPORTED_SPEED_FACTOR * reported + REPORTED_CLIMB_SLACK_MPS) * (dt + late) +
          0.25 * SUSTAINED_CLIMB_ACCELERATION_MPS2 * dt * dt
        : model.maxVerticalSpeedMps * (dt + late);
    const noise = NOISE_SIGMAS * Math.sqrt(variance[VARIANCES * i + 1]! + variance[VARIANCES * j + 1]!);
    return climb(i, j) / (reach + noise);
  };
  const heldReport = (i: number): boolean => (prepared.repeats[i]! & REPEATS_VELOCITY) !== 0;
  // The positions that carry news: finite and not a repeat of the one before; the same for heights.
  const positions: number[] = [],
    heightCandidates: number[] = [];
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(position[3 * i]!) && !(prepared.repeats[i]! & REPEATS_POSITION)) positions.push(i);
    if (Number.isFinite(heights[i]!) && !(prepared.repeats[i]! & REPEATS_HEIGHT)) heightCandidates.push(i);
  }
  for (const [i, d] of resolve(positions, times, reachRatio, distance, heldReport)) {
    dropped[i] = DROP_POSITION | DROP_VELOCITY;
    distanceM[i] = d;
  }
  for (const [i] of resolve(heightCandidates, times, climbRatio, climb, () => false)) {
    dropped[i] = dropped[i]! | DROP_HEIGHT;
  }
  // The held repeats of a dropped position go with it.
  for (let i = 1; i < n; i++) {
    if (dropped[i - 1]! & DROP_POSITION && prepared.repeats[i]! & REPEATS_POSITION) {
      dropped[i] = dropped[i]! | DROP_POSITION | DROP_VELOCITY;
      distanceM[i] = distanceM[i - 1]!;
    }
    if (dropped[i - 1]! & DROP_HEIGHT && prepared.repeats[i]! & REPEATS_HEIGHT) dropped[i] = dropped[i]! | DROP_HEIGHT;
  }
  return { dropped, distanceM };
}
