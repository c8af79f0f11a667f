/**
 * `reckon/experiment`: threshold-tuning experiments (docs/experiments.md) — specs and presets, the deterministic
 * run, sweeps on worker threads, metrics, results tables and reports, the simulated network and the lockstep
 * comparison.
 */
export {
  SimulatedLink,
  NETWORK_PROFILES,
  validateNetworkProfile,
  type NetworkProfile,
  type NetworkProfileName,
  type LinkStats,
} from './simulated-network.js';
export {
  ExperimentSpecSchema,
  RunSpecSchema,
  type ExperimentSpec,
  type ExperimentSpecInput,
  type RunSpec,
  type RunSpecInput,
} from './spec.js';
export {
  planExperiment,
  applySets,
  setPath,
  SpecError,
  type ExperimentPlan,
  type PlannedRun,
  type SpecProblem,
} from './sweep.js';
export { runExperiment, simulate, RunAbortedError, type RunResult } from './runner.js';
export { runSweep, SweepAbortedError, type SweepOptions } from './sweep-runner.js';
export { MetricsAccumulator, type RunMetrics, type ErrorSummary } from './metrics.js';
export { writeExperimentOutputs, resultsJson } from './report.js';
export { paretoFront } from './report-charts.js';
export { toCsv, toTextTable } from './results-table.js';
export { PRESETS as EXPERIMENT_PRESETS } from './presets.js';
export { runLockstepComparison, LOCKSTEP_CONDITIONS, type LockstepComparisonRow } from './lockstep-comparison.js';
