/** Synthetic and recorded truth trajectories for experiments and demos. */
export {
  DEFAULT_ORIGIN,
  LocalFrame,
  type Origin,
  type RecordingSummary,
  type StepSampler,
  type Trajectory,
} from './trajectory.js';
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
export { estimateTrack, type EstimateOptions, type TrackEstimateResult } from './track-estimator.js';
export {
  REPAIR_REASONS,
  describeRepairs,
  repairCounts,
  type RepairReason,
  type TrackRepair,
} from './repairs.js';
export { readNmeaTrack, type NmeaSummary } from './nmea.js';
export { kindOfEntityType, type CapturedState } from './dis-capture.js';
export {
  describeCaptureEntity,
  formatEntityType,
  loadTrack,
  loadTracks,
  parseAdsbTrack,
  parseCsvTrack,
  parseDisCaptureTrack,
  parseGpxTrack,
  readAdsbTrack,
  readCsvTrack,
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
