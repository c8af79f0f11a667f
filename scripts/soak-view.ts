// `npm run soak -- --view`: the load into `reckon view` with one page open, end to end. The built CLI's `reckon view`
// (UDP on a free loopback port, its table sized for the load) and `reckon publish --entities N` (1 Hz unless told)
// run as processes of their own; headless Chromium (scripts/support/chromium.ts) opens the map at desktop size. Every
// 10 s the soak reads the resident memory of view and of Chromium's processes, the kernel's drops on view's socket
// (/proc/net/udp) and what the page holds; at the end it stops the publisher (its summary), reads the page once
// more, stops view (its summary on stderr) and returns one record. docs/reliability-soak.md describes the figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launchChromium, MESA_EGL_VENDOR } from './support/chromium.js';
import { machine, ROOT, startPublisher, waitOrExit } from './soak-processes.js';

export interface ViewSoakOptions {
  readonly entities: number;
  readonly seconds: number;
  /** The publisher's flags (`--entities`, `--rate`, `--max-rate`). */
  readonly loadFlags: readonly string[];
  readonly receiveBufferSize: number;
}

const SAMPLE_MS = 10_000;

/** Resident memory of one process, bytes (0 once it is gone). */
function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time a process has used, seconds (user + system, /proc/PID/stat; 0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime and stime are the 14th and 15th fields; the command (2nd) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Linux's USER_HZ, the unit of /proc/PID/stat's times (100 on every architecture Node runs on). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Chromium's kind of process (`--type=gpu-process`, `renderer`, `utility` for the network service; the browser has none). */
function chromiumType(pid: number): string {
  try {
    // Chromium rewrites its command line as one string: the flags are separated by spaces, not NULs.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const type = /--type=(\S+)/.exec(cmdline)?.[1];
    if (type === undefined) return /chrom/.test(cmdline) ? 'browser' : 'other';
    return type === 'gpu-process' ? 'gpu' : type;
  } catch {
    return 'gone';
  }
}

/** The processes below `pid` (children, their children, …), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 2nd field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Datagrams the kernel dropped on the UDP socket bound to `port` for want of buffer (`drops`, /proc/net/udp). */
function kernelDrops(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1]?.endsWith(`:${hexPort}`)) return Number(fields.at(-1));
  }
  return 0;
}

/** Starts `reckon view` and waits for its map URL and UDP port. */
async function startView(
  entities: number,
  receiveBufferSize: number,
): Promise<{ child: ChildProcess; url: string; port: number; stderr: () => string; exited: Promise<number> }> {
  const child = spawn(
    process.execPath,
    [
      `${ROOT}/dist/cli/main.js`,
      'view',
      '--http',
      '127.0.0.1:0',
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--max-entities',
      String(entities),
      '--receive-buffer-size',
      String(receiveBufferSize),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '',
    err = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  child.stderr!.on('data', (chunk) => (err += String(chunk)));
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))),
  );
  const started = await new Promise<{ url: string; port: number } | null>((resolve) => {
    const timer = setInterval(() => {
      const url = /map at (http:\/\/\S+)/.exec(out)?.[1];
      const port = /receiving DIS on \S+ port (\d+)/.exec(err)?.[1];
      if (url !== undefined && port !== undefined) {
        clearInterval(timer);
        resolve({ url, port: Number(port) });
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      resolve(null);
    });
  });
  if (started === null) throw new Error(`reckon view exited before it started: ${err.trim()}`);
  return { child, ...started, stderr: () => err, exited };
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);

/** What the page holds and shows (its test hook, src/view/page/test-hook.ts). */
interface PageState {
  connected: boolean;
  capacity: number;
  shown: number;
  hellos: number;
  rejectedPdus: number;
  skipped: number;
  /** Entities the gateway held by the last counters message the page got (a congested page gets none). */
  gatewayEntitiesLastCounted: number;
  frameMs: number;
  /** Frames the page drew since it opened. */
  draws: number;
}

