// The Entity State PDU the NATS tests publish: a land platform at a place, stamped at a time.
import { DR_FPW } from '../../src/dr/models/algorithm.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';

/** Entity 1:1:`entity` (a land platform, FPW, marking `E<entity>`) 500 m above (lat, lon), stamped at `tSeconds`. */
export function landPlatformRecord(
  entity: number,
  latDeg: number,
  lonDeg: number,
  tSeconds: number,
): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 1;
  r.entity = entity;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  geodeticDegreesToEcef(r.location, latDeg, lonDeg, 500);
  r.drAlgorithm = DR_FPW;
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  setMarkingText(r, `E${entity}`);
  return r;
}
