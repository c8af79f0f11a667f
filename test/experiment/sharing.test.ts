import { describe, expect, it } from 'vitest';
import { trajectoryFromSpec } from '../../src/experiment/build.js';
import { ByteBoundedCache } from '../../src/experiment/byte-cache.js';
import { RunContext, runExperiment, simulate } from '../../src/experiment/runner.js';
import { senderBatches } from '../../src/experiment/sweep-runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { senderKey } from '../../src/experiment/transmission.js';
import { aircraftOrbit } from '../../src/truth/index.js';
import { createTruthWithAttitude } from '../../src/truth/trajectory.js';
import { SampledTruth, sampleRunTruth, truthKey } from '../../src/experiment/sampled-truth.js';

describe('SampledTruth', () => {
  const orbit = aircraftOrbit({ speed: 120, radius: 3000, orbits: 1, banked: true });
  const fields = (t: ReturnType<typeof createTruthWithAttitude>) =>
    [t.location, t.linearVelocity, t.linearAcceleration, t.angularVelocity, t.worldToBody].flatMap((a) => [...a]);

  it('a window smaller than the run reads, going forward, exactly what one pass of the sampler gives', () => {
    const full = new SampledTruth(orbit.stepSampler!(60), 500);
    const window = new SampledTruth(orbit.stepSampler!(60), 500, 7);
    expect(window.byteLength).toBe(7 * 21 * 8);
    expect(full.byteLength).toBe(500 * 21 * 8);
    const a = createTruthWithAttitude(true),
      b = createTruthWithAttitude(true);
    for (let step = 0; step < 500; step++) expect(fields(window.read(step, a))).toEqual(fields(full.read(step, b)));
  });

  it('in any order, reads the state at the step (to rounding: the sampler re-anchors out of sequence)', () => {
    const window = new SampledTruth(orbit.stepSampler!(60), 500, 7);
    const out = createTruthWithAttitude(true);
    for (const step of [250, 3, 499, 498, 13, 0]) {
      const want = createTruthWithAttitude(true);
      orbit.sample(step / 60, want);
      window.read(step, out);
      for (let k = 0; k < 3; k++) expect(out.location[k]).toBeCloseTo(want.location[k]!, 6);
      for (let k = 0; k < 9; k++) expect(out.worldToBody[k]).toBeCloseTo(want.worldToBody[k]!, 9);
    }
  });

  it('samples frames at their own instants when the render rate differs', () => {
    const truth = sampleRunTruth(orbit, 60, 10, 25);
    expect(truth.samples.steps).toBe(601);
    expect(truth.frames!.steps).toBe(251);
    const out = createTruthWithAttitude(true);
    truth.frames!.read(5, out);
    const want = orbit.sample(5 / 25, createTruthWithAttitude(true));
    expect([...out.location]).toEqual([...want.location]);
    expect(sampleRunTruth(orbit, 60, 10).frames).toBeNull();
  });
});

describe('runs that share a sender', () => {
  const plan = planExperiment({
    durationSeconds: 120,
    trajectory: { type: 'figure-8' },
    emitter: { algorithm: 'RVW', positionThreshold: '2 m' },
    sweep: {
      network: ['perfect', 'wan', 'lossy-wifi'],
      'smoothing.method': ['snap', 'convergence'],
      seed: [1, 2],
    },
  });

  it('replay the PDUs the first one recorded and give the results a run of their own gives', async () => {
    const shared = new RunContext();
    const key = senderKey(plan.runs[0]!.spec);
    expect(plan.runs.every((r) => senderKey(r.spec) === key)).toBe(true);
    const first = await runExperiment(plan.runs[0]!.spec, shared);
    const recorded = shared.transmissions.get(key)!;
    expect(recorded.count).toBe(first.metrics.pdus);
    for (const run of plan.runs) {
      const replayed = await runExperiment(run.spec, shared, run.index, run.settings);
      const alone = await runExperiment(run.spec, new RunContext(), run.index, run.settings);
      expect(replayed).toEqual(alone);
    }
    // Every run read the one recording (nothing was recorded again).
    expect(shared.transmissions.get(key)).toBe(recorded);
    expect(shared.truths.get(truthKey(plan.runs[0]!.spec))).toBeDefined();
  });

  it('do not share with a run whose emitter or trajectory differs', () => {
    const spec = plan.runs[0]!.spec;
    expect(senderKey({ ...spec, emitter: { ...spec.emitter, positionThreshold: 1 } })).not.toBe(senderKey(spec));
    expect(senderKey({ ...spec, trajectory: { type: 'tank-road-course' } })).not.toBe(senderKey(spec));
    expect(senderKey({ ...spec, sampleRateHz: 30 })).not.toBe(senderKey(spec));
    // The receiving side does not change what is sent.
    expect(senderKey({ ...spec, renderRateHz: 30, seed: 9 })).toBe(senderKey(spec));
  });

  it('simulate on a trajectory object (nothing shared) gives the result runExperiment gives', async () => {
    const spec = plan.runs[3]!.spec;
    const trajectory = await trajectoryFromSpec(spec.trajectory);
    expect(simulate(spec, trajectory, new RunContext())).toEqual(await runExperiment(spec, new RunContext()));
  });
});

describe('a run longer than its truth table', () => {
  it('reads truth through a moving window and gives the result a whole table gives', async () => {
    for (const renderRateHz of [60, 25]) {
      const spec = planExperiment({
        durationSeconds: 30,
        renderRateHz,
        trajectory: { type: 'aircraft-orbit' },
        network: 'wan',
      }).runs[0]!.spec;
      const windowed = await runExperiment(spec, new RunContext(undefined, 97));
      expect(windowed).toEqual(await runExperiment(spec, new RunContext()));
    }
  });
});

describe('ByteBoundedCache', () => {
  const value = (byteLength: number) => ({ byteLength });

  it('drops the least recently used values to stay within its bytes, and keeps nothing larger than them', () => {
    const cache = new ByteBoundedCache<{ byteLength: number }>(100);
    cache.set('a', value(40));
    cache.set('b', value(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', value(40)); // 120 > 100: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('d', value(101));
    expect(cache.get('d')).toBeUndefined();
    cache.set('a', value(60)); // replaced: 60 + 40
    expect(cache.get('c')).toBeDefined();
    cache.set('e', value(1)); // a (least recent after c was read) goes
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('senderBatches', () => {
  const plan = planExperiment({
    durationSeconds: 10,
    sweep: { network: ['lan', 'wan'], 'emitter.algorithm': ['FPW', 'RVW', 'FVW'], seed: [1, 2, 3, 4] },
  });

  it('hands every run out once, in batches that share a sender', () => {
    for (const threads of [1, 2, 8]) {
      const batches = senderBatches(plan.runs, threads);
      expect(
        batches
          .flat()
          .map((r) => r.index)
          .sort((a, b) => a - b),
      ).toEqual(plan.runs.map((r) => r.index));
      for (const batch of batches) expect(new Set(batch.map((r) => senderKey(r.spec))).size).toBe(1);
      // 3 senders of 8 runs; a batch holds at most a quarter of a thread's share.
      const most = threads > 1 ? Math.ceil(24 / (4 * threads)) : 24;
      expect(Math.max(...batches.map((b) => b.length))).toBe(Math.min(8, most));
    }
    expect(senderBatches(plan.runs, 1)).toHaveLength(3);
  });
});
