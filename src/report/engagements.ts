/**
 * The capture report's Engagements: each shot of a capture (a Fire PDU, IEEE 1278.1-2012 §7.3.2) paired by its event
 * id with where it went off (the Detonation PDU, §7.3.3), as src/pcap/engagement-log.ts gathers them: who fired what
 * at whom, when, the range and the result, as a table and a timeline, named by SISO-REF-010.
 */
import { detonationResultName } from '../names/engagement-names.js';
import { entityTypeName } from '../names/entity-type-names.js';
import type { EngagementLog } from '../pcap/engagement-log.js';
import { htmlTable, type ReportSection } from './html.js';
import { renderVegaLite } from './vega.js';

/** Shooters on the timeline at most, one row each. */
const MAX_TIMELINE_SHOOTERS = 30;

/** One engagement as the report shows it: times from the capture's first frame, numbers named. */
interface Shown {
  readonly event: string;
  readonly shooter: string;
  readonly target: string | null;
  readonly munition: string;
  readonly fireSeconds: number | null;
  readonly rangeM: number | null;
  readonly detonationSeconds: number | null;
  readonly result: string | null;
}

/**
 * The report's section, or undefined when the capture holds no Fire or Detonation PDU.
 * @param startSeconds - the capture's first frame, seconds since the epoch.
 * @param label - an entity's id with its marking.
 */
export async function engagementSection(
  log: EngagementLog,
  startSeconds: number,
  label: (id: string) => string,
): Promise<ReportSection | undefined> {
  if (log.firePdus + log.detonationPdus === 0) return undefined;
  const since = (t: number | null) => (t === null ? null : t - startSeconds);
  const shown: Shown[] = log.rows.map((r) => ({
    event: r.event,
    shooter: r.shooter,
    target: r.target,
    munition: entityTypeName(r.munitionType.split(':').map(Number)).label,
    fireSeconds: since(r.fireTimeSeconds),
    rangeM: r.rangeM,
    detonationSeconds: since(r.detonationTimeSeconds),
    result: r.result === null ? null : detonationResultName(r.result),
  }));
  const rows = shown.map((r) => [
    r.fireSeconds,
    label(r.shooter),
    r.munition,
    r.target === null ? '-' : label(r.target),
    r.rangeM,
    r.detonationSeconds,
    r.result ?? '-',
    r.event,
  ]);
  const notes = [
    log.dropped > 0 ? ` ${log.dropped} further engagements are not listed.` : '',
    log.invalid > 0 ? ` ${log.invalid} Fire or Detonation PDUs with values no entity has are left out.` : '',
  ];
  const caption =
    'Who fired what at whom, and the result: each Fire PDU with the Detonation PDU of the same event id, times ' +
    'from the first frame; on the timeline a point per shot and per detonation, a line joining them.';
  if (shown.length === 0) {
    return { title: 'Engagements', caption: caption + notes.join(''), html: '<p>No engagement to show.</p>' };
  }
  const table = htmlTable(
    ['fired (s)', 'shooter', 'munition', 'target', 'range (m)', 'detonated (s)', 'result', 'event'],
    rows,
    undefined,
    { wrap: [1, 2, 3], cards: true },
  );
  // The timeline has a row per shooter: those with the most shots, so it stays readable.
  const shots = new Map<string, number>();
  for (const r of shown) shots.set(r.shooter, (shots.get(r.shooter) ?? 0) + 1);
  const plotted = new Set(
    [...shots.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_TIMELINE_SHOOTERS)
      .map(([id]) => id),
  );
  if (shots.size > plotted.size) {
    notes.push(` The timeline shows the ${plotted.size} shooters with the most shots of ${shots.size}.`);
  }
  const points = shown
    .filter((r) => plotted.has(r.shooter))
    .flatMap((r) => [
      ...(r.fireSeconds === null
        ? []
        : [
            {
              t: r.fireSeconds,
              shooter: label(r.shooter),
              what: 'fired',
              munition: r.munition,
              target: label(r.target ?? '-'),
            },
          ]),
      ...(r.detonationSeconds === null
        ? []
        : [
            {
              t: r.detonationSeconds,
              shooter: label(r.shooter),
              what: r.result ?? '',
              munition: r.munition,
              target: label(r.target ?? '-'),
            },
          ]),
    ]);
  const chart = await renderVegaLite({
    width: 860,
    height: { step: 22 },
    data: { values: points },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 1, color: '#999' },
        transform: [
          {
            aggregate: [
              { op: 'min', field: 't', as: 't0' },
              { op: 'max', field: 't', as: 't1' },
            ],
            groupby: ['shooter', 'munition', 'target'],
          },
        ],
        encoding: {
          x: { field: 't0', type: 'quantitative' },
          x2: { field: 't1' },
          y: { field: 'shooter', type: 'nominal' },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 80 },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'time since the first frame (s)', axis: { format: ',.4~r' } },
          y: { field: 'shooter', type: 'nominal', title: 'shooter' },
          shape: { field: 'what', type: 'nominal', title: 'event', legend: { orient: 'top' } },
          color: { field: 'what', type: 'nominal', title: 'event', legend: { orient: 'top' } },
          tooltip: [
            { field: 'what', title: 'event' },
            { field: 'munition' },
            { field: 'target' },
            { field: 't', title: 'time (s)', format: ',.3~f' },
          ],
        },
      },
    ],
  });
  return { title: 'Engagements', caption: caption + notes.join(''), html: chart + table };
}
