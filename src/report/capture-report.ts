/**
 * `reckon decode <capture> --report report.html`: a self-contained HTML report of a DIS capture — entity tracks
 * in metres east/north, one panel per place (src/report/track-panels.ts), PDUs per second by PDU type over time (as Wireshark's I/O graph), a
 * table per entity, the engagements (src/report/engagements.ts) and the rejected PDUs by status code. Markings come off the wire: they reach the page only
 * through `escapeHtml` (tables) or Vega's SVG text, which escapes them too.
 */
import { DR_ALGORITHM_NAMES } from '../dr/algorithm.js';
import { appearanceSummary } from '../names/appearance.js';
import { EnumerationUid, forceName, isListed, pduTypeName as sisoPduTypeName } from '../names/enumerations.js';
import { entityTypeName } from '../names/entity-type-names.js';
import { SISO_ATTRIBUTION, SISO_VERSION } from '../names/siso-data.generated.js';
import { entityKey } from '../pdu/entity-state-record.js';
import { CODEC_STATUS_MESSAGES, type CodecStatusName } from '../pdu/status.js';
import { summarizeDisCapture, type CaptureSummary } from '../pcap/capture-summary.js';
import { disCapturePdus, emptyTotals, type DisCaptureOptions } from '../pcap/dis-capture.js';
import type { Capture, CaptureFrame } from '../pcap/reader.js';
import { htmlTable, renderHtmlPage, type ReportSection } from './html.js';
import { eastNorthAxes } from './enu-axes.js';
import { EngagementLog } from './engagements.js';
import { renderVegaLite } from './vega.js';
import { PANEL_LINK_DISTANCE_M, type TrackPanel, trackPanels } from './track-panels.js';

/** Entities drawn on the track plot (those with the most PDUs); the table lists every one. */
export const MAX_TRACKED_ENTITIES = 20;
/** Points kept per entity track: the stride doubles whenever a track fills up. */
const MAX_TRACK_POINTS = 1500;
/** Bins of the PDU-rate chart at most; longer captures get wider bins. */
const MAX_BINS = 600;
/** Positions closer than this to the Earth's centre are not on it (an unset location): not drawn. */
const MIN_EARTH_RADIUS_M = 6.3e6;

/** What the report draws, gathered in one pass over the capture. */
export interface CaptureReportData {
  readonly summary: CaptureSummary;
  /** Per entity id: points in ECEF metres, and seconds since the capture's start. */
  readonly tracks: Map<string, CaptureTrack>;
  /** Seconds per bin, and per bin the PDUs of each type name (rejected ones as `rejected`). */
  readonly binSeconds: number;
  readonly bins: Array<Record<string, number>>;
  /** Entity State PDUs whose location is not on the Earth, not drawn. */
  offEarth: number;
  /** Shots and their detonations (src/report/engagements.ts). */
  readonly engagements: EngagementLog;
}

/** An entity's thinned track: ECEF metres and seconds since the capture's start. */
export interface CaptureTrack {
  readonly x: number[];
  readonly y: number[];
  readonly z: number[];
  readonly time: number[];
  stride: number;
  seen: number;
}

/** Gathers the report's data: the per-entity summary, and tracks and rates from a second pass. */
export function captureReportData(capture: Capture, options: DisCaptureOptions = {}): CaptureReportData {
  const pass = new CaptureReportPass(summarizeDisCapture(capture, options), options);
  pass.add(capture.frames);
  return pass.data;
}

/**
 * The report's second pass, for a capture read in pieces: made from the summary of the first pass, then `add` the
 * frames of each piece. Tracks are thinned and bins widened as they fill, so its memory is bounded per entity.
 */
export class CaptureReportPass {
  readonly data: CaptureReportData;
  private readonly start: number;
  private readonly ids = new Map<number, string>();
  private readonly totals = emptyTotals();

