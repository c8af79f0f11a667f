/** Synthetic and recorded truth trajectories for experiments and demos. */
export { DEFAULT_ORIGIN, LocalFrame, type Origin, type StepSampler, type Trajectory } from './trajectory.js';
export {
  aircraftOrbit,
  circle,
  ellipse,
  figureEight,
  missile,
  zeroGParabolas,
  type AircraftOrbitOptions,
  type CircleOptions,
  type EllipseOptions,
  type FigureEightOptions,
  type MissileOptions,
  type ParametricOptions,
  type ZeroGParabolaOptions,
} from './parametric.js';
export {
  pathTrajectory,
  stopAndGoKnots,
  SpeedSchedule,
  type PathOptions,
  type PathSegment,
  type SpeedKnot,
} from './path.js';
export {
  shipTurningCircles,
  straightLine,
  tankRoadCourse,
  type ShipTurningCirclesOptions,
  type StraightLineOptions,
  type TankRoadCourseOptions,
} from './vehicles.js';
export { CubicSpline, recordedTrajectory, type RecordedTrackOptions, type TrackPoint } from './recorded.js';
export { timeScaled } from './time-scaled.js';
export { TrackFilter, type TrackFilterOptions } from './track-filter.js';
export {
  FixStatus,
  createFixMeasurement,
  createTrackEstimate,
  type FixMeasurement,
  type TrackEstimate,
} from './track-fix.js';
export { MOTION_MODELS, type MotionModel } from './motion-model.js';
export { SOURCE_NOISE, type SourceNoise, type TrackSource } from './measurement-noise.js';
export { MAX_GLITCH_RUN, describeDropped, dropGlitches, type GlitchFilterResult } from './glitches.js';
export {
  describeCaptureEntity,
  formatEntityType,
  loadTrack,
  loadTracks,
  parseAdsbTrack,
  parseCsvTrack,
  parseDisCaptureTrack,
  parseGpxTrack,
  readDisCaptureTrack,
  type CaptureEntity,
  type ColumnHint,
  type CsvColumns,
  type LoadTrackOptions,
  type RecordedTrack,
} from './loaders.js';
export {
  MAX_SPEED_MPS,
  TRACK_KINDS,
  TrackError,
  checkFixes,
  describeSegment,
  kindFromFixes,
  splitSegments,
  type TrackKind,
  type TrackSegment,
} from './track-checks.js';
