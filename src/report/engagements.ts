/**
 * The capture report's Engagements: each shot of a capture (a Fire PDU, IEEE 1278.1-2012 §7.3.2) paired by its event
 * id with where it went off (the Detonation PDU, §7.3.3): who fired what at whom, when, and the result, as a table
 * and a timeline. A shot or detonation whose numbers no entity could have (`validateShot`) is counted, not shown.
 */
import { enumerationName } from '../names/enumerations.js';
import { entityTypeName } from '../names/entity-type-names.js';
import type { AnyPduRecord } from '../pdu/any-pdu.js';
import { CodecStatus } from '../pdu/status.js';
import { validateShot } from '../pdu/validate-engagement.js';
import { DetonationRecord, FireRecord } from '../pdu/warfare.js';
import { htmlTable, type ReportSection } from './html.js';
import { renderVegaLite } from './vega.js';

/** Engagements kept for the report; further ones are counted. */
export const MAX_ENGAGEMENTS = 2000;
/** Shots kept waiting for their detonation (by event id); the oldest is forgotten beyond it. */
const MAX_PENDING = 4096;
/** Detonation result (SISO-REF-010 UID 62). */
const DETONATION_RESULT_UID = 62;

/** One shot and its detonation (either may be missing from the capture). */
export interface Engagement {
  /** `site:application:event number` of the event id. */
  readonly event: string;
  readonly shooter: string;
  /** null when the shooter named no target. */
  readonly target: string | null;
  readonly munition: string;
  /** Seconds since the capture's first frame; null without a Fire PDU. */
  fireSeconds: number | null;
  /** Range the shooter gave, metres; null without a Fire PDU. */
  rangeM: number | null;
  /** Seconds since the capture's first frame; null without a Detonation PDU. */
  detonationSeconds: number | null;
  result: number | null;
}

const id = (e: { site: number; application: number; entity: number }) => `${e.site}:${e.application}:${e.entity}`;
const none = (e: { site: number; application: number; entity: number }) =>
  e.site === 0 && e.application === 0 && e.entity === 0;

/** Gathers the engagements of a capture's Fire and Detonation PDUs, in the order they were fired. */
export class EngagementLog {
  readonly rows: Engagement[] = [];
  /** Engagements beyond `MAX_ENGAGEMENTS`, not kept. */
  dropped = 0;
  /** Fire and Detonation PDUs with values no entity could have, not shown. */
  invalid = 0;
  private readonly pending = new Map<string, Engagement>();

  /** Takes a decoded PDU of any type; `seconds` since the capture's first frame. */
  add(record: AnyPduRecord, seconds: number): void {
    const fire = record instanceof FireRecord;
    if (!fire && !(record instanceof DetonationRecord)) return;
    if (validateShot(record) !== CodecStatus.OK) {
      this.invalid++;
      return;
    }
    const e = record.eventId;
    const event = `${e.site}:${e.application}:${e.eventNumber}`;
    // Event number 0 names no event: such a PDU stands alone.
    const key = e.eventNumber === 0 ? undefined : `${record.exerciseId}/${event}/${id(record.firingEntityId)}`;
    let row = key === undefined ? undefined : this.pending.get(key);
    if (row === undefined || (fire ? row.fireSeconds : row.detonationSeconds) !== null) {
      if (this.rows.length >= MAX_ENGAGEMENTS) {
        this.dropped++;
        return;
      }
      row = {
        event,
        shooter: id(record.firingEntityId),
        target: none(record.targetEntityId) ? null : id(record.targetEntityId),
        munition: entityTypeName(record.descriptor.munitionType).label,
        fireSeconds: null,
        rangeM: null,
        detonationSeconds: null,
        result: null,
      };
      this.rows.push(row);
      if (key !== undefined) {
        this.pending.delete(key);
        this.pending.set(key, row);
        if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      }
    }
    if (record instanceof FireRecord) {
      row.fireSeconds = seconds;
      row.rangeM = record.range;
    } else {
      row.detonationSeconds = seconds;
      row.result = record.result;
    }
  }

  /** The report's section, or undefined when the capture holds no shot. */
  async section(label: (id: string) => string): Promise<ReportSection | undefined> {
    if (this.rows.length === 0) return undefined;
    const resultName = (r: Engagement) => (r.result === null ? '' : enumerationName(DETONATION_RESULT_UID, r.result));
    const rows = this.rows.map((r) => [
      r.fireSeconds,
      label(r.shooter),
      r.munition,
      r.target === null ? '-' : label(r.target),
      r.rangeM,
      r.detonationSeconds,
      r.result === null ? '-' : resultName(r),
      r.event,
    ]);
    const table = htmlTable(
      ['fired (s)', 'shooter', 'munition', 'target', 'range (m)', 'detonated (s)', 'result', 'event'],
      rows,
    );
    const points = this.rows.flatMap((r) => [
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
              what: resultName(r),
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
    const notes = [
      this.dropped > 0 ? ` ${this.dropped} further engagements are not listed.` : '',
      this.invalid > 0 ? ` ${this.invalid} Fire or Detonation PDUs with values no entity has are left out.` : '',
    ].join('');
    return {
      title: 'Engagements',
      caption:
        'Who fired what at whom, and the result: each Fire PDU with the Detonation PDU of the same event id, times ' +
        `from the first frame; on the timeline a point per shot and per detonation, a line joining them.${notes}`,
      html: chart + table,
    };
  }
}
