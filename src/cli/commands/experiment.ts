/**
 * `reckon experiment`: runs a threshold-tuning experiment or sweep from a spec file or a named preset, prints
 * the results table (or results.json with --json) and writes results.csv, results.json and report.html.
 * Everything heavy (zod schema, simulation, Vega) is imported inside `run`.
 */
import { booleanFlag, stringFlag } from '../args.js';
import {
  EXIT_FAILURE,
  EXIT_OK,
  UsageError,
  type Command,
  type CommandIo,
  type FlagValues,
  type UsageProblem,
} from '../command.js';
import { formatCount } from '../terminal/format.js';
import { linesFor } from '../help.js';
import { columnWidths, longest } from '../terminal/column-widths.js';
import { printable } from '../terminal/printable.js';

export const command: Command = {
  name: 'experiment',
  summary: 'Run threshold-tuning experiments and sweeps; write CSV, JSON and an HTML report',
  usage: 'reckon experiment <spec.json> | --preset NAME [--set PATH=VALUE]… [--out DIR] [--json]',
  positionals: { min: 0, max: 1 },
  flags: {
    preset: {
      type: 'string',
      value: 'NAME',
      description: 'Run a named experiment instead of a spec file (see --list).',
    },
    list: { type: 'boolean', description: 'List the presets and exit.' },
    set: {
      type: 'string',
      value: 'PATH=VALUE',
      multiple: true,
      description: 'Override a spec field by its dotted path, e.g. emitter.positionThreshold="2.5 m".',
    },
    out: {
      type: 'string',
      value: 'DIR',
      description:
        'Folder for results.csv, results.json and report.html (created if missing; each file is replaced only once its new version is complete). Defaults to experiment-results/<name>. Ctrl-C or SIGTERM stops a sweep within a second and writes the runs already finished, marked partial (exit 130 / 143).',
    },
    json: { type: 'boolean', description: 'Print results.json to stdout instead of the table.' },
    'latency-compensation': {
      type: 'string',
      value: 'arrival|timestamp',
      description:
        'How the receiver times each PDU, as the live receiver does (receiver.latencyCompensation): from its arrival, or from its absolute timestamp (sender and receiver share the simulated clock). Sets latencyCompensation of every run. Defaults to the spec’s, else arrival like `reckon subscribe`.',
    },
    parallel: { type: 'string', value: 'N', description: 'Worker threads, 1–256. Defaults to the number of cores.' },
  },
  examples: [
    'reckon experiment --list',
    'reckon experiment --preset circle',
    'reckon experiment --preset circle --set trajectory.radius="500 m" --set emitter.positionThreshold="2.5 m" --json',
    'reckon experiment --preset circle --set network=wan --latency-compensation timestamp',
    'reckon experiment sweep.json --out results/ --parallel 2',
    'reckon experiment --preset lockstep-vs-tcp',
  ],
  async run(args, io) {
    const { PRESETS, isTablePreset } = await import('../../experiment/presets.js');
    if (booleanFlag(args.flags, 'list')) {
      const width = longest(Object.keys(PRESETS));
      for (const [name, preset] of Object.entries(PRESETS))
        io.stdout.write(`${name.padEnd(width)}  ${preset.summary}\n`);
      return EXIT_OK;
    }
    const presetName = stringFlag(args.flags, 'preset')?.toLowerCase(); // preset names are lower case
    const file = args.positionals[0];
    if ((presetName === undefined) === (file === undefined)) {
      throw new UsageError([
        { path: '<spec.json>', message: 'give a spec file or --preset NAME (one of them; see --list)' },
      ]);
    }
    const preset = presetName === undefined || !Object.hasOwn(PRESETS, presetName) ? undefined : PRESETS[presetName];
    if (presetName !== undefined && !preset) {
      throw new UsageError([
        { path: '--preset', message: `unknown preset "${presetName}"; presets: ${Object.keys(PRESETS).join(', ')}` },
      ]);
    }
    if (preset && isTablePreset(preset)) return runTablePreset(presetName!, preset.table, args.flags, io);
    const input = preset ? preset.spec : await readSpecFile(file!, io.signal);
    return runSpec(input, file, args.flags, io);
  },
};

/** Most bytes a spec file may hold (specs with long waypoint lists are tens of kilobytes). */
const MAX_SPEC_FILE_BYTES = 4 << 20;