export async function runViewSoak(options: ViewSoakOptions): Promise<Record<string, unknown>> {
  const loadStart = loadavg()[0]!;
  const startedMs = Date.now();
  const view = await startView(options.entities, options.receiveBufferSize);
  // Composited on the GPU as a user's browser is (llvmpipe where Mesa's EGL is installed, else SwiftShader).
  const renderer = existsSync(MESA_EGL_VENDOR) ? 'llvmpipe-composited' : 'swiftshader';
  const browser = await launchChromium(undefined, [], renderer);
  let publisherPid = -1;
  const chromiumPids = (): number[] =>
    descendants(process.pid).filter(
      (pid) => pid !== view.child.pid && pid !== publisherPid && chromiumType(pid) !== 'other',
    );
  // CPU seconds of each process at its first sighting from here on, to count what it used during the run.
  const cpuAtStart = new Map<number, number>();
  const cpuUsed = (): Record<string, number> => {
    const used: Record<string, number> = {};
    const add = (name: string, pid: number): void => {
      if (!cpuAtStart.has(pid)) cpuAtStart.set(pid, 0);
      used[name] = Math.round(((used[name] ?? 0) + cpuSeconds(pid) - cpuAtStart.get(pid)!) * 10) / 10;
    };
    add('view', view.child.pid!);
    if (publisherPid > 0) add('publisher', publisherPid);
    for (const pid of chromiumPids()) add(`chromium-${chromiumType(pid)}`, pid);
    return used;
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(view.url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 60_000 });
    const readPage = (): Promise<PageState> =>
      page.evaluate(() => {
        const r = window.__reckon;
        return {
          connected: r.connected,
          capacity: r.capacity,
          shown: r.entities().length,
          hellos: r.hellos,
          rejectedPdus: r.rejectedPdus,
          skipped: r.counters?.skipped ?? 0,
          gatewayEntitiesLastCounted: r.counters?.entities ?? 0,
          frameMs: r.frameMs,
          draws: r.draws,
        };
      });

    for (const pid of [view.child.pid!, ...chromiumPids()]) cpuAtStart.set(pid, cpuSeconds(pid));
    const publisher = startPublisher([...options.loadFlags, '--address', '127.0.0.1', '--port', String(view.port)]);
    publisherPid = publisher.pid;
    if (!(await publisher.started)) throw new Error('the publisher exited before it started');
    const samples: Array<{ s: number; viewMB: number; chromiumMB: number; kernelDrops: number; page?: PageState }> = [];
    const sample = async (withPage: boolean): Promise<void> => {
      const pids = chromiumPids();
      samples.push({
        s: Math.round((Date.now() - startedMs) / 1000),
        viewMB: mb(rssBytes(view.child.pid!)),
        chromiumMB: mb(pids.reduce((sum, pid) => sum + rssBytes(pid), 0)),
        kernelDrops: kernelDrops(view.port),
        ...(withPage ? { page: await readPage() } : {}),
      });
      const last = samples.at(-1)!;
      process.stderr.write(
        `soak: ${last.s} s: view ${last.viewMB} MB, Chromium ${last.chromiumMB} MB, kernel drops ${last.kernelDrops}` +
          (last.page
            ? `, page shows ${last.page.shown} (gateway's count as last told: ${last.page.gatewayEntitiesLastCounted})`
            : '') +
          '\n',
      );
    };
    const endMs = Date.now() + options.seconds * 1000;
    let n = 0;
    while (Date.now() < endMs) {
      if (!(await waitOrExit(Math.min(SAMPLE_MS, endMs - Date.now()), publisher.exited))) {
        throw new Error('the publisher exited before the time was up');
      }
      await sample(++n % 6 === 0);
    }
    const finalPage = await readPage();
    const cpuSecondsUsed = cpuUsed();
    const drops = kernelDrops(view.port);
    const summary = (await publisher.stop()) as Record<string, number> & Record<'rssMB', Record<string, number>>;
    // The page once more, once what was sent has arrived.
    await page.waitForTimeout(2_000);
    const settledPage = await readPage();
    await browser.close();
    view.child.kill('SIGINT');
    await view.exited;
    const err = view.stderr();
    const received = /received\s+(\d+) datagrams, (\d+) Entity State PDUs forwarded/.exec(err);
    const served = /served\s+(.*)/.exec(err)?.[1] ?? '';
    const pdusForwarded = received ? Number(received[2]) : null;
    const after = samples.filter((s) => s.s >= 60);
    const range = (values: number[]) => ({ min: Math.min(...values), max: Math.max(...values) });
    return {
      mode: 'view',
      entities: options.entities,
      webgl: renderer,
      seconds: summary.seconds,
      pdusSent: summary.pdus,
      pdusPerSecond: summary.pdusPerSecond,
      viewPdusForwarded: pdusForwarded,
      pdusLost: pdusForwarded === null ? null : summary.pdus! - pdusForwarded,
      kernelDrops: drops,
      evaluationsPerEntityPerSecond: summary.evaluationsPerEntityPerSecond,
      maxEvaluationGapSeconds: summary.maxEvaluationGapSeconds,
      entitiesJoined: summary.joined,
      page: { atStop: finalPage, settled: settledPage },
      viewRssMB: {
        first: samples[0]?.viewMB,
        last: samples.at(-1)?.viewMB,
        afterFirstMinute: after.length > 0 ? range(after.map((s) => s.viewMB)) : null,
        max: Math.max(...samples.map((s) => s.viewMB)),
      },
      chromiumRssMB: {
        first: samples[0]?.chromiumMB,
        last: samples.at(-1)?.chromiumMB,
        afterFirstMinute: after.length > 0 ? range(after.map((s) => s.chromiumMB)) : null,
        max: Math.max(...samples.map((s) => s.chromiumMB)),
      },
      cpuSecondsUsed,
      publisherRssMB: summary.rssMB,
      publisher: {
        ticksPerSecond: summary.ticksPerSecond,
        ticksSkipped: summary.ticksSkipped,
        cpuSeconds: summary.cpuSeconds,
        cpuMicrosecondsPerDecision: summary.cpuMicrosecondsPerDecision,
        sendErrors: summary.sendErrors,
      },
      viewServed: served.trim(),
      samples,
      machine: machine(loadStart, options.receiveBufferSize),
    };
  } finally {
    await browser.close().catch(() => undefined);
    if (view.child.exitCode === null) view.child.kill('SIGKILL');
  }
}
