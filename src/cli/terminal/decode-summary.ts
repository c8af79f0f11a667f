/**
 * The text summary `reckon decode` prints: one table row per entity, the engagements (shooter → munition → target,
 * range, result), the radios, then the totals: the story the capture report and the NDJSON tell, as text. Made
 * in pieces of a few thousand lines, so a capture of any size is printed without its whole text in memory.
 */
import { ecefToGeodeticDegrees } from '../../math/geodesy.js';
import { DR_ALGORITHM_NAMES } from '../../dr/models/algorithm.js';
import { detonationResultName, transmitStateName } from '../../names/engagement-names.js';
import { entityTypeName, pduTypeName } from '../../names/index.js';
import { CODEC_STATUS_MESSAGES, type CodecStatusName } from '../../pdu/wire/status.js';
import type { CaptureSummary, EntitySummary } from '../../pcap/capture-summary.js';
import type { EngagementLog } from '../../pcap/engagement-log.js';
import { frequencyText, type RadioSummary } from '../../pcap/radio-summary.js';
import type { Capture } from '../../pcap/reader.js';
import { type Column, formatBytes, formatCount, formatLatLonAlt } from './format.js';
import { printable } from './printable.js';
import { streamedTable } from './streamed-table.js';

/** Lines per piece of `captureSummaryChunks`. */
const CHUNK_LINES = 4096;

/** Options of `captureSummaryChunks`. */
export interface SummaryOptions {
  /** Rows listed per table (entities, engagements, radios), the rest counted. Defaults to all. */
  readonly maxRows?: number;
}

/** Renders a capture summary as aligned text; text from the capture (markings) is made `printable`. */
export function renderCaptureSummary(
  path: string,
  capture: Pick<Capture, 'format' | 'truncated' | 'corrupt'>,
  summary: CaptureSummary,
): string {
  let text = '';
  for (const chunk of captureSummaryChunks(path, capture, summary)) text += chunk;
  return text;
}

/**
 * The same text in pieces, each of whole lines ending in a newline; an empty piece now and then while a long table
 * is measured, so that a caller printing as it goes can let Ctrl-C be heard.
 */
