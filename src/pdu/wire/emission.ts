/**
 * The distributed emission regeneration family (IEEE 1278.1-2012 §7.6; 1278.1-1995 §5.3.7): Electromagnetic
 * Emission (23) with its emitter systems, beams and track/jam targets, Designator (24), and IFF (28) with its
 * fixed layer 1 decoded and further layers kept as bytes. Decoded into reused records (systems, beams and targets
 * as struct-of-arrays with a capacity), encoded into a caller's buffer; decoding allocates nothing.
 *
 * An emission system's and a beam's data length fields (in 32-bit words) are kept as sent, and the records are
 * walked by their counts, as Wireshark's dissector does: senders disagree on what those lengths include.
 */
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { EntityIdFields, EventIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

const { checkHeader, checkFixedSize, encodeRefusal, lengthOf, readHeader, readEntityId, readEventId } = fields;
const { readVec3F32, readVec3F64, writeHeader, writeEntityId, writeEventId, writeVec3F32, writeVec3F64 } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

export const EMISSION_PDU_BYTES = 28;
export const EMISSION_SYSTEM_BYTES = 20;
export const EMISSION_BEAM_BYTES = 52;
export const TRACK_JAM_TARGET_BYTES = 8;
/** Fundamental parameter data of a beam (§6.2.22): ten float32. */
export const BEAM_PARAMETERS = 10;
export const DESIGNATOR_PDU_BYTES = 88;
/** IFF PDU layer 1 (§7.6.5.2). */
export const IFF_LAYER1_BYTES = 60;
export const IFF_LAYER_HEADER_BYTES = 4;

/** Electromagnetic Emission PDU: the emitters an entity runs, their beams, and what each beam tracks or jams. */
export class ElectromagneticEmissionRecord extends PduHeaderFields {
  readonly emittingEntityId = new EntityIdFields();
  readonly eventId = new EventIdFields();
  /** 0 heartbeat update, 1 changed data update (SISO-REF-010 UID 77). */
  stateUpdateIndicator = 0;
  systemCount = 0;
  /** Per system: its data length field (32-bit words), beam count, emitter name (UID 75), function (UID 76), emitter number. */
  readonly systemDataLength: Uint8Array;
  readonly systemBeamCount: Uint8Array;
  readonly systemEmitterName: Uint16Array;
  readonly systemFunction: Uint8Array;
  readonly systemEmitterNumber: Uint8Array;
  /** Per system, x y z: the emitter's location in the entity's coordinates, metres. */
  readonly systemLocation: Float64Array;
  /** All beams of all systems in order; `systemBeamCount` says how many belong to each. */
  beamCount = 0;
  readonly beamDataLength: Uint8Array;
  readonly beamId: Uint8Array;
  readonly beamParameterIndex: Uint16Array;
  /**
   * Per beam, ten values: frequency Hz, frequency range Hz, effective radiated power dBm, pulse repetition frequency
   * Hz, pulse width µs, azimuth centre rad, azimuth sweep rad, elevation centre rad, elevation sweep rad, sweep sync.
   */
  readonly beamParameters: Float64Array;
  /** UID 78: 1 search, 2 height finder, 3 acquisition, 4 tracking, … */
  readonly beamFunction: Uint8Array;
  readonly beamTargetCount: Uint8Array;
  readonly beamHighDensity: Uint8Array;
  /** Byte 47 of a beam: padding before v7, the beam status (bit 0: deactivated) from v7. */
  readonly beamStatus: Uint8Array;
  readonly beamJammingModeSequence: Uint32Array;
  /** All track/jam targets of all beams in order. */
  targetCount = 0;
  /** Per target: site, application, entity. */
  readonly targetEntityIds: Uint16Array;
  readonly targetEmitterNumber: Uint8Array;
  readonly targetBeamId: Uint8Array;

  /**
   * @param maxBeams - beams (of all systems) this instance holds. Defaults to the most a 65535-byte PDU can carry.
   * @param maxTargets - track/jam targets it holds. Defaults likewise.
   */
  constructor(maxBeams = 1260, maxTargets = 8192) {
    super(23, 6);
    const systems = 255;
    this.systemDataLength = new Uint8Array(systems);
    this.systemBeamCount = new Uint8Array(systems);
    this.systemEmitterName = new Uint16Array(systems);
    this.systemFunction = new Uint8Array(systems);
    this.systemEmitterNumber = new Uint8Array(systems);
    this.systemLocation = new Float64Array(3 * systems);
    this.beamDataLength = new Uint8Array(maxBeams);
    this.beamId = new Uint8Array(maxBeams);
    this.beamParameterIndex = new Uint16Array(maxBeams);
    this.beamParameters = new Float64Array(BEAM_PARAMETERS * maxBeams);
    this.beamFunction = new Uint8Array(maxBeams);
    this.beamTargetCount = new Uint8Array(maxBeams);
    this.beamHighDensity = new Uint8Array(maxBeams);
    this.beamStatus = new Uint8Array(maxBeams);
    this.beamJammingModeSequence = new Uint32Array(maxBeams);
    this.targetEntityIds = new Uint16Array(3 * maxTargets);
    this.targetEmitterNumber = new Uint8Array(maxTargets);
    this.targetBeamId = new Uint8Array(maxTargets);
  }
}

/** Designator PDU: a laser designator's spot. */
export class DesignatorRecord extends PduHeaderFields {
  readonly designatingEntityId = new EntityIdFields();
  /** SISO-REF-010 UID 80. */
  codeName = 0;
  readonly designatedEntityId = new EntityIdFields();
  /** SISO-REF-010 UID 81. */
  designatorCode = 0;
  /** Watts. */
  power = 0;
  /** Micrometres. */
  wavelength = 0;
  /** The spot relative to the designated entity, in its coordinates, metres. */
  readonly spotRelativeToEntity = new Float64Array(3);
  /** ECEF metres. */
  readonly spotLocation = new Float64Array(3);
  drAlgorithm = 0;
  /** m/s², of the spot. */
  readonly linearAcceleration = new Float64Array(3);

  constructor() {
    super(24, 6);
  }
}

/** IFF PDU: layer 1 decoded (system and its modes), further layers as bytes with their headers. */
export class IffRecord extends PduHeaderFields {
  readonly emittingEntityId = new EntityIdFields();
  readonly eventId = new EventIdFields();
  /** Of the antenna, in the entity's coordinates, metres. */
  readonly relativeAntennaLocation = new Float64Array(3);
  /** System type (UID 82: 1 Mark X/XII/ATCRBS transponder, 2 interrogator, …), name (UID 83), mode (UID 84). */
  systemType = 0;
  systemName = 0;
  systemMode = 0;
  changeOptions = 0;
  /** Bytes 42–43: system designator and system-specific data in v7; padding before, read as 0. */
  systemDesignator = 0;
  systemSpecificData = 0;
  /** Fundamental operational data: system status, alternate parameter 4, information layers, modifier. */
  systemStatus = 0;
  alternateParameter4 = 0;
  /** Bit 1: layer 2 present, bit 2: layer 3, … */
  informationLayers = 0;
  modifier = 0;
  /** Parameters 1–6: modes 1, 2, 3/A, 4, C (altitude) and 6, with their status bits. */
  readonly parameters = new Uint16Array(6);
  /** Layers after layer 1, each a 4-byte header (number, specific information, length in bytes) and its data. */
  layerCount = 0;
  layerBytes = 0;
  readonly layers: Uint8Array;

  /** @param maxLayerBytes - bytes of further layers this instance holds. Defaults to all a PDU can carry. */
  constructor(maxLayerBytes = 0xffff - IFF_LAYER1_BYTES) {
    super(28, 6);
    this.layers = new Uint8Array(maxLayerBytes);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/**
 * Walks the systems, beams and targets of an Electromagnetic Emission PDU by their counts.
 * @returns the end of the last record, or -1 when one runs past `pduEnd`; counts beams and targets into `sizes`.
 */
function walkEmission(bytes: Uint8Array, p: number, pduEnd: number, sizes: Int32Array): number {
  const systems = bytes[p + 25]!;
  let q = p + EMISSION_PDU_BYTES;
  let beams = 0,
    targets = 0;
  for (let s = 0; s < systems; s++) {
    if (q + EMISSION_SYSTEM_BYTES > pduEnd) return -1;
    const systemBeams = bytes[q + 1]!;
    q += EMISSION_SYSTEM_BYTES;
    for (let b = 0; b < systemBeams; b++) {
      if (q + EMISSION_BEAM_BYTES > pduEnd) return -1;
      const beamTargets = bytes[q + 45]!;
      q += EMISSION_BEAM_BYTES + TRACK_JAM_TARGET_BYTES * beamTargets;
      if (q > pduEnd) return -1;
      beams++;
      targets += beamTargets;
    }
  }
  sizes[0] = beams;
  sizes[1] = targets;
  return q;
}

const sizes = new Int32Array(2);

/**
 * Decodes an Electromagnetic Emission PDU into `out`. Up to 7 bytes of padding after the last record are let
 * through.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (under 28 bytes), BAD_RECORD_LENGTH (the
 *   counts of systems, beams and targets disagree with the Length field) or TOO_MANY_PARAMETERS.
 */
export function decodeElectromagneticEmissionInto(
  out: ElectromagneticEmissionRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkHeader(bytes, offset, end, 23, EMISSION_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const p = offset;
  const pduEnd = p + lengthOf(bytes, p, end);
  const last = walkEmission(bytes, p, pduEnd, sizes);
  if (last < 0 || pduEnd - last >= 8) return CodecStatus.BAD_RECORD_LENGTH;
  if (sizes[0]! > out.beamId.length || sizes[1]! > out.targetBeamId.length) return CodecStatus.TOO_MANY_PARAMETERS;
  const v = readViews.of(bytes);
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.emittingEntityId, v, p + 12);
  readEventId(out.eventId, v, p + 18);
  out.stateUpdateIndicator = bytes[p + 24]!;
  const systems = bytes[p + 25]!;
  out.systemCount = systems;
  let q = p + EMISSION_PDU_BYTES;
  let beam = 0,
    target = 0;
  for (let s = 0; s < systems; s++) {
    out.systemDataLength[s] = bytes[q]!;
    const systemBeams = bytes[q + 1]!;
    out.systemBeamCount[s] = systemBeams;
    out.systemEmitterName[s] = v.getUint16(q + 4);
    out.systemFunction[s] = bytes[q + 6]!;
    out.systemEmitterNumber[s] = bytes[q + 7]!;
    for (let i = 0; i < 3; i++) out.systemLocation[3 * s + i] = v.getFloat32(q + 8 + 4 * i);
    q += EMISSION_SYSTEM_BYTES;
    for (let b = 0; b < systemBeams; b++, beam++) {
      out.beamDataLength[beam] = bytes[q]!;
      out.beamId[beam] = bytes[q + 1]!;
      out.beamParameterIndex[beam] = v.getUint16(q + 2);
      for (let i = 0; i < BEAM_PARAMETERS; i++) {
        out.beamParameters[BEAM_PARAMETERS * beam + i] = v.getFloat32(q + 4 + 4 * i);
      }
      out.beamFunction[beam] = bytes[q + 44]!;
      const beamTargets = bytes[q + 45]!;
      out.beamTargetCount[beam] = beamTargets;
      out.beamHighDensity[beam] = bytes[q + 46]!;
      out.beamStatus[beam] = bytes[q + 47]!;
      out.beamJammingModeSequence[beam] = v.getUint32(q + 48);
      q += EMISSION_BEAM_BYTES;
      for (let t = 0; t < beamTargets; t++, target++, q += TRACK_JAM_TARGET_BYTES) {
        out.targetEntityIds[3 * target] = v.getUint16(q);
        out.targetEntityIds[3 * target + 1] = v.getUint16(q + 2);
        out.targetEntityIds[3 * target + 2] = v.getUint16(q + 4);
        out.targetEmitterNumber[target] = bytes[q + 6]!;
        out.targetBeamId[target] = bytes[q + 7]!;
      }
    }
  }
  out.beamCount = beam;
  out.targetCount = target;
  return CodecStatus.OK;
}

/** Bytes `record` encodes to. */
export function encodedElectromagneticEmissionLength(record: ElectromagneticEmissionRecord): number {
  return (
    EMISSION_PDU_BYTES +
    EMISSION_SYSTEM_BYTES * record.systemCount +
    EMISSION_BEAM_BYTES * record.beamCount +
    TRACK_JAM_TARGET_BYTES * record.targetCount
  );
}

/**
 * Writes `record` as an Electromagnetic Emission PDU at `offset` in `out`; the data length fields as the record
 * holds them.
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-BAD_RECORD_LENGTH`
 *   (the per-system beam counts and per-beam target counts do not add up to `beamCount` and `targetCount`).
 */
export function encodeElectromagneticEmissionInto(
  out: Uint8Array,
  record: ElectromagneticEmissionRecord,
  offset = 0,
): number {
  const systems = record.systemCount;
  let beams = 0,
    targets = 0;
  if (!(systems >= 0 && systems <= 255)) return -CodecStatus.BAD_RECORD_LENGTH;
  for (let s = 0; s < systems; s++) beams += record.systemBeamCount[s]!;
  if (beams !== record.beamCount || beams > record.beamId.length) return -CodecStatus.BAD_RECORD_LENGTH;
  for (let b = 0; b < beams; b++) targets += record.beamTargetCount[b]!;
  if (targets !== record.targetCount || targets > record.targetBeamId.length) return -CodecStatus.BAD_RECORD_LENGTH;
  const length = encodedElectromagneticEmissionLength(record);
  if (length > 0xffff) return -CodecStatus.BAD_RECORD_LENGTH;
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 23, length);
  writeEntityId(v, p + 12, record.emittingEntityId);
  writeEventId(v, p + 18, record.eventId);
  v.setUint32(p + 24, ((record.stateUpdateIndicator & 0xff) << 24) | (systems << 16));
  let q = p + EMISSION_PDU_BYTES;
  let beam = 0,
    target = 0;
  for (let s = 0; s < systems; s++) {
    const systemBeams = record.systemBeamCount[s]!;
    v.setUint32(q, (record.systemDataLength[s]! << 24) | (systemBeams << 16));
    v.setUint32(
      q + 4,
      (record.systemEmitterName[s]! << 16) | (record.systemFunction[s]! << 8) | record.systemEmitterNumber[s]!,
    );
    for (let i = 0; i < 3; i++) v.setFloat32(q + 8 + 4 * i, record.systemLocation[3 * s + i]!);
    q += EMISSION_SYSTEM_BYTES;
    for (let b = 0; b < systemBeams; b++, beam++) {
      const beamTargets = record.beamTargetCount[beam]!;
      v.setUint32(
        q,
        (record.beamDataLength[beam]! << 24) | (record.beamId[beam]! << 16) | record.beamParameterIndex[beam]!,
      );
      for (let i = 0; i < BEAM_PARAMETERS; i++) {
        v.setFloat32(q + 4 + 4 * i, record.beamParameters[BEAM_PARAMETERS * beam + i]!);
      }
      v.setUint32(
        q + 44,
        (record.beamFunction[beam]! << 24) |
          (beamTargets << 16) |
          (record.beamHighDensity[beam]! << 8) |
          record.beamStatus[beam]!,
      );
      v.setUint32(q + 48, record.beamJammingModeSequence[beam]!);
      q += EMISSION_BEAM_BYTES;
      for (let t = 0; t < beamTargets; t++, target++, q += TRACK_JAM_TARGET_BYTES) {
        v.setUint16(q, record.targetEntityIds[3 * target]!);
        v.setUint16(q + 2, record.targetEntityIds[3 * target + 1]!);
        v.setUint16(q + 4, record.targetEntityIds[3 * target + 2]!);
        v.setUint16(q + 6, (record.targetEmitterNumber[target]! << 8) | record.targetBeamId[target]!);
      }
    }
  }
  return length;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 88). */
export function decodeDesignatorInto(
  out: DesignatorRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 24, DESIGNATOR_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.designatingEntityId, v, p + 12);
  out.codeName = v.getUint16(p + 18);
  readEntityId(out.designatedEntityId, v, p + 20);
  out.designatorCode = v.getUint16(p + 26);
  out.power = v.getFloat32(p + 28);
  out.wavelength = v.getFloat32(p + 32);
  readVec3F32(out.spotRelativeToEntity, v, p + 36);
  readVec3F64(out.spotLocation, v, p + 48);
  out.drAlgorithm = bytes[p + 72]!;
  readVec3F32(out.linearAcceleration, v, p + 76);
  return CodecStatus.OK;
}

/** @returns the bytes written (88), or `-UNSUPPORTED_VERSION` / `-BUFFER_TOO_SMALL`. */
export function encodeDesignatorInto(out: Uint8Array, record: DesignatorRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, DESIGNATOR_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 24, DESIGNATOR_PDU_BYTES);
  writeEntityId(v, p + 12, record.designatingEntityId);
  v.setUint16(p + 18, record.codeName);
  writeEntityId(v, p + 20, record.designatedEntityId);
  v.setUint16(p + 26, record.designatorCode);
  v.setFloat32(p + 28, record.power);
  v.setFloat32(p + 32, record.wavelength);
  writeVec3F32(v, p + 36, record.spotRelativeToEntity);
  writeVec3F64(v, p + 48, record.spotLocation);
  v.setUint32(p + 72, (record.drAlgorithm & 0xff) << 24);
  writeVec3F32(v, p + 76, record.linearAcceleration);
  return DESIGNATOR_PDU_BYTES;
}