  constructor(
    summary: CaptureSummary,
    private readonly options: DisCaptureOptions = {},
  ) {
    this.start = summary.firstTimeSeconds;
    const span = Number.isFinite(summary.lastTimeSeconds - this.start) ? summary.lastTimeSeconds - this.start : 0;
    const binSeconds = Math.max(1, Math.ceil(span / MAX_BINS));
    const bins: Array<Record<string, number>> = Array.from({ length: Math.floor(span / binSeconds) + 1 }, () => ({}));
    this.data = { summary, tracks: new Map(), binSeconds, bins, offEarth: 0, engagements: new EngagementLog() };
  }

  add(frames: Iterable<CaptureFrame>): void {
    const { data, start, ids } = this;
    const { bins, binSeconds, tracks } = data;
    for (const event of disCapturePdus(frames, this.totals, this.options)) {
      const bin = bins[Math.min(bins.length - 1, Math.max(0, Math.floor((event.timeSeconds - start) / binSeconds)))]!;
      const name = pduTypeName(event.pduType, event.status);
      bin[name] = (bin[name] ?? 0) + 1;
      if (event.other) data.engagements.add(event.other, event.timeSeconds - start);
      const r = event.record;
      if (!r) continue;
      const [x, y, z] = [r.location[0]!, r.location[1]!, r.location[2]!];
      if (Math.hypot(x, y, z) < MIN_EARTH_RADIUS_M) {
        data.offEarth++;
        continue;
      }
      const key = entityKey(r.site, r.application, r.entity);
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = `${r.site}:${r.application}:${r.entity}`));
      let track = tracks.get(id);
      if (!track) tracks.set(id, (track = { x: [], y: [], z: [], time: [], stride: 1, seen: 0 }));
      if (track.seen++ % track.stride !== 0) continue;
      track.x.push(x);
      track.y.push(y);
      track.z.push(z);
      track.time.push(event.timeSeconds - start);
      if (track.x.length >= MAX_TRACK_POINTS) thin(track);
    }
  }
}

function pduTypeName(pduType: number, status: number): string {
  return status !== 0 ? 'rejected' : pduTypeLabel(pduType);
}

/** SISO-REF-010's name of a PDU type, or `type N` for one it does not list. */
function pduTypeLabel(pduType: number): string {
  return isListed(EnumerationUid.DIS_PDU_TYPE, pduType) ? sisoPduTypeName(pduType) : `type ${pduType}`;
}

/** Keeps every other point and doubles the stride: the track stays bounded and evenly thinned. */
function thin(track: CaptureTrack): void {
  for (const a of [track.x, track.y, track.z, track.time]) {
    let j = 0;
    for (let i = 0; i < a.length; i += 2) a[j++] = a[i]!;
    a.length = j;
  }
  track.stride *= 2;
}

/** The report page. `title` is shown as given (escaped), usually the capture's file name. */
export async function captureReportHtml(
  title: string,
  capture: Capture,
  options: DisCaptureOptions = {},
): Promise<string> {
  return captureReportPage(title, captureReportData(capture, options), capture);
}

