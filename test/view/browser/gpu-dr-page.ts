// The GPU's dead reckoning read back in Chromium, for test/view/page-gpu-dr.test.ts: entities of every DR model, at
// several latitudes, heights and across the antimeridian, loaded into the page's own table, packed and scattered
// into the GPU state as the page does, evaluated by the DR pass and read back from its buffer; each compared with
// the table's own float64 evaluation (`renderSlot`, the same DR and smoothing the page shows on the CPU).
import { luma } from '@luma.gl/core';
import { webgl2Adapter } from '@luma.gl/webgl';
import { EntityStateRecord } from '../../../src/pdu/wire/entity-state-record.js';
import { RemoteEntityTable } from '../../../src/dr/receiver/remote-entity-table.js';
import { SMOOTHING_METHODS, type SmoothingMethodName } from '../../../src/dr/receiver/position-smoothing.js';
import { APPEARANCE_FROZEN } from '../../../src/dr/models/algorithm.js';
import { ecefToGeodetic, geodeticDegreesToEcef, WGS84_A, WGS84_E2 } from '../../../src/math/geodesy.js';
import { GpuState } from '../../../src/view/page/gpu/gpu-state.js';
import { GpuStaging } from '../../../src/view/page/gpu/gpu-staging.js';
import type { CaseEntity, CaseResult } from '../support/gpu-dr-cases.js';

const DEG = Math.PI / 180;

declare global {
  interface Window {
    __gpuDr: (entities: CaseEntity[], method: SmoothingMethodName, atSeconds: number[]) => Promise<CaseResult[]>;
    __gpuDrReady: boolean;
  }
}

const canvas = document.createElement('canvas');
canvas.width = canvas.height = 4;
document.body.append(canvas);
const devicePromise = luma.createDevice({ type: 'webgl', adapters: [webgl2Adapter], createCanvasContext: { canvas } });
void devicePromise.then(() => (window.__gpuDrReady = true));

/** ENU (at lat, lon) → ECEF. */
function enuToEcef(out: Float64Array, o: number, latDeg: number, lonDeg: number, v: readonly number[]): void {
  const sl = Math.sin(latDeg * DEG),
    cl = Math.cos(latDeg * DEG),
    so = Math.sin(lonDeg * DEG),
    co = Math.cos(lonDeg * DEG);
  const [e, n, u] = v as [number, number, number];
  out[o] = -so * e - sl * co * n + cl * co * u;
  out[o + 1] = co * e - sl * so * n + cl * so * u;
  out[o + 2] = cl * n + sl * u;
}

const T0 = 1_800_000_000.25;
const TIME_BASE = 1_799_999_000;