/**
 * Decodes an IFF PDU into `out`: layer 1, then the further layers walked by their own lengths (each at least its
 * 4-byte header); up to 7 bytes of padding after the last are let through.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (under 60 bytes), BAD_RECORD_LENGTH (a
 *   layer's length runs past the Length field) or TOO_MANY_PARAMETERS.
 */
export function decodeIffInto(out: IffRecord, bytes: Uint8Array, offset = 0, end = bytes.length): CodecStatus {
  const check = checkHeader(bytes, offset, end, 28, IFF_LAYER1_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  const pduEnd = p + lengthOf(bytes, p, end);
  const layersAt = p + IFF_LAYER1_BYTES;
  let q = layersAt;
  let layers = 0;
  while (pduEnd - q >= 8) {
    const layerBytes = v.getUint16(q + 2);
    if (layerBytes < IFF_LAYER_HEADER_BYTES || layerBytes > pduEnd - q) return CodecStatus.BAD_RECORD_LENGTH;
    q += layerBytes;
    layers++;
  }
  const held = pduEnd - layersAt;
  if (held > out.layers.length) return CodecStatus.TOO_MANY_PARAMETERS;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.emittingEntityId, v, p + 12);
  readEventId(out.eventId, v, p + 18);
  readVec3F32(out.relativeAntennaLocation, v, p + 24);
  out.systemType = v.getUint16(p + 36);
  out.systemName = v.getUint16(p + 38);
  out.systemMode = bytes[p + 40]!;
  out.changeOptions = bytes[p + 41]!;
  const v7 = bytes[p]! >= 7;
  out.systemDesignator = v7 ? bytes[p + 42]! : 0;
  out.systemSpecificData = v7 ? bytes[p + 43]! : 0;
  out.systemStatus = bytes[p + 44]!;
  out.alternateParameter4 = bytes[p + 45]!;
  out.informationLayers = bytes[p + 46]!;
  out.modifier = bytes[p + 47]!;
  for (let i = 0; i < 6; i++) out.parameters[i] = v.getUint16(p + 48 + 2 * i);
  out.layerCount = layers;
  out.layerBytes = held;
  fields.copyBytes(out.layers, 0, bytes, layersAt, held);
  return CodecStatus.OK;
}

