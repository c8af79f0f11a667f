/**
 * The capture report's track panels: entities far apart (a capture with sites on several continents) are grouped
 * by single-linkage clustering of their tracks and each group is drawn on its own local east/north plane, so one
 * flat plane across thousands of kilometres does not bend the map; tracks that coincide are found so the page can
 * say so and draw them apart.
 */
import { ecefToEnuMatrix, ecefToGeodeticDegrees, geodeticDegreesToEcef } from '../math/geodesy.js';

/** Tracks whose nearest points are further apart than this go into separate panels. */
export const PANEL_LINK_DISTANCE_M = 200_000;
/** Points of a track compared when clustering: its first, last and evenly spaced ones in between. */
const LINK_SAMPLES = 16;
/** Tracks coincide when this share of one's points lie within a few pixels of the other's. */
const OVERLAP_SHARE = 0.9;
/** A few pixels of a 600-pixel panel, in parts of the panel's side; at least `MIN_OVERLAP_M`. */
const OVERLAP_CELL_SHARE = 3 / 600;
const MIN_OVERLAP_M = 1;

/** An entity's positions, ECEF metres, in time order. */
export interface EcefTrack {
  readonly x: readonly number[];
  readonly y: readonly number[];
  readonly z: readonly number[];
}

/** One panel: its entities, the plane's origin (geodetic degrees, on the ellipsoid) and their east/north points. */
export interface TrackPanel {
  readonly ids: string[];
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Per entity, metres east and north of the origin on the plane tangent to WGS-84 there. */
  readonly tracks: Map<string, { east: number[]; north: number[] }>;
  /** Groups of entities (in `ids` order) whose tracks lie on top of each other. */
  readonly overlaps: string[][];
}

/** Groups `ids` (in order; each one's track in `tracks`) into panels, in the order of each panel's first entity. */
export function trackPanels(
  tracks: ReadonlyMap<string, EcefTrack>,
  ids: readonly string[],
  linkDistanceM = PANEL_LINK_DISTANCE_M,
): TrackPanel[] {
  const samples = ids.map((id) => sample(tracks.get(id)!));
  const group = unionFind(ids.length, (i, j) => nearest(samples[i]!, samples[j]!) <= linkDistanceM);
  const members = new Map<number, number[]>();
  ids.forEach((_, i) => {
    const root = group(i);
    members.set(root, [...(members.get(root) ?? []), i]);
  });
  return [...members.values()].map((indices) =>
    panel(
      tracks,
      indices.map((i) => ids[i]!),
    ),
  );
}

function panel(tracks: ReadonlyMap<string, EcefTrack>, ids: string[]): TrackPanel {
  // The origin: the mean of the first fixes, brought down to the ellipsoid.
  const mean = [0, 0, 0];
  for (const id of ids) {
    const t = tracks.get(id)!;
    mean[0]! += t.x[0]! / ids.length;
    mean[1]! += t.y[0]! / ids.length;
    mean[2]! += t.z[0]! / ids.length;
  }
  const geo = ecefToGeodeticDegrees(new Float64Array(3), mean[0]!, mean[1]!, mean[2]!);
  const [latitudeDeg, longitudeDeg] = [geo[0]!, geo[1]!];
  const origin = geodeticDegreesToEcef(new Float64Array(3), latitudeDeg, longitudeDeg, 0);
  const m = ecefToEnuMatrix(new Float64Array(9), (latitudeDeg * Math.PI) / 180, (longitudeDeg * Math.PI) / 180);
  const planar = new Map<string, { east: number[]; north: number[] }>();
  for (const id of ids) {
    const t = tracks.get(id)!;
    const east: number[] = [];
    const north: number[] = [];
    for (let i = 0; i < t.x.length; i++) {
      const dx = t.x[i]! - origin[0]!;
      const dy = t.y[i]! - origin[1]!;
      const dz = t.z[i]! - origin[2]!;
      east.push(m[0]! * dx + m[1]! * dy + m[2]! * dz);
      north.push(m[3]! * dx + m[4]! * dy + m[5]! * dz);
    }
    planar.set(id, { east, north });
  }
  return { ids, latitudeDeg, longitudeDeg, tracks: planar, overlaps: overlaps(ids, planar) };
}

/** Groups of tracks on top of each other: most of one's points within a few pixels of the other's. */
function overlaps(
  ids: readonly string[],
  planar: ReadonlyMap<string, { east: number[]; north: number[] }>,
): string[][] {
  if (ids.length < 2) return [];
  let e0 = Number.POSITIVE_INFINITY;
  let e1 = Number.NEGATIVE_INFINITY;
  let n0 = Number.POSITIVE_INFINITY;
  let n1 = Number.NEGATIVE_INFINITY;
  for (const t of planar.values())
    for (let i = 0; i < t.east.length; i++) {
      e0 = Math.min(e0, t.east[i]!);
      e1 = Math.max(e1, t.east[i]!);
      n0 = Math.min(n0, t.north[i]!);
      n1 = Math.max(n1, t.north[i]!);
    }
  const cell = Math.max(MIN_OVERLAP_M, Math.max(e1 - e0, n1 - n0) * OVERLAP_CELL_SHARE);
  const cells = ids.map((id) => {
    const t = planar.get(id)!;
    return new Set(t.east.map((e, i) => `${Math.floor(e / cell)},${Math.floor(t.north[i]! / cell)}`));
  });
  // B is hidden by A when nearly every cell of B is in or next to a cell of A.
  const covered = (b: Set<string>, a: Set<string>) => {
    let inside = 0;
    for (const key of b) {
      const [i, j] = key.split(',').map(Number) as [number, number];
      let near = false;
      for (let di = -1; di <= 1 && !near; di++)
        for (let dj = -1; dj <= 1 && !near; dj++) near = a.has(`${i + di},${j + dj}`);
      if (near) inside++;
    }
    return inside >= OVERLAP_SHARE * b.size;
  };
  const group = unionFind(ids.length, (i, j) => covered(cells[i]!, cells[j]!) || covered(cells[j]!, cells[i]!));
  const members = new Map<number, string[]>();
  ids.forEach((id, i) => {
    const root = group(i);
    members.set(root, [...(members.get(root) ?? []), id]);
  });
  return [...members.values()].filter((g) => g.length > 1);
}

/** Up to `LINK_SAMPLES` points of a track, first and last included. */
function sample(t: EcefTrack): Array<[number, number, number]> {
  const n = t.x.length;
  const k = Math.min(n, LINK_SAMPLES);
  const out: Array<[number, number, number]> = [];
  for (let s = 0; s < k; s++) {
    const i = k === 1 ? 0 : Math.round((s * (n - 1)) / (k - 1));
    out.push([t.x[i]!, t.y[i]!, t.z[i]!]);
  }
  return out;
}

/** The straight-line distance between the nearest sampled points of two tracks, metres. */
function nearest(a: ReadonlyArray<[number, number, number]>, b: ReadonlyArray<[number, number, number]>): number {
  let best = Number.POSITIVE_INFINITY;
  for (const p of a) for (const q of b) best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
  return best;
}

/** Single linkage: joins every pair `linked` says are close; returns each item's group representative. */
function unionFind(n: number, linked: (i: number, j: number) => boolean): (i: number) => number {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if (find(i) === find(j)) continue;
      if (linked(i, j)) parent[Math.max(find(i), find(j))] = Math.min(find(i), find(j));
    }
  return find;
}
