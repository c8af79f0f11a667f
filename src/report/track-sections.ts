/**
 * The capture report's entity tracks: one section per place (src/report/track-panels.ts) with the tracks in metres
 * east and north on that place's local tangent plane. Places where nothing moves more than a few metres
 * (an entity seen once, a parked vehicle) are drawn small, side by side in one section, instead of each filling a
 * large, mostly empty panel.
 */
import { entityColours } from './colours.js';
import { eastNorthAxes } from './enu-axes.js';
import { escapeHtml, type ReportSection } from './html.js';
import { PANEL_LINK_DISTANCE_M, type TrackPanel, trackPanels } from './track-panels.js';
import { renderVegaLite } from './vega.js';

/** An entity's thinned track: ECEF metres and seconds since the capture's start. */
export interface CaptureTrack {
  readonly x: number[];
  readonly y: number[];
  readonly z: number[];
  readonly time: number[];
  stride: number;
  seen: number;
}

/** A place whose points all lie within this many metres (east and north) is drawn small. */
export const COMPACT_EXTENT_M = 10;
/** The side of a small panel's plot, pixels. */
const COMPACT_SIDE_PX = 120;

/** What the track sections draw. */
export interface TrackSectionInput {
  /** Every entity's track, by id. */
  readonly tracks: ReadonlyMap<string, CaptureTrack>;
  /** The ids drawn, in order (those with the most PDUs). */
  readonly drawn: readonly string[];
  /** Entity State PDUs whose location is not on the Earth, not drawn. */
  readonly offEarth: number;
  /** An entity's id with its marking. */
  readonly label: (id: string) => string;
  /** Awaited between charts: yields to the event loop, and throws once the run is to stop. */
  readonly checkpoint: () => Promise<void>;
}

/** The sections of the tracks: a large panel per place where entities move, one section of small ones for the rest. */
export async function trackSections(input: TrackSectionInput): Promise<ReportSection[]> {
  const { tracks, drawn, label } = input;
  const panels = trackPanels(tracks, drawn);
  const moving = panels.filter((p) => !isCompact(p));
  const still = panels.filter(isCompact);
  const several = panels.length > 1;
  const notes =
    (tracks.size > drawn.length ? ` The ${drawn.length} entities with the most PDUs of ${tracks.size}.` : '') +
    (input.offEarth > 0 ? ` ${input.offEarth} PDUs with a location off the Earth (unset) are not drawn.` : '');
  const sections: ReportSection[] = [];
  for (const panel of moving) {
    await input.checkpoint();
    const place = placeName(panel);
    const overlapNotes = panel.overlaps.map(
      (group) =>
        ` ${group.length} entities at the same place (${group.map(label).join(', ')}): dashed, with their own marks.`,
    );
    sections.push({
      title: several ? `Entity tracks near ${place}` : 'Entity tracks',
      caption:
        `Reported positions in metres east and north of ${place} (a local tangent plane on WGS-84); ` +
        'a mark at each track’s start.' +
        (several
          ? ` Entities more than ${PANEL_LINK_DISTANCE_M / 1000} km from the others are drawn in their own panel; ` +
            `this one: ${panel.ids.map(label).join(', ')}.`
          : '') +
        overlapNotes.join('') +
        notes,
      html: await renderVegaLite(trackSpec(tracks, panel, label, false)),
    });
  }
  if (still.length > 0) {
    const figures: string[] = [];
    for (const panel of still) {
      await input.checkpoint();
      const svg = await renderVegaLite(trackSpec(tracks, panel, label, true));
      const who = panel.ids.map(label).join(', ');
      figures.push(`<figure>${svg}<figcaption>${escapeHtml(`${placeName(panel)}: ${who}`)}</figcaption></figure>`);
    }
    sections.push({
      title: moving.length > 0 ? 'Entities that stay in one place' : 'Entity positions',
      caption:
        `Entities whose reported positions stay within ${COMPACT_EXTENT_M} m, one small panel per place ` +
        `(${still.length === 1 ? 'metres' : `${still.length} places, each in metres`} east and north of it, a mark ` +
        'at each entity’s first position).' +
        (moving.length > 0 ? '' : notes),
      html: `<div class="panels">${figures.join('')}</div>`,
    });
  }
  return sections;
}

