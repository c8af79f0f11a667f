/**
 * The page's per-frame work measured in the browser (bench/view-page.bench.ts): N moving entities in the page's
 * own `PageEntities`, `GpuEntities` and `EntityLayers` on a MapLibre map with the deck.gl overlay, exactly as
 * src/view/page/main.ts runs them, the map framing the whole exercise, and the time of one frame's work — expiry,
 * loading the PDUs that came into the table, packing and uploading the GPU records of what changed, the GPU's DR pass
 * (its commands: the GPU runs them after), choosing what is in view and labelled, the layer list and deck.gl's layer
 * and attribute update — by performance.now() around it. Drawing (on the GPU, or on the CPU under SwiftShader here)
 * is not part of it; the interval between frames, which holds it, is reported beside. Time is synthetic, 1/60 s per
 * frame; every frame 1 % of the entities get a new PDU (decoded into the table outside the timed work, as the page
 * does on the feed's message), so smoothing runs as it does live.
 */
import * as maplibregl from 'maplibre-gl';
import { MapboxOverlay } from '@deck.gl/mapbox';
import type { Device } from '@luma.gl/core';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { PageEntities } from '../../src/view/page/entities.js';
import { EntityLayers, deckLayerManager } from '../../src/view/page/map/layers.js';
import { SymbolAtlas } from '../../src/view/page/map/symbol-atlas.js';
import { GpuEntities } from '../../src/view/page/gpu/gpu-entities.js';
import { InView } from '../../src/view/page/map/in-view.js';
import { LabelChooser } from '../../src/view/page/map/declutter.js';
import { labelText } from '../../src/view/page/map/layers.js';
import { drawnStateOf } from '../../src/view/page/map/map-coordinates.js';

const DEG = Math.PI / 180;

interface BenchResult {
  entities: number;
  frames: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  /** The slowest frame: work that comes once in a while (trail packing, markers) shows here, not in the median. */
  maxMs: number;
  /**
   * Of the median: the model's part (expiry, loading the PDUs into the table, packing the changed records), the
   * GPU's (upload and DR pass commands) and the layers' (what is in view, labels, the list and deck.gl's update).
   */
  modelMedianMs: number;
  gpuMedianMs: number;
  layersMedianMs: number;
  /** Records uploaded per frame (median). */
  uploadedMedian: number;
  /** Median time between two frames, drawing included (SwiftShader draws on the CPU here). */
  intervalMedianMs: number;
  /** Whether the view was readable (symbols and labels) or drawn as dots. */
  readable: number;
  /** 1 when the table ran the WebAssembly SIMD kernel (as the page does under the gateway's policy), else 0. */
  wasmKernel: number;
  /**
   * Baseline, the CPU path in the same page and run: the table's float64 dead reckoning and smoothing of every entity
   * (`render`) and each one's conversion to longitude, latitude and heading (`drawnStateOf`), per frame (median) — a
   * lower bound of what the page did per frame before the GPU held the models (deck.gl's upload of the result left out).
   */
  cpuPathMedianMs: number;
}

declare global {
  interface Window {
    __bench: (n: number, frames: number) => Promise<BenchResult>;
    __benchReady: boolean;
  }
}

maplibregl.setWorkerUrl(new URL('assets/maplibre-gl-worker.js', document.baseURI).href);
/** The exercise: about 10° × 10° around (50° N, 10° E). */
const WEST = 5,
  SOUTH = 45,
  SPAN = 10;
const map = new maplibregl.Map({
  container: 'map',
  style: {
    version: 8,
    sources: {},
    layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#0d1b2a' } }],
  },
  bounds: [WEST, SOUTH, WEST + SPAN, SOUTH + SPAN],
});
let device: Device | null = null;
const overlay = new MapboxOverlay({ interleaved: false, layers: [], onDeviceInitialized: (d: Device) => (device = d) });
map.addControl(overlay as unknown as maplibregl.IControl);
const atlas = new SymbolAtlas();
map.on('load', () => (window.__benchReady = true));

/** One PDU of entity i at time t: spread over the exercise, 20–70 m/s, half of them turning (RVW). */
function pduOf(record: EntityStateRecord, out: Uint8Array, i: number, tSeconds: number): number {
  // The R2 low-discrepancy sequence: evenly spread, no two alike.
  const lat = SOUTH + ((0.5 + i * 0.7548776662466927) % 1) * SPAN,
    lon = WEST + ((0.5 + i * 0.5698402909980532) % 1) * SPAN;
  record.site = 1;
  record.application = 1 + (i >>> 16);
  record.entity = i & 0xffff;
  record.exerciseId = 1;
  record.forceId = 1 + (i % 3);
  record.entityType.set([1, 1 + (i % 3), 225, 1, 1, 0, 0]);
  record.timestampRaw = timestampFromSeconds(tSeconds % 3600, true);
  const speed = 20 + (i % 50),
    course = ((i * 37) % 360) * DEG;
  geodeticDegreesToEcef(record.location, lat, lon, i % 3 === 1 ? 3000 : 0);
  const sl = Math.sin(lat * DEG),
    cl = Math.cos(lat * DEG),
    so = Math.sin(lon * DEG),
    co = Math.cos(lon * DEG);
  const east = speed * Math.sin(course),
    north = speed * Math.cos(course);
  record.linearVelocity.set([-so * east - sl * co * north, co * east - sl * so * north, cl * north]);
  record.orientation.set([course, 0, 0]);
  const turning = i % 2 === 1;
  record.drAlgorithm = turning ? 4 : 2;
  record.angularVelocity.set([0, 0, turning ? 0.05 : 0]);
  setMarkingText(record, `E${i}`);
  return encodeEntityStateInto(out, record, 0);
}