/**
 * Writes `record` as an IFF PDU at `offset` in `out`: layer 1, then `record.layers` as held.
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-BAD_RECORD_LENGTH`.
 */
export function encodeIffInto(out: Uint8Array, record: IffRecord, offset = 0): number {
  const held = record.layerBytes;
  if (!(held >= 0 && held <= record.layers.length && held + IFF_LAYER1_BYTES <= 0xffff)) {
    return -CodecStatus.BAD_RECORD_LENGTH;
  }
  const length = IFF_LAYER1_BYTES + held;
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 28, length);
  writeEntityId(v, p + 12, record.emittingEntityId);
  writeEventId(v, p + 18, record.eventId);
  writeVec3F32(v, p + 24, record.relativeAntennaLocation);
  v.setUint32(p + 36, ((record.systemType & 0xffff) << 16) | (record.systemName & 0xffff));
  const designator =
    record.protocolVersion >= 7 ? ((record.systemDesignator & 0xff) << 8) | (record.systemSpecificData & 0xff) : 0;
  v.setUint32(p + 40, ((record.systemMode & 0xff) << 24) | ((record.changeOptions & 0xff) << 16) | designator);
  v.setUint32(
    p + 44,
    ((record.systemStatus & 0xff) << 24) |
      ((record.alternateParameter4 & 0xff) << 16) |
      ((record.informationLayers & 0xff) << 8) |
      (record.modifier & 0xff),
  );
  for (let i = 0; i < 6; i++) v.setUint16(p + 48 + 2 * i, record.parameters[i]!);
  fields.copyBytes(out, p + IFF_LAYER1_BYTES, record.layers, 0, held);
  return length;
}
