/**
 * The experiment spec: one zod schema (the single source of truth; `schemas/experiment.schema.json` is generated
 * from it). A spec describes one run — trajectory, sampling, emitter, network, receiver smoothing, metrics — and
 * an optional `sweep` that crosses any settings by their dotted paths. Quantities accept units (`"2.5 m"`).
 */
import { z } from 'zod';
import { anyCaseEnum } from '../config/any-case.js';
import { nonNegativeQuantity, positiveQuantity, quantity } from '../config/units.js';
import { NETWORK_PROFILES } from './simulated-network.js';
import { TRACK_KINDS } from '../truth/track-kinds.js';
import { DR_FPB, DR_FPW, DR_FVB, DR_FVW, DR_RPB, DR_RPW, DR_RVB, DR_RVW, DR_STATIC } from '../dr/models/algorithm.js';
import { DEFAULT_LATENCY_COMPENSATION } from '../config/schema.js';

function setting<T extends z.ZodType>(schema: T, description: string, example: unknown): T {
  return schema.meta({ description, examples: [example] });
}

const OriginSchema = z.strictObject({
  latitudeDeg: z.number().min(-90).max(90),
  longitudeDeg: z.number().min(-180).max(180),
  heightM: z.number().optional(),
});

const common = {
  origin: setting(OriginSchema.optional(), 'Start of the local frame. Defaults to Monterey Bay.', {
    latitudeDeg: 47.4,
    longitudeDeg: 8.5,
  }),
  headingRad: setting(quantity('angle').optional(), 'Initial heading, clockwise from north.', '90 deg'),
};
const positive = positiveQuantity;

const CircleSchema = z.strictObject({
  type: z.literal('circle'),
  ...common,
  speed: setting(positive('speed').default(100), 'Ground speed.', '100 m/s'),
  radius: setting(positive('length').default(1000), 'Radius.', '1 km'),
  orbits: setting(z.number().positive().default(1), 'Number of orbits; sets the duration.', 10),
  direction: anyCaseEnum(['right', 'left']).optional(),
  climbRate: setting(quantity('speed').optional(), 'Vertical speed, positive up.', '5 m/s'),
  altitudeM: z.number().optional(),
  banked: setting(z.boolean().optional(), 'Roll into the turn as a coordinated aircraft.', true),
});

const AircraftOrbitSchema = CircleSchema.extend({
  type: z.literal('aircraft-orbit'),
  speed: positive('speed').default(120),
  radius: positive('length').default(3000),
  orbits: z.number().positive().default(2),
});

const EllipseSchema = z.strictObject({
  type: z.literal('ellipse'),
  ...common,
  semiAxisNorth: positive('length').optional(),
  semiAxisEast: positive('length').optional(),
  speed: positive('speed').optional(),
  laps: z.number().positive().optional(),
  altitudeM: z.number().optional(),
  banked: z.boolean().optional(),
});

const FigureEightSchema = z.strictObject({
  type: z.literal('figure-8'),
  ...common,
  length: positive('length').optional(),
  width: positive('length').optional(),
  speed: positive('speed').optional(),
  laps: z.number().positive().optional(),
  altitudeM: z.number().optional(),
  banked: z.boolean().optional(),
});

const MissileSchema = z.strictObject({
  type: z.literal('missile'),
  ...common,
  elevationRad: quantity('angle').optional(),
  boostAcceleration: positive('acceleration').optional(),
  burnSeconds: positive('time').optional(),
  durationSeconds: positive('time').optional(),
});

const ZeroGParabolaSchema = z.strictObject({
  type: z.literal('zero-g-parabolas'),
  ...common,
  speed: setting(
    positive('speed').optional(),
    'Speed in level flight and at the ends of each parabola. Defaults to 160 m/s.',
    '160 m/s',
  ),
  flightPathAngle: setting(
    positive('angle').optional(),
    'Entry (nose up) and exit (nose down) angle of each parabola. Defaults to 45°.',
    '45 deg',
  ),
  pullAcceleration: setting(
    positive('acceleration').optional(),
    'Centripetal acceleration of the pull-up and pull-out. Defaults to 0.8 g.',
    '7.85 m/s^2',
  ),
  levelSeconds: setting(
    quantity('time')
      .refine((v) => v >= 0, { message: 'must not be negative' })
      .optional(),
    'Level flight before each pull-up and after the last pull-out. Defaults to 10 s.',
    '10 s',
  ),
  parabolas: setting(z.number().int().min(1).optional(), 'Number of parabolas. Defaults to 3.', 15),
  altitudeM: z.number().optional(),
});

