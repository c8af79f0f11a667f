// PDUs of a live track: the OpenSky ADS-B of 4b1815 (1 Hz, 141 min; test/fixtures/tracks/) as SBS-1 lines through
// the feed and the emitter bank on a virtual clock. The truth of a live track moves without steps at its fixes, so
// the receivers' dead reckoning holds it within the 1 m threshold between PDUs far more often than once per fix.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Observable, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deadReckon } from '../../src/dr/models/model.js';
import type { Chunk } from '../../src/feeds/connections.js';
import { FeedTracks } from '../../src/feeds/feed-tracks.js';
import { feedFromChunks } from '../../src/feeds/live-feed.js';
import { ESTIMATOR_PROFILES, GatedKalmanTracks } from '../../src/fixes/index.js';
import { deadReckonEmit, type TruthSample } from '../../src/stream/operators.js';

const records = JSON.parse(
  gunzipSync(
    readFileSync(new URL('../fixtures/tracks/aircraft_adsb_noisy_time_issue.json.gz', import.meta.url)),
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

/** Replays the recording (a position and a velocity line a second); PDUs sent and the receivers' error at each fix. */
function replay(): { positions: number; bridgePdus: number; pdus: number; errors: number[] } {
  const scheduler = new VirtualTimeScheduler(undefined, 0);
  let push: (chunk: Chunk) => void = () => {};
  const chunks = new Observable<Chunk>((subscriber) => {
    push = (chunk) => subscriber.next(chunk);
  });
  const feed = feedFromChunks('sbs', chunks, { scheduler, tracks: new FeedTracks() });
  const errors: number[] = [];
  let held:
    | { location: Float64Array; velocity: Float64Array; orientation: Float64Array; algorithm: number; t: number }
    | undefined;
  let fixesSeen = 0;
  let pdus = 0;
  const measured = new Observable<TruthSample>((subscriber) =>
    feed.subscribe((sample) => {
      const fix = feed.stats.fixSamples > fixesSeen;
      fixesSeen = feed.stats.fixSamples;
      if (held && fix) {
        const at = deadReckon(
          {
            location: held.location,
            linearVelocity: held.velocity,
            orientation: held.orientation,
            deadReckoning: {
              algorithm: held.algorithm,
              linearAcceleration: new Float64Array(3),
              angularVelocity: new Float64Array(3),
            },
          },
          sample.timeSeconds - held.t,
        ).location;
        const s = sample.state.location;
        errors.push(Math.hypot(at[0]! - s[0]!, at[1]! - s[1]!, at[2]! - s[2]!));
      }
      subscriber.next(sample);
    }),
  );
  measured.pipe(deadReckonEmit()).subscribe((pdu) => {
    pdus++;
    const r = pdu.record;
    held = {
      location: Float64Array.from(r.location),
      velocity: Float64Array.from(r.linearVelocity),
      orientation: Float64Array.from(r.orientation),
      algorithm: r.drAlgorithm,
      t: pdu.timeSeconds,
    };
  });
  const t0 = records[0]!.timestamp;
  for (const r of records) {
    const ms = r.timestamp - t0;
    scheduler.maxFrames = ms;
    scheduler.flush();
    scheduler.frame = ms;
    push({
      stream: 0,
      end: false,
      bytes: Buffer.from(
        `MSG,3,1,1,4B1815,1,,,,,,${r.altitude ?? ''},,,${r.latitude},${r.longitude},,,,,,0\n` +
          `MSG,4,1,1,4B1815,1,,,,,,,${r.groundspeed},${r.track},,,${r.vertical_rate},,,,,0\n`,
      ),
    });
  }
  return { positions: feed.stats.positionFixes, bridgePdus: feed.stats.bridgePdus, pdus, errors };
}

describe('PDUs of a live ADS-B track', () => {
  it('truth is continuous through a fix: no step in position or velocity for the receivers to chase', () => {
    const tracks = new GatedKalmanTracks(1);
    const before = new Float64Array(6),
      after = new Float64Array(6);
    tracks.start(0, 0, 4_000_000, 300_000, 4_900_000, {
      processHorizontal: 1,
      processVertical: 0.5,
      positionSigmaM: 8,
      heightSigmaM: 8,
      velocitySigmaMps: 0.6,
      timeSigmaSeconds: 0.1,
      blendSeconds: 4,
      manoeuvreMps2: 6,
    });
    tracks.velocity(0, 1, 200, 0, 0, true, true);
    tracks.stateAt(0, 2, before);
    expect(tracks.position(0, 2, 4_000_000 + 15, 300_000 + 200 * 2 + 10, 4_900_000 - 12, true)).toBe(true);
    tracks.stateAt(0, 2, after);
    for (let k = 0; k < 6; k++) expect(Math.abs(after[k]! - before[k]!)).toBeLessThan(1e-6);
    // …and the correction is taken in within a few blend times.
    const later = new Float64Array(6),
      estimate = new Float64Array(6);
    tracks.stateAt(0, 60, later);
    (tracks as unknown as { estimateAt(at: number, t: number, out: Float64Array): void }).estimateAt(0, 60, estimate);
    for (let k = 0; k < 3; k++) expect(Math.abs(later[k]! - estimate[k]!)).toBeLessThan(0.01);
  });

  it('takes a correction beyond the noise of a fix (the vehicle found elsewhere) at once', () => {
    const tracks = new GatedKalmanTracks(1);
    const truth = new Float64Array(6),
      estimate = new Float64Array(6);
    tracks.start(0, 0, 4_000_000, 300_000, 4_900_000, ESTIMATOR_PROFILES.air);
    tracks.velocity(0, 1, 200, 0, 0, true, true);
    expect(tracks.position(0, 30, 4_000_000 + 60, 300_000 + 200 * 30 + 90, 4_900_000, false)).toBe(true);
    tracks.stateAt(0, 30, truth);
    (tracks as unknown as { estimateAt(at: number, t: number, out: Float64Array): void }).estimateAt(0, 30, estimate);
    for (let k = 0; k < 6; k++) expect(truth[k]).toBe(estimate[k]);
  });

  it('sends 62 % fewer PDUs than fixes on the OpenSky recording, the receivers within 1 m at p95', () => {
    const { positions, bridgePdus, pdus, errors } = replay();
    errors.sort((a, b) => a - b);
    const p95 = errors[Math.floor(0.95 * (errors.length - 1))]!;
    expect(positions).toBeGreaterThan(5900);
    // A bridge sending every position owes heartbeats in the recording's gaps too.
    expect(bridgePdus).toBeGreaterThan(positions + 200);
    expect(1 - pdus / positions).toBeGreaterThan(0.62);
    expect(p95).toBeLessThanOrEqual(1);
  });
});
