/**
 * Dead-reckoning throughput: extrapolating N = 10⁵ remote entities per tick (FPW, FVW, rotating RVW) with the
 * struct-of-arrays table against a straightforward array-of-objects implementation and against the same
 * struct-of-arrays quadratic as a plain JavaScript loop, and owner-side emitter decisions. Figures in
 * entity-updates (or decisions) per second; heap bytes per op show the zero-allocation paths.
 *
 * What one update is: FPW/FVW, the ECEF location; RVW, the location and the world-to-body matrix R(t) (the
 * table's orientation state); `rvw.euler`, that plus ψθφ read back every tick (three atan2 per entity).
 *
 * `dr.table.apply`: PDUs applied to a table of 1000 moving, turning entities (RVW, linear smoothing), 10 PDUs per
 * entity between two frames, the frame's render (which loads each entity's last PDU into its model and starts its
 * smoothing) included; `.eager` loads the model and starts the smoothing at every PDU, as a table that resolves on
 * apply would. Figures per PDU.
 */
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { RemoteEntityTable } from '../src/dr/receiver/remote-entity-table.js';
import { DeadReckoningEmitter } from '../src/dr/owner/emitter.js';
import { createTruthState } from '../src/dr/owner/truth-state.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const N = 100_000;

/** A deterministic generator so runs are comparable. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function filledTable(algorithm: number, random: () => number): RemoteEntityTable {
  const table = new RemoteEntityTable({ capacity: N, smoothing: { method: 'snap' } });
  const r = new EntityStateRecord(0);
  r.pduType = 1;
  r.drAlgorithm = algorithm;
  for (let i = 0; i < N; i++) {
    r.site = 1 + (i >>> 16);
    r.application = 1;
    r.entity = i & 0xffff;
    r.location.set([6378137 * (0.5 + random()), 1e6 * random(), 1e6 * random()]);
    r.linearVelocity.set([300 * random(), 300 * random(), 30 * random()]);
    r.linearAcceleration.set([5 * random(), 5 * random(), random()]);
    r.orientation.set([6 * random() - 3, 3 * random() - 1.5, 6 * random() - 3]);
    r.angularVelocity.set([0.2 * random(), 0.2 * random(), 0.5 * random()]);
    table.apply(r, random());
  }
  return table;
}

interface Vec {
  x: number;
  y: number;
  z: number;
}
interface RemoteObject {
  position: Vec;
  velocity: Vec;
  acceleration: Vec;
  t0: number;
  rendered: Vec;
}

/**
 * The baseline a reasonable developer writes: one object per entity with {x, y, z} vectors. Objects are created
 * in a shuffled order with interleaved short-lived garbage, and the array is shuffled, so that iteration order and
 * memory order differ as in a service that has run for a while.
 */
function objectEntities(random: () => number): RemoteObject[] {
  const entities: RemoteObject[] = [];
  const vec = (x: number, y: number, z: number): Vec => ({ x, y, z });
  const garbage: unknown[] = [];
  for (let i = 0; i < N; i++) {
    entities.push({
      position: vec(6378137 * (0.5 + random()), 1e6 * random(), 1e6 * random()),
      velocity: vec(300 * random(), 300 * random(), 30 * random()),
      acceleration: vec(5 * random(), 5 * random(), random()),
      t0: random(),
      rendered: vec(0, 0, 0),
    });
    if (random() < 0.5) garbage.push({ i, s: String(i) });
  }
  // Replace a random half of the vectors later, as updates do over a service's life.
  for (let i = 0; i < N / 2; i++) {
    const e = entities[Math.floor(random() * N)]!;
    e.velocity = vec(e.velocity.x, e.velocity.y, e.velocity.z);
    e.position = vec(e.position.x, e.position.y, e.position.z);
  }
  for (let i = N - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entities[i], entities[j]] = [entities[j]!, entities[i]!];
  }
  consume(garbage.length);
  return entities;
}

function extrapolateSoaJs(
  s: { p: Float64Array; v: Float64Array; a: Float64Array; t0: Float64Array; out: Float64Array },
  t: number,
): void {
  const { p, v, a, t0, out } = s;
  for (let i = 0, j = 0; i < N; i++, j += 3) {
    const dt = t - t0[i]!;
    out[j] = p[j]! + (v[j]! + a[j]! * dt) * dt;
    out[j + 1] = p[j + 1]! + (v[j + 1]! + a[j + 1]! * dt) * dt;
    out[j + 2] = p[j + 2]! + (v[j + 2]! + a[j + 2]! * dt) * dt;
  }
}

