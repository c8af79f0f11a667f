/**
 * DIS wire constants: PDU types, protocol versions and the fixed byte offsets of the header, the Entity State PDU
 * and the Entity State Update PDU (IEEE 1278.1 §5.3.2 / §7.2.2; byte-for-byte the same in v5, v6 and v7).
 */

export const PduType = {
  ENTITY_STATE: 1,
  FIRE: 2,
  DETONATION: 3,
  COLLISION: 4,
  CREATE_ENTITY: 11,
  REMOVE_ENTITY: 12,
  START_RESUME: 13,
  STOP_FREEZE: 14,
  ACKNOWLEDGE: 15,
  ACTION_REQUEST: 16,
  ACTION_RESPONSE: 17,
  DATA_QUERY: 18,
  SET_DATA: 19,
  DATA: 20,
  EVENT_REPORT: 21,
  COMMENT: 22,
  ELECTROMAGNETIC_EMISSION: 23,
  DESIGNATOR: 24,
  TRANSMITTER: 25,
  SIGNAL: 26,
  RECEIVER: 27,
  IFF: 28,
  ENVIRONMENTAL_PROCESS: 41,
  COLLISION_ELASTIC: 66,
  ENTITY_STATE_UPDATE: 67,
  ATTRIBUTE: 72,
} as const;

/** Protocol families (SISO-REF-010 UID 5): header byte 3. */
export const ProtocolFamily = {
  OTHER: 0,
  ENTITY_INFORMATION: 1,
  WARFARE: 2,
  LOGISTICS: 3,
  RADIO_COMMUNICATIONS: 4,
  SIMULATION_MANAGEMENT: 5,
  DISTRIBUTED_EMISSION_REGENERATION: 6,
  ENTITY_MANAGEMENT: 7,
  MINEFIELD: 8,
  SYNTHETIC_ENVIRONMENT: 9,
} as const;

/** 5 = IEEE 1278.1-1995, 6 = IEEE 1278.1A-1998, 7 = IEEE 1278.1-2012: the versions whose Entity State PDU we read. */
export const MIN_PROTOCOL_VERSION = 5;
export const MAX_PROTOCOL_VERSION = 7;

/** Entity information / interaction: the family of PDU types 1 and 67. */
export const PROTOCOL_FAMILY_ENTITY_INFORMATION = 1;

/** Bytes of the header every PDU starts with. */
export const HEADER_BYTES = 12;
/** Entity State PDU without its 16-byte variable parameter records. */
export const ENTITY_STATE_BYTES = 144;
/** Entity State Update PDU without its variable parameter records. */
export const ENTITY_STATE_UPDATE_BYTES = 72;
/** Bytes of one variable parameter record. */
export const PARAMETER_RECORD_BYTES = 16;
/**
 * The largest PDU a receiver accepts unless told otherwise, in bytes: DIS MAX_PDU_SIZE_OCTETS (IEEE 1278.1-2012
 * Table 25; docs/dis-reference.md §4). A receiver's bound, not the wire's: the 16-bit Length field could say up to
 * 65535, and `forEachPdu` walks any Length the datagram holds.
 */
export const MAX_PDU_BYTES = 8192;

/** Header offsets (IEEE 1278.1 §6.2.66). */
export const HeaderOffset = {
  PROTOCOL_VERSION: 0,
  EXERCISE_ID: 1,
  PDU_TYPE: 2,
  PROTOCOL_FAMILY: 3,
  TIMESTAMP: 4,
  LENGTH: 8,
  /** v7 PDU status; padding in v5/v6. */
  PDU_STATUS: 10,
} as const;

/** Entity State PDU body offsets, from the start of the PDU. */
export const EntityStateOffset = {
  ENTITY_ID: 12,
  FORCE_ID: 18,
  PARAMETER_COUNT: 19,
  ENTITY_TYPE: 20,
  ALTERNATIVE_ENTITY_TYPE: 28,
  LINEAR_VELOCITY: 36,
  LOCATION: 48,
  ORIENTATION: 72,
  APPEARANCE: 84,
  DR_ALGORITHM: 88,
  DR_OTHER_PARAMETERS: 89,
  DR_LINEAR_ACCELERATION: 104,
  DR_ANGULAR_VELOCITY: 116,
  MARKING_CHARACTER_SET: 128,
  MARKING: 129,
  CAPABILITIES: 140,
  PARAMETERS: 144,
} as const;

/** Entity State Update PDU offsets: no type, force, DR block, marking or capabilities. */
export const EntityStateUpdateOffset = {
  ENTITY_ID: 12,
  PARAMETER_COUNT: 19,
  LINEAR_VELOCITY: 20,
  LOCATION: 32,
  ORIENTATION: 56,
  APPEARANCE: 68,
  PARAMETERS: 72,
} as const;

export const DR_OTHER_PARAMETER_BYTES = 15;
export const MARKING_BYTES = 11;

/** Variable parameter record types (v7 §6.2.94; v5/v6 type designator uses 0 and 1 the same way). */
export const ParameterRecordType = {
  ARTICULATED_PART: 0,
  ATTACHED_PART: 1,
  SEPARATION: 2,
  ENTITY_TYPE: 3,
  ENTITY_ASSOCIATION: 4,
} as const;

/** Names of the PDU types a summary is likely to meet (IEEE 1278.1 / SISO-REF-010 UID 4). */
export const PDU_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'Entity State',
  2: 'Fire',
  3: 'Detonation',
  4: 'Collision',
  11: 'Create Entity',
  12: 'Remove Entity',
  13: 'Start/Resume',
  14: 'Stop/Freeze',
  15: 'Acknowledge',
  20: 'Data',
  21: 'Set Data',
  22: 'Comment',
  23: 'Electromagnetic Emission',
  24: 'Designator',
  25: 'Transmitter',
  26: 'Signal',
  27: 'Receiver',
  41: 'Environmental Process',
  67: 'Entity State Update',
  72: 'Attribute',
};
