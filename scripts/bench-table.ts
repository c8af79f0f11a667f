/**
 * The figures table of docs/benchmarks.md, made from `npm run bench -- --json` runs (one NDJSON file per run, as
 * kept in bench/runs/): a line per run (date, machine, load average at its start and end), then one row per
 * benchmark with its figures, the baseline measured beside it in the same run and their ratio; with several runs
 * each figure is the range over them. A result no row names gets a row of its raw figures, so nothing the
 * benchmark printed is left out. scripts/write-bench-doc.ts writes it; test/scripts/bench-doc.test.ts checks it.
 */

/** One line of `npm run bench -- --json`. */
export type BenchLine = { readonly name: string } & Readonly<Record<string, number | string | boolean>>;

/** Where the table starts and ends in docs/benchmarks.md. */
export const BENCH_DOC_MARKERS = ['<!-- bench figures: start -->', '<!-- bench figures: end -->'] as const;

/** The NDJSON of a run: its JSON lines (npm's own lines before them skipped). */
export function parseRun(text: string): BenchLine[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as BenchLine);
}

/** The values of `field` of result `name` over the runs that have it. */
type Figures = (name: string, field: string) => number[];

/** A cell of the table from the runs' figures. */
type Cell = (f: Figures) => string;

interface Row {
  /** What is measured. */
  readonly what: string;
  /** The JSON name of reckon's result. */
  readonly name: string;
  readonly reckon: Cell;
  readonly baseline?: Cell;
  readonly ratio?: Cell;
  /** Results (beside `name`) this row shows, so that they get no row of their own. */
  readonly uses?: readonly string[];
}

function sig(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(abs >= 10 ? 3 : 2)));
}

/**
 * The runs' figure, each scaled by `scale`: one value when they agree, `a–b` over two runs, and over three or more
 * their median with the range in brackets, `m (a–b)`; `–` when none has it.
 */
function range(values: readonly number[], scale = 1): string {
  if (values.length === 0) return '–';
  const sorted = values.map((v) => v / scale).sort((a, b) => a - b);
  const lo = sig(sorted[0]!),
    hi = sig(sorted.at(-1)!);
  if (lo === hi) return lo;
  if (sorted.length < 3) return `${lo}–${hi}`;
  const half = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
  return `${sig(median)} (${lo}–${hi})`;
}

/** Operations per second in M/s or k/s, by the size of the smallest. */
const rate =
  (name: string, field = 'opsPerSec', unit = '/s'): Cell =>
  (f) => {
    const v = f(name, field);
    if (v.length === 0) return '–';
    return Math.min(...v) >= 1e6 ? `${range(v, 1e6)} M${unit}` : `${range(v, 1e3)} k${unit}`;
  };
const value =
  (name: string, field: string, unit = ''): Cell =>
  (f) =>
    `${range(f(name, field))}${unit}`;
const join =
  (...cells: Cell[]): Cell =>
  (f) =>
    cells.map((c) => c(f)).join(', ');
const text =
  (t: string): Cell =>
  () =>
    t;
/** Cells with spaces between them. */
const spaced =
  (...cells: Cell[]): Cell =>
  (f) =>
    cells.map((c) => c(f)).join(' ');
/** `label` and the cells after it, with spaces: `open-dis 437 k/s`, `goal 2 ms`. */
const labelled =
  (label: string, ...cells: Cell[]): Cell =>
  (f) =>
    [label, ...cells.map((c) => c(f))].join(' ');
/** Bytes in kB or MB. */
const bytes =
  (name: string, field: string, unit = ''): Cell =>
  (f) => {
    const v = f(name, field);
    if (v.length === 0) return '–';
    return Math.min(...v) >= 1e6 ? `${range(v, 1e6)} MB${unit}` : `${range(v, 1e3)} kB${unit}`;
  };