const StraightLineSchema = z.strictObject({
  type: z.literal('straight-line'),
  ...common,
  speed: setting(quantity('speed').optional(), 'Constant speed; without it the default speed changes apply.', '15 m/s'),
  durationSeconds: positive('time').optional(),
});

const TankSchema = z.strictObject({
  type: z.literal('tank-road-course'),
  ...common,
  speed: positive('speed').optional(),
  stopSeconds: quantity('time').optional(),
});

const ShipSchema = z.strictObject({
  type: z.literal('ship-turning-circles'),
  ...common,
  speed: positive('speed').optional(),
  radius: positive('length').optional(),
  straightLength: positive('length').optional(),
});

/** A key a former version took: named, so that an old spec is told what became of it. */
function removed(message: string) {
  return z
    .unknown()
    .refine(() => false, { message: `removed: ${message} (docs/recorded-tracks.md)` })
    .optional()
    .meta({ description: `Removed: ${message}.` });
}

const RecordedSchema = z.strictObject({
  type: z.literal('recorded'),
  file: setting(
    z.string().min(1),
    'Track file: .csv, .gpx, .nmea, .json(.gz) ADS-B, or .pcap/.pcapng DIS capture; relative to the spec file.',
    'tracks/ship.csv',
  ),
  columns: z
    .strictObject({
      time: z.string(),
      latitude: z.string(),
      longitude: z.string(),
      height: z.string(),
      heading: z.string(),
      pitch: z.string(),
      roll: z.string(),
      speed: z.string(),
      course: z.string(),
      verticalRate: z.string(),
      id: z.string(),
      callsign: z.string(),
    })
    .partial()
    .optional(),
  entity: setting(
    z
      .string()
      .regex(/^\d+:\d+:\d+$/, { message: 'expected "site:application:entity", e.g. "1:3001:54"' })
      .optional(),
    'DIS captures: the entity to follow ("site:application:entity"); needed when the capture holds several.',
    '1:3001:54',
  ),
  kind: setting(
    z.enum(TRACK_KINDS).optional(),
    'What the track records, for its plausible speed (ground 100 m/s, surface 40, subsurface 25, air 700, space 12000, munition 2000). Defaults to air for ADS-B, the DIS entity type’s domain for a capture, and for CSV and GPX air if the track flies (fast or high), else ground.',
    'ground',
  ),
  segment: setting(
    z.number().int().min(1).optional(),
    'The recording to use when the file holds several (split at an id column or at long pauses); sweep over trajectory.segment to run each.',
    2,
  ),
  maxGap: setting(
    positive('time').optional(),
    'A pause between fixes longer than this starts a new recording. Defaults to 10 × the median interval between fixes.',
    '10 min',
  ),
  strict: setting(
    z.boolean().optional(),
    'Refuse a track with any implausible fix (held, a jump, an outlier, out of time order), listing each. Defaults to false: each is repaired or dropped and the run notes its row and reason.',
    true,
  ),
  entityType: setting(
    z.string().min(1).optional(),
    'The entity type of the track: SISO-REF-010 numbers ("1:2:225:87:32:5:0") or a name ("B737", "M1A2"); its domain sets the kind when kind is not given.',
    'B737',
  ),
  banked: setting(z.boolean().optional(), 'Roll into turns. Defaults to the kind’s (aircraft bank).', true),
  smoothingWindow: removed('every recorded track is smoothed by the estimator; leave smoothingWindow out'),
  attitudeSmoothing: removed(
    'the attitude follows the smoothed motion, its rates bounded per kind; leave attitudeSmoothing out',
  ),
});

export const TrajectorySpecSchema = z.discriminatedUnion('type', [
  CircleSchema,
  AircraftOrbitSchema,
  EllipseSchema,
  FigureEightSchema,
  MissileSchema,
  ZeroGParabolaSchema,
  StraightLineSchema,
  TankSchema,
  ShipSchema,
  RecordedSchema,
]);
export type TrajectorySpec = z.output<typeof TrajectorySpecSchema>;

