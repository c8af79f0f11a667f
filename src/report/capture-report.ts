/**
 * `reckon decode <capture> --report report.html`: a self-contained HTML report of a DIS capture — entity tracks in
 * metres east/north, one panel per place (src/report/track-sections.ts), PDUs per second by PDU type over time (as
 * Wireshark's I/O graph), the engagements (src/report/engagements.ts), the radios (src/report/radios.ts), a table
 * per entity (src/report/entity-table.ts) and the rejected PDUs by status code: the story the text summary and the
 * NDJSON tell. Markings come off the wire: they reach the page only through `escapeHtml` (tables) or Vega's SVG
 * text, which escapes them too. Every part is bounded, and built in time linear in the capture.
 */
import { EnumerationUid, isListed, pduTypeName as sisoPduTypeName } from '../names/enumerations.js';
import { entityKey } from '../pdu/wire/entity-state-record.js';
import { CODEC_STATUS_MESSAGES, type CodecStatusName } from '../pdu/wire/status.js';
import { summarizeDisCapture, type CaptureSummary } from '../pcap/capture-summary.js';
import { disCapturePdus, emptyTotals, type DisCaptureOptions } from '../pcap/dis-capture.js';
import type { Capture, CaptureFrame } from '../pcap/reader.js';
import { entityColours } from './colours.js';
import { engagementSection } from './engagements.js';
import { entitySection } from './entity-table.js';
import { htmlTable, renderHtmlPage, type ReportSection } from './html.js';
import { radioSection } from './radios.js';
import { type CaptureTrack, trackSections } from './track-sections.js';
import { renderVegaLite } from './vega.js';

export type { CaptureTrack } from './track-sections.js';

/** Entities drawn on the track plot (those with the most PDUs); the table lists the first 2,000 seen. */
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
    this.data = { summary, tracks: new Map(), binSeconds, bins, offEarth: 0 };
  }

  add(frames: Iterable<CaptureFrame>): void {
    const { data, start, ids } = this;
    const { bins, binSeconds, tracks } = data;
    for (const event of disCapturePdus(frames, this.totals, this.options)) {
      const bin = bins[Math.min(bins.length - 1, Math.max(0, Math.floor((event.timeSeconds - start) / binSeconds)))]!;
      const name = pduTypeName(event.pduType, event.status);
      bin[name] = (bin[name] ?? 0) + 1;
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

/**
 * The report page from its data (`CaptureReportPass`) and what the file was.
 * @param signal - when it aborts, the page is given up between two of its parts: the promise rejects with the
 *   signal's reason within a chart's time.
 */
export async function captureReportPage(
  title: string,
  data: CaptureReportData,
  capture: Pick<Capture, 'format' | 'truncated'>,
  signal?: AbortSignal,
): Promise<string> {
  const { summary } = data;
  const { totals, entities } = summary;
  const span = summary.lastTimeSeconds - summary.firstTimeSeconds;
  // Yields to the event loop, so a Ctrl-C is heard, and stops once it was.
  const checkpoint = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  };
  const byId = new Map(entities.map((e) => [e.id, e]));
  const label = (id: string) => {
    const marking = byId.get(id)?.marking;
    return marking ? `${id} ${marking}` : id;
  };
  const pdus = (id: string) => byId.get(id)?.pdus ?? 0;
  const drawn = [...data.tracks.keys()].sort((a, b) => pdus(b) - pdus(a)).slice(0, MAX_TRACKED_ENTITIES);
  const sections: ReportSection[] = await trackSections({
    tracks: data.tracks,
    drawn,
    offEarth: data.offEarth,
    label,
    checkpoint,
  });
  await checkpoint();
  if (data.bins.length > 0 && totals.pdus + Object.values(totals.rejected).reduce((a, b) => a + b, 0) > 0) {
    sections.push({
      title: 'PDUs per second by type',
      caption:
        `Counted in ${data.binSeconds} s bins from the first frame` +
        (data.binSeconds > 1 ? ', divided by the bin width.' : '.'),
      html: await renderVegaLite(rateSpec(data)),
    });
  }
  await checkpoint();
  // Entities, engagements, radios: in the order the text summary tells them.
  sections.push(entitySection(summary));
  await checkpoint();
  const engagements = await engagementSection(summary.engagements, summary.firstTimeSeconds, label);
  if (engagements) sections.push(engagements);
  await checkpoint();
  const radios = radioSection(summary.radios, summary.firstTimeSeconds, label);
  if (radios) sections.push(radios);
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
            undefined,
            { wrap: [3], cards: true },
          ),
  });
  const byType = Object.entries(totals.pdusByType)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([type, n]) => `${n} ${pduTypeLabel(Number(type))}`);
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const shots = summary.engagements.rows.length + summary.engagements.dropped;
  const summaryText =
    `${capture.format}, ${totals.frames} frames` +
    (Number.isFinite(span)
      ? `, ${span.toFixed(1)} s from ${new Date(summary.firstTimeSeconds * 1000).toISOString()}`
      : '') +
    `; ${totals.disDatagrams} DIS datagrams, ${totals.pdus} PDUs (${byType.join(', ') || 'none'}); ` +
    count(entities.length, 'entity', 'entities') +
    (shots > 0 ? `, ${count(shots, 'engagement', 'engagements')}` : '') +
    (summary.radios.length > 0 ? `, ${count(summary.radios.length, 'radio', 'radios')}` : '') +
    (capture.truncated ? '; the file ends mid-frame' : '') +
    '.';
  await checkpoint();
  return renderHtmlPage({ title, kind: 'capture', summary: summaryText, sections });
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
