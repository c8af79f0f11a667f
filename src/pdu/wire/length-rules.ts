/**
 * What the Length field of each PDU type must say, in words, so that a BAD_LENGTH names the rule of the PDU that
 * broke it (a Fire PDU is 96 bytes, not 144 + 16 × records). The sizes are the codecs' own constants (IEEE
 * 1278.1-2012 §7; docs/pdu-families.md).
 */
import { COLLISION_ELASTIC_PDU_BYTES, COLLISION_PDU_BYTES } from './collision.js';
import { ENTITY_STATE_BYTES, ENTITY_STATE_UPDATE_BYTES, HEADER_BYTES, PARAMETER_RECORD_BYTES } from './constants.js';
import { datumPduFixedBytes } from './datum-pdus.js';
import { DESIGNATOR_PDU_BYTES, EMISSION_PDU_BYTES, IFF_LAYER1_BYTES } from './emission.js';
import { ENVIRONMENTAL_PROCESS_PDU_BYTES } from './environmental-process.js';
import { RECEIVER_PDU_BYTES, SIGNAL_PDU_BYTES, TRANSMITTER_PDU_BYTES } from './radio.js';
import {
  ACKNOWLEDGE_PDU_BYTES,
  ENTITY_MANAGEMENT_PDU_BYTES,
  START_RESUME_PDU_BYTES,
  STOP_FREEZE_PDU_BYTES,
} from './simulation-management.js';
import { CODEC_STATUS_NAMES, CODEC_STATUS_MESSAGES, CodecStatus } from './status.js';
import { DETONATION_PDU_BYTES, FIRE_PDU_BYTES } from './warfare.js';

type Rule = readonly [name: string, layout: string];

const exactly = (bytes: number) => `exactly ${bytes} bytes`;
const atLeast = (bytes: number) => `at least ${bytes} bytes`;
const withRecords = (bytes: number) => `${bytes} bytes + ${PARAMETER_RECORD_BYTES} per variable parameter record`;
const datum = (type: number) => `${atLeast(datumPduFixedBytes(type))}, then its datum records`;

/** PDU type → its name (SISO-REF-010 UID 4) and the sizes its Length field may hold. */
const RULES: Readonly<Record<number, Rule>> = {
  1: ['Entity State', withRecords(ENTITY_STATE_BYTES)],
  2: ['Fire', exactly(FIRE_PDU_BYTES)],
  3: ['Detonation', withRecords(DETONATION_PDU_BYTES)],
  4: ['Collision', exactly(COLLISION_PDU_BYTES)],
  11: ['Create Entity', exactly(ENTITY_MANAGEMENT_PDU_BYTES)],
  12: ['Remove Entity', exactly(ENTITY_MANAGEMENT_PDU_BYTES)],
  13: ['Start/Resume', exactly(START_RESUME_PDU_BYTES)],
  14: ['Stop/Freeze', exactly(STOP_FREEZE_PDU_BYTES)],
  15: ['Acknowledge', exactly(ACKNOWLEDGE_PDU_BYTES)],
  16: ['Action Request', datum(16)],
  17: ['Action Response', datum(17)],
  18: ['Data Query', datum(18)],
  19: ['Set Data', datum(19)],
  20: ['Data', datum(20)],
  21: ['Event Report', datum(21)],
  22: ['Comment', datum(22)],
  23: ['Electromagnetic Emission', `${atLeast(EMISSION_PDU_BYTES)}, then its emitter systems`],
  24: ['Designator', exactly(DESIGNATOR_PDU_BYTES)],
  25: ['Transmitter', `${atLeast(TRANSMITTER_PDU_BYTES)}, then modulation parameters and antenna pattern`],
  26: ['Signal', `${atLeast(SIGNAL_PDU_BYTES)}, then its data`],
  27: ['Receiver', exactly(RECEIVER_PDU_BYTES)],
  28: ['IFF', `${atLeast(IFF_LAYER1_BYTES)}, then its layers`],
  41: ['Environmental Process', `${atLeast(ENVIRONMENTAL_PROCESS_PDU_BYTES)}, then its environment records`],
  66: ['Collision-Elastic', exactly(COLLISION_ELASTIC_PDU_BYTES)],
  67: ['Entity State Update', withRecords(ENTITY_STATE_UPDATE_BYTES)],
};

/**
 * The sizes a PDU type's Length field may hold, in words: `Fire PDU: exactly 96 bytes`. A type reckon does not
 * decode needs only its header.
 */
export function pduLengthRule(pduType: number): string {
  const rule = RULES[pduType];
  if (rule === undefined) return `PDU type ${pduType}: ${atLeast(HEADER_BYTES)} (its header)`;
  return `${rule[0]} PDU: ${rule[1]}`;
}

/**
 * The human message of a status for a PDU of `pduType` (the header's type byte): a BAD_LENGTH names that type's
 * own rule; every other status reads as `codecStatusMessage` says.
 */
export function pduStatusMessage(status: number, pduType: number): string {
  const name = CODEC_STATUS_NAMES[status];
  if (name === undefined) return `unknown status ${status}`;
  if (status !== CodecStatus.BAD_LENGTH) return CODEC_STATUS_MESSAGES[name];
  return `the Length field disagrees with the PDU's layout (${pduLengthRule(pduType)})`;
}