/** The report page from its data (`CaptureReportPass`) and what the file was. */
export async function captureReportPage(
  title: string,
  data: CaptureReportData,
  capture: Pick<Capture, 'format' | 'truncated'>,
): Promise<string> {
  const { summary } = data;
  const { totals, entities } = summary;
  const span = summary.lastTimeSeconds - summary.firstTimeSeconds;
  const sections: ReportSection[] = [];
  const label = (id: string) => {
    const e = entities.find((x) => x.id === id);
    return e?.marking ? `${id} ${e.marking}` : id;
  };
  const drawn = [...data.tracks.keys()]
    .sort((a, b) => (entities.find((e) => e.id === b)?.pdus ?? 0) - (entities.find((e) => e.id === a)?.pdus ?? 0))
    .slice(0, MAX_TRACKED_ENTITIES);
  const panels = trackPanels(data.tracks, drawn);
  for (const panel of panels) {
    const place = placeName(panel);
    const overlapNotes = panel.overlaps.map(
      (group) =>
        ` ${group.length} entities at the same place (${group.map(label).join(', ')}): dashed, with their own marks.`,
    );
    sections.push({
      title: panels.length > 1 ? `Entity tracks near ${place}` : 'Entity tracks',
      caption:
        `Reported positions in metres east and north of ${place} (a local tangent plane on WGS-84); ` +
        'a mark at each track’s start.' +
        (panels.length > 1
          ? ` Entities more than ${PANEL_LINK_DISTANCE_M / 1000} km from the others are drawn in their own panel; ` +
            `this one: ${panel.ids.map(label).join(', ')}.`
          : '') +
        overlapNotes.join('') +
        (data.tracks.size > drawn.length
          ? ` The ${drawn.length} entities with the most PDUs of ${data.tracks.size}.`
          : '') +
        (data.offEarth > 0 ? ` ${data.offEarth} PDUs with a location off the Earth (unset) are not drawn.` : ''),
      html: await renderVegaLite(trackSpec(data, panel, label)),
    });
  }
  if (data.bins.length > 0 && totals.pdus + Object.values(totals.rejected).reduce((a, b) => a + b, 0) > 0) {
    sections.push({
      title: 'PDUs per second by type',
      caption:
        `Counted in ${data.binSeconds} s bins from the first frame` +
        (data.binSeconds > 1 ? ', divided by the bin width.' : '.'),
      html: await renderVegaLite(rateSpec(data)),
    });
  }
  const engagements = await data.engagements.section(label);
  if (engagements) sections.push(engagements);
  const header = [
    'entity',
    'marking',
    'type',
    'name',
    'force',
    'DIS',
    'PDUs',
    'PDUs/s',
    'DR algorithm',
    'first seen (s)',
    'last seen (s)',
    'appearance',
  ];
  const rows = entities.map((e) => {
    const seconds = e.lastTimeSeconds - e.firstTimeSeconds;
    const type = e.entityType ? e.entityType.split(':').map(Number) : undefined;
    const names = type && entityTypeName(type);
    return [
      e.id,
      e.marking || '-',
      e.entityType || '-',
      names ? names.label : '-',
      forceName(e.forceId),
      `v${e.protocolVersion}`,
      e.pdus,
      e.pdus > 1 && seconds > 0 ? (e.pdus - 1) / seconds : null,
      `${e.drAlgorithm} ${DR_ALGORITHM_NAMES[e.drAlgorithm] ?? '?'}`,
      e.firstTimeSeconds - summary.firstTimeSeconds,
      e.lastTimeSeconds - summary.firstTimeSeconds,
      (type && appearanceSummary(type, e.appearance)) || '-',
    ];
  });
  sections.push({
    title: 'Entities',
    caption:
      'From Entity State (and Entity State Update) PDUs; type, force and DR algorithm from the last full ' +
      'Entity State PDU, appearance (the fields set) from the last PDU; times from the first frame. Names: ' +
      `${SISO_VERSION}. ${SISO_ATTRIBUTION}`,
    html: entities.length > 0 ? htmlTable(header, rows) : '<p>No Entity State PDUs.</p>',
  });
  const rejected = Object.entries(totals.rejected).sort((a, b) => b[1] - a[1]);
  const skipped = Object.entries(totals.skipped);
  sections.push({
    title: 'Rejected and skipped',
    caption: 'PDUs the decoder refused, by status code, and frames without a readable UDP datagram, by reason.',
    html:
      rejected.length + skipped.length === 0
        ? '<p>None: every DIS PDU decoded.</p>'
        : htmlTable(
            ['what', 'code', 'count', 'meaning'],
            [
              ...rejected.map(([code, n]) => [
                'rejected PDU',
                code,
                n,
                CODEC_STATUS_MESSAGES[code as CodecStatusName] ?? '',
              ]),
              ...skipped.map(([reason, n]) => ['skipped frame', reason, n ?? 0, '']),
            ],
          ),
  });
  const byType = Object.entries(totals.pdusByType)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([type, n]) => `${n} ${pduTypeLabel(Number(type))}`);
  const summaryText =
    `${capture.format}, ${totals.frames} frames` +
    (Number.isFinite(span)
      ? `, ${span.toFixed(1)} s from ${new Date(summary.firstTimeSeconds * 1000).toISOString()}`
      : '') +
    `; ${totals.disDatagrams} DIS datagrams, ${totals.pdus} PDUs (${byType.join(', ') || 'none'}); ` +
    `${entities.length} ${entities.length === 1 ? 'entity' : 'entities'}` +
    (capture.truncated ? '; the file ends mid-frame' : '') +
    '.';
  return renderHtmlPage({ title, kind: 'capture', summary: summaryText, sections });
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

