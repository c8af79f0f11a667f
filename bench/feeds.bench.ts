/**
 * `feeds.ingest`: live feeds through the whole path of `publish --feed` but the socket — bytes → decoder → track
 * table (the gated estimator) → truth samples (each fix, and 2 Hz between) → `deadReckonEmit` (the emitter bank) →
 * PDUs — on a virtual clock, the recordings at their own pace.
 *   throughput  messages per CPU-second for SBS-1 (the node-sbs1 recording, 100 copies with other addresses: 500
 *               aircraft), Beast (the dump1090 capture, 400 copies with other addresses and their parity made
 *               anew) and AIVDM (the DMA stream, 27 s of Danish traffic, 20 times over); baseline: npm's decoder of
 *               that format (sbs1, mode-s-decoder, ggencoder) parsing the same messages, decode only, in the same run.
 *   saved       on each recording at its own times: fixes that moved a vehicle (one PDU each for a bridge that sends
 *               every fix), PDUs sent at the default 1 m threshold, and the receivers' error at each fix: the last PDU
 *               dead-reckoned to the fix's time against the cleaned truth there (p95).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Observable, VirtualTimeScheduler } from 'rxjs';
import { emitReasonNames } from '../src/dr/owner/emitter.js';
import { deadReckon } from '../src/dr/models/model.js';
import { ecefToGeodetic } from '../src/math/geodesy.js';
import { feedFromChunks } from '../src/feeds/live-feed.js';
import type { Chunk } from '../src/feeds/connections.js';
import { FeedTracks } from '../src/feeds/feed-tracks.js';
import { BeastDeframer, modeSCrc, type FeedFormat } from '../src/fixes/index.js';
import type { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { deadReckonEmit } from '../src/stream/operators.js';
import { consume, cpuSeconds, round, type BenchResult, type BenchSuite } from './harness.js';

const require = createRequire(import.meta.url);
const DEG = Math.PI / 180;
/** Mean Earth radius (m): enough for distances of metres. */
const EARTH_RADIUS_M = 6_371_000;
const fixture = (name: string) => {
  const bytes = readFileSync(new URL(`../test/fixtures/feeds/${name}`, import.meta.url));
  return name.endsWith('.gz') ? gunzipSync(bytes) : bytes;
};

interface Timed {
  readonly atSeconds: number;
  readonly bytes: Uint8Array;
}

interface Replay {
  messages: number;
  fixSamples: number;
  positions: number;
  samples: number;
  pdus: number;
  /** Receivers' error at each fix sample (m). */
  errors: number[];
  /** Horizontal distance of the cleaned truth from the raw position at each position fix (m). */
  truthToFix: number[];
  /** PDUs of a bridge that sends each fix, the heartbeat and each leave (`FeedStats.bridgePdus`). */
  bridgePdus: number;
  /** PDUs by reason. */
  reasons: Record<string, number>;
}

