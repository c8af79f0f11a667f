// A DIS capture as truth: every Entity State PDU is the sender's own state, so the truth passes through each one's
// position and velocity, and between them follows the sender's own dead reckoning (IEEE 1278.1 Annex E) instead of
// a spline that overshoots. Real captures of VR-Forces (test/fixtures/SOURCES.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DeadReckoningModel } from '../../src/dr/models/model.js';
import { loadTracks, readDisCaptureTrack } from '../../src/truth/index.js';
import { createTruthWithAttitude } from '../../src/truth/trajectory.js';

const fixture = (path: string) => new URL(`../fixtures/dis/${path}`, import.meta.url).pathname;
const KDIS = fixture('dis5_kdis_vrforces_hind_vs_m1a2.pcap');
const GAZ = fixture('dis7_vrforces_gaz69_90deg_turn.pcap');

describe.each([
  ['the M1A2 tank', KDIS, '1:3001:15'],
  ['the Hind helicopter', KDIS, '1:3001:18'],
  ['the missile', KDIS, '1:3001:21'],
  ['the GAZ-69 turning 90°', GAZ, '1:3001:54'],
])('%s of a VR-Forces capture as truth', (_name, path, entity) => {
  it('passes within 0.1 m of every PDU and matches its velocity within 1 %', async () => {
    const [track] = await loadTracks(path, { entity });
    const { states } = readDisCaptureTrack(new Uint8Array(readFileSync(path)), entity);
    expect(states.length).toBeGreaterThan(10);
    const truth = createTruthWithAttitude();
    const model = new DeadReckoningModel();
    const velocity = new Float64Array(3);
    for (const s of states) {
      track!.trajectory.sample(s.timeSeconds - states[0]!.timeSeconds, truth);
      const off = Math.hypot(...s.location.map((x, i) => x - truth.location[i]!));
      expect(off, `frame ${s.row}`).toBeLessThanOrEqual(0.1);
      // The PDU's velocity in world axes (body-axis algorithms turned by its orientation).
      model.reset(s.location, s.linearVelocity, s.orientation, s.linearAcceleration, s.angularVelocity, s.algorithm);
      model.velocityWorld(0, velocity);
      const speed = Math.hypot(...velocity);
      const error = Math.hypot(...velocity.map((v, i) => v - truth.linearVelocity[i]!));
      expect(error, `frame ${s.row}`).toBeLessThanOrEqual(Math.max(0.01 * speed, 1e-6));
    }
  });
});

describe('between PDUs', () => {
  it('follows the sender’s dead reckoning: the Hind flies at its own speed, not a spline’s', async () => {
    const [track] = await loadTracks(KDIS, { entity: '1:3001:18' });
    const { states } = readDisCaptureTrack(new Uint8Array(readFileSync(KDIS)), '1:3001:18');
    const fastest = Math.max(...states.map((s) => Math.hypot(...s.linearVelocity)));
    const truth = createTruthWithAttitude();
    let speed = 0;
    for (let t = 0; t <= track!.trajectory.durationSeconds; t += 1 / 60) {
      track!.trajectory.sample(t, truth);
      speed = Math.max(speed, Math.hypot(...truth.linearVelocity));
    }
    expect(speed).toBeLessThan(1.01 * fastest);
  });

  it('names a PDU the one before could not have led to, and keeps it (the simulation’s own state)', async () => {
    // The M1A2's frame 47 is 1.2 m from where frame 46, 16 ms before, dead-reckons the tank.
    const [track] = await loadTracks(KDIS, { entity: '1:3001:15' });
    expect(track!.trajectory.notes).toEqual([
      expect.stringMatching(/^1 PDUs move the entity faster than a ground vehicle can: frame 47: 1\.2 m from/),
    ]);
    expect(track!.repairs).toEqual([]);
  });
});
