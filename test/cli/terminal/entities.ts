// Remote entities for the view tests: a real remote-entity table fed with Entity State records, rendered into a
// frame, and the entity events the subscriber would have emitted for them.
import { DR_FPW } from '../../../src/dr/models/algorithm.js';
import { RemoteEntityTable } from '../../../src/dr/receiver/remote-entity-table.js';
import { eulerFromHeadingPitchRoll, geodeticDegreesToEcef } from '../../../src/math/geodesy.js';
import { entityKey, EntityStateRecord } from '../../../src/pdu/wire/entity-state-record.js';
import { entityStateRecordToPdu } from '../../../src/pdu/json/entity-state-json.js';
import { timestampFromSeconds } from '../../../src/pdu/wire/timestamp.js';
import type { EntityEvent, EntityEventType } from '../../../src/stream/entity-events.js';
import { createFrame, renderFrame, type EntityFrame } from '../../../src/stream/frame.js';
import { EntityList } from '../../../src/cli/terminal/subscribe-view.js';

export interface Spec {
  /** Raw marking bytes as a string of char codes 0–255 (up to 11). */
  marking: string;
  forceId?: number;
  headingDeg?: number;
  latitudeDeg?: number;
  longitudeDeg?: number;
  /** Seven numbers; defaults to an M1A2 (1:1:225:1:1:3:0). */
  entityType?: readonly number[];
  appearance?: number;
}

export function record(entity: number, spec: Spec): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.site = 1;
  r.application = 77;
  r.entity = entity;
  r.forceId = spec.forceId ?? 1;
  r.entityType.set(spec.entityType ?? [1, 1, 225, 1, 1, 3, 0]);
  r.appearance = spec.appearance ?? 0;
  const lat = spec.latitudeDeg ?? 47.39712,
    lon = spec.longitudeDeg ?? 8.54803;
  geodeticDegreesToEcef(r.location, lat, lon, 408);
  const rad = Math.PI / 180;
  eulerFromHeadingPitchRoll(r.orientation, lat * rad, lon * rad, (spec.headingDeg ?? 90) * rad, 0, 0);
  r.drAlgorithm = DR_FPW;
  for (let i = 0; i < spec.marking.length && i < 11; i++) r.markingBytes[i] = spec.marking.charCodeAt(i);
  r.markingCharacterSet = 1;
  return r;
}

export function event(type: EntityEventType, r: EntityStateRecord, timeSeconds: number): EntityEvent {
  const state = entityStateRecordToPdu(r);
  const key = entityKey(r.site, r.application, r.entity);
  return { type, key, entityId: state.entityId, marking: state.marking.text, timeSeconds, state };
}

/** A table holding `specs` (entities 1…n), each updated twice one second apart, and the events for them. */
export function world(specs: readonly Spec[]): {
  frame: EntityFrame;
  entities: EntityList;
  table: RemoteEntityTable;
  records: EntityStateRecord[];
} {
  const table = new RemoteEntityTable({ capacity: Math.max(1, specs.length) });
  const entities = new EntityList();
  const records = specs.map((spec, i) => record(i + 1, spec));
  for (const [t, type] of [
    [0, 'appeared'],
    [1, 'updated'],
  ] as const) {
    for (const r of records) {
      r.timestampRaw = timestampFromSeconds(t, false);
      table.apply(r, t);
      entities.apply(event(type, r, t));
    }
  }
  const frame = renderFrame(createFrame(), table, 1.5);
  return { frame, entities, table, records };
}
