/**
 * `npx tsx scripts/fuzz-feeds.ts [--chunks N] [--seed S]`: random and mutated bytes — mutations of the real
 * recordings in test/fixtures/feeds/ (bit flips, cuts, repeats, lines joined or made endless, random chunk
 * boundaries) and plain noise — into every feed decoder (each format gets every source's bytes) and the track
 * table behind them, whose every track's truth state is then read. Prints one JSON line: per format the decoder's
 * counts, the tracks made, glitches, throws (each caught and counted, the first few shown) and non-finite values
 * that reached a truth state. Exit 1 when any throw or non-finite value was seen. Same seed, same counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createTruthState } from '../src/dr/owner/truth-state.js';
import { createFeedDecoder, type DecoderStats, type FeedFormat } from '../src/fixes/feed-decoders.js';
import { TrackTable } from '../src/fixes/track-table.js';
import { createRandom } from '../src/math/random.js';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/feeds/', import.meta.url));
const FORMATS: readonly FeedFormat[] = ['sbs', 'beast', 'aivdm', 'truth', 'aircraft-json'];

export interface FeedFuzzReport {
  chunks: number;
  seed: number;
  formats: Record<string, DecoderStats & { tracks: number; glitches: number; refused: number }>;
  throws: number;
  firstThrows: string[];
  nonFinite: number;
}

/** The recordings, and records and documents made from them (the truth and aircraft.json formats need JSON). */
function seeds(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const name of readdirSync(FIXTURES)) {
    const bytes = readFileSync(FIXTURES + name);
    out.push(name.endsWith('.gz') ? gunzipSync(bytes) : bytes);
  }
  const records = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      id: `e${i % 7}`,
      time: i,
      lat: 36 + i * 1e-4,
      lon: -121,
      alt: 10,
      heading: i,
      type: 'M1A2',
      velocity: { enu: [1, 0, 0] },
    }),
  );
  out.push(Buffer.from(`${records.join('\n')}\n`));
  out.push(
    Buffer.from(
      JSON.stringify({
        now: 1e9,
        aircraft: [{ hex: 'a1b2c3', lat: 1, lon: 2, seen_pos: 0.1, alt_baro: 1000, gs: 100, track: 90, t: 'B738' }],
      }),
    ),
  );
  return out;
}

function mutate(random: () => number, seed: Uint8Array): Uint8Array {
  if (random() < 1 / 8) return seed; // now and then the recording as it is
  const start = Math.floor(random() * seed.length);
  const length = Math.min(seed.length - start, 1 + Math.floor(random() * 4096));
  const bytes = Uint8Array.from(seed.subarray(start, start + length));
  const kind = Math.floor(random() * 7);
  switch (kind) {
    case 0:
      for (let k = 0; k < 1 + random() * 8; k++)
        bytes[Math.floor(random() * bytes.length)]! ^= 1 << Math.floor(random() * 8);
      break;
    case 1:
      for (let k = 0; k < bytes.length; k++) if (bytes[k] === 10 && random() < 0.5) bytes[k] = 32; // lines joined
      break;
    case 2:
      return bytes.subarray(0, Math.floor(random() * bytes.length)); // cut
    case 3:
      return new Uint8Array(1 + Math.floor(random() * 70_000)).fill(65); // a line without end
    case 4:
      for (let k = 0; k < bytes.length; k++) bytes[k] = Math.floor(random() * 256); // noise
      break;
    case 5:
      for (let k = 0; k < 4; k++) bytes[Math.floor(random() * bytes.length)] = [0x1a, 0x33, 92, 42][k]!; // framing bytes
      break;
  }
  return bytes;
}

export function fuzzFeeds(options: { chunks: number; seed: number }): FeedFuzzReport {
  const generator = createRandom(options.seed);
  const random = () => generator.next();
  const sources = seeds();
  const report: FeedFuzzReport = {
    chunks: options.chunks,
    seed: options.seed,
    formats: {},
    throws: 0,
    firstThrows: [],
    nonFinite: 0,
  };
  const truth = createTruthState();
  for (const format of FORMATS) {
    const table = new TrackTable({ capacity: 500 });
    let wall = 1_000;
    const decoder = createFeedDecoder(format, (fix, wallSeconds) => {
      const t = Number.isFinite(fix.timeSeconds) && format === 'truth' ? fix.timeSeconds : wallSeconds;
      table.apply(fix, 0, wallSeconds, t);
    });
    const guard = (what: string, run: () => void) => {
      try {
        run();
      } catch (error) {
        report.throws++;
        if (report.firstThrows.length < 5)
          report.firstThrows.push(`${format} ${what}: ${(error as Error).stack ?? error}`);
      }
    };
    for (let i = 0; i < options.chunks; i++) {
      const bytes = mutate(random, sources[Math.floor(random() * sources.length)]!);
      wall += random() * 2;
      // Random chunk boundaries, on one of a few connections.
      const stream = Math.floor(random() * 3);
      for (let at = 0; at < bytes.length; ) {
        // An aircraft.json arrives whole, a body per poll.
        const n = format === 'aircraft-json' ? bytes.length : 1 + Math.floor(random() * 1500);
        guard('push', () => decoder.push(bytes.subarray(at, at + n), wall, stream));
        at += n;
      }
      if (random() < 0.1) guard('end', () => decoder.end(stream));
      if (i % 64 === 0) {
        guard('truth', () =>
          table.forEachPositioned((track) => {
            if (table.isStale(track, wall)) table.remove(track);
            else {
              table.truthAt(track, wall, truth);
              for (const v of [truth.location, truth.linearVelocity, truth.orientation])
                for (const x of v) if (!Number.isFinite(x)) report.nonFinite++;
            }
          }),
        );
      }
    }
    report.formats[format] = {
      ...decoder.stats,
      tracks: table.stats.tracksMade,
      glitches: table.stats.glitches,
      refused: table.stats.refused,
    };
  }
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, otherwise: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : otherwise;
  };
  const report = fuzzFeeds({ chunks: arg('chunks', 20_000), seed: arg('seed', 1) });
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exitCode = report.throws > 0 || report.nonFinite > 0 ? 1 : 0;
}
