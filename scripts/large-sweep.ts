// `npx tsx scripts/large-sweep.ts [--runs 100000] [--interrupt-at RUNS] [--twice] [--timeout S]`, after
// `npm run build`: one sweep of RUNS one-second runs (one axis, emitter.positionThreshold, so every run is a colour
// of its own: the report's worst case) through the built `reckon experiment`, as a user runs it. Prints one JSON line
// on stdout: how long the runs took and how long the writing after them, the peak resident memory of the process
// (VmHWM, its worker threads included), the size of each file written and of standard output, and the exit code.
// `--interrupt-at RUNS` sends SIGINT once the progress passes RUNS (it moves in tenths) and measures how long the
// command then takes to exit, and what it kept; `--twice` sends a second SIGINT 100 ms after the first. A run that
// outlasts `--timeout` (900 s) is killed and reported as such, with what was measured until then.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    'interrupt-at': { type: 'string' },
    twice: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '900' },
    parallel: { type: 'string' },
  },
});
const runs = Number(values.runs);
const interruptAt = values['interrupt-at'] === undefined ? undefined : Number(values['interrupt-at']);
const timeoutSeconds = Number(values.timeout);
if (!(Number.isInteger(runs) && runs >= 1 && timeoutSeconds > 0)) {
  process.stderr.write(
    'usage: npx tsx scripts/large-sweep.ts [--runs N] [--interrupt-at RUNS] [--twice] [--timeout S]\n',
  );
  process.exit(2);
}

const BIN = new URL('../dist/cli/main.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'reckon-large-sweep-'));
const out = join(dir, 'out');
const spec = join(dir, 'sweep.json');
const thresholds = Array.from({ length: runs }, (_, i) => Number(((i + 1) / 1000).toFixed(3)));
writeFileSync(
  spec,
  JSON.stringify({ name: 'large', durationSeconds: 1, sweep: { 'emitter.positionThreshold': thresholds } }),
);

const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;
const args = [BIN, 'experiment', spec, '--out', out, ...(values.parallel ? ['--parallel', values.parallel] : [])];
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
let stdoutBytes = 0;
let stderr = '';
let runsSeconds: number | undefined;
let interruptedAtSeconds: number | undefined;
let peakRssKiB = 0;
child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
child.stderr.on('data', (chunk: Buffer) => {
  stderr += String(chunk);
  const done = [...stderr.matchAll(/(\d+)\/\d+ runs/g)].map((m) => Number(m[1]));
  const last = done.at(-1) ?? 0;
  if (last === runs && runsSeconds === undefined) runsSeconds = seconds();
  if (interruptAt !== undefined && last >= interruptAt && interruptedAtSeconds === undefined) {
    interruptedAtSeconds = seconds();
    child.kill('SIGINT');
    if (values.twice) setTimeout(() => child.kill('SIGINT'), 100);
  }
});
// VmHWM is the process's peak resident set so far; read until it exits.
const sampler = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    peakRssKiB = Math.max(peakRssKiB, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
  } catch {
    // exited between two samples
  }
}, 100);
let timedOut = false;
const killer = setTimeout(() => {
  timedOut = true;
  child.kill('SIGKILL');
}, timeoutSeconds * 1000);
const code = await new Promise<number | null>((resolve) =>
  child.once('exit', (c, signal) => resolve(c ?? (signal ? -1 : null))),
);
const exitSeconds = seconds();
clearInterval(sampler);
clearTimeout(killer);

const size = (name: string) => (existsSync(join(out, name)) ? statSync(join(out, name)).size : null);
const csv = existsSync(join(out, 'results.csv')) ? readFileSync(join(out, 'results.csv'), 'utf8') : '';
const round = (x: number | undefined) => (x === undefined ? null : Number(x.toFixed(2)));
const result = {
  runs,
  load: loadavg().map((x) => Number(x.toFixed(2))),
  exitCode: code,
  timedOut,
  runsSeconds: round(runsSeconds),
  writeSeconds: runsSeconds === undefined || timedOut ? null : round(exitSeconds - runsSeconds),
  exitSeconds: round(exitSeconds),
  interruptToExitSeconds: interruptedAtSeconds === undefined ? null : round(exitSeconds - interruptedAtSeconds),
  peakRssMiB: Math.round(peakRssKiB / 1024),
  bytes: { csv: size('results.csv'), json: size('results.json'), report: size('report.html'), stdout: stdoutBytes },
  csvRows: csv === '' ? null : csv.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length - 1,
  lastLines: stderr.trimEnd().split('\n').slice(-3),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
rmSync(dir, { recursive: true, force: true });