/** True when every point of the panel lies within `COMPACT_EXTENT_M` east and north. */
function isCompact(panel: TrackPanel): boolean {
  let e0 = Number.POSITIVE_INFINITY;
  let e1 = Number.NEGATIVE_INFINITY;
  let n0 = Number.POSITIVE_INFINITY;
  let n1 = Number.NEGATIVE_INFINITY;
  for (const t of panel.tracks.values()) {
    for (let i = 0; i < t.east.length; i++) {
      if (t.east[i]! < e0) e0 = t.east[i]!;
      if (t.east[i]! > e1) e1 = t.east[i]!;
      if (t.north[i]! < n0) n0 = t.north[i]!;
      if (t.north[i]! > n1) n1 = t.north[i]!;
    }
  }
  return e1 - e0 <= COMPACT_EXTENT_M && n1 - n0 <= COMPACT_EXTENT_M;
}

/** A panel's place: its origin in degrees, e.g. `55.68° N 12.57° E`. */
function placeName(panel: TrackPanel): string {
  const lat = `${Math.abs(panel.latitudeDeg).toFixed(2)}° ${panel.latitudeDeg < 0 ? 'S' : 'N'}`;
  return `${lat} ${Math.abs(panel.longitudeDeg).toFixed(2)}° ${panel.longitudeDeg < 0 ? 'W' : 'E'}`;
}

/** Dash patterns for tracks that lie on top of each other, so each one shows through the others. */
const OVERLAP_DASHES = [
  [1, 0],
  [8, 4],
  [2, 3],
  [12, 3, 2, 3],
  [4, 6],
  [1, 5],
];
/** Start marks, different for each entity of a group on the same place. */
const START_SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down'];

/**
 * The Vega-Lite spec of one panel: each track as a line in metres east and north, a mark at its start. Compact: a
 * small chart of the marks alone, without a legend (its caption names the entities).
 */
function trackSpec(
  tracks: ReadonlyMap<string, CaptureTrack>,
  panel: TrackPanel,
  label: (id: string) => string,
  compact: boolean,
): Record<string, unknown> {
  const { ids } = panel;
  const points = ids.flatMap((id) => {
    const t = panel.tracks.get(id)!;
    const time = tracks.get(id)!.time;
    return t.east.map((e, i) => ({
      entity: label(id),
      e: Math.round(e * 10) / 10,
      n: Math.round(t.north[i]! * 10) / 10,
      t: Math.round(time[i]! * 100) / 100,
    }));
  });
  const starts = ids.map((id) => {
    const t = panel.tracks.get(id)!;
    return { entity: label(id), e: t.east[0]!, n: t.north[0]!, t: tracks.get(id)!.time[0]! };
  });
  // Within each group on the same place, the k-th entity gets the k-th dash and mark.
  const rank = new Map<string, number>();
  for (const group of panel.overlaps) group.forEach((id, k) => rank.set(id, k));
  const dash = {
    field: 'entity',
    type: 'nominal',
    title: 'entity',
    scale: {
      domain: ids.map(label),
      range: ids.map((id) => OVERLAP_DASHES[(rank.get(id) ?? 0) % OVERLAP_DASHES.length]),
    },
    ...(compact ? { legend: null } : {}),
  };
  const shape = {
    field: 'entity',
    type: 'nominal',
    title: 'entity',
    scale: { domain: ids.map(label), range: ids.map((id) => START_SHAPES[(rank.get(id) ?? 0) % START_SHAPES.length]) },
    ...(compact ? { legend: null } : {}),
  };
  const all = points.length > 0 ? points : starts;
  // Equal metres per pixel on both axes.
  const axes = eastNorthAxes(all, 10, 1.08);
  // A small panel's caption says the axes are metres east and north; its plot keeps the room.
  const { x, y } = compact ? { x: { ...axes.x, title: null }, y: { ...axes.y, title: null } } : axes;
  const domain = ids.map(label);
  const colour = {
    field: 'entity',
    type: 'nominal',
    title: 'entity',
    scale: { domain, range: entityColours(domain.length) },
    legend: compact ? null : { labelLimit: 260 },
  };
  const side = compact ? COMPACT_SIDE_PX : 600;
  return {
    width: side,
    height: side,
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', strokeWidth: 2, interpolate: 'linear' },
        encoding: { x, y, color: colour, strokeDash: dash, order: { field: 't' }, detail: { field: 'entity' } },
      },
      {
        data: { values: starts },
        mark: { type: 'point', filled: false, size: compact ? 40 : 70, strokeWidth: 2 },
        encoding: {
          x,
          y,
          color: colour,
          shape,
          tooltip: [{ field: 'entity' }, { field: 't', title: 'first seen (s)', format: ',.3~g' }],
        },
      },
    ],
  };
}