function trackSpec(data: CaptureReportData, panel: TrackPanel, label: (id: string) => string): Record<string, unknown> {
  const { ids } = panel;
  const points = ids.flatMap((id) => {
    const t = panel.tracks.get(id)!;
    const time = data.tracks.get(id)!.time;
    return t.east.map((e, i) => ({
      entity: label(id),
      e: Math.round(e * 10) / 10,
      n: Math.round(t.north[i]! * 10) / 10,
      t: Math.round(time[i]! * 100) / 100,
    }));
  });
  const starts = ids.map((id) => {
    const t = panel.tracks.get(id)!;
    return { entity: label(id), e: t.east[0]!, n: t.north[0]!, t: data.tracks.get(id)!.time[0]! };
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
  };
  const shape = {
    field: 'entity',
    type: 'nominal',
    title: 'entity',
    scale: { domain: ids.map(label), range: ids.map((id) => START_SHAPES[(rank.get(id) ?? 0) % START_SHAPES.length]) },
  };
  const all = points.length > 0 ? points : starts;
  // Equal metres per pixel on both axes.
  const { x, y } = eastNorthAxes(all, 10, 1.08);
  const domain = ids.map(label);
  const colour = {
    field: 'entity',
    type: 'nominal',
    title: 'entity',
    scale: { domain, range: entityColours(domain.length) },
    legend: { labelLimit: 260 },
  };
  return {
    width: 600,
    height: 600,
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', strokeWidth: 2, interpolate: 'linear' },
        encoding: { x, y, color: colour, strokeDash: dash, order: { field: 't' }, detail: { field: 'entity' } },
      },
      {
        data: { values: starts },
        mark: { type: 'point', filled: false, size: 70, strokeWidth: 2 },
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

/** The PDU-rate chart; its y axis from zero to a little above the highest rate, so no line runs along the border. */
export function rateSpec(data: CaptureReportData): Record<string, unknown> {
  const types = [...new Set(data.bins.flatMap((b) => Object.keys(b)))].sort((a, b) =>
    a === 'rejected' ? 1 : b === 'rejected' ? -1 : a.localeCompare(b),
  );
  // A step line holds each bin's value to the next point: the last bin gets a closing point at its end.
  const closed = [...data.bins, data.bins[data.bins.length - 1]!];
  const values = closed.flatMap((bin, i) =>
    types.map((type) => ({ t: i * data.binSeconds, type, rate: (bin[type] ?? 0) / data.binSeconds })),
  );
  let top = 0;
  for (const v of values) top = Math.max(top, v.rate);
  const pad = Math.max(top, 1 / data.binSeconds) * 0.08;
  const colours = entityColours(types.length).map((c, i) => (types[i] === 'rejected' ? '#111111' : c));
  return {
    width: 860,
    height: 240,
    data: { values },
    mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.4 },
    encoding: {
      x: { field: 't', type: 'quantitative', title: 'time since the first frame (s)', axis: { format: ',.4~r' } },
      y: {
        field: 'rate',
        type: 'quantitative',
        title: 'PDUs per second',
        scale: { domain: [-pad, top + pad], nice: false, zero: false },
        axis: { format: ',.3~g' },
      },
      color: {
        field: 'type',
        type: 'nominal',
        title: 'PDU type',
        scale: { domain: types, range: colours },
        legend: { orient: 'top' },
      },
    },
  };
}

function entityColours(n: number): string[] {
  const base = [
    '#4e79a7',
    '#e15759',
    '#59a14f',
    '#f28e2b',
    '#b07aa1',
    '#76b7b2',
    '#edc948',
    '#ff9da7',
    '#9c755f',
    '#bab0ac',
  ];
  if (n <= base.length) return base.slice(0, n);
  return Array.from({ length: n }, (_, i) =>
    i < base.length ? base[i]! : `hsl(${((i * 137.508) % 360).toFixed(1)},60%,45%)`,
  );
}
