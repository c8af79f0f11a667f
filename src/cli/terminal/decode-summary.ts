/**
 * The text summary `reckon decode` prints: one table row per entity, then the totals.
 */
import { ecefToGeodeticDegrees } from '../../math/geodesy.js';
import { DR_ALGORITHM_NAMES } from '../../dr/algorithm.js';
import { entityTypeName, pduTypeName } from '../../names/index.js';
import { CODEC_STATUS_MESSAGES, type CodecStatusName } from '../../pdu/status.js';
import type { CaptureSummary } from '../../pcap/capture-summary.js';
import type { RadioSummary } from '../../pcap/radio-summary.js';
import type { Capture } from '../../pcap/reader.js';
import { formatBytes, formatLatLonAlt, formatTable } from './format.js';
import { printable } from './printable.js';

/** Renders a capture summary as aligned text; text from the capture (markings) is made `printable`. */
export function renderCaptureSummary(
  path: string,
  capture: Pick<Capture, 'format' | 'truncated' | 'corrupt'>,
  summary: CaptureSummary,
): string {
  const { totals, entities } = summary;
  const span = summary.lastTimeSeconds - summary.firstTimeSeconds;
  const lines = [
    `${printable(path)}: ${capture.format}, ${totals.frames} frames` +
      (Number.isFinite(span)
        ? `, ${span.toFixed(1)} s from ${new Date(summary.firstTimeSeconds * 1000).toISOString()}`
        : '') +
      (capture.corrupt
        ? ` (corrupt record at byte ${capture.corrupt.offset})`
        : capture.truncated
          ? ' (file ends mid-frame)'
          : ''),
    '',
  ];
  if (entities.length === 0) {
    lines.push('No Entity State PDUs.');
  } else {
    const lla = new Float64Array(3);
    const rows = entities.map((e) => {
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
    });
    lines.push(
      ...table(
        ['entity', 'marking', 'type', 'name', 'DIS', 'PDUs', 'rate/s', 'DR', 'position', 'speed m/s'],
        rows,
        5,
        [8],
      ),
      '',
    );
    lines.push(
      'Positions are the last reported (WGS-84); rate is PDUs per second between the first and last; names are',
      "SISO-REF-010's (reprinted with permission from SISO Inc.).",
      '',
    );
  }
  const skipped = Object.entries(totals.skipped).map(([reason, n]) => `${n} ${reason}`);
  lines.push(
    `Frames: ${totals.frames}; UDP datagrams ${totals.udpDatagrams} (DIS ${totals.disDatagrams}, other ${totals.otherDatagrams})` +
      (skipped.length ? `; skipped ${skipped.join(', ')}` : ''),
  );
  const byType = Object.entries(totals.pdusByType)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([type, n]) => `  ${String(n).padStart(6)}  type ${type} ${pduTypeName(Number(type))}`);
  lines.push(`PDUs: ${totals.pdus}`, ...byType);
  if (summary.radios.length > 0) lines.push(...radioLines(summary.radios));
  const rejected = Object.entries(totals.rejected);
  const rejectedCount = rejected.reduce((sum, [, n]) => sum + n, 0);
  lines.push(`Rejected: ${rejectedCount}`);
  for (const [code, n] of rejected) {
    lines.push(`  ${String(n).padStart(6)}  ${code}: ${CODEC_STATUS_MESSAGES[code as CodecStatusName] ?? ''}`);
  }
  if (totals.warnings.lengthZero > 0) {
    lines.push(
      `Warnings: ${totals.warnings.lengthZero}`,
      `  ${String(totals.warnings.lengthZero).padStart(6)}  lengthZero: Length field 0, the rest of the datagram taken as the PDU`,
    );
  }
  return lines.join('\n') + '\n';
}

const TRANSMIT_STATES = ['off', 'on, not transmitting', 'transmitting'];

/** One row per radio: what its last Transmitter PDU said, and the Signal and Receiver PDUs that name it. */
function radioLines(radios: readonly RadioSummary[]): string[] {
  const rows = radios.map((r) => [
    `${r.entity} #${r.radioId}`,
    Number.isFinite(r.frequencyHz) ? formatFrequency(r.frequencyHz) : '-',
    Number.isFinite(r.powerDbm) ? `${r.powerDbm.toFixed(1)} dBm` : '-',
    r.transmitState < 0 ? '-' : (TRANSMIT_STATES[r.transmitState] ?? `state ${r.transmitState}`),
    String(r.transmitterPdus),
    String(r.signalPdus),
    formatBytes(r.signalBytes),
    String(r.receiverPdus),
  ]);
  const right = (title: string) => ({ title, align: 'right' as const });
  const columns = [
    { title: 'radio' },
    right('frequency'),
    right('power'),
    { title: 'last state' },
    right('Transmitter'),
    right('Signal'),
    right('signal data'),
    right('Receiver'),
  ];
  return [`Radios: ${radios.length}`, ...formatTable(columns, rows).map((line) => `  ${line}`)];
}

/** 72.275 MHz, 1.2 GHz, 500 kHz. */
function formatFrequency(hz: number): string {
  if (hz >= 1e9) return `${+(hz / 1e9).toFixed(6)} GHz`;
  if (hz >= 1e6) return `${+(hz / 1e6).toFixed(6)} MHz`;
  if (hz >= 1e3) return `${+(hz / 1e3).toFixed(3)} kHz`;
  return `${hz} Hz`;
}

/** Left-aligns text columns, right-aligns the columns from `firstNumeric` on except those in `left`. */
function table(header: string[], rows: string[][], firstNumeric: number, left: readonly number[] = []): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= firstNumeric && !left.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
