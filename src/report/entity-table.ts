/**
 * The capture report's Entities: one row per entity (marking, type and its SISO-REF-010 name, force, PDUs, rate, DR
 * algorithm, first and last seen, appearance). Long names and appearances wrap, so the table fits the page at
 * desktop widths; on a phone each row is a card. A capture of very many entities lists the first ones seen.
 */
import { DR_ALGORITHM_NAMES } from '../dr/models/algorithm.js';
import { appearanceSummary } from '../names/appearance.js';
import { forceName } from '../names/enumerations.js';
import { entityTypeName } from '../names/entity-type-names.js';
import { SISO_ATTRIBUTION, SISO_VERSION } from '../names/siso-data.generated.js';
import type { CaptureSummary } from '../pcap/capture-summary.js';
import { htmlTable, type ReportSection } from './html.js';

/** Entities listed; the rest are counted (the text summary lists every one). */
export const MAX_REPORT_ENTITIES = 2000;

const HEADER = [
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
/** The columns that wrap: name and appearance. */
const WRAPPED = [3, 11];

export function entitySection(summary: CaptureSummary): ReportSection {
  const { entities } = summary;
  const shown = entities.slice(0, MAX_REPORT_ENTITIES);
  const rows = shown.map((e) => {
    const seconds = e.lastTimeSeconds - e.firstTimeSeconds;
    const type = e.entityType ? e.entityType.split(':').map(Number) : undefined;
    return [
      e.id,
      e.marking || '-',
      e.entityType || '-',
      type ? entityTypeName(type).label : '-',
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
  const more = entities.length - shown.length;
  return {
    title: 'Entities',
    caption:
      'From Entity State (and Entity State Update) PDUs; type, force and DR algorithm from the last full ' +
      'Entity State PDU, appearance (the fields set) from the last PDU; times from the first frame.' +
      (more > 0
        ? ` The first ${shown.length} of ${entities.length} entities seen; \`reckon decode\` lists every one.`
        : '') +
      ` Names: ${SISO_VERSION}. ${SISO_ATTRIBUTION}`,
    html:
      entities.length > 0
        ? htmlTable(HEADER, rows, undefined, { wrap: WRAPPED, cards: true })
        : '<p>No Entity State PDUs.</p>',
  };
}