async function readSpecFile(file: string, signal: AbortSignal): Promise<unknown> {
  const [{ readInputFile, InputFileError }, { jsonInputProblems }] = await Promise.all([
    import('../../files/input-file.js'),
    import('../../config/json-input.js'),
  ]);
  let text: string;
  try {
    text = (await readInputFile(file, 'spec file', MAX_SPEC_FILE_BYTES, signal)).toString('utf8');
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new UsageError([{ path: '<spec.json>', message: error.message }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError([
      { path: '<spec.json>', message: `"${file}" is not valid JSON: ${(error as Error).message}` },
    ]);
  }
  const unsafe = jsonInputProblems(json);
  if (unsafe.length > 0)
    throw new UsageError(unsafe.map((p) => ({ path: `<spec.json> ${p.path}`, message: p.message })));
  return json;
}

function parallelFlag(flags: FlagValues): number | undefined {
  const text = stringFlag(flags, 'parallel');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    const message = `expected a whole number of worker threads from 1 to 256, e.g. 2; got "${text}"`;
    throw new UsageError([{ path: '--parallel', message }]);
  }
  return n;
}

async function runSpec(input: unknown, file: string | undefined, flags: FlagValues, io: CommandIo): Promise<number> {
  const [
    { applySets, planExperiment, SpecError, TRACE_LIMITS },
    { memoryShortReason },
    { runSweep, runSizeProblems, SweepAbortedError },
    { createProgress },
    { ResultsFiles, partialNote },
    path,
  ] = await Promise.all([
    import('../../experiment/sweep.js'),
    import('../../experiment/memory-guard.js'),
    import('../../experiment/sweep-runner.js'),
    import('../../experiment/progress.js'),
    import('../../experiment/results-files.js'),
    import('node:path'),
  ]);
  const sets = flags.set === undefined ? [] : Array.isArray(flags.set) ? flags.set : [String(flags.set)];
  const compensation = stringFlag(flags, 'latency-compensation');
  const { input: withSets, problems } = applySets(
    input,
    compensation === undefined ? sets : [`latencyCompensation=${compensation}`, ...sets],
  );
  let plan;
  try {
    plan = planExperiment(withSets);
  } catch (error) {
    if (error instanceof SpecError) throw new UsageError([...problems, ...error.problems]);
    throw error;
  }
  if (problems.length > 0) throw new UsageError(problems);
  const parallel = parallelFlag(flags);
  const baseDirectory = file ? path.dirname(path.resolve(file)) : process.cwd();
  await checkRecordedTracks(
    plan.runs.map((r) => r.spec.trajectory),
    baseDirectory,
  );
  // Sizes and the results folder are checked before anything runs: a long sweep must not fail at its end.
  const sizeProblems = await runSizeProblems(plan, baseDirectory);
  if (sizeProblems.length > 0) throw new UsageError(sizeProblems);

  const name = plan.spec.name;
  const out = stringFlag(flags, 'out') ?? path.join('experiment-results', name);
  // No result file may be the spec or a track the runs read (`--out .` beside a spec named results.json).
  const { refuseSameFiles } = await import('../same-files.js');
  const tracks = new Set(
    plan.runs.flatMap(({ spec }) =>
      spec.trajectory.type === 'recorded' ? [path.resolve(baseDirectory, spec.trajectory.file)] : [],
    ),
  );
  await refuseSameFiles(
    io,
    [
      ...(file ? [{ path: file, name: '<spec.json>' }] : []),
      ...[...tracks].map((t) => ({ path: t, name: 'trajectory.file' })),
    ],
    ['results.csv', 'results.json', 'report.html'].map((f) => ({ path: path.join(out, f), name: '--out' })),
  );
  await outputFolder(out);
  if (plan.tracesThinned) {
    const { kept, runs, bytes } = plan.tracesThinned;
    io.stderr.write(
      `experiment: note: traces for all ${formatCount(runs, 'run')} would hold about ${Math.round(bytes / 2 ** 20)} MiB, more ` +
        `than the ${TRACE_LIMITS.maxBytes / 2 ** 20} MiB kept; kept for the ${kept} runs the report draws\n`,
    );
  }
  // results.csv and results.json are written as the runs finish: a stopped sweep has its finished runs on disk.
  const files = await ResultsFiles.open(out, name, withSets, Object.keys(plan.spec.sweep));
  const progress = createProgress(plan.runs.length, io.stderr as NodeJS.WritableStream & { isTTY?: boolean });
  let results;
  let partial: import('../../experiment/results-files.js').PartialResults | undefined;
  // Stopped by a signal, or before memory runs out: either way the finished runs are written.
  const stop = new AbortController();
  const onSignal = () => stop.abort(io.signal.reason);
  io.signal.addEventListener('abort', onSignal, { once: true });
  if (io.signal.aborted) onSignal();
  try {
    const onProgress = (done: number) => {
      progress.update(done);
      const short = memoryShortReason();
      if (short !== undefined && !stop.signal.aborted) stop.abort(short);
    };
    const onResult = (result: RunResult) => files.add(result);
    results = await runSweep(plan, { parallel, baseDirectory, onProgress, onResult, signal: stop.signal });
  } catch (error) {
    if (!(error instanceof SweepAbortedError)) {
      await files.discard();
      throw error;
    }
    results = [...error.finished];
    const reason = String(error.reason ?? 'a signal');
    partial = { runsPlanned: error.planned, reason: io.signal.aborted ? `interrupted by ${reason}` : reason };
  } finally {
    io.signal.removeEventListener('abort', onSignal);
  }
  progress.finish();
  // Stopped for memory, not by a signal: a failure, with what finished written.
  const failedExit = () => (io.signal.aborted ? signalExitCode(io.signal) : EXIT_FAILURE);
  if (partial && results.length === 0) {
    await files.discard();
    io.stderr.write(`experiment: ${partialNote(results, partial)}; nothing written\n`);
    return failedExit();
  }
  if (io.signal.aborted)
    io.stderr.write('experiment: stopping: writing the finished runs (Ctrl-C again to stop at once)\n');
  const written = await files.finish(partial);
  written.push(await writeReport(out, name, results, { plan, ...(partial ? { partial } : {}) }));
  await printResults(io, results, booleanFlag(flags, 'json') ? files.jsonPath : undefined);
  io.stderr.write(
    `${partial ? `experiment: ${partialNote(results, partial)}; ` : ''}wrote ${written.map(printable).join(', ')}\n`,
  );
  // A signal while the results were being written still says the command was interrupted.
  return partial || io.signal.aborted ? failedExit() : EXIT_OK;
}

type RunResult = import('../../experiment/runner.js').RunResult;

/** Writes report.html beside the results; its charts and table are bounded whatever the number of runs. */
async function writeReport(
  out: string,
  name: string,
  results: readonly RunResult[],
  options: import('../../experiment/report.js').ReportOptions,
): Promise<string> {
  const [{ experimentReportHtml }, { writeOutputFile }, path] = await Promise.all([
    import('../../experiment/report.js'),
    import('../../files/output-file.js'),
    import('node:path'),
  ]);
  const file = path.join(out, 'report.html');
  await writeOutputFile(file, await experimentReportHtml(name, results, options));
  return file;
}

/**
 * Standard output: results.json as written (`jsonPath`, copied from the file), or the table; past
 * MAX_TABLE_ROWS runs the table holds the Pareto-optimal ones, as the report's does, and says so on stderr.
 */
async function printResults(io: CommandIo, results: readonly RunResult[], jsonPath: string | undefined): Promise<void> {
  const [{ paretoFront, MAX_TABLE_ROWS }, { runNotes }, { toTextTable }] = await Promise.all([
    import('../../experiment/report.js'),
    import('../../experiment/report-text.js'),
    import('../../experiment/results-table.js'),
  ]);
  if (jsonPath !== undefined) {
    const { createReadStream } = await import('node:fs');
    for await (const chunk of createReadStream(jsonPath)) {
      if (!io.stdout.write(chunk as Buffer)) await new Promise((resolve) => io.stdout.once('drain', resolve));
    }
  } else if (results.length <= MAX_TABLE_ROWS) {
    io.stdout.write(toTextTable(results));
  } else {
    const front = new Set(paretoFront(results.map((r) => [r.metrics.pdusPerSecond, r.metrics.positionError.rms])));
    const shown = results.filter((_, i) => front.has(i)).slice(0, MAX_TABLE_ROWS);
    io.stdout.write(toTextTable(shown));
    io.stderr.write(
      `experiment: note: the table shows the ${shown.length} Pareto-optimal of ${results.length} runs (lowest RMS ` +
        'error for their rate); results.csv has every run\n',
    );
  }
  for (const note of runNotes(results)) {
    for (const part of linesFor(io.stderr, `experiment: note: ${printable(note)}`)) io.stderr.write(`${part}\n`);
  }
}

/** 128 + the signal number of the abort's reason: 130 for SIGINT, 143 for SIGTERM. */
function signalExitCode(signal: AbortSignal): number {
  return signal.reason === 'SIGTERM' ? 143 : 130;
}

/** Checks (and creates) the results folder before anything runs: a bad --out is reported at once. */
async function outputFolder(out: string): Promise<void> {
  const { prepareOutputFolder, OutputPathError } = await import('../../files/output-file.js');
  try {
    await prepareOutputFolder(out);
  } catch (error) {
    if (error instanceof OutputPathError) throw new UsageError([{ path: '--out', message: error.message }]);
    throw error;
  }
}

/**
 * Reads every recorded track the runs fly before any run starts, so that a missing file or a bad one (rows out
 * of range, several recordings or entities to choose from) is a usage problem listed in full, not a failed run.
 */
async function checkRecordedTracks(
  trajectories: ReadonlyArray<{ type: string }>,
  baseDirectory: string,
): Promise<void> {
  const [{ trajectoryFromSpec, EntityTypeError }, { TrackError }, { InputFileError }, { trackErrorProblems }] =
    await Promise.all([
      import('../../experiment/build.js'),
      import('../../truth/track-checks.js'),
      import('../../files/input-file.js'),
      import('../track-actors.js'),
    ]);
  const problems: UsageProblem[] = [];
  const seen = new Set<string>();
  for (const trajectory of trajectories) {
    if (trajectory.type !== 'recorded') continue;
    const key = JSON.stringify(trajectory);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await trajectoryFromSpec(trajectory as Parameters<typeof trajectoryFromSpec>[0], baseDirectory);
    } catch (error) {
      const file = (trajectory as { file?: string }).file;
      if (error instanceof EntityTypeError) {
        problems.push({ path: 'trajectory.entityType', message: error.message });
      } else if (error instanceof TrackError) {
        problems.push(...trackErrorProblems(error, 'trajectory.file', `${file}: `));
      } else if (error instanceof InputFileError) {
        problems.push({
          path: 'trajectory.file',
          message: `${error.message} (relative paths start at the spec file's folder)`,
        });
      } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        problems.push({
          path: 'trajectory.file',
          message: `${file}: no such file (relative paths start at the spec file's folder)`,
        });
      } else {
        throw error;
      }
    }
  }
  if (problems.length > 0) throw new UsageError(problems);
}

