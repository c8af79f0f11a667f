/**
 * The v7 PDU status byte (IEEE 1278.1-2012 §6.2.67, Table 34): which of its bits a PDU type uses, and their values.
 * Byte 10 of the header is padding in v5 and v6.
 */
import { PduType } from './constants.js';

/** The PDU status bits of one PDU, each present only where its PDU type defines it. */
export interface PduStatusBits {
  /** Transferred entity indicator (bit 0): 1 when the entity is being transferred to another owner. */
  tei?: number;
  /** Live-virtual-constructive indicator (bits 1–2): 0 no statement, 1 live, 2 virtual, 3 constructive. */
  lvc: number;
  /** Coupled extension indicator (bit 3): 1 when the PDU is coupled with an Attribute PDU. */
  cei?: number;
  /** Fire PDU, fire type indicator (bit 4): 0 munition, 1 expendable. */
  fti?: number;
  /** Detonation PDU, detonation type indicator (bits 4–5): 0 munition, 1 expendable, 2 non-munition explosion. */
  dti?: number;
  /** Radio PDUs, radio attached indicator (bits 4–5): 0 no statement, 1 unattached, 2 attached. */
  rai?: number;
  /** Intercom PDUs, intercom attached indicator (bits 4–5): 0 no statement, 1 unattached, 2 attached. */
  iai?: number;
  /** IFF PDU, simulation mode (bit 4): 0 regeneration, 1 interactive. */
  ism?: number;
  /** IFF PDU, active interrogation indicator (bit 5). */
  aii?: number;
}

/** Intercom Signal and Intercom Control (SISO-REF-010 PDU types 31 and 32): reckon has no codec for them. */
const INTERCOM_SIGNAL = 31;
const INTERCOM_CONTROL = 32;

const TEI_TYPES = new Set([1, 23, 24, 25, 26, 27, 28, 31, 32, 41, 67]);

/** The bits a v7 PDU of `pduType` defines in its status byte; undefined before v7 or for types beyond 72. */
export function pduStatusBits(pduType: number, protocolVersion: number, status: number): PduStatusBits | undefined {
  if (protocolVersion < 7 || pduType < 1 || pduType > 72) return undefined;
  const bits: PduStatusBits = { lvc: (status >>> 1) & 3 };
  if (TEI_TYPES.has(pduType)) bits.tei = status & 1;
  if (pduType !== PduType.ATTRIBUTE) bits.cei = (status >>> 3) & 1;
  const high = (status >>> 4) & 3;
  if (pduType === PduType.FIRE) bits.fti = high & 1;
  else if (pduType === PduType.DETONATION) bits.dti = high;
  else if (pduType >= PduType.TRANSMITTER && pduType <= PduType.RECEIVER) bits.rai = high;
  else if (pduType === INTERCOM_SIGNAL || pduType === INTERCOM_CONTROL) bits.iai = high;
  else if (pduType === PduType.IFF) {
    bits.ism = high & 1;
    bits.aii = high >>> 1;
  }
  return bits;
}
