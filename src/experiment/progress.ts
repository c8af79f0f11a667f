/**
 * Progress of a long sweep on stderr: a redrawn bar with an ETA on a terminal, plain lines (about every 10 %)
 * otherwise, so logs and CI output stay readable.
 */

export interface Progress {
  update(done: number): void;
  finish(): void;
}

/**
 * @param total - runs in the sweep.
 * @param stream - usually process.stderr; `isTTY` decides the style.
 * @param now - clock in ms, for tests. Defaults to performance.now.
 */
export function createProgress(
  total: number,
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  label = 'runs',
  now = () => performance.now(),
): Progress {
  const start = now();
  const tty = stream.isTTY === true;
  let lastTenth = -1;
  let lastDraw = -Infinity;
  const line = (done: number) => {
    const elapsed = (now() - start) / 1000;
    const eta = done > 0 && done < total ? ` · ${formatSeconds((elapsed / done) * (total - done))} left` : '';
    return `${done}/${total} ${label} · ${formatSeconds(elapsed)}${eta}`;
  };
  return {
    update(done) {
      if (tty) {
        const t = now();
        if (done < total && t - lastDraw < 100) return; // redraw at most 10 times a second
        lastDraw = t;
        const width = 30;
        const filled = Math.round((width * done) / Math.max(1, total));
        stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line(done)}`);
      } else {
        const tenth = Math.floor((10 * done) / Math.max(1, total));
        if (tenth === lastTenth) return;
        lastTenth = tenth;
        stream.write(`${line(done)}\n`);
      }
    },
    finish() {
      if (tty) stream.write('\n');
    },
  };
}

/** `12.3 s`, `6 min 5 s`; whole seconds are rounded before splitting, so 419.6 s is `7 min 0 s`, not `6 min 60 s`. */
export function formatSeconds(seconds: number): string {
  if (seconds < 59.95) return `${seconds.toFixed(1)} s`; // 59.96 would print as "60.0 s"
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