export function* captureSummaryChunks(
  path: string,
  capture: Pick<Capture, 'format' | 'truncated' | 'corrupt'>,
  summary: CaptureSummary,
  options: SummaryOptions = {},
): Generator<string> {
  let lines: string[] = [];
  for (const line of summaryLines(path, capture, summary, options.maxRows ?? Number.POSITIVE_INFINITY)) {
    if (line === null) {
      yield lines.length === 0 ? '' : `${lines.join('\n')}\n`;
      lines = [];
      continue;
    }
    lines.push(line);
    if (lines.length >= CHUNK_LINES) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

function* summaryLines(
  path: string,
  capture: Pick<Capture, 'format' | 'truncated' | 'corrupt'>,
  summary: CaptureSummary,
  maxRows: number,
): Generator<string | null> {
  const { totals, entities } = summary;
  const span = summary.lastTimeSeconds - summary.firstTimeSeconds;
  yield `${printable(path)}: ${capture.format}, ${totals.frames} frames` +
    (Number.isFinite(span)
      ? `, ${span.toFixed(1)} s from ${new Date(summary.firstTimeSeconds * 1000).toISOString()}`
      : '') +
    (capture.corrupt
      ? ` (corrupt record at byte ${capture.corrupt.offset})`
      : capture.truncated
        ? ' (file ends mid-frame)'
        : '');
  yield '';
  // An entity's id and marking, as the engagements and radios name it.
  const markings = new Map<string, string>();
  for (const e of entities) if (e.marking) markings.set(e.id, e.marking);
  const label = (id: string) => {
    const marking = markings.get(id);
    return marking === undefined ? id : `${id} ${printable(marking)}`;
  };
  if (entities.length === 0) {
    yield 'No Entity State PDUs.';
  } else {
    const shown = Math.min(entities.length, maxRows);
    yield* streamedTable(ENTITY_COLUMNS, shown, entityRow(entities));
    if (shown < entities.length) yield `… and ${formatCount(entities.length - shown, 'more entity', 'more entities')}`;
    yield '';
    yield 'Positions are the last reported (WGS-84); rate is PDUs per second between the first and last; names are';
    yield "SISO-REF-010's (reprinted with permission from SISO Inc.).";
  }
  yield '';
  const log = summary.engagements;
  if (log.firePdus + log.detonationPdus > 0) {
    yield* engagementLines(log, summary.firstTimeSeconds, label, maxRows);
    yield '';
  }
  if (summary.radios.length > 0) {
    yield* radioLines(summary.radios, label, maxRows);
    yield '';
  }
  const skipped = Object.entries(totals.skipped).map(([reason, n]) => `${n} ${reason}`);
  yield `Frames: ${totals.frames}; UDP datagrams ${totals.udpDatagrams} (DIS ${totals.disDatagrams}, other ${totals.otherDatagrams})` +
    (skipped.length ? `; skipped ${skipped.join(', ')}` : '');
  yield `PDUs: ${totals.pdus}`;
  const byType = Object.entries(totals.pdusByType).sort(([a], [b]) => Number(a) - Number(b));
  for (const [type, n] of byType) yield `  ${String(n).padStart(6)}  type ${type} ${pduTypeName(Number(type))}`;
  const rejected = Object.entries(totals.rejected);
  yield `Rejected: ${rejected.reduce((sum, [, n]) => sum + n, 0)}`;
  for (const [code, n] of rejected) {
    yield `  ${String(n).padStart(6)}  ${code}: ${CODEC_STATUS_MESSAGES[code as CodecStatusName] ?? ''}`;
  }
  if (totals.warnings.lengthZero > 0) {
    yield `Warnings: ${totals.warnings.lengthZero}`;
    yield `  ${String(totals.warnings.lengthZero).padStart(6)}  lengthZero: Length field 0, the rest of the datagram taken as the PDU`;
  }
}

const right = (title: string): Column => ({ title, align: 'right' });

const ENTITY_COLUMNS: readonly Column[] = [
  { title: 'entity' },
  { title: 'marking' },
  { title: 'type' },
  { title: 'name' },
  { title: 'DIS' },
  right('PDUs'),
  right('rate/s'),
  right('DR'),
  { title: 'position' },
  right('speed m/s'),
];

/** Row i of the entity table: identity, names, PDUs, rate, DR algorithm, last position and speed. */
function entityRow(entities: readonly EntitySummary[]): (i: number) => string[] {
  const lla = new Float64Array(3);
  return (i) => {
    const e = entities[i]!;
    ecefToGeodeticDegrees(lla, e.locationEcef[0]!, e.locationEcef[1]!, e.locationEcef[2]!);
    const seconds = e.lastTimeSeconds - e.firstTimeSeconds;
    const speed = Math.hypot(e.linearVelocity[0]!, e.linearVelocity[1]!, e.linearVelocity[2]!);
    return [
      e.id,
      printable(e.marking) || '-',
      e.entityType || '-',
      e.entityType ? printable(entityTypeName(e.entityType.split(':').map(Number)).label) : '-',
      `v${e.protocolVersion}`,
      String(e.pdus),
      e.pdus > 1 && seconds > 0 ? ((e.pdus - 1) / seconds).toFixed(2) : '-',
      `${e.drAlgorithm} ${DR_ALGORITHM_NAMES[e.drAlgorithm] ?? '?'}`,
      formatLatLonAlt(lla[0]!, lla[1]!, lla[2]!),
      speed.toFixed(1),
    ];
  };
}

const ENGAGEMENT_COLUMNS: readonly Column[] = [
  right('fired s'),
  { title: 'shooter' },
  { title: 'munition' },
  { title: 'target' },
  right('range m'),
  right('detonated s'),
  { title: 'result' },
];

/**
 * The engagements: one row per shot (a Fire PDU and the Detonation PDU of its event), times from the capture's
 * first frame, the munition and the result named by SISO-REF-010.
 */
function* engagementLines(
  log: EngagementLog,
  startSeconds: number,
  label: (id: string) => string,
  maxRows: number,
): Generator<string | null> {
  const seconds = (t: number | null) => (t === null ? '-' : (t - startSeconds).toFixed(1));
  const row = (i: number) => {
    const r = log.rows[i]!;
    return [
      seconds(r.fireTimeSeconds),
      label(r.shooter),
      printable(entityTypeName(r.munitionType.split(':').map(Number)).label),
      r.target === null ? '-' : label(r.target),
      r.rangeM === null ? '-' : r.rangeM.toFixed(0),
      seconds(r.detonationTimeSeconds),
      r.result === null ? '-' : detonationResultName(r.result),
    ];
  };
  const pdus = `${formatCount(log.firePdus, 'Fire PDU')}, ${formatCount(log.detonationPdus, 'Detonation PDU')}`;
  yield `Engagements: ${log.rows.length + log.dropped} (${pdus})`;
  const shown = Math.min(log.rows.length, maxRows);
  if (shown > 0) yield* streamedTable(ENGAGEMENT_COLUMNS, shown, row, '  ');
  const more = log.rows.length - shown + log.dropped;
  if (more > 0) yield `  ${formatCount(more, 'further engagement')} not listed`;
  if (log.invalid > 0)
    yield `  ${formatCount(log.invalid, 'Fire or Detonation PDU')} with values no entity has left out`;
}

const RADIO_COLUMNS: readonly Column[] = [
  { title: 'radio' },
  right('frequency'),
  right('power'),
  { title: 'last state' },
  right('Transmitter'),
  right('Signal'),
  right('signal data'),
  right('Receiver'),
];

/** One row per radio: what its last Transmitter PDU said, and the Signal and Receiver PDUs that name it. */
function* radioLines(
  radios: readonly RadioSummary[],
  label: (id: string) => string,
  maxRows: number,
): Generator<string | null> {
  const row = (i: number) => {
    const r = radios[i]!;
    return [
      `${label(r.entity)} #${r.radioId}`,
      frequencyText(r.frequencyHz),
      Number.isFinite(r.powerDbm) ? `${r.powerDbm.toFixed(1)} dBm` : '-',
      r.transmitState < 0 ? '-' : transmitStateName(r.transmitState),
      String(r.transmitterPdus),
      String(r.signalPdus),
      formatBytes(r.signalBytes),
      String(r.receiverPdus),
    ];
  };
  yield `Radios: ${radios.length}`;
  const shown = Math.min(radios.length, maxRows);
  yield* streamedTable(RADIO_COLUMNS, shown, row, '  ');
  if (shown < radios.length) yield `  … and ${formatCount(radios.length - shown, 'more radio')}`;
}