async function runTablePreset(
  name: string,
  table: (options: { seed?: number; durationSeconds?: number }) => Promise<ReadonlyArray<Record<string, unknown>>>,
  flags: FlagValues,
  io: CommandIo,
): Promise<number> {
  const sets = flags.set === undefined ? [] : Array.isArray(flags.set) ? flags.set : [String(flags.set)];
  const options: { seed?: number; durationSeconds?: number } = {};
  const problems = [];
  const { readQuantity } = await import('../../config/units.js');
  for (const assignment of sets) {
    const [key, value] = assignment.split('=', 2) as [string, string | undefined];
    const n = Number(value);
    // A duration takes units like every other time setting: durationSeconds="2 min".
    const duration = key === 'durationSeconds' && value !== undefined ? readQuantity(value, 'time') : undefined;
    if (key === 'seed' && value !== undefined && Number.isInteger(n)) options.seed = n;
    else if (duration?.ok && duration.value > 0) options.durationSeconds = duration.value;
    else {
      const message = 'this preset takes only seed=N and durationSeconds=T, e.g. --set durationSeconds="1 min"';
      problems.push({ path: `--set ${key}`, message });
    }
  }
  if (problems.length > 0) throw new UsageError(problems);
  const path = await import('node:path');
  const out = stringFlag(flags, 'out') ?? path.join('experiment-results', name);
  await outputFolder(out);
  io.stderr.write(`running ${name} …\n`);
  const rows = await table(options);
  const header = Object.keys(rows[0] ?? {});
  const cells = rows.map((row) => header.map((h) => row[h] as number | string | null));
  const { writeOutputFile } = await import('../../files/output-file.js');
  const { renderHtmlReport, tablePresetSections } = await import('../../experiment/report.js');
  const { formatCell } = await import('../../experiment/results-table.js');
  // `runs`, as in every other preset's results.json: one entry per condition.
  const json = JSON.stringify({ name, options, runs: rows }, null, 2) + '\n';
  const csv = [header, ...cells].map((r) => r.map((c) => String(c ?? '')).join(',')).join('\n') + '\n';
  const html = renderHtmlReport(name, `${formatCount(rows.length, 'condition')}.`, await tablePresetSections(rows));
  await Promise.all([
    writeOutputFile(path.join(out, 'results.json'), json),
    writeOutputFile(path.join(out, 'results.csv'), csv),
    writeOutputFile(path.join(out, 'report.html'), html),
  ]);
  if (booleanFlag(flags, 'json')) io.stdout.write(json);
  else {
    const text = cells.map((r) => r.map(formatCell));
    const widths = columnWidths(header, text);
    const line = (r: string[]) => r.map((c, i) => c.padStart(widths[i]!)).join('  ');
    io.stdout.write([line(header), ...text.map(line)].join('\n') + '\n');
  }
  const written = ['results.csv', 'results.json', 'report.html'].map((f) => printable(path.join(out, f)));
  io.stderr.write(`wrote ${written.join(', ')}\n`);
  return EXIT_OK;
}