/** Plays `items` on a virtual clock through the feed and the emitter; `measure` also collects the errors. */
function replay(format: FeedFormat, items: readonly Timed[], measure: boolean): Replay {
  // The chunks are handed over by the loop below, each when the virtual clock reaches its time (scheduling them
  // all up front would cost the scheduler's sort, not the feed's work).
  const scheduler = new VirtualTimeScheduler(undefined, 0);
  let push: (chunk: Chunk) => void = () => {};
  const chunks = new Observable<Chunk>((subscriber) => {
    push = (chunk) => subscriber.next(chunk);
  });
  const tracks = new FeedTracks();
  const feed = feedFromChunks(format, chunks, { scheduler, tracks });
  const result: Replay = {
    messages: 0,
    fixSamples: 0,
    positions: 0,
    samples: 0,
    pdus: 0,
    errors: [],
    truthToFix: [],
    bridgePdus: 0,
    reasons: {},
  };
  const geodetic = new Float64Array(3);
  const last = new Map<number, EntityStateRecord>();
  const copies = new Map<number, { record: EntityStateRecord; t: number }>();
  let lastPduTime = 0;
  let fixesSeen = 0;
  let positionsSeen = 0;
  const samples = new Observable<import('../src/stream/operators.js').TruthSample>((subscriber) =>
    feed.subscribe({
      next(sample) {
        // Before the emitter sees it: where the receivers have this entity now, from its last PDU.
        const entity = typeof sample.entity === 'number' ? sample.entity : sample.entity.entity;
        const held = copies.get(entity);
        const fix = feed.stats.fixSamples > fixesSeen;
        fixesSeen = feed.stats.fixSamples;
        const positionFix = feed.stats.positionFixes > positionsSeen;
        positionsSeen = feed.stats.positionFixes;
        if (measure) {
          const track = tracks.table.trackOfEntity(entity);
          if (positionFix && track && !Number.isNaN(track.lastLatitudeDeg)) {
            const s = sample.state.location;
            const geo = ecefToGeodetic(geodetic, s[0]!, s[1]!, s[2]!);
            const north = (geo[0]! - track.lastLatitudeDeg * DEG) * EARTH_RADIUS_M;
            const east = (geo[1]! - track.lastLongitudeDeg * DEG) * EARTH_RADIUS_M * Math.cos(geo[0]!);
            result.truthToFix.push(Math.hypot(north, east));
          }
        }
        if (measure && held && sample.appearance === 0 && fix) {
          const record = held.record;
          const at = deadReckon(
            {
              location: record.location,
              linearVelocity: record.linearVelocity,
              orientation: record.orientation,
              deadReckoning: {
                algorithm: record.drAlgorithm,
                linearAcceleration: record.linearAcceleration,
                angularVelocity: record.angularVelocity,
              },
            },
            sample.timeSeconds - held.t,
          ).location;
          const s = sample.state.location;
          result.errors.push(Math.hypot(at[0]! - s[0]!, at[1]! - s[1]!, at[2]! - s[2]!));
        }
        subscriber.next(sample);
      },
    }),
  );
  samples.pipe(deadReckonEmit()).subscribe((pdu) => {
    result.pdus++;
    for (const reason of emitReasonNames(pdu.reasons)) result.reasons[reason] = (result.reasons[reason] ?? 0) + 1;
    lastPduTime = pdu.timeSeconds;
    if (!measure) return;
    let copy = copies.get(pdu.entity);
    if (!copy) copies.set(pdu.entity, (copy = { record: Object.create(pdu.record) as EntityStateRecord, t: 0 }));
    copy.record = cloneRecord(pdu.record, last.get(pdu.entity));
    last.set(pdu.entity, copy.record);
    copy.t = pdu.timeSeconds;
  });
  consume(lastPduTime);
  for (const item of items) {
    const ms = item.atSeconds * 1000;
    scheduler.maxFrames = ms;
    scheduler.flush(); // the ticks due before it
    scheduler.frame = ms;
    push({ bytes: item.bytes, stream: 0, end: format === 'aircraft-json' });
  }
  result.messages = feed.stats.decoder.messages;
  result.fixSamples = feed.stats.fixSamples;
  result.positions = feed.stats.positionFixes;
  result.samples = feed.stats.samples;
  result.bridgePdus = feed.stats.bridgePdus;
  return result;
}

function cloneRecord(from: EntityStateRecord, into?: EntityStateRecord): EntityStateRecord {
  const to =
    into ??
    ({
      location: new Float64Array(3),
      linearVelocity: new Float64Array(3),
      orientation: new Float64Array(3),
      linearAcceleration: new Float64Array(3),
      angularVelocity: new Float64Array(3),
      drAlgorithm: 0,
    } as unknown as EntityStateRecord);
  to.location.set(from.location);
  to.linearVelocity.set(from.linearVelocity);
  to.orientation.set(from.orientation);
  to.linearAcceleration.set(from.linearAcceleration);
  to.angularVelocity.set(from.angularVelocity);
  to.drAlgorithm = from.drAlgorithm;
  return to;
}

/** The SBS recording's lines over `seconds`, `copies` times with addresses of their own. */
function sbsItems(copies: number, seconds: number): Timed[] {
  const lines = fixture('adsb_sbs1_node_sbs1_msgs.txt.gz').toString().trim().split('\n');
  const items: Timed[] = [];
  lines.forEach((line, i) => {
    const parts = line.split(',');
    const hex = Number.parseInt(parts[4]!, 16);
    const batch: string[] = [];
    for (let c = 0; c < copies; c++) {
      parts[4] = ((hex ^ (c << 16)) & 0xffffff).toString(16).padStart(6, '0').toUpperCase();
      batch.push(parts.join(','));
    }
    items.push({ atSeconds: (i * seconds) / lines.length, bytes: Buffer.from(`${batch.join('\n')}\n`) });
  });
  return items;
}