/** DR algorithms by name (IEEE 1278.1 Annex E); the numbers are dr/models/algorithm.ts's. */
export const ALGORITHM_NUMBERS = {
  static: DR_STATIC,
  FPW: DR_FPW,
  RPW: DR_RPW,
  RVW: DR_RVW,
  FVW: DR_FVW,
  FPB: DR_FPB,
  RPB: DR_RPB,
  RVB: DR_RVB,
  FVB: DR_FVB,
} as const;
type AlgorithmName = keyof typeof ALGORITHM_NUMBERS | 'auto';
const ALGORITHM_ERROR = `expected a DR algorithm name (${Object.keys(ALGORITHM_NUMBERS).join(', ')}, any case), "auto" or a number 1–9`;
const ALGORITHM_NAMES = ['auto', ...Object.keys(ALGORITHM_NUMBERS)] as [AlgorithmName, ...AlgorithmName[]];
const AlgorithmSchema = z
  .union([anyCaseEnum(ALGORITHM_NAMES, ALGORITHM_ERROR), z.number().int().min(1).max(9)], { error: ALGORITHM_ERROR })
  .transform((a): number | 'auto' => (typeof a === 'number' || a === 'auto' ? a : ALGORITHM_NUMBERS[a]));

export const EmitterSpecSchema = z.strictObject({
  algorithm: setting(
    AlgorithmSchema.default(DR_RVW),
    'Dead-reckoning algorithm the owner sends: name, number 1–9, or "auto" (the emitter picks per PDU).',
    'RVW',
  ),
  positionThreshold: setting(
    positive('length').default(1),
    'Send when the dead-reckoned position is off by more (DRA_POS_THRSH).',
    '1 m',
  ),
  orientationThreshold: setting(
    positive('angle').default((3 * Math.PI) / 180),
    'Send when the orientation is off by more (DRA_ORIENT_THRSH).',
    '3 deg',
  ),
  heartbeat: setting(positive('time').default(5), 'Send at least this often.', '5 s'),
  maxRateHz: setting(positive('frequency').optional(), 'Rate cap: at most this many PDUs per second.', '30 Hz'),
});

const NetworkProfileSchema = z.strictObject({
  profile: setting(
    anyCaseEnum(Object.keys(NETWORK_PROFILES) as [keyof typeof NETWORK_PROFILES]).optional(),
    'Named profile the other fields override.',
    'wan',
  ),
  latencyMs: z.number().min(0).optional(),
  jitterMs: z.number().min(0).optional(),
  jitter: anyCaseEnum(['uniform', 'normal', 'exponential', 'pareto']).optional(),
  lossPercent: z.number().min(0).lt(100).optional(),
  loss: anyCaseEnum(['independent', 'gilbert-elliott']).optional(),
  meanBurstLength: z.number().min(1).optional(),
  duplicatePercent: z.number().min(0).max(100).optional(),
  reorderPercent: z.number().min(0).max(100).optional(),
  reorderDelayMs: z.number().min(0).optional(),
  bandwidthBitsPerSecond: z.number().positive().optional(),
  bufferBytes: z.number().positive().optional(),
});
export const NetworkSpecSchema = z.union(
  [anyCaseEnum(Object.keys(NETWORK_PROFILES) as [keyof typeof NETWORK_PROFILES]), NetworkProfileSchema],
  { error: `expected a profile name (${Object.keys(NETWORK_PROFILES).join(', ')}) or an object of profile fields` },
);

export const SmoothingSpecSchema = z.strictObject({
  method: setting(
    anyCaseEnum(['snap', 'linear', 'projective', 'convergence']).default('linear'),
    'How the receiver moves onto a new dead-reckoned path after an update: snap (none), linear blend, projective velocity blending, or a critically damped convergence.',
    'projective',
  ),
  time: setting(nonNegativeQuantity('time').default(0.5), 'Duration of the blend.', '500 ms'),
  teleportDistance: setting(
    positive('length').default(100),
    'Snap instead of blending when the correction is larger.',
    '100 m',
  ),
});