/** A count with thin groups of three digits: 100 000. */
const count =
  (name: string, field: string, unit = ''): Cell =>
  (f) =>
    `${range(f(name, field)).replace(/\d{4,}/g, (d) => Number(d).toLocaleString('en-GB').replaceAll(',', ' '))}${unit}`;
const times = (name: string, field: string): Cell => value(name, field, '×');

const codec = (what: string, name: string, baseline: string, unitName = 'PDUs'): Row => ({
  what,
  name,
  reckon: join(rate(name, 'opsPerSec', ` ${unitName}/s`), value(name, 'heapBytesPerOp', ' B heap per PDU')),
  baseline: join(labelled('`open-dis`', rate(baseline)), value(baseline, 'heapBytesPerOp', ' B per PDU')),
  ratio: times(name, 'ratioVsOpenDis'),
  uses: [baseline],
});

/** The rows, in the order of the table. */
const ROWS: readonly Row[] = [
  codec('Entity State decode from a socket Buffer', 'codec.decode.reckon', 'codec.decode.open-dis'),
  codec(
    '… decode and validate (ids, finite and plausible values)',
    'codec.decode-validate.reckon',
    'codec.decode.open-dis',
  ),
  codec('… each PDU in a Buffer of its own', 'codec.decode.reckon.separate-buffers', 'codec.decode.open-dis'),
  codec('JSON-form decode', 'codec.decode-json.reckon', 'codec.decode.open-dis'),
  {
    ...codec('Entity State encode', 'codec.encode.reckon', 'codec.encode.open-dis'),
    baseline: join(
      labelled('`open-dis`', rate('codec.encode.open-dis')),
      labelled('one reused stream', rate('codec.encode.open-dis.reused-stream')),
    ),
    ratio: join(
      times('codec.encode.reckon', 'ratioVsOpenDis'),
      times('codec.encode.reckon', 'ratioVsOpenDisReusedStream'),
    ),
    uses: ['codec.encode.open-dis', 'codec.encode.open-dis.reused-stream'],
  },
  {
    ...codec('Fire PDU decode', 'codec.decode.fire.reckon', 'codec.decode.fire.open-dis'),
    baseline: labelled('`open-dis`', rate('codec.decode.fire.open-dis')),
  },
  {
    ...codec('Detonation PDU decode', 'codec.decode.detonation.reckon', 'codec.decode.detonation.open-dis'),
    baseline: labelled('`open-dis`', rate('codec.decode.detonation.open-dis')),
  },
  ...(['fpw', 'fvw', 'rvw', 'rvw.euler'] as const).map(
    (model): Row => ({
      what: `dead reckoning, 10⁵ entities per tick, ${model === 'rvw.euler' ? 'RVW with Euler angles out' : model.toUpperCase()}`,
      name: `dr.extrapolate.${model}.reckon`,
      reckon: rate(`dr.extrapolate.${model}.reckon`, 'opsPerSec', ' entity-updates/s'),
      baseline: join(
        labelled('array of objects (FVW)', rate('dr.extrapolate.fvw.objects')),
        labelled('plain typed-array loop', rate('dr.extrapolate.fvw.js-loop')),
      ),
      ratio: join(
        times(`dr.extrapolate.${model}.reckon`, 'ratioVsObjects'),
        times(`dr.extrapolate.${model}.reckon`, 'ratioVsJsLoop'),
      ),
      uses: ['dr.extrapolate.fvw.objects', 'dr.extrapolate.fvw.js-loop'],
    }),
  ),
  {
    what: 'emitter decisions',
    name: 'dr.emitter.reckon',
    reckon: join(
      rate('dr.emitter.reckon', 'opsPerSec', ' decisions/s'),
      value('dr.emitter.reckon', 'heapBytesPerOp', ' B heap each'),
    ),
  },
  {
    what: 'table update per PDU, 10 PDUs per entity between renders',
    name: 'dr.table.apply.reckon',
    reckon: join(
      rate('dr.table.apply.reckon', 'opsPerSec', ' PDUs/s'),
      value('dr.table.apply.reckon', 'heapBytesPerOp', ' B per PDU'),
    ),
    baseline: labelled('eager model reset per PDU', rate('dr.table.apply.eager')),
    ratio: times('dr.table.apply.reckon', 'ratioVsEager'),
    uses: ['dr.table.apply.eager'],
  },
  {
    what: 'render after one PDU per entity',
    name: 'dr.table.render-after-update.reckon',
    reckon: rate('dr.table.render-after-update.reckon', 'opsPerSec', ' updated entities/s'),
  },
  {
    what: 'subscriber receive path in process',
    name: 'stream.receive.reckon',
    reckon: join(
      rate('stream.receive.reckon', 'opsPerSec', ' PDUs/s'),
      value('stream.receive.reckon', 'heapBytesPerOp', ' B per PDU'),
    ),
    baseline: labelled('decode to objects in a Map', rate('stream.receive.baseline-objects')),
    ratio: times('stream.receive.reckon', 'ratioVsBaseline'),
    uses: ['stream.receive.baseline-objects'],
  },
  {
    what: '… with entity events subscribed',
    name: 'stream.receive+events.reckon',
    reckon: join(
      rate('stream.receive+events.reckon', 'opsPerSec', ' PDUs/s'),
      value('stream.receive+events.reckon', 'heapBytesPerOp', ' B per PDU'),
    ),
  },
  {
    what: '… with `--display interpolate`',
    name: 'stream.receive.interpolate.reckon',
    reckon: join(
      rate('stream.receive.interpolate.reckon', 'opsPerSec', ' PDUs/s'),
      value('stream.receive.interpolate.reckon', 'heapBytesPerOp', ' B per PDU'),
    ),
  },
  {
    what: 'render-rate frames of 1000 entities',
    name: 'stream.frame.reckon',
    reckon: rate('stream.frame.reckon', 'entitiesPerSec', ' entities/s'),
  },
  ...(['', '.bundled10'] as const).map(
    (mode): Row => ({
      what: `loopback UDP, ${mode === '' ? '1 PDU' : '10 PDUs'} per datagram, receive → decode → table`,
      name: `udp.loopback${mode}.reckon`,
      reckon: join(
        rate(`udp.loopback${mode}.reckon`, 'opsPerSec', ' PDUs/s'),
        value(`udp.loopback${mode}.reckon`, 'lossPercent', ' % lost'),
      ),
      baseline: join(
        labelled('raw `dgram` receive', rate(`udp.loopback${mode}.raw`)),
        value(`udp.loopback${mode}.raw`, 'lossPercent', ' % lost'),
      ),
      ratio: value(`udp.loopback${mode}.reckon`, 'ratioVsRaw'),
      uses: [`udp.loopback${mode}.raw`],
    }),
  ),
  {
    what: 'load generator tick, 100 000 entities: emitter decisions and encoding',
    name: 'publish.entities100k',
    reckon: join(
      rate('publish.entities100k', 'opsPerSec', ' decisions per CPU-second'),
      value('publish.entities100k', 'heapBytesPerEntity', ' B heap per entity'),
      value('publish.entities100k', 'pdusPerDecision', ' PDUs per decision'),
    ),
    baseline: join(
      labelled('one emitter object per entity', rate('publish.entities100k.per-object-emitter')),
      value('publish.entities100k.per-object-emitter', 'heapBytesPerEntity', ' B per entity'),
    ),
    ratio: times('publish.entities100k', 'ratioVsPerObject'),
    uses: ['publish.entities100k.per-object-emitter'],
  },
  {
    what: '… with the truth sampled (a tick of `publish --entities`)',
    name: 'publish.entities100k.with-truth',
    reckon: rate('publish.entities100k.with-truth', 'opsPerSec', ' decisions per CPU-second'),
  },
  {
    what: 'load generator tick, 1 000 000 entities: truth, decisions and encoding',
    name: 'publish.entities1m',
    reckon: join(
      rate('publish.entities1m', 'opsPerSec', ' decisions per CPU-second'),
      labelled('decisions and encoding alone', rate('publish.entities1m', 'bankOpsPerSec')),
      value('publish.entities1m', 'bytesPerEntity', ' B per entity'),
      value('publish.entities1m', 'rssBytesPerEntity', ' B resident per entity'),
    ),
    ratio: text('goal ≥ 5 M/s, ≤ 600 B'),
  },
  {
    what: '100 000 remote entities, resident memory after a render',
    name: 'table.rss100k',
    reckon: join(
      value('table.rss100k', 'megabytes', ' MB'),
      value('table.rss100k', 'bytesPerEntity', ' B per entity'),
      labelled('while every correction is under way', value('table.rss100k', 'bytesPerEntityWhileSmoothing', ' B')),
    ),
    baseline: labelled(
      'a Map of decoded records, no dead reckoning',
      value('table.rss100k.map-of-records', 'bytesPerEntity', ' B per entity'),
    ),
    uses: ['table.rss100k.map-of-records'],
  },
  {
    what: '1 000 000 remote entities, resident memory after a render',
    name: 'table.rss1m',
    reckon: join(
      value('table.rss1m', 'bytesPerEntity', ' B per entity'),
      labelled('while every correction is under way', value('table.rss1m', 'bytesPerEntityWhileSmoothing', ' B')),
    ),
    ratio: labelled('goal', value('table.rss1m', 'goalBytesPerEntity', ' B')),
  },
  ...(['help', 'record-help'] as const).map(
    (what): Row => ({
      what: `\`reckon ${what === 'help' ? '--help' : 'record --help'}\` start-up`,
      name: `cli.startup.${what}`,
      reckon: join(
        value(`cli.startup.${what}`, 'overNodeMs', ' ms over Node'),
        value(`cli.startup.${what}`, 'ms', ' ms in all'),
      ),
      baseline: labelled('`node -e 0`', value(`cli.startup.${what}`, 'nodeBaselineMs', ' ms')),
    }),
  ),
  ...(['summary', 'json'] as const).map(
    (mode): Row => ({
      what: `\`reckon decode\`${mode === 'json' ? ' --json' : ''}, a capture of mixed PDU types`,
      name: `cli.decode.${mode}.mixed-types`,
      reckon: value(`cli.decode.${mode}.mixed-types`, 'usPerPdu', ' µs per PDU'),
      baseline: labelled(
        'Entity State PDUs only',
        value(`cli.decode.${mode}.mixed-types`, 'entityStateOnlyUsPerPdu', ' µs'),
      ),
      ratio: value(`cli.decode.${mode}.mixed-types`, 'ratio'),
    }),
  ),
  {
    what: 'DIS → Cursor on Target, frame → XML event, 1000 entities',
    name: 'cot.encode',
    reckon: join(rate('cot.encode', 'eventsPerSec', ' events/s'), value('cot.encode', 'bytesPerEvent', ' B each')),
    baseline: labelled('the XML document alone (`fast-xml-parser`)', rate('cot.encode.xml', 'eventsPerSec')),
    uses: ['cot.encode.xml'],
  },
  ...(['vrforces-dis7', 'vrforces-dis5'] as const).map(
    (capture): Row => ({
      what: `CoT at 1 Hz against the Entity State PDUs of a recorded exercise (${capture})`,
      name: `cot.bandwidth.${capture}`,
      reckon: value(`cot.bandwidth.${capture}`, 'cotBytesPerEntityPerSec', ' B per entity per second'),
      baseline: labelled(
        'Entity State PDUs received',
        value(`cot.bandwidth.${capture}`, 'disEntityStateBytesPerEntityPerSec', ' B'),
      ),
      ratio: value(`cot.bandwidth.${capture}`, 'ratio'),
    }),
  ),
  {
    what: 'entity type names, 4096 types',
    name: 'names.lookup',
    reckon: join(rate('names.lookup', 'opsPerSec', ' lookups/s'), value('names.lookup', 'heapBytesPerOp', ' B each')),
    baseline: labelled('a Map of strings', rate('names.lookup', 'baselineOpsPerSec')),
    ratio: value('names.lookup', 'ratio'),
  },
  {
    what: 'recorded track smoothed, the Boeing 787 of AFR787V (13 143 ADS-B fixes)',
    name: 'truth.smooth',
    reckon: join(
      rate('truth.smooth', 'opsPerSec', ' fixes/s'),
      value('truth.smooth', 'heapBytesPerOp', ' B each'),
      labelled('whole estimator', rate('truth.smooth', 'estimateFixesPerSec')),
    ),
    baseline: labelled('one forward `TrackFilter` pass', rate('truth.smooth', 'baselineOpsPerSec')),
    ratio: spaced(value('truth.smooth', 'ratio'), text('(goal ≥ 1 M fixes/s)')),
  },
  {
    what: 'zero-run compression of Entity State deltas',
    name: 'compression.zero-run',
    reckon: join(
      rate('compression.zero-run', 'opsPerSec', ' PDUs/s'),
      value('compression.zero-run', 'ratio', ' of the bytes'),
    ),
    baseline: join(
      labelled('deflate', rate('compression.deflate')),
      value('compression.deflate', 'ratio', ' of the bytes'),
    ),
    ratio: times('compression.zero-run', 'speedupVsDeflate'),
    uses: ['compression.deflate'],
  },
  {
    what: 'threshold experiments, 1 000 runs × 10 min at 60 Hz on both cores',
    name: 'experiment.throughput',
    reckon: join(
      value('experiment.throughput', 'simHoursPerSecond', ' simulated hours per second'),
      value('experiment.throughput', 'cpuMicrosecondsPerStep', ' µs CPU per step'),
    ),
    baseline: join(
      labelled('one thread', value('experiment.throughput', 'baselineOneThreadSimHoursPerSecond')),
      labelled(
        'each run on a fresh context',
        value('experiment.throughput', 'baselineOneThreadUnsharedSimHoursPerSecond'),
      ),
    ),
    ratio: join(times('experiment.throughput', 'ratioToOneThread'), times('experiment.throughput', 'ratioToUnshared')),
  },
  {
    what: 'live map gateway, 1000 PDUs per tick to 10 WebSocket clients against 1',
    name: 'view.gateway.fanout10',
    reckon: join(
      rate('view.gateway.fanout10', 'pdusPerCpuSecPerClient10', ' PDUs per client per CPU-second'),
      value('view.gateway.fanout10', 'perClientCpuUs', ' µs CPU per further client per tick'),
    ),
    baseline: join(
      labelled('1 client', rate('view.gateway.fanout10', 'pdusPerCpuSecPerClient1')),
      labelled('a bare ws server', value('view.gateway.fanout10', 'barePerClientCpuUs', ' µs per further client')),
    ),
    ratio: spaced(value('view.gateway.fanout10', 'ratio'), text('(goal 0.8)')),
  },
  {
    what: '… bytes on the WebSocket per entity per second, 1000 entities at 1 PDU/s',
    name: 'view.gateway.bytes',
    reckon: value('view.gateway.bytes', 'wsBytesPerEntityPerSec', ' B'),
    baseline: labelled('UDP payload', value('view.gateway.bytes', 'udpBytesPerEntityPerSec', ' B')),
    ratio: value('view.gateway.bytes', 'ratio'),
  },
  {
    what: '… a million entities held, resident memory',
    name: 'view.gateway.rss1m',
    reckon: value('view.gateway.rss1m', 'bytesPerEntity', ' B per entity'),
    ratio: labelled('goal', value('view.gateway.rss1m', 'goalBytesPerEntity', ' B')),
  },
  {
    what: "… a page's first snapshot of a million entities over a WebSocket on 127.0.0.1",
    name: 'view.snapshot1m',
    reckon: join(
      value('view.snapshot1m', 'seconds', ' s'),
      value('view.snapshot1m', 'megabytes', ' MB'),
      labelled('decoded and applied to a table', value('view.snapshot1m', 'secondsDecodedApplied', ' s')),
    ),
    baseline: labelled(
      'the same messages made beforehand, sent at once by a plain `ws` server',
      value('view.snapshot1m.plain-ws', 'seconds', ' s'),
    ),
    ratio: join(
      times('view.snapshot1m', 'ratioVsPlainWs'),
      labelled('goal', value('view.snapshot1m', 'goalSeconds', ' s')),
    ),
    uses: ['view.snapshot1m.plain-ws'],
  },
  {
    what: '… receive path, decode → filters → tick buffer, no client',
    name: 'view.gateway.receive',
    reckon: join(
      rate('view.gateway.receive', 'pdusPerSec', ' PDUs/s'),
      value('view.gateway.receive', 'heapBytesPerPdu', ' B per PDU'),
    ),
  },
  ...(
    [
      ['10k', '10 000 moving entities'],
      ['100k', '100 000 moving entities'],
      ['1m', '1 000 000 moving entities'],
    ] as const
  ).map(
    ([key, what]): Row => ({
      what: `live map page, JS work per frame in headless Chromium, ${what}`,
      name: `view.frame.${key}`,
      reckon: join(
        value(`view.frame.${key}`, 'medianMs', ' ms median'),
        value(`view.frame.${key}`, 'p95Ms', ' ms p95'),
        value(`view.frame.${key}`, 'modelMedianMs', ' ms model'),
        value(`view.frame.${key}`, 'gpuMedianMs', ' ms GPU upload'),
        value(`view.frame.${key}`, 'layersMedianMs', ' ms layers'),
      ),
      baseline: labelled('CPU path', value(`view.frame.${key}`, 'cpuPathMedianMs', ' ms median')),
      ratio: labelled('goal', value(`view.frame.${key}`, 'goalMs', ' ms')),
    }),
  ),
  {
    what: 'live map page download',
    name: 'view.bundle',
    reckon: join(
      bytes('view.bundle', 'gzipBytes', ' gzipped'),
      bytes('view.bundle', 'appJsGzipBytes', ' of it app.js'),
    ),
    ratio: labelled('goal', bytes('view.bundle', 'goalGzipBytes')),
  },
  {
    what: 'publish through `NatsTransport`, entities moving between rounds',
    name: 'nats.publish.reckon',
    reckon: join(
      rate('nats.publish.reckon', 'opsPerSec', ' PDUs per CPU-second'),
      rate('nats.publish.reckon', 'wallOpsPerSec', ' wall'),
    ),
    baseline: join(
      labelled('bare client, same messages', rate('nats.publish.raw')),
      rate('nats.publish.raw', 'wallOpsPerSec', ' wall'),
    ),
    ratio: spaced(value('nats.publish.reckon', 'ratioVsRaw'), text('CPU (goal 0.7)')),
    uses: ['nats.publish.raw'],
  },
  {
    what: 'UDP → bridge → server → subscriber, 10 PDUs per datagram',
    name: 'nats.bridge.udp-to-subscriber',
    reckon: join(
      rate('nats.bridge.udp-to-subscriber', 'opsPerSec', ' PDUs/s delivered'),
      value('nats.bridge.udp-to-subscriber', 'lossPercent', ' % lost'),
      rate('nats.bridge.udp-to-subscriber', 'pdusPerCpuSecond', ' PDUs per CPU-second'),
    ),
  },
  {
    what: '100 000 entities, one subscriber with a 50 km area',
    name: 'nats.interest',
    reckon: join(
      value('nats.interest', 'receivedPercent', ' % of the traffic received'),
      value('nats.interest', 'cells', ' cells'),
      spaced(
        value('nats.interest', 'insideReceived'),
        text('of'),
        value('nats.interest', 'insideArea'),
        text('inside present'),
      ),
    ),
    ratio: text('goal ≤ 2 %'),
  },
  ...([1, 2, 4] as const).map(
    (p): Row => ({
      what: `100 000 PDUs over ${p} subscriber process${p === 1 ? '' : 'es'} by cell`,
      name: `nats.scale.p${p}`,
      reckon: join(
        rate(`nats.scale.p${p}`, 'totalOpsPerSec', ' PDUs/s measured'),
        count(`nats.scale.p${p}`, 'pdusPerProcessMax', ' PDUs per process at most'),
      ),
      baseline: labelled('model', rate(`nats.scale.p${p}`, 'modelOpsPerSec')),
    }),
  ),
];

