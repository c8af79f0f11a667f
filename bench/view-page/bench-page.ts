/**
 * The page's per-frame work measured in the browser (bench/view-page.bench.ts): N moving entities in the page's
 * own `PageEntities` and `EntityLayers` on a MapLibre map with the deck.gl overlay, exactly as src/view/page/main.ts
 * runs them, and the time of one frame's work — expiry, dead reckoning and smoothing of every entity, the map's
 * arrays, the layer list and deck.gl's layer and attribute update — by performance.now() around it. Drawing (on the
 * GPU, or on the CPU under SwiftShader here) is not part of it. Time is synthetic, 1/60 s per frame; every frame
 * 1 % of the entities get a new PDU (applied outside the timed work), so smoothing runs as it does live.
 */
import * as maplibregl from 'maplibre-gl';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/entity-state-record.js';
import { encodeEntityStateInto } from '../../src/pdu/entity-state-encoder.js';
import { timestampFromSeconds } from '../../src/pdu/timestamp.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { PageEntities } from '../../src/view/page/entities.js';
import { drawToleranceMeters } from '../../src/view/page/map-coordinates.js';
import { EntityLayers, SymbolAtlas, deckLayerManager } from '../../src/view/page/layers.js';

const DEG = Math.PI / 180;

interface BenchResult {
  entities: number;
  frames: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  /** The slowest frame: work that comes once in a while (trail sampling, markers) shows here, not in the median. */
  maxMs: number;
  /** Of the median: the model's part (expiry, DR, smoothing, map arrays) and the layers' (list + deck.gl update). */
  modelMedianMs: number;
  layersMedianMs: number;
  /** 1 when the table ran the WebAssembly SIMD kernel (as the page does under the gateway's policy), else 0. */
  wasmKernel: number;
}

declare global {
  interface Window {
    __bench: (n: number, frames: number, zoom: number | null) => Promise<BenchResult>;
    __benchReady: boolean;
  }
}

maplibregl.setWorkerUrl(new URL('assets/maplibre-gl-worker.js', document.baseURI).href);
const map = new maplibregl.Map({
  container: 'map',
  style: {
    version: 8,
    sources: {},
    layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#0d1b2a' } }],
  },
  // A 4 × 4 px map looking away from the entities (index.html): they are clipped before any pixel is filled, so
  // SwiftShader (WebGL on the CPU, sharing the cores with the page) spends little on drawing.
  center: [-150, -40],
  zoom: 5,
});
const overlay = new MapboxOverlay({ interleaved: false, layers: [] });
map.addControl(overlay as unknown as maplibregl.IControl);
const atlas = new SymbolAtlas();
map.on('load', () => (window.__benchReady = true));

/** One PDU of entity i at time t: spread over ~10° around (50° N, 10° E), 20–70 m/s, half of them turning (RVW). */
function pduOf(record: EntityStateRecord, out: Uint8Array, i: number, tSeconds: number): number {
  const lat = 45 + ((i * 7919) % 1000) / 100,
    lon = 5 + ((i * 104729) % 1000) / 100;
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

/**
 * @param zoom - the map zoom whose drawing tolerance the frames use, as the page does (a quarter pixel: movement
 *   under it is not converted and drawn again), or null for none (every entity converted every frame, as at a zoom
 *   where each moves a quarter pixel a frame).
 */
window.__bench = async (n: number, frames: number, zoom: number | null): Promise<BenchResult> => {
  const toleranceMeters = zoom === null ? 0 : drawToleranceMeters(zoom);
  const entities = new PageEntities({ capacity: n });
  const layers = new EntityLayers(entities, atlas);
  const record = new EntityStateRecord();
  const bytes = new Uint8Array(256);
  let t = 1_800_000_000;
  for (let i = 0; i < n; i++) entities.applyPdu(bytes, 0, pduOf(record, bytes, i, t), t);
  const options = {
    trails: true,
    markers: true,
    ghosts: false,
    labels: true,
    selectedSlot: -1,
    // Labels are chosen a few times a second among the entities on screen; the bench's map shows none.
    labelInstances: [],
    onSelect: () => {},
  };
  const times: number[] = [],
    modelTimes: number[] = [],
    layerTimes: number[] = [];
  const warmup = Math.min(20, frames);
  let next = 0;
  for (let f = 0; f < warmup + frames; f++) {
    t += 1 / 60;
    for (let k = 0; k < Math.ceil(n / 100); k++, next = (next + 1) % n) {
      entities.applyPdu(bytes, 0, pduOf(record, bytes, next, t), t);
    }
    const start = performance.now();
    entities.expire(t);
    entities.frame(t, false, toleranceMeters);
    const modelDone = performance.now();
    const built = layers.layers(options, [], t);
    if (built !== null) {
      overlay.setProps({ layers: built });
      // deck.gl matches the new layers and updates their attributes (the typed arrays' upload) at its next render;
      // run that here, inside the timed work, so that the figure holds the layer attribute update too.
      deckLayerManager(overlay)?.updateLayers();
    }
    const end = performance.now();
    if (f >= warmup) {
      times.push(end - start);
      modelTimes.push(modelDone - start);
      layerTimes.push(end - modelDone);
    }
    await new Promise((r) => requestAnimationFrame(r));
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
    layersMedianMs: median(layerTimes),
    wasmKernel: entities.table.store.arena === null ? 0 : 1,
  };
};