export const MetricsSpecSchema = z.strictObject({
  baselineRateHz: setting(
    positive('frequency').default(15),
    'Fixed-rate sender the reduction is measured against.',
    '15 Hz',
  ),
  includeEthernet: setting(
    z.boolean().default(false),
    'Count Ethernet framing (14-byte header + 4-byte FCS) in wire bytes.',
    false,
  ),
});

/** One run of an experiment: trajectory, emitter, network, receiver and seed. */
export const RunSpecSchema = z.strictObject({
  name: setting(
    // The name is the default results folder, experiment-results/<name>: it must not lead anywhere else.
    z
      .string()
      .min(1)
      .max(100)
      .refine((n) => n !== '.' && n !== '..' && !/[/\\\u0000-\u001f\u007f]/.test(n), {
        message:
          'must be a folder name (results go to experiment-results/<name>): no "/", "\\" or control characters, not "." or ".."',
      })
      .default('experiment'),
    'Shown in reports, and the results folder experiment-results/<name> when no --out is given.',
    'circle',
  ),
  seed: setting(z.number().int().default(1), 'Seeds the network; same spec and seed, same result.', 1),
  trajectory: setting(
    TrajectorySpecSchema.default({ type: 'circle', speed: 100, radius: 1000, orbits: 1 }),
    'Truth trajectory.',
    {
      type: 'circle',
      speed: '100 m/s',
      radius: '1 km',
    },
  ),
  durationSeconds: setting(positive('time').optional(), 'Simulated time; defaults to the trajectory’s.', '10 min'),
  sampleRateHz: setting(
    positive('frequency').default(60),
    'Rate at which the owner samples truth and decides to send.',
    '60 Hz',
  ),
  renderRateHz: setting(
    positive('frequency').optional(),
    'Rate at which the receiver is read and errors measured; defaults to the sample rate.',
    '60 Hz',
  ),
  emitter: EmitterSpecSchema.default(() => EmitterSpecSchema.parse({})),
  network: setting(NetworkSpecSchema.default('perfect'), 'Profile name or profile fields.', 'wan'),
  smoothing: SmoothingSpecSchema.default(() => SmoothingSpecSchema.parse({})),
  latencyCompensation: setting(
    anyCaseEnum(['arrival', 'timestamp']).default(DEFAULT_LATENCY_COMPENSATION),
    'How the receiver times each PDU, as the live receiver (receiver.latencyCompensation): "arrival" dead-reckons from when it arrived, "timestamp" from the absolute timestamp it was sent with (the simulated sender and receiver share one clock), which takes the network latency out of the error. Defaults to the live receiver’s default, arrival.',
    'timestamp',
  ),
  metrics: MetricsSpecSchema.default(() => MetricsSpecSchema.parse({})),
  /** Keeps per-sample error series and PDU markers for plots. */
  traces: setting(
    z.boolean().optional(),
    'Keep error-over-time and track series for the report plots: true for every run, false for none. Unset: the runs the report draws (a few spread over the sweep, one per trajectory).',
    true,
  ),
});

/** A spec and its sweep: `sweep` maps dotted paths to the values to cross. */
export const ExperimentSpecSchema = RunSpecSchema.extend({
  sweep: setting(
    z.record(z.string(), z.array(z.unknown()).min(1)).default({}),
    'Settings to cross: dotted path → list of values; every combination is one run.',
    {
      'emitter.positionThreshold': ['0.5 m', '1 m', '2 m'],
      'emitter.algorithm': ['FPW', 'RVW'],
      network: ['lan', 'wan'],
    },
  ),
  parallel: setting(
    z.number().int().min(1).max(256).optional(),
    'Worker threads (at most 256); defaults to the number of cores.',
    2,
  ),
});

/** One run, validated. */
export type RunSpec = z.output<typeof RunSpecSchema>;
/** One run as written, before defaults. */
export type RunSpecInput = z.input<typeof RunSpecSchema>;
/** An experiment, validated. */
export type ExperimentSpec = z.output<typeof ExperimentSpecSchema>;
/** An experiment as written, before defaults. */
export type ExperimentSpecInput = z.input<typeof ExperimentSpecSchema>;
