/**
 * `npx tsx scripts/decode-scale.ts [--entities N] [--report-entities N] [--radios N] [--dir DIR] [--keep]`: builds
 * large captures (scripts/large-captures.ts) and runs the built `reckon decode` on them as a user would, one JSON
 * line per run on stdout:
 *   summary   `decode CAPTURE` on N entities (default 200,000, about 40 MB) and on N radios (default 1,000,000):
 *             exit code, seconds, peak resident memory, lines printed;
 *   report    `decode CAPTURE --report FILE` on N entities (default 100,000, about 20 MB, with radios and shots):
 *             the same, and the report's size;
 *   interrupt the same report run sent SIGINT halfway through its first pass (before the summary is printed), and
 *             after the summary at 10 %, 50 % and 90 % of the time the report then took: seconds from the signal
 *             to the exit, the exit code, and whether a report file was left.
 * Run `npm run build` first. Peak memory is the process's VmHWM from /proc, read every 50 ms.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { writeLargeCapture } from './large-captures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');

export interface DecodeRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly seconds: number;
  readonly peakRssMiB: number;
  readonly stdoutLines: number;
  readonly stderr: string;
  /** Seconds from the start to the last output on stdout (the summary printed). */
  readonly stdoutEndSeconds: number;
  /** Seconds from the SIGINT to the exit, when one was sent. */
  readonly afterSignalSeconds?: number;
}

/** When to send SIGINT: `seconds` after the start, or after the summary's last line ("Rejected: N") is out. */
export interface Interrupt {
  readonly seconds: number;
  readonly afterSummary?: boolean;
}

/** Runs `reckon decode ...args`; with `interrupt`, sends SIGINT then. */
export function runDecode(args: readonly string[], interrupt?: Interrupt): Promise<DecodeRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'decode', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // A run that outlives the script (stopped by Ctrl-C or a timeout) is ended with it.
    const endChild = () => child.kill('SIGKILL');
    process.once('exit', endChild);
    let lines = 0;
    let stderr = '';
    let peakKiB = 0;
    let signalled: number | undefined;
    let stdoutEnd = started;
    let tail = '';
    let timer: NodeJS.Timeout | undefined;
    const signalIn = (seconds: number) => {
      timer = setTimeout(() => {
        signalled = performance.now();
        child.kill('SIGINT');
      }, seconds * 1000);
    };
    if (interrupt && !interrupt.afterSummary) signalIn(interrupt.seconds);
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutEnd = performance.now();
      for (const byte of chunk) if (byte === 10) lines++;
      tail = (tail + chunk.toString('latin1')).slice(-200);
      if (interrupt?.afterSummary && timer === undefined && /^Rejected: \d+\n/m.test(tail)) {
        signalIn(interrupt.seconds);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
      } catch {
        // gone
      }
    }, 50);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('exit', endChild);
      clearInterval(poll);
      clearTimeout(timer);
      const now = performance.now();
      resolve({
        code,
        signal,
        seconds: (now - started) / 1000,
        peakRssMiB: Math.round(peakKiB / 1024),
        stdoutLines: lines,
        stderr: stderr.slice(-400),
        stdoutEndSeconds: (stdoutEnd - started) / 1000,
        ...(signalled === undefined ? {} : { afterSignalSeconds: (now - signalled) / 1000 }),
      });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      entities: { type: 'string', default: '200000' },
      'report-entities': { type: 'string', default: '100000' },
      radios: { type: 'string', default: '1000000' },
      dir: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const entities = Number(values.entities);
  const reportEntities = Number(values['report-entities']);
  const radios = Number(values.radios);
  const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'reckon-decode-scale-'));
  const machine = { cpus: cpus().length, load: loadavg()[0], node: process.version };
  const line = (o: object) => process.stdout.write(`${JSON.stringify({ ...o, machine })}\n`);
  try {
    const summaryCapture = join(dir, `entities-${entities}.pcap`);
    const radioCapture = join(dir, `radios-${radios}.pcap`);
    const reportCapture = join(dir, `report-${reportEntities}.pcap`);
    const sizes = {
      entities: await writeLargeCapture(summaryCapture, { entities }),
      radios: await writeLargeCapture(radioCapture, { entities: 0, radios }),
      report: await writeLargeCapture(reportCapture, {
        entities: reportEntities,
        radios: Math.floor(reportEntities / 10),
        shots: Math.floor(reportEntities / 50),
      }),
    };
    const summary = await runDecode([summaryCapture]);
    line({ run: 'summary', entities, captureBytes: sizes.entities, ...summary });
    const radioSummary = await runDecode([radioCapture]);
    line({ run: 'summary', radios, captureBytes: sizes.radios, ...radioSummary });
    const html = join(dir, 'report.html');
    const report = await runDecode([reportCapture, '--report', html]);
    const reportBytes = existsSync(html) ? statSync(html).size : 0;
    line({ run: 'report', entities: reportEntities, captureBytes: sizes.report, reportBytes, ...report });
    // Halfway through the first pass; then at shares of the time the report took after the summary was out.
    const printed = report.stdoutEndSeconds;
    const points: Array<{ phase: string; interrupt: Interrupt }> = [
      { phase: 'first pass', interrupt: { seconds: printed * 0.5 } },
      ...[0.1, 0.5, 0.9].map((share) => ({
        phase: `report ${share * 100} %`,
        interrupt: { seconds: share * (report.seconds - printed), afterSummary: true },
      })),
    ];
    for (const { phase, interrupt } of points) {
      rmSync(html, { force: true });
      const run = await runDecode([reportCapture, '--report', html], interrupt);
      const at = interrupt.seconds;
      line({ run: 'interrupt', phase, at, entities: reportEntities, reportWritten: existsSync(html), ...run });
    }
  } finally {
    if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  main().catch((error: unknown) => {
    process.stderr.write(`decode-scale: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