function extrapolateObjects(entities: RemoteObject[], t: number): void {
  for (const e of entities) {
    const dt = t - e.t0;
    const p = e.position,
      v = e.velocity,
      a = e.acceleration,
      out = e.rendered;
    out.x = p.x + (v.x + 0.5 * a.x * dt) * dt;
    out.y = p.y + (v.y + 0.5 * a.y * dt) * dt;
    out.z = p.z + (v.z + 0.5 * a.z * dt) * dt;
  }
}

const APPLY_ENTITIES = 1000;

/** An RVW Entity State record turning slowly, decoded into again and again by the table benchmarks. */
function turningRecord(): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.pduType = 1;
  r.drAlgorithm = 4;
  r.application = 1;
  r.linearVelocity.set([10, 2, 0]);
  r.orientation.set([0.3, -1, -2.5]);
  r.angularVelocity.set([0, 0.01, 0.05]);
  return r;
}
const PDUS_PER_FRAME = 10 * APPLY_ENTITIES;

/** PDUs per second through `apply` with a render every PDUS_PER_FRAME PDUs, lazy and resolved at every PDU. */
function applyRates(timing: { minMillis: number; rounds: number }) {
  const measure = (eager: boolean) => {
    const table = new RemoteEntityTable({ capacity: APPLY_ENTITIES });
    const r = turningRecord();
    let i = 0,
      stamp = 0,
      t = 0;
    // One record decoded into again and again, as on the receive path; each PDU a little off the last one's path.
    const op = () => {
      const k = i++ % APPLY_ENTITIES;
      if (k === 0) {
        stamp += 2;
        t += 0.0017;
      }
      r.entity = k + 1;
      r.timestampRaw = stamp;
      r.location[0] = 6378137 + k + 0.01 * (i & 7);
      table.apply(r, t);
      if (eager) table.resolve();
      if (i % PDUS_PER_FRAME === 0) table.render(t);
    };
    const batch = () => {
      for (let k = 0; k < PDUS_PER_FRAME; k++) op();
    };
    const rate = opsPerSecond(batch, PDUS_PER_FRAME, timing);
    const heap = heapBytesPerOp(batch, 20) / PDUS_PER_FRAME;
    consume(table.displayLocation[0]!);
    return { rate, heap };
  };
  return { lazy: measure(false), eager: measure(true) };
}

/**
 * One PDU per entity, then the frame's render: per updated slot, the cost of loading its model and starting and
 * drawing its smoothing (the per-frame half of `applyRates`, not amortised over 10 PDUs per slot).
 */
function renderAfterUpdate(timing: { minMillis: number; rounds: number }) {
  const table = new RemoteEntityTable({ capacity: APPLY_ENTITIES });
  const r = turningRecord();
  let frame = 0,
    t = 0;
  const frameOnce = () => {
    frame++;
    t += 0.0167;
    for (let k = 0; k < APPLY_ENTITIES; k++) {
      r.entity = k + 1;
      r.timestampRaw = 2 * frame;
      r.location[0] = 6378137 + k + 0.01 * (frame & 7);
      table.apply(r, t);
    }
    table.render(t);
  };
  const rate = opsPerSecond(frameOnce, APPLY_ENTITIES, timing);
  const heap = heapBytesPerOp(frameOnce, 20) / APPLY_ENTITIES;
  consume(table.displayLocation[0]!);
  return { rate, heap };
}

