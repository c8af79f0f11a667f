/**
 * From spec input to validated runs: `--set path=value` overrides, validation that reports every problem with
 * its dotted path and an example of a valid value, and the expansion of `sweep` into the cross product of runs.
 */
import type { z } from 'zod';
import { jsonInputProblems } from '../config/json-input.js';
import { ExperimentSpecSchema, RunSpecSchema, type ExperimentSpec, type RunSpec } from './spec.js';
import { runsToTrace } from './traced-runs.js';
import { traceBytesPerRun } from './traces.js';

/** One problem with a spec, `--set` or sweep entry. */
export interface SpecProblem {
  /** Dotted path, e.g. `emitter.positionThreshold` or `sweep["network"][1]`. */
  readonly path: string;
  readonly message: string;
}

/** The spec was invalid: every problem, not just the first. */
export class SpecError extends Error {
  constructor(readonly problems: readonly SpecProblem[]) {
    super(`invalid experiment spec:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'SpecError';
  }
}

/** One run of a sweep: the validated spec and the swept values that made it. */
export interface PlannedRun {
  readonly index: number;
  readonly spec: RunSpec;
  /** Swept path → the value as written in the sweep (e.g. `"2 m"`). */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** A validated experiment: its common spec and its runs (one when nothing is swept). */
export interface ExperimentPlan {
  readonly spec: ExperimentSpec;
  readonly runs: readonly PlannedRun[];
  /**
   * Set when `traces: true` for every run would hold more than `TRACE_LIMITS.maxBytes`: the traces were kept for the
   * runs the report draws only. `bytes` is what every run's would have held.
   */
  readonly tracesThinned?: { readonly kept: number; readonly runs: number; readonly bytes: number };
}

/** Most bytes of traces a sweep keeps (`traces: true` beyond it keeps the runs the report draws). */
export const TRACE_LIMITS = { maxBytes: 256 * 2 ** 20 };

/**
 * Sets `value` at a dotted path in a plain JSON object, creating objects on the way; returns a new object
 * (the input is not changed). A network given by profile name becomes `{ profile, … }` when one of its fields is
 * set, and a field of the default trajectory sets it on the default circle.
 */
export function setPath(input: unknown, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  const root = structuredClone(isObject(input) ? input : {}) as Record<string, unknown>;
  let node = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    const child = Object.hasOwn(node, key) ? node[key] : undefined; // never a prototype's (`constructor`)
    if (isObject(child)) node = child;
    else if (i === 0 && key === 'network' && typeof child === 'string') node = node[key] = { profile: child };
    else if (i === 0 && key === 'trajectory' && child === undefined)
      node = node[key] = { type: 'circle' }; // the default
    else node = node[key] = {};
  }
  node[keys[keys.length - 1]!] = value;
  return root;
}

/** Reads a `--set` value: JSON when it parses (numbers, booleans, arrays, quoted strings), else the text itself. */
export function parseSetValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Applies `path=value` assignments in order; malformed ones are reported, not thrown. */
export function applySets(
  input: unknown,
  assignments: readonly string[],
): { input: Record<string, unknown>; problems: SpecProblem[] } {
  let out = structuredClone(isObject(input) ? input : {}) as Record<string, unknown>;
  const problems: SpecProblem[] = [];
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    const path = eq > 0 ? assignment.slice(0, eq).trim() : '';
    if (!/^[A-Za-z][\w-]*(\.[A-Za-z][\w-]*)*$/.test(path)) {
      problems.push({
        path: '--set',
        message: `expected PATH=VALUE such as emitter.positionThreshold="2.5 m", got "${assignment}"`,
      });
      continue;
    }
    const value = parseSetValue(assignment.slice(eq + 1).trim());
    const unsafe = jsonInputProblems(value);
    for (const p of unsafe) problems.push({ path: '--set', message: `${path}=${p.path}: ${p.message}` });
    if (unsafe.length === 0) out = setPath(out, path, value);
  }
  return { input: out, problems };
}

/** Most runs one sweep may cross to; each planned run holds its validated spec in memory. */
export const MAX_SWEEP_RUNS = 100_000;

/**
 * Validates a spec and expands its sweep.
 * @throws SpecError listing every problem, each with its path and an example of a valid value.
 */
export function planExperiment(input: unknown): ExperimentPlan {
  const parsed = ExperimentSpecSchema.safeParse(input);
  if (!parsed.success) throw new SpecError(describeIssues(parsed.error.issues, ExperimentSpecSchema));
  const spec = parsed.data;
  const base = { ...(input as Record<string, unknown>) };
  delete base.sweep;
  delete base.parallel;

  // Check each swept value on its own first, so a bad one is reported at its place in the sweep.
  const problems: SpecProblem[] = [];
  const axes = Object.entries(spec.sweep);
  for (const [path, values] of axes) {
    values.forEach((value, i) => {
      const result = RunSpecSchema.safeParse(setPath(base, path, value));
      if (result.success) return;
      for (const issue of describeIssues(result.error.issues, RunSpecSchema)) {
        problems.push({
          path: `sweep["${path}"][${i}]`,
          message: issue.path === path ? issue.message : `${issue.path}: ${issue.message}`,
        });
      }
    });
  }
  if (problems.length > 0) throw new SpecError(problems);

  const runs: PlannedRun[] = [];
  const total = axes.reduce((n, [, values]) => n * values.length, 1);
  if (total > MAX_SWEEP_RUNS) {
    const sizes = axes.map(([path, values]) => `${values.length} (${path})`).join(' × ');
    const message = `crosses ${sizes} = ${total} runs; at most ${MAX_SWEEP_RUNS}: sweep fewer values`;
    throw new SpecError([{ path: 'sweep', message }]);
  }
  for (let index = 0; index < total; index++) {
    let runInput: unknown = base;
    const settings: Record<string, unknown> = {};
    let rest = index;
    // Last axis varies fastest, like nested loops written in the sweep's order.
    for (let a = axes.length - 1; a >= 0; a--) {
      const [path, values] = axes[a]!;
      const value = values[rest % values.length];
      rest = Math.floor(rest / values.length);
      settings[path] = value;
      runInput = setPath(runInput, path, value);
    }
    const result = RunSpecSchema.safeParse(runInput);
    if (!result.success) {
      const where = Object.entries(settings)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ');
      throw new SpecError(
        describeIssues(result.error.issues, RunSpecSchema).map((p) => ({
          ...p,
          message: `${p.message} (in the run with ${where})`,
        })),
      );
    }
    runs.push({ index, spec: result.data, settings: Object.fromEntries(axes.map(([path]) => [path, settings[path]])) });
  }
  let tracesThinned: ExperimentPlan['tracesThinned'];
  if (spec.traces === true) {
    // Estimated before anything runs: a 100 × 100 sweep with traces ran out of memory after 90 s, writing nothing.
    let bytes = 0;
    for (const run of runs) bytes += traceBytesPerRun(run.spec.renderRateHz ?? run.spec.sampleRateHz);
    if (bytes > TRACE_LIMITS.maxBytes) tracesThinned = { kept: 0, runs: runs.length, bytes };
  }
  if (spec.traces === undefined || tracesThinned) {
    const traced = runsToTrace(runs);
    for (const run of runs) (run as { spec: RunSpec }).spec = { ...run.spec, traces: traced.has(run.index) };
    if (tracesThinned) tracesThinned = { ...tracesThinned, kept: traced.size };
  }
  return tracesThinned ? { spec, runs, tracesThinned } : { spec, runs };
}

/** zod issues as problems with dotted paths, each ending with an example of a valid value when the schema has one. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], schema: z.ZodType): SpecProblem[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '<spec>';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys')
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    const example = exampleAt(schema, issue.path);
    if (example !== undefined && !/e\.g\./.test(message)) message += `; e.g. ${JSON.stringify(example)}`;
    return { path, message };
  });
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  valueType?: z.ZodType;
};

/** The first `examples` entry of the schema node at `path`, if any. */
function exampleAt(schema: z.ZodType, path: readonly PropertyKey[]): unknown {
  let node: z.ZodType | undefined = schema;
  let example: unknown;
  for (let i = 0; node !== undefined; i++) {
    const meta = node.meta() as { examples?: unknown[] } | undefined;
    if (meta?.examples) example = meta.examples[0];
    const def: Def = (node as unknown as { def: Def }).def;
    if (def.innerType || def.in) {
      node = def.innerType ?? def.in;
      i--;
      continue;
    }
    if (i >= path.length) return example;
    example = undefined;
    const key = String(path[i]);
    if (def.shape) node = def.shape[key];
    else if (def.options)
      node = def.options
        .map((o: z.ZodType) => (o as unknown as { def: Def }).def.shape?.[key])
        .find((s) => s !== undefined);
    else if (def.valueType) node = def.valueType;
    else return undefined;
  }
  return example;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
