// docs/security.md names the code and the tests behind each defence, and the limits they keep: every file it names
// exists, and every limit it states is the one the code has.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/config/json-input.js';
import { MAX_CONFIG_FILE_BYTES } from '../src/config/load.js';
import { MAX_RUN_STEPS } from '../src/experiment/runner.js';
import { MAX_SWEEP_RUNS, TRACE_LIMITS } from '../src/experiment/sweep.js';
import { MAX_ENGAGEMENTS } from '../src/pcap/engagement-log.js';
import { MAX_CAPTURED_BYTES } from '../src/pcap/reader.js';
import { MAX_TRACKED_ENTITIES } from '../src/report/capture-report.js';
import { MAX_REPORT_ENTITIES } from '../src/report/entity-table.js';
import { MAX_REPORT_RADIOS } from '../src/report/radios.js';
import { TRACK_LIMITS } from '../src/truth/track-checks.js';
import { MAX_CLIENT_MESSAGE_BYTES } from '../src/view/protocol.js';
import { MAX_PENDING_ORDERS } from '../src/dr/receiver/pending-orders.js';
import { MAX_CONTROL_LINE_BYTES, MAX_NATS_MESSAGE_BYTES } from '../src/nats/inbound-limits.js';
import { MAX_PCAPNG_INTERFACES } from '../src/pcap/reader.js';
import { MAX_RADIOS } from '../src/view/radio-table.js';
import { TICK_BYTES } from '../src/view/tick-buffer.js';
import { ROOT } from './support/binary.js';
import { MAX_LISTED_USAGE_PROBLEMS } from '../src/cli/run.js';
import { TIME_SCALE_RANGE } from '../src/cli/time-scale.js';
import { MAX_ADAPTIVE_TRAVEL_SECONDS, MAX_TIMEOUT_MULTIPLIER } from '../src/config/schema.js';
import { MAX_REASON_BARS } from '../src/experiment/report-charts.js';
import { DENSITY_CELLS, MAX_DRAWN_RUNS } from '../src/experiment/report-density.js';
import { MAX_TABLE_ROWS } from '../src/experiment/report.js';
import { MAX_LISTED_PROBLEMS } from '../src/truth/track-checks.js';

const doc = readFileSync(join(ROOT, 'docs/security.md'), 'utf8');
/** Digits grouped by spaces as the docs write them: 1 000 000. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ' ');
const MiB = 2 ** 20;

describe('docs/security.md', () => {
  it('names only files that exist', () => {
    const named = [...doc.matchAll(/`((?:src|test|docs|scripts)\/[^`\s]+\.(?:ts|md))`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('states the limits the code has', () => {
    const stated = [
      `config file (\`--config\`) | ${MAX_CONFIG_FILE_BYTES / MiB} MiB, JSON nested at most ${MAX_JSON_DEPTH} levels`,
      `${TRACK_LIMITS.maxFileBytes / MiB} MiB on disk and ${TRACK_LIMITS.maxUnpackedBytes / MiB} MiB unpacked`,
      `${grouped(TRACK_LIMITS.maxFixes)} fixes`,
      `a record over ${grouped(MAX_CAPTURED_BYTES)} bytes is damage`,
      `a client message of at most ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB`,
      `at most ${grouped(MAX_SWEEP_RUNS)} runs and 2^${Math.log2(MAX_RUN_STEPS)} steps per run`,
      `traces over ${TRACE_LIMITS.maxBytes / MiB} MiB`,
      `a tick of PDUs and messages together holds at most ${TICK_BYTES / MiB} MiB`,
      `**Radios** (\`src/view/radio-table.ts\`, \`test/view/engagements.test.ts\`): at most ${MAX_RADIOS} kept`,
      `at most ${MAX_PENDING_ORDERS} of them, merged per exercise and receiving id`,
      `| pcapng interfaces | ${MAX_PCAPNG_INTERFACES} per section;`,
      `(never more than ${MAX_NATS_MESSAGE_BYTES / MiB} MiB) and a protocol line over ${MAX_CONTROL_LINE_BYTES / 1024} KiB`,
      `at most ${grouped(MAX_REPORT_ENTITIES)} entities, ${grouped(MAX_REPORT_RADIOS)} radios and ` +
        `${grouped(MAX_ENGAGEMENTS)} engagements (the summary every entity and radio) and draws ` +
        `${MAX_TRACKED_ENTITIES} tracks`,
      `\`--speed\` of \`replay\` and \`publish\` from ${TIME_SCALE_RANGE.min} to ${TIME_SCALE_RANGE.max}`,
      `\`heartbeat.timeoutMultiplier\` from 1 to ${MAX_TIMEOUT_MULTIPLIER}`,
      `\`emitter.adaptiveTravelTime\` at most ${MAX_ADAPTIVE_TRAVEL_SECONDS} s`,
      `at most ${MAX_LISTED_USAGE_PROBLEMS} problems are listed`,
      `the recordings of a track file at most ${MAX_LISTED_PROBLEMS}`,
      `past ${grouped(MAX_DRAWN_RUNS)} runs the error-against-rate chart counts the runs in a grid of ${DENSITY_CELLS.columns} × ${DENSITY_CELLS.rows} cells`,
      `the reasons chart groups them into ${MAX_REASON_BARS} bars`,
      `the table lists at most ${MAX_TABLE_ROWS} runs`,
    ];
    expect(stated.filter((text) => !doc.includes(text))).toEqual([]);
  });
});
