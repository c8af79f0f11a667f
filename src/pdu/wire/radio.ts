/**
 * The radio communications family (IEEE 1278.1-2012 §7.7; 1278.1-1995 §5.3.8): Transmitter (25), Signal (26) and
 * Receiver (27). A radio is named by its entity and a radio number; the Transmitter PDU says how it transmits, the
 * Signal PDU carries what it sends, the Receiver PDU says what a radio hears. Lengths inside these PDUs are the
 * classic trap: the modulation parameter and antenna pattern lengths count bytes, the Signal PDU's data length
 * counts **bits** (its data padded to a 32-bit boundary). Decoding allocates nothing: modulation parameters and
 * antenna patterns are copied into the record's buffer, a signal's data is a view of the datagram.
 */
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { EntityIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

const { checkHeader, checkFixedSize, encodeRefusal, lengthOf, readHeader, readEntityId, readVec3F32, readVec3F64 } =
  fields;
const { writeHeader, writeEntityId, writeVec3F32, writeVec3F64, copyBytes } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** Transmitter PDU before its modulation parameters, antenna pattern and (v7) variable transmitter parameters. */
export const TRANSMITTER_PDU_BYTES = 104;
/** Signal PDU before its data. */
export const SIGNAL_PDU_BYTES = 32;
export const RECEIVER_PDU_BYTES = 36;
/** Bytes after the fixed part a Transmitter record holds by default: all a 65535-byte PDU could carry. */
export const MAX_TRANSMITTER_TAIL_BYTES = 0xffff - TRANSMITTER_PDU_BYTES;
/** A variable transmitter parameter record's type and length, before its fields (v7, §6.2.95). */
export const VTP_HEADER_BYTES = 6;

/** Transmitter PDU: one radio's state (§7.7.2). */
export class TransmitterRecord extends PduHeaderFields {
  /** The entity the radio belongs to (or the radio itself, as an entity). */
  readonly entityId = new EntityIdFields();
  /** Radio number within that entity. */
  radioId = 0;
  /** Radio type (§6.2.71): kind, domain, country, category, nomenclature version, nomenclature (16 bits). */
  readonly radioType = new Uint16Array(6);
  /** 0 off, 1 on but not transmitting, 2 on and transmitting (SISO-REF-010 UID 164). */
  transmitState = 0;
  /** SISO-REF-010 UID 165: 0 other, 1 pilot, 2 copilot, … */
  inputSource = 0;
  /** ECEF metres. */
  readonly antennaLocation = new Float64Array(3);
  /** In the entity's coordinates, metres. */
  readonly relativeAntennaLocation = new Float64Array(3);
  /** SISO-REF-010 UID 167: 0 isotropic (omnidirectional), 1 beam, 2 spherical harmonic, … */
  antennaPatternType = 0;
  /** Hz, from a 64-bit field: exact below 2^53 Hz. */
  frequencyHz = 0;
  /** Hz. */
  bandwidthHz = 0;
  /** Average power, dBm (decibel-milliwatts). */
  powerDbm = 0;
  /** Modulation type: spread spectrum bits, major modulation, detail, radio system. */
  readonly modulationType = new Uint16Array(4);
  cryptoSystem = 0;
  /** Crypto key id; bit 15 is the encryption mode (v6 on). */
  cryptoKeyId = 0;
  modulationParameterBytes = 0;
  antennaPatternBytes = 0;
  /** v7: number of variable transmitter parameter records (bytes 30–31, padding before v7). */
  variableParameterCount = 0;
  variableParameterBytes = 0;
  /** Modulation parameters, then the antenna pattern, then (v7) the variable transmitter parameter records. */
  readonly tail: Uint8Array;

  /** @param maxTailBytes - bytes after the fixed part this instance can hold. Defaults to all a PDU can carry. */
  constructor(maxTailBytes = MAX_TRANSMITTER_TAIL_BYTES) {
    super(25, 4);
    this.tail = new Uint8Array(maxTailBytes);
  }
}

/** Signal PDU: a radio's transmission (§7.7.3). Its data is a view of the decoded bytes, not a copy. */
export class SignalRecord extends PduHeaderFields {
  readonly entityId = new EntityIdFields();
  radioId = 0;
  /** Bits 15–14 the encoding class (0 encoded audio, 1 raw binary, 2 application-specific, 3 database index), bits 13–0 the encoding type or TDL message count. */
  encodingScheme = 0;
  /** Tactical data link type (SISO-REF-010 UID 178); 0 for voice. */
  tdlType = 0;
  /** Samples per second, or bits per second for raw binary data. */
  sampleRate = 0;
  /** The data field's length in bits. */
  dataLengthBits = 0;
  samples = 0;
  /** The bytes the data is in: the decoded datagram (valid while it is), or a buffer of the caller's own. */
  data: Uint8Array = new Uint8Array(0);
  /** Where the data starts in `data`; `ceil(dataLengthBits / 8)` bytes long. */
  dataOffset = 0;

  constructor() {
    super(26, 4);
  }
}

/** Receiver PDU: what one radio receives (§7.7.4). */
export class ReceiverRecord extends PduHeaderFields {
  readonly entityId = new EntityIdFields();
  radioId = 0;
  /** 0 off, 1 on but not receiving (or not ready), 2 on and receiving (SISO-REF-010 UID 179). */
  receiverState = 0;
  /** dBm. */
  receivedPowerDbm = 0;
  /** The radio it hears. */
  readonly transmitterEntityId = new EntityIdFields();
  transmitterRadioId = 0;

  constructor() {
    super(27, 4);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/** The data's bytes: `ceil(bits / 8)`. */
export function signalDataBytes(dataLengthBits: number): number {
  return Math.ceil(dataLengthBits / 8);
}

/** A signal's data as a view (allocates the view; valid as long as `record.data` is). */
export function signalData(record: SignalRecord): Uint8Array {
  return record.data.subarray(record.dataOffset, record.dataOffset + signalDataBytes(record.dataLengthBits));
}

/** The transmitter's modulation parameters, antenna pattern and variable parameter bytes as views (allocates). */
export function transmitterParts(record: TransmitterRecord): {
  modulationParameters: Uint8Array;
  antennaPattern: Uint8Array;
  variableParameters: Uint8Array;
} {
  const a = record.modulationParameterBytes,
    b = a + record.antennaPatternBytes;
  return {
    modulationParameters: record.tail.subarray(0, a),
    antennaPattern: record.tail.subarray(a, b),
    variableParameters: record.tail.subarray(b, b + record.variableParameterBytes),
  };
}

/**
 * Decodes a Transmitter PDU into `out`. In v7 the variable transmitter parameter records are walked by their own
 * lengths; before v7 bytes 30–31 are padding. Up to 7 bytes of padding after the last part are let through.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (under 104 bytes), BAD_RECORD_LENGTH (the
 *   parts' lengths disagree with the Length field) or TOO_MANY_PARAMETERS (more bytes than `out` holds).
 */
export function decodeTransmitterInto(
  out: TransmitterRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkHeader(bytes, offset, end, 25, TRANSMITTER_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  const pduEnd = p + lengthOf(bytes, p, end);
  const version = bytes[p]!;
  const modulationBytes = bytes[p + 100]!;
  const patternBytes = v.getUint16(p + 70);
  const count = version >= 7 ? v.getUint16(p + 30) : 0;
  const tailAt = p + TRANSMITTER_PDU_BYTES;
  let q = tailAt + modulationBytes + patternBytes;
  if (q > pduEnd) return CodecStatus.BAD_RECORD_LENGTH;
  for (let i = 0; i < count; i++) {
    if (q + VTP_HEADER_BYTES > pduEnd) return CodecStatus.BAD_RECORD_LENGTH;
    const recordBytes = v.getUint16(q + 4);
    if (recordBytes < VTP_HEADER_BYTES || recordBytes > pduEnd - q) return CodecStatus.BAD_RECORD_LENGTH;
    q += recordBytes;
  }
  if (pduEnd - q >= 8) return CodecStatus.BAD_RECORD_LENGTH;
  if (q - tailAt > out.tail.length) return CodecStatus.TOO_MANY_PARAMETERS;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.entityId, v, p + 12);
  out.radioId = v.getUint16(p + 18);
  const type = out.radioType;
  let word = v.getUint32(p + 20);
  type[0] = word >>> 24;
  type[1] = (word >>> 16) & 0xff;
  type[2] = word & 0xffff;
  word = v.getUint32(p + 24);
  type[3] = word >>> 24;
  type[4] = (word >>> 16) & 0xff;
  type[5] = word & 0xffff;
  out.transmitState = bytes[p + 28]!;
  out.inputSource = bytes[p + 29]!;
  out.variableParameterCount = count;
  readVec3F64(out.antennaLocation, v, p + 32);
  readVec3F32(out.relativeAntennaLocation, v, p + 56);
  out.antennaPatternType = v.getUint16(p + 68);
  out.frequencyHz = v.getUint32(p + 72) * 0x1_0000_0000 + v.getUint32(p + 76);
  out.bandwidthHz = v.getFloat32(p + 80);
  out.powerDbm = v.getFloat32(p + 84);
  const modulation = out.modulationType;
  for (let i = 0; i < 4; i++) modulation[i] = v.getUint16(p + 88 + 2 * i);
  out.cryptoSystem = v.getUint16(p + 96);
  out.cryptoKeyId = v.getUint16(p + 98);
  out.modulationParameterBytes = modulationBytes;
  out.antennaPatternBytes = patternBytes;
  out.variableParameterBytes = q - tailAt - modulationBytes - patternBytes;
  copyBytes(out.tail, 0, bytes, tailAt, q - tailAt);
  return CodecStatus.OK;
}

/** Bytes `record` encodes to: 104 and its parts (variable transmitter parameters in v7 only). */
export function encodedTransmitterLength(record: TransmitterRecord): number {
  const variable = record.protocolVersion >= 7 ? record.variableParameterBytes : 0;
  return TRANSMITTER_PDU_BYTES + record.modulationParameterBytes + record.antennaPatternBytes + variable;
}

/**
 * Writes `record` as a Transmitter PDU at `offset` in `out`, its parts from `record.tail` (before v7 without
 * variable transmitter parameters, whose count bytes are padding there).
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-BAD_RECORD_LENGTH`
 *   (modulation parameters over 255 bytes, parts beyond the tail or a PDU over 65535 bytes).
 */
export function encodeTransmitterInto(out: Uint8Array, record: TransmitterRecord, offset = 0): number {
  const tailBytes = encodedTransmitterLength(record) - TRANSMITTER_PDU_BYTES;
  if (
    !(record.modulationParameterBytes >= 0 && record.modulationParameterBytes <= 0xff) ||
    !(record.antennaPatternBytes >= 0 && record.antennaPatternBytes <= 0xffff) ||
    !(record.variableParameterBytes >= 0) ||
    !(tailBytes <= record.tail.length && tailBytes + TRANSMITTER_PDU_BYTES <= 0xffff)
  ) {
    return -CodecStatus.BAD_RECORD_LENGTH;
  }
  const length = TRANSMITTER_PDU_BYTES + tailBytes;
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 25, length);
  writeEntityId(v, p + 12, record.entityId);
  v.setUint16(p + 18, record.radioId);
  const t = record.radioType;
  v.setUint32(p + 20, ((t[0]! & 0xff) << 24) | ((t[1]! & 0xff) << 16) | t[2]!);
  v.setUint32(p + 24, ((t[3]! & 0xff) << 24) | ((t[4]! & 0xff) << 16) | t[5]!);
  const count = record.protocolVersion >= 7 ? record.variableParameterCount & 0xffff : 0;
  v.setUint32(p + 28, ((record.transmitState & 0xff) << 24) | ((record.inputSource & 0xff) << 16) | count);
  writeVec3F64(v, p + 32, record.antennaLocation);
  writeVec3F32(v, p + 56, record.relativeAntennaLocation);
  v.setUint32(p + 68, ((record.antennaPatternType & 0xffff) << 16) | record.antennaPatternBytes);
  const frequency = record.frequencyHz;
  const high = Math.floor(frequency / 0x1_0000_0000);
  v.setUint32(p + 72, high);
  v.setUint32(p + 76, frequency - high * 0x1_0000_0000);
  v.setFloat32(p + 80, record.bandwidthHz);
  v.setFloat32(p + 84, record.powerDbm);
  const modulation = record.modulationType;
  for (let i = 0; i < 4; i++) v.setUint16(p + 88 + 2 * i, modulation[i]!);
  v.setUint32(p + 96, ((record.cryptoSystem & 0xffff) << 16) | (record.cryptoKeyId & 0xffff));
  v.setUint32(p + 100, record.modulationParameterBytes << 24);
  copyBytes(out, p + TRANSMITTER_PDU_BYTES, record.tail, 0, tailBytes);
  return length;
}

/**
 * Decodes a Signal PDU into `out`: its data stays in `bytes` (`out.data = bytes`, `out.dataOffset`), valid as long
 * as `bytes` holds it. The data length counts bits; up to 7 bytes of padding after the data are let through.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (under 32 bytes) or BAD_RECORD_LENGTH
 *   (the data length in bits disagrees with the Length field: a length in bytes, for one).
 */
export function decodeSignalInto(out: SignalRecord, bytes: Uint8Array, offset = 0, end = bytes.length): CodecStatus {
  const check = checkHeader(bytes, offset, end, 26, SIGNAL_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  const bits = v.getUint16(p + 28);
  const room = lengthOf(bytes, p, end) - SIGNAL_PDU_BYTES - signalDataBytes(bits);
  if (room < 0 || room >= 8) return CodecStatus.BAD_RECORD_LENGTH;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.entityId, v, p + 12);
  out.radioId = v.getUint16(p + 18);
  out.encodingScheme = v.getUint16(p + 20);
  out.tdlType = v.getUint16(p + 22);
  out.sampleRate = v.getUint32(p + 24);
  out.dataLengthBits = bits;
  out.samples = v.getUint16(p + 30);
  out.data = bytes;
  out.dataOffset = p + SIGNAL_PDU_BYTES;
  return CodecStatus.OK;
}

/** Bytes `record` encodes to: 32, the data, zero padding to a 32-bit boundary. */
export function encodedSignalLength(record: SignalRecord): number {
  return SIGNAL_PDU_BYTES + Math.ceil(signalDataBytes(record.dataLengthBits) / 4) * 4;
}

/**
 * Writes `record` as a Signal PDU at `offset` in `out`: the data from `record.data` at `record.dataOffset`, zero
 * padded to a 32-bit boundary.
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-BAD_RECORD_LENGTH`
 *   (a data length over 65535 bits or beyond `record.data`).
 */
export function encodeSignalInto(out: Uint8Array, record: SignalRecord, offset = 0): number {
  const bits = record.dataLengthBits;
  const dataBytes = signalDataBytes(bits);
  if (!(bits >= 0 && bits <= 0xffff && record.dataOffset >= 0 && record.dataOffset + dataBytes <= record.data.length)) {
    return -CodecStatus.BAD_RECORD_LENGTH;
  }
  const length = encodedSignalLength(record);
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 26, length);
  writeEntityId(v, p + 12, record.entityId);
  v.setUint16(p + 18, record.radioId);
  v.setUint32(p + 20, ((record.encodingScheme & 0xffff) << 16) | (record.tdlType & 0xffff));
  v.setUint32(p + 24, record.sampleRate);
  v.setUint32(p + 28, (bits << 16) | (record.samples & 0xffff));
  copyBytes(out, p + SIGNAL_PDU_BYTES, record.data, record.dataOffset, dataBytes);
  out.fill(0, p + SIGNAL_PDU_BYTES + dataBytes, p + length);
  return length;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 36). */
export function decodeReceiverInto(
  out: ReceiverRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 27, RECEIVER_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.entityId, v, p + 12);
  out.radioId = v.getUint16(p + 18);
  out.receiverState = v.getUint16(p + 20);
  out.receivedPowerDbm = v.getFloat32(p + 24);
  readEntityId(out.transmitterEntityId, v, p + 28);
  out.transmitterRadioId = v.getUint16(p + 34);
  return CodecStatus.OK;
}

/** @returns the bytes written (36), or `-UNSUPPORTED_VERSION` / `-BUFFER_TOO_SMALL`. */
export function encodeReceiverInto(out: Uint8Array, record: ReceiverRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, RECEIVER_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 27, RECEIVER_PDU_BYTES);
  writeEntityId(v, p + 12, record.entityId);
  v.setUint16(p + 18, record.radioId);
  v.setUint32(p + 20, (record.receiverState & 0xffff) << 16);
  v.setFloat32(p + 24, record.receivedPowerDbm);
  writeEntityId(v, p + 28, record.transmitterEntityId);
  v.setUint16(p + 34, record.transmitterRadioId);
  return RECEIVER_PDU_BYTES;
}