const RUN_START = 'bench.run';
const RUN_END = 'bench.run.end';

/** `2026-11-28 16:21–16:35 UTC`. */
function when(start: string, end: string | undefined): string {
  const day = start.slice(0, 10);
  const time = (iso: string) => iso.slice(11, 16);
  return `${day} ${time(start)}${end ? `–${time(end)}` : ''} UTC`;
}

/** A line per run: when, on what, the load average. */
function runLine(run: readonly BenchLine[], i: number): string {
  const start = run.find((l) => l.name === RUN_START);
  const end = run.find((l) => l.name === RUN_END);
  if (!start) return `- run ${i + 1}: (no \`${RUN_START}\` line: date, machine and load unknown)`;
  const filters = start.filters ? `, only \`${String(start.filters)}\`` : '';
  const load = `load average (1 min) ${start.loadAverage1m} at the start${end ? `, ${end.loadAverage1m} at the end` : ''}`;
  return (
    `- run ${i + 1}: ${when(String(start.date), end ? String(end.date) : undefined)}, ${start.cpus} × ${start.cpuModel}, ` +
    `Node ${start.node}, ${start.os}; ${load}${filters}`
  );
}

/** The table (between its markers) for `runs`, each the lines of one `npm run bench -- --json`. */
export function renderBenchTable(runs: readonly (readonly BenchLine[])[]): string {
  const figures: Figures = (name, field) =>
    runs.flatMap((run) =>
      run
        .filter((l) => l.name === name)
        .map((l) => l[field])
        .filter((v) => typeof v === 'number'),
    );
  const printed = new Set(runs.flatMap((run) => run.map((l) => l.name)));
  const shown = ROWS.filter((row) => printed.has(row.name));
  const covered = new Set([RUN_START, RUN_END, ...shown.flatMap((row) => [row.name, ...(row.uses ?? [])])]);
  const rest = [...printed].filter((name) => !covered.has(name));
  const cells = (row: Row) => [row.reckon(figures), row.baseline?.(figures) ?? '', row.ratio?.(figures) ?? ''];
  const lines = [
    BENCH_DOC_MARKERS[0],
    '',
    `Written by \`npx tsx scripts/write-bench-doc.ts\` from ${runs.length === 1 ? 'one run' : `${runs.length} runs`} of ` +
      '`npm run bench -- --json` (bench/runs/); where runs differ, a figure is their range, and over three runs or ' +
      'more their median with the range in brackets:',
    '',
    ...runs.map(runLine),
    '',
    '| benchmark (JSON name) | reckon | baseline, same run | ratio |',
    '|---|---|---|---|',
    ...shown.map((row) => `| ${row.what} (\`${row.name}\`) | ${cells(row).join(' | ')} |`),
    ...rest.map((name) => {
      const fields = [
        ...new Set(runs.flatMap((run) => run.filter((l) => l.name === name).flatMap((l) => Object.keys(l)))),
      ].filter((k) => figures(name, k).length > 0);
      const raw = fields.map((k) => `${k} ${range(figures(name, k))}`);
      return `| \`${name}\` | ${raw.join(', ')} | | |`;
    }),
    '',
    BENCH_DOC_MARKERS[1],
  ];
  return lines.join('\n');
}