window.__gpuDr = async (entities, method, atSeconds) => {
  const device = await devicePromise;
  const table = new RemoteEntityTable({
    capacity: 64,
    smoothing: { method, durationSeconds: 2 },
    orderByTimestamp: false,
  });
  const record = new EntityStateRecord();
  const body = (a: number) => a >= 6;
  const load = (i: number, c: CaseEntity, tSeconds: number, northOffsetMeters: number) => {
    record.site = 1;
    record.application = 1;
    record.entity = i + 1;
    record.pduType = 1;
    record.entityType.set([1, 1, 225, 1, 0, 0, 0]);
    record.forceId = 1;
    record.drAlgorithm = c.algorithm;
    record.appearance = c.frozen ? APPEARANCE_FROZEN : 0;
    geodeticDegreesToEcef(record.location, c.latDeg, c.lonDeg, c.altM);
    if (body(c.algorithm)) {
      record.linearVelocity.set(c.velocity);
      record.linearAcceleration.set(c.acceleration);
    } else {
      enuToEcef(record.linearVelocity, 0, c.latDeg, c.lonDeg, c.velocity);
      enuToEcef(record.linearAcceleration, 0, c.latDeg, c.lonDeg, c.acceleration);
    }
    record.orientation.set(c.orientation);
    record.angularVelocity.set(c.angularVelocity);
    if (northOffsetMeters !== 0) {
      // Where the first PDU's model has the entity now, moved north.
      const slot = table.slotOf(entityKey(i + 1));
      const p = new Float64Array(3),
        m = new Float64Array(9);
      table.renderSlot(slot, tSeconds, p, m);
      const g = ecefToGeodetic(new Float64Array(3), p[0]!, p[1]!, p[2]!);
      geodeticDegreesToEcef(record.location, g[0]! / DEG + northOffsetMeters / 111_000, g[1]! / DEG, g[2]!);
    }
    table.apply(record, tSeconds);
  };
  const entityKey = (entity: number) => 1 * 0x1_0000_0000 + 1 * 0x1_0000 + entity;
  entities.forEach((c, i) => load(i, c, T0, 0));
  // Corrections and holds, in time order of their own.
  entities.forEach((c, i) => {
    if (c.correctAfterSeconds !== undefined) load(i, c, T0 + c.correctAfterSeconds, c.correctionMeters ?? 0);
  });
  entities.forEach((c, i) => {
    if (c.holdAfterSeconds !== undefined) table.freeze(table.slotOf(entityKey(i + 1)), T0 + c.holdAfterSeconds);
  });
  table.resolve();

  const staging = new GpuStaging(table.capacity, 64);
  const gpu = new GpuState(device, table.capacity, 64);
  staging.markAll(table.highWater);
  staging.pack(table, TIME_BASE, () => 0);
  gpu.upload(staging);

  const results: CaseResult[] = entities.map((c) => ({
    name: c.name,
    errorsMeters: [],
    headingErrorsDeg: [],
    gpuLonLat: [],
  }));
  const p = new Float64Array(3),
    m = new Float64Array(9),
    g = new Float64Array(3);
  for (const after of atSeconds) {
    const t = T0 + after;
    const relative = t - TIME_BASE;
    const hi = Math.fround(relative);
    const drawn = gpu.extrapolate(table.highWater, gpu.uniforms(hi, relative - hi, SMOOTHING_METHODS[method], 2, 0));
    entities.forEach((_, i) => {
      const slot = table.slotOf(entityKey(i + 1));
      table.renderSlot(slot, t, p, m);
      ecefToGeodetic(g, p[0]!, p[1]!, p[2]!);
      const lat = g[0]!,
        lon = g[1]!,
        h = g[2]!;
      const o = 8 * slot;
      const gpuLon = drawn[o]! + drawn[o + 2]!,
        gpuLat = drawn[o + 1]! + drawn[o + 3]!;
      const sinLat = Math.sin(lat);
      const n = WGS84_A / Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
      const mRadius = (n * (1 - WGS84_E2)) / (1 - WGS84_E2 * sinLat * sinLat);
      let dLon = gpuLon - lon / DEG;
      dLon -= 360 * Math.round(dLon / 360);
      const north = (gpuLat - lat / DEG) * DEG * (mRadius + h),
        east = dLon * DEG * (n + h) * Math.cos(lat);
      // Compared from the entity's last PDU on: the page never draws the time before it.
      const since = entities[i]!.correctAfterSeconds ?? 0;
      if (after >= since) results[i]!.errorsMeters.push(Math.hypot(north, east));
      // Table heading: body x (row 0 of R_wb) against North and East at the entity.
      const sl = Math.sin(lat),
        cl = Math.cos(lat),
        so = Math.sin(lon),
        co = Math.cos(lon);
      const bx = m[0]!,
        by = m[1]!,
        bz = m[2]!;
      const e = -so * bx + co * by;
      const nn = -sl * co * bx - sl * so * by + cl * bz;
      const heading = Math.atan2(e, nn) / DEG;
      let dh = drawn[o + 4]! - heading;
      dh -= 360 * Math.round(dh / 360);
      if (after >= since) results[i]!.headingErrorsDeg.push(dh);
      results[i]!.gpuLonLat.push([gpuLon, gpuLat]);
    });
  }
  gpu.destroy();
  return results;
};