const suite: BenchSuite = async ({ quick }) => {
  const timing = quick ? { minMillis: 100, rounds: 3 } : { minMillis: 400, rounds: 7 };
  const random = lcg(42);
  const results: BenchResult[] = [];
  let tick = 1;

  // The emitter first, before the large heaps of the table and object benchmarks exist.
  // Emitter decisions on a manoeuvring entity (RVW): truth precomputed so only the decision is timed.
  const emitter = new DeadReckoningEmitter({ algorithm: 4 });
  const record = new EntityStateRecord(0);
  const truths = Array.from({ length: 1024 }, (_, i) => {
    const s = createTruthState(),
      t = i * 0.02;
    s.location.set([6378137 + 50 * t, 20 * t + 0.5 * t * t, 0]);
    s.linearVelocity.set([50, 20 + t, 0]);
    s.linearAcceleration.set([0, 1, 0]);
    s.orientation.set([0.3, 0.1 * Math.sin(t), 0]);
    s.angularVelocity.set([0, 0.1 * Math.cos(t), 0.05]);
    return s;
  });
  let step = 0,
    sent = 0;
  const decide = () => {
    const i = step++ & 1023;
    sent += emitter.update(truths[i]!, step * 0.02, record) === 0 ? 0 : 1;
  };
  // Heap measured through the same (optimised) batch that is timed: a fresh call site would first run
  // unoptimised code, which boxes every double.
  const decideBatch = () => {
    for (let k = 0; k < 1000; k++) decide();
  };
  const emitterRate = opsPerSecond(decideBatch, 1000, timing);
  const emitterHeap = heapBytesPerOp(decideBatch, 200) / 1000;
  const emitterResult = {
    name: 'dr.emitter.reckon',
    opsPerSec: round(emitterRate),
    heapBytesPerOp: round(emitterHeap),
    sentPerDecision: round(sent / step),
  };

  const apply = applyRates(timing);
  const renderUpdated = renderAfterUpdate(timing);

  // Every tick reads one output of every kind the tick wrote, so nothing can be skipped.
  const tableFor = (algorithm: number, readEuler = false) => {
    const table = filledTable(algorithm, random);
    const tickOnce = () => {
      table.extrapolate((tick += 0.016));
      consume(
        table.location[3 * (N - 1)]! +
          table.worldToBody[9 * (N - 1) + 4]! +
          (readEuler ? table.orientation[3 * (N - 1) + 2]! : 0),
      );
    };
    const rate = opsPerSecond(tickOnce, N, timing);
    const heap = heapBytesPerOp(tickOnce, 200) / N;
    return { rate, heap };
  };
  const fpw = tableFor(2);
  const fvw = tableFor(5);
  const rvw = tableFor(4);
  const rvwEuler = tableFor(4, true);

  // The same quadratic over the same struct-of-arrays layout as a JavaScript loop: what the SIMD kernel replaces.
  const soa = {
    p: new Float64Array(3 * N),
    v: new Float64Array(3 * N),
    a: new Float64Array(3 * N),
    t0: new Float64Array(N),
    out: new Float64Array(3 * N),
  };
  for (let j = 0; j < 3 * N; j++) {
    soa.p[j] = 6378137 * random();
    soa.v[j] = 300 * random();
    soa.a[j] = 2.5 * random();
  }
  for (let i = 0; i < N; i++) soa.t0[i] = random();
  const jsLoopRate = opsPerSecond(
    () => {
      extrapolateSoaJs(soa, (tick += 0.016));
      consume(soa.out[3 * N - 1]!);
    },
    N,
    timing,
  );

  const objects = objectEntities(random);
  const objectRate = opsPerSecond(() => extrapolateObjects(objects, (tick += 0.016)), N, timing);
  consume(objects[3]!.rendered.x);

  const ratios = (rate: number) => ({
    ratioVsObjects: round(rate / objectRate),
    ratioVsJsLoop: round(rate / jsLoopRate),
  });
  results.push({
    name: 'dr.extrapolate.fpw.reckon',
    opsPerSec: round(fpw.rate),
    heapBytesPerOp: round(fpw.heap),
    entities: N,
    ...ratios(fpw.rate),
  });
  results.push({
    name: 'dr.extrapolate.fvw.reckon',
    opsPerSec: round(fvw.rate),
    heapBytesPerOp: round(fvw.heap),
    entities: N,
    ...ratios(fvw.rate),
  });
  results.push({
    name: 'dr.extrapolate.rvw.reckon',
    opsPerSec: round(rvw.rate),
    heapBytesPerOp: round(rvw.heap),
    entities: N,
    ...ratios(rvw.rate),
  });
  results.push({
    name: 'dr.extrapolate.rvw.euler.reckon',
    opsPerSec: round(rvwEuler.rate),
    heapBytesPerOp: round(rvwEuler.heap),
    entities: N,
    ...ratios(rvwEuler.rate),
  });
  results.push({ name: 'dr.extrapolate.fvw.objects', opsPerSec: round(objectRate), entities: N });
  results.push({ name: 'dr.extrapolate.fvw.js-loop', opsPerSec: round(jsLoopRate), entities: N });

  results.push(emitterResult);
  results.push({
    name: 'dr.table.apply.reckon',
    opsPerSec: round(apply.lazy.rate),
    heapBytesPerOp: round(apply.lazy.heap),
    entities: APPLY_ENTITIES,
    ratioVsEager: round(apply.lazy.rate / apply.eager.rate),
  });
  results.push({
    name: 'dr.table.render-after-update.reckon',
    opsPerSec: round(renderUpdated.rate),
    heapBytesPerOp: round(renderUpdated.heap),
    entities: APPLY_ENTITIES,
  });
  results.push({
    name: 'dr.table.apply.eager',
    opsPerSec: round(apply.eager.rate),
    heapBytesPerOp: round(apply.eager.heap),
    entities: APPLY_ENTITIES,
  });
  return results;
};

export default suite;
