/**
 * The names of the numbers in a shot and a radio: a Fire or Detonation PDU's munition (its entity type), warhead,
 * fuse and detonation result; a Transmitter PDU's transmit state and input source, a Receiver PDU's state
 * (SISO-REF-010 UIDs 60, 61, 62, 164, 165, 179). As `reckon decode --json` writes them beside the PDU
 * (`"names": {…}`), and as the decode summary and the capture report show them.
 */
import type { DetonationPdu, FirePdu, ReceiverPdu, TransmitterPdu } from '../pdu/schema/pdu-schemas.js';
import type { EntityTypeLike } from './entity-type-fields.js';
import { entityTypeName } from './entity-type-names.js';
import { nameByUid } from './enumerations.js';

/** SISO-REF-010 UIDs of the enumerations named here. */
export const EngagementEnumerationUid = {
  WARHEAD: 60,
  FUSE: 61,
  DETONATION_RESULT: 62,
  TRANSMIT_STATE: 164,
  INPUT_SOURCE: 165,
  RECEIVER_STATE: 179,
} as const;
const UID = EngagementEnumerationUid;

/** Detonation result: 1 "Entity Impact", 3 "Ground Impact", 6 "None or No Detonation (Dud)", … */
export function detonationResultName(result: number): string {
  return nameByUid(UID.DETONATION_RESULT, result);
}

/** Transmit state: 0 "Off", 1 "On but not transmitting", 2 "On and transmitting". */
export function transmitStateName(state: number): string {
  return nameByUid(UID.TRANSMIT_STATE, state);
}

/** The names of what was fired. */
export interface MunitionNames {
  /** The munition type's short label, "BGM-71D TOW 2 · Guided · USA". */
  readonly munition: string;
  /** Every level of the munition type named, "Munition / Anti-Armor / … / BGM-71D TOW 2". */
  readonly munitionPath: string;
  readonly warhead: string;
  readonly fuse: string;
}

/** The names of a Fire PDU's numbers (its JSON form). */
export type FirePduNames = MunitionNames;

/** The names of a Detonation PDU's numbers (its JSON form). */
export interface DetonationPduNames extends MunitionNames {
  readonly result: string;
}

/** The munition of a shot: its type's names, warhead and fuse. Never throws. */
export function munitionNames(munitionType: EntityTypeLike, warhead: number, fuse: number): MunitionNames {
  const type = entityTypeName(munitionType);
  return {
    munition: type.label,
    munitionPath: type.path,
    warhead: nameByUid(UID.WARHEAD, warhead),
    fuse: nameByUid(UID.FUSE, fuse),
  };
}

/** A Fire PDU's munition, warhead and fuse by name, as `decode --json` writes them. */
export function firePduNames(pdu: FirePdu): FirePduNames {
  const d = pdu.descriptor;
  return munitionNames(d.munitionType, d.warhead, d.fuse);
}

/** A Detonation PDU's munition, warhead, fuse and result by name. */
export function detonationPduNames(pdu: DetonationPdu): DetonationPduNames {
  const d = pdu.descriptor;
  return { ...munitionNames(d.munitionType, d.warhead, d.fuse), result: detonationResultName(pdu.result) };
}

/** A Transmitter PDU's transmit state and input source by name. */
export function transmitterPduNames(pdu: TransmitterPdu): { transmitState: string; inputSource: string } {
  return {
    transmitState: transmitStateName(pdu.transmitState),
    inputSource: nameByUid(UID.INPUT_SOURCE, pdu.inputSource),
  };
}

/** A Receiver PDU's receiver state by name. */
export function receiverPduNames(pdu: ReceiverPdu): { receiverState: string } {
  return { receiverState: nameByUid(UID.RECEIVER_STATE, pdu.receiverState) };
}