const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r));

window.__bench = async (n: number, frames: number): Promise<BenchResult> => {
  const entities = new PageEntities({ capacity: n });
  const layers = new EntityLayers(entities, atlas);
  const gpu = new GpuEntities();
  const inView = new InView();
  const chooser = new LabelChooser();
  const record = new EntityStateRecord();
  const bytes = new Uint8Array(256);
  let t = 1_800_000_000;
  for (let i = 0; i < n; i++) entities.applyPdu(bytes, 0, pduOf(record, bytes, i, t), t);
  const canvas = map.getCanvas();
  const bounds = map.getBounds();
  const view = {
    widthPx: canvas.clientWidth,
    heightPx: canvas.clientHeight,
    westDeg: bounds.getWest(),
    southDeg: bounds.getSouth(),
    eastDeg: bounds.getEast(),
    northDeg: bounds.getNorth(),
  };
  const project = (lon: number, lat: number, out: Float64Array) => {
    const p = map.project([lon, lat]);
    out[0] = p.x;
    out[1] = p.y;
  };
  const text = (slot: number) => labelText(entities, slot);
  let labelSlots: number[] = [];
  let labelsAt = -Infinity;
  const options = {
    trails: true,
    markers: true,
    ghosts: false,
    labels: true,
    selectedSlot: -1,
    labelSlots,
    readable: true,
    onSelect: () => {},
  };
  // The snapshot's records go up over the first frames (at most 32 768 a frame): not measured.
  while (device === null) await nextFrame();
  do {
    t += 1 / 60;
    entities.frame(t);
    gpu.update(device, entities, inView);
    await nextFrame();
  } while (entities.staging.pending > 0);
  const times: number[] = [],
    modelTimes: number[] = [],
    gpuTimes: number[] = [],
    layerTimes: number[] = [],
    uploads: number[] = [],
    intervals: number[] = [];
  const warmup = Math.min(20, frames);
  let next = 0,
    last = performance.now();
  for (let f = 0; f < warmup + frames; f++) {
    t += 1 / 60;
    for (let k = 0; k < Math.ceil(n / 100); k++, next = (next + 1) % n) {
      entities.applyPdu(bytes, 0, pduOf(record, bytes, next, t), t);
    }
    const start = performance.now();
    entities.expire(t);
    entities.frame(t);
    const modelDone = performance.now();
    const uploaded = entities.staging.count;
    // What is in view and labelled: a few times a second, as the page does.
    if (t - labelsAt >= 0.2) {
      labelsAt = t;
      inView.scan(entities, view);
      labelSlots = inView.readable ? chooser.choose(entities, inView.slots, inView.count, text, project, view, -1) : [];
    }
    const scanned = performance.now();
    const drawn = gpu.update(device, entities, inView);
    const gpuDone = performance.now();
    options.labelSlots = labelSlots;
    options.readable = inView.readable;
    const built = layers.layers(options, [], t, drawn, inView);
    if (built !== null) {
      overlay.setProps({ layers: built });
      // deck.gl matches the new layers and updates their attributes at its next render; run that here, inside the
      // timed work, so that the figure holds the layer update too.
      deckLayerManager(overlay)?.updateLayers();
    }
    const end = performance.now();
    if (f >= warmup) {
      times.push(end - start);
      modelTimes.push(modelDone - start);
      gpuTimes.push(gpuDone - scanned);
      layerTimes.push(end - gpuDone + (scanned - modelDone));
      uploads.push(uploaded);
    }
    const now = await nextFrame();
    if (f >= warmup) intervals.push(now - last);
    last = now;
  }
  gpu.destroy();
  // The baseline: the CPU path's per-entity work on the same entities, over the next frames of synthetic time.
  const table = entities.table,
    scratch = new Float64Array(5),
    geodetic = new Float64Array(3 * table.highWater),
    heading = new Float64Array(table.highWater),
    cosLat = new Float64Array(table.highWater),
    cpuTimes: number[] = [];
  for (let f = 0; f < Math.min(frames, 20) + 3; f++) {
    t += 1 / 60;
    const start = performance.now();
    table.render(t);
    const location = table.displayLocation,
      r = table.displayWorldToBody;
    for (let slot = 0; slot < table.highWater; slot++) {
      const s3 = 3 * slot,
        s9 = 9 * slot;
      drawnStateOf(
        scratch,
        slot,
        location[s3]!,
        location[s3 + 1]!,
        location[s3 + 2]!,
        r[s9]!,
        r[s9 + 1]!,
        r[s9 + 2]!,
        geodetic,
        heading,
        cosLat,
      );
    }
    if (f >= 3) cpuTimes.push(performance.now() - start);
    await nextFrame();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    entities: entities.count,
    frames,
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!,
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    maxMs: sorted[sorted.length - 1]!,
    modelMedianMs: median(modelTimes),
    gpuMedianMs: median(gpuTimes),
    layersMedianMs: median(layerTimes),
    uploadedMedian: median(uploads),
    intervalMedianMs: median(intervals),
    readable: inView.readable ? 1 : 0,
    wasmKernel: entities.table.store.arena === null ? 0 : 1,
    cpuPathMedianMs: median(cpuTimes),
  };
};
