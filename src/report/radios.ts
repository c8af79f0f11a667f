/**
 * The capture report's Radios: one row per radio (an entity and a radio number, IEEE 1278.1-2012 §7.7) with what its
 * last Transmitter PDU said — frequency, power, transmit state named by SISO-REF-010 — and the Transmitter, Signal
 * and Receiver PDUs that name it, as src/pcap/radio-summary.ts gathers them.
 */
import { transmitStateName } from '../names/engagement-names.js';
import { frequencyText, type RadioSummary } from '../pcap/radio-summary.js';
import { htmlTable, type ReportSection } from './html.js';

/** Radios listed; the rest are counted. */
export const MAX_REPORT_RADIOS = 2000;

/**
 * The report's section, or undefined when no PDU names a radio.
 * @param startSeconds - the capture's first frame, seconds since the epoch.
 * @param label - an entity's id with its marking.
 */
export function radioSection(
  radios: readonly RadioSummary[],
  startSeconds: number,
  label: (id: string) => string,
): ReportSection | undefined {
  if (radios.length === 0) return undefined;
  const shown = radios.slice(0, MAX_REPORT_RADIOS);
  const rows = shown.map((r) => [
    `${label(r.entity)} #${r.radioId}`,
    frequencyText(r.frequencyHz),
    Number.isFinite(r.powerDbm) ? r.powerDbm : null,
    r.transmitState < 0 ? '-' : transmitStateName(r.transmitState),
    r.transmitterPdus,
    r.transmittingPdus,
    r.signalPdus,
    r.signalBytes,
    r.receiverPdus,
    r.firstTimeSeconds - startSeconds,
    r.lastTimeSeconds - startSeconds,
  ]);
  const header = [
    'radio',
    'frequency',
    'power (dBm)',
    'last state',
    'Transmitter PDUs',
    'of them transmitting',
    'Signal PDUs',
    'signal data (bytes)',
    'Receiver PDUs',
    'first heard (s)',
    'last heard (s)',
  ];
  const more = radios.length - shown.length;
  return {
    title: 'Radios',
    caption:
      'Each radio (entity and radio number) with what its last Transmitter PDU said, and the Transmitter, Signal ' +
      'and Receiver PDUs that name it; times from the first frame.' +
      (more > 0 ? ` The first ${shown.length} of ${radios.length} radios; \`reckon decode\` lists every one.` : ''),
    html: htmlTable(header, rows, undefined, { wrap: [0], cards: true }),
  };
}