/** The Beast capture's frames at their times, `copies` times: each long frame's address changed, its parity anew. */
function beastItems(copies: number): Timed[] {
  const raw = fixture('adsb_beast_dump1090_sample.bin');
  const frames: { t: number; type: number; timestamp: number; message: Uint8Array }[] = [];
  let t0 = -1;
  new BeastDeframer((type, timestamp, _signal, message, length) => {
    if (t0 < 0) t0 = timestamp;
    frames.push({ t: (timestamp - t0) / 12e6, type, timestamp, message: message.slice(0, length) });
  }).push(raw);
  const escaped = (bytes: number[]): number[] => bytes.flatMap((b) => (b === 0x1a ? [0x1a, 0x1a] : [b]));
  return frames.map(({ t, type, timestamp, message }) => {
    const out: number[] = [];
    for (let c = 0; c < copies; c++) {
      const m = Uint8Array.from(message);
      if (m.length === 14) {
        m[1]! ^= c >> 8;
        m[2]! ^= c & 0xff;
        m[11] = m[12] = m[13] = 0;
        const crc = modeSCrc(m, 14);
        m[11] = crc >>> 16;
        m[12] = (crc >>> 8) & 0xff;
        m[13] = crc & 0xff;
      }
      const ts = [40, 32, 24, 16, 8, 0].map((s) => Math.floor(timestamp / 2 ** s) & 0xff);
      out.push(0x1a, type, ...escaped([...ts, 0x80, ...m]));
    }
    return { atSeconds: t, bytes: Uint8Array.from(out) };
  });
}

/** The DMA AIS stream at the times of its $PGHP lines, `times` times one after the other. */
function aivdmItems(times: number): Timed[] {
  const lines = fixture('ais_dma_aislib_stream_example.txt.gz')
    .toString()
    .split('\n')
    .filter((l) => l !== '');
  const items: Timed[] = [];
  let t0 = Number.NaN;
  let at = 0;
  const base: Timed[] = lines.map((line) => {
    const m = /^\$PGHP,1,(\d+),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)/.exec(line);
    if (m) {
      const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) / 1000;
      if (Number.isNaN(t0)) t0 = t;
      at = Math.max(at, t - t0);
    }
    return { atSeconds: at, bytes: Buffer.from(`${line}\n`) };
  });
  const span = base.at(-1)!.atSeconds + 1;
  for (let k = 0; k < times; k++)
    for (const item of base) items.push({ atSeconds: item.atSeconds + k * span, bytes: item.bytes });
  return items;
}

/** aircraft.json documents of the readsb trace, one per row at its time (a readsb polled as often as it decodes). */
function traceItems(): Timed[] {
  const trace = JSON.parse(fixture('adsb_readsb_trace_full_ac671b.json.gz').toString()) as {
    icao: string;
    t: string;
    timestamp: number;
    trace: Array<
      [
        number,
        number,
        number,
        number | 'ground',
        number | null,
        number | null,
        number,
        number | null,
        unknown,
        string,
        number | null,
      ]
    >;
  };
  return trace.trace.map(([dt, lat, lon, alt, gs, track, , rate, , type, geom]) => ({
    atSeconds: dt,
    bytes: Buffer.from(
      JSON.stringify({
        now: trace.timestamp + dt,
        aircraft: [
          {
            hex: trace.icao,
            t: trace.t,
            type,
            lat,
            lon,
            seen_pos: 0,
            alt_baro: alt,
            alt_geom: geom,
            gs,
            track,
            baro_rate: rate,
          },
        ],
      }),
    ),
  }));
}

/**
 * The OpenSky state vectors of 4b1815 out of Porto (1 Hz, 141 min; test/fixtures/tracks/) as SBS-1 lines at their
 * times: a position (MSG,3) and a velocity (MSG,4) each second, as dump1090 serves them.
 */
function openskyItems(): Timed[] {
  const records = JSON.parse(
    gunzipSync(
      readFileSync(new URL('../test/fixtures/tracks/aircraft_adsb_noisy_time_issue.json.gz', import.meta.url)),
    ).toString(),
  ) as Array<{
    timestamp: number;
    latitude: number;
    longitude: number;
    altitude: number | null;
    groundspeed: number;
    track: number;
    vertical_rate: number;
  }>;
  const t0 = records[0]!.timestamp;
  return records.map((r) => ({
    atSeconds: (r.timestamp - t0) / 1000,
    bytes: Buffer.from(
      `MSG,3,1,1,4B1815,1,,,,,,${r.altitude ?? ''},,,${r.latitude},${r.longitude},,,,,,0\n` +
        `MSG,4,1,1,4B1815,1,,,,,,,${r.groundspeed},${r.track},,,${r.vertical_rate},,,,,0\n`,
    ),
  }));
}

