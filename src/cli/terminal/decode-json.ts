/**
 * The NDJSON line `reckon decode --json` writes for each PDU of a capture (src/cli/commands/decode.ts lists the
 * shapes). An Entity State PDU, a Fire or Detonation PDU and a Transmitter PDU carry, beside the PDU, the geodetic
 * position of their ECEF location and the SISO-REF-010 names of their numbers; a shot's and a radio's names include
 * the markings of its entities as last seen in the capture, so each line reads as the summary and the report do.
 */
import { PduType } from '../../pdu/wire/constants.js';
import {
  detonationPduNames,
  firePduNames,
  receiverPduNames,
  transmitterPduNames,
} from '../../names/engagement-names.js';
import { entityStatePduNames } from '../../names/pdu-names.js';
import type { DisPduEvent } from '../../pcap/dis-capture.js';
import { entityKey, markingText } from '../../pdu/wire/entity-state-record.js';
import { entityStateRecordToPdu } from '../../pdu/json/entity-state-json.js';
import { pduRecordToJson } from '../../pdu/json/pdu-json.js';
import type { DetonationPdu, FirePdu, ReceiverPdu, TransmitterPdu } from '../../pdu/schema/pdu-schemas.js';
import { ReceiverRecord, TransmitterRecord } from '../../pdu/wire/radio.js';
import { DetonationRecord, FireRecord } from '../../pdu/wire/warfare.js';
import { pduStatusMessage } from '../../pdu/wire/length-rules.js';
import { codecStatusName } from '../../pdu/wire/status.js';
import { geodeticJson, geodeticPositionJson } from './geodetic-json.js';
import { jsonLine, jsonLineNamingNonFinite, nonFiniteAsText } from './printable.js';

type Id = { readonly site: number; readonly application: number; readonly entity: number };

/** Turns the PDU events of a capture, in order, into NDJSON lines. */
export class DecodeJsonLines {
  /** Each entity's marking, from its last full Entity State PDU. */
  private readonly markings = new Map<number, string>();

  /** The line of one event (no newline). */
  line(event: DisPduEvent): string {
    const head = { frame: event.frame, time: event.timeSeconds };
    if (event.status !== 0) {
      const code = codecStatusName(event.status);
      const error = { code, message: pduStatusMessage(event.status, event.pduType), offset: event.offset };
      return event.rejectedRecord
        ? jsonLine({ ...head, error, pdu: entityStateRecordToPdu(event.rejectedRecord) }, nonFiniteAsText)
        : jsonLine({ ...head, error });
    }
    if (event.record && event.pduType === PduType.ENTITY_STATE) {
      const r = event.record;
      this.markings.set(entityKey(r.site, r.application, r.entity), markingText(r));
      const pdu = entityStateRecordToPdu(r);
      const geodetic = geodeticJson(pdu.location, pdu.orientation);
      return jsonLine({ ...head, pdu, geodetic, names: entityStatePduNames(pdu) });
    }
    const other = event.other;
    if (other) {
      const pdu = pduRecordToJson(other);
      if (other instanceof FireRecord || other instanceof DetonationRecord) {
        const shot = pdu as FirePdu | DetonationPdu;
        const names = shot.pduType === PduType.FIRE ? firePduNames(shot) : detonationPduNames(shot as DetonationPdu);
        const people = { ...this.marking('shooterMarking', shot.firingEntityId) };
        Object.assign(people, this.marking('targetMarking', shot.targetEntityId));
        const geodetic = geodeticPositionJson(shot.location);
        return jsonLineNamingNonFinite({ ...head, pdu, geodetic, names: { ...names, ...people } });
      }
      if (other instanceof TransmitterRecord) {
        const radio = pdu as TransmitterPdu;
        const names = { ...transmitterPduNames(radio), ...this.marking('entityMarking', radio.entityId) };
        return jsonLineNamingNonFinite({ ...head, pdu, geodetic: geodeticPositionJson(radio.antennaLocation), names });
      }
      if (other instanceof ReceiverRecord) {
        return jsonLineNamingNonFinite({ ...head, pdu, names: receiverPduNames(pdu as ReceiverPdu) });
      }
      return jsonLineNamingNonFinite({ ...head, pdu });
    }
    return jsonLine({ ...head, pduType: event.pduType, length: event.length });
  }

  /** `{ [field]: marking }` of the entity when one was seen, else nothing. */
  private marking(field: string, id: Id): Record<string, string> {
    const marking = this.markings.get(entityKey(id.site, id.application, id.entity));
    return marking ? { [field]: marking } : {};
  }
}