/** Messages per CPU-second of `run`, best of `rounds`. */
function rate(run: () => number, rounds: number): number {
  let best = 0;
  for (let r = 0; r < rounds; r++) {
    const start = cpuSeconds();
    const messages = run();
    best = Math.max(best, messages / (cpuSeconds() - start));
  }
  return best;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))] ?? Number.NaN;
}

function p95(values: number[]): number {
  return quantile(values, 0.95);
}

/** `RECKON_BENCH_FEEDS=saved` runs only the `feeds.saved.*` lines (seconds, not minutes). */
const savedOnly = process.env.RECKON_BENCH_FEEDS === 'saved';

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const results: BenchResult[] = [];
  if (!savedOnly) await ingest(quick, results);
  saved(results);
  return results;
};

/** `feeds.ingest.*`: messages per CPU-second, ours and npm's decoder of the format. */
async function ingest(quick: boolean, results: BenchResult[]): Promise<void> {
  const rounds = quick ? 1 : 3;
  const sbs = sbsItems(quick ? 10 : 100, 60);
  const beast = beastItems(quick ? 40 : 400);
  const aivdm = aivdmItems(quick ? 2 : 20);
  const sbs1 = require('sbs1') as { parseSbs1Message(line: string): unknown };
  const ModeS = require('mode-s-decoder') as new (o: { fixErrors: boolean }) => { parse(b: Uint8Array): unknown };
  const { AisDecode } = require('ggencoder') as { AisDecode: new (s: string, session: object) => { valid: boolean } };

  const text = (items: Timed[]) =>
    items.flatMap((i) =>
      Buffer.from(i.bytes)
        .toString()
        .split('\n')
        .filter((l) => l !== ''),
    );
  const sbsLines = text(sbs);
  const aisLines = text(aivdm);
  const beastMessages: Uint8Array[] = [];
  new BeastDeframer((_t, _ts, _s, m, n) => beastMessages.push(m.slice(0, n))).push(
    Buffer.concat(beast.map((i) => i.bytes)),
  );
  const modeS = new ModeS({ fixErrors: false });

  const through = (format: string, items: Timed[], baseline: () => number) => {
    let r: Replay | undefined;
    const ours = rate(() => {
      r = replay(format as FeedFormat, items, false);
      return r.messages;
    }, rounds);
    const theirs = rate(baseline, rounds);
    results.push({
      name: `feeds.ingest.${format}`,
      messagesPerCpuSecond: round(ours),
      baselineMessagesPerCpuSecond: round(theirs),
      ratio: round(ours / theirs),
      samplesPerCpuSecond: round((ours * r!.samples) / r!.messages),
      messages: r!.messages,
      positions: r!.positions,
      samples: r!.samples,
      pdus: r!.pdus,
    });
  };
  through('sbs', sbs, () => {
    for (const line of sbsLines) consume(sbs1.parseSbs1Message(line) ? 1 : 0);
    return sbsLines.length;
  });
  through('beast', beast, () => {
    for (const m of beastMessages) consume(modeS.parse(m) ? 1 : 0);
    return beastMessages.length;
  });
  through('aivdm', aivdm, () => {
    const session = {};
    for (const line of aisLines)
      consume(new AisDecode(line.replace(/,\d+$/, ''), line.includes(',1,1,') ? {} : session).valid ? 1 : 0);
    return aisLines.length;
  });
}

/** `feeds.saved.*`: PDUs against one per fix, on the recordings at their own times. */
function saved(results: BenchResult[]): void {
  for (const [name, format, items] of [
    ['opensky-1hz', 'sbs', openskyItems()],
    ['readsb-trace', 'aircraft-json', traceItems()],
    ['beast-capture', 'beast', beastItems(1)],
    ['dma-ais', 'aivdm', aivdmItems(1)],
  ] as const) {
    const r = replay(format, items, true);
    results.push({
      name: `feeds.saved.${name}`,
      positions: r.positions,
      pdus: r.pdus,
      savedPercent: round(100 * (1 - r.pdus / r.positions)),
      bridgePdus: r.bridgePdus,
      savedVsBridgePercent: round(100 * (1 - r.pdus / r.bridgePdus)),
      ...Object.fromEntries(Object.entries(r.reasons).map(([reason, n]) => [`pdus.${reason}`, n])),
      p95ErrorM: round(p95(r.errors)),
      truthToFixP50M: round(quantile(r.truthToFix, 0.5)),
      truthToFixP95M: round(quantile(r.truthToFix, 0.95)),
      thresholdM: 1,
    });
  }
}

export default suite;
