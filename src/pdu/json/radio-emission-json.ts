/**
 * JSON forms of the radio, distributed emission, environmental and other PDUs (`src/pdu/schema/pdu-schemas.ts`): record to
 * JSON and back. Used through `pduRecordToJson` / `pduRecordFromJson` (src/pdu/json/pdu-json.ts).
 */
import { OtherPduRecord } from '../wire/any-pdu.js';
import { BEAM_PARAMETERS, DesignatorRecord, ElectromagneticEmissionRecord, IffRecord } from '../wire/emission.js';
import { EnvironmentalProcessRecord } from '../wire/environmental-process.js';
import {
  entityIdInto,
  entityIdJson,
  entityTypeInto,
  entityTypeJson,
  eventIdInto,
  eventIdJson,
  headerFromJson,
  headerToJson,
  hexIntoChecked,
  hexOf,
  vec3Into,
  vec3Json,
} from './pdu-json-parts.js';
import type {
  DesignatorPdu,
  ElectromagneticEmissionPdu,
  EnvironmentalProcessPdu,
  IffPdu,
  OtherPdu,
  ReceiverPdu,
  SignalPdu,
  TransmitterPdu,
} from '../schema/pdu-schemas.js';
import { ReceiverRecord, SignalRecord, signalDataBytes, TransmitterRecord, VTP_HEADER_BYTES } from '../wire/radio.js';

export function transmitterToJson(r: TransmitterRecord): TransmitterPdu {
  const t = r.radioType,
    m = r.modulationType;
  const variableTransmitterParameters = [];
  let q = r.modulationParameterBytes + r.antennaPatternBytes;
  const end = q + r.variableParameterBytes;
  for (let i = 0; i < r.variableParameterCount && q + VTP_HEADER_BYTES <= end; i++) {
    const recordType = ((r.tail[q]! << 24) | (r.tail[q + 1]! << 16) | (r.tail[q + 2]! << 8) | r.tail[q + 3]!) >>> 0;
    const bytes = (r.tail[q + 4]! << 8) | r.tail[q + 5]!;
    variableTransmitterParameters.push({
      recordType,
      data: hexOf(r.tail, q + VTP_HEADER_BYTES, bytes - VTP_HEADER_BYTES),
    });
    q += bytes;
  }
  return {
    ...headerToJson(r),
    pduType: 25,
    entityId: entityIdJson(r.entityId),
    radioId: r.radioId,
    radioType: {
      kind: t[0]!,
      domain: t[1]!,
      country: t[2]!,
      category: t[3]!,
      nomenclatureVersion: t[4]!,
      nomenclature: t[5]!,
    },
    transmitState: r.transmitState,
    inputSource: r.inputSource,
    antennaLocation: vec3Json(r.antennaLocation),
    relativeAntennaLocation: vec3Json(r.relativeAntennaLocation),
    antennaPatternType: r.antennaPatternType,
    frequencyHz: r.frequencyHz,
    bandwidthHz: r.bandwidthHz,
    powerDbm: r.powerDbm,
    modulationType: { spreadSpectrum: m[0]!, major: m[1]!, detail: m[2]!, radioSystem: m[3]! },
    cryptoSystem: r.cryptoSystem,
    cryptoKeyId: r.cryptoKeyId,
    modulationParameters: hexOf(r.tail, 0, r.modulationParameterBytes),
    antennaPattern: hexOf(r.tail, r.modulationParameterBytes, r.antennaPatternBytes),
    variableTransmitterParameters,
  };
}

export function transmitterFromJson(p: TransmitterPdu): TransmitterRecord {
  const r = new TransmitterRecord();
  headerFromJson(r, p);
  entityIdInto(r.entityId, p.entityId);
  r.radioId = p.radioId;
  const t = p.radioType;
  r.radioType.set([t.kind, t.domain, t.country, t.category, t.nomenclatureVersion, t.nomenclature]);
  r.transmitState = p.transmitState;
  r.inputSource = p.inputSource;
  vec3Into(r.antennaLocation, p.antennaLocation);
  vec3Into(r.relativeAntennaLocation, p.relativeAntennaLocation);
  r.antennaPatternType = p.antennaPatternType;
  r.frequencyHz = p.frequencyHz;
  r.bandwidthHz = p.bandwidthHz;
  r.powerDbm = p.powerDbm;
  const m = p.modulationType;
  r.modulationType.set([m.spreadSpectrum, m.major, m.detail, m.radioSystem]);
  r.cryptoSystem = p.cryptoSystem;
  r.cryptoKeyId = p.cryptoKeyId;
  let q = 0;
  q += r.modulationParameterBytes = hexIntoChecked(r.tail, q, p.modulationParameters, 'modulation parameters');
  q += r.antennaPatternBytes = hexIntoChecked(r.tail, q, p.antennaPattern, 'antenna pattern');
  const start = q;
  for (const vtp of p.variableTransmitterParameters) {
    const bytes = VTP_HEADER_BYTES + (vtp.data.length >>> 1);
    if (bytes > 0xffff || q + bytes > r.tail.length) throw new RangeError('variable transmitter parameters too long');
    new DataView(r.tail.buffer).setUint32(q, vtp.recordType);
    new DataView(r.tail.buffer).setUint16(q + 4, bytes);
    hexIntoChecked(r.tail, q + VTP_HEADER_BYTES, vtp.data, 'variable transmitter parameter');
    q += bytes;
  }
  r.variableParameterCount = p.variableTransmitterParameters.length;
  r.variableParameterBytes = q - start;
  return r;
}

export function signalToJson(r: SignalRecord): SignalPdu {
  return {
    ...headerToJson(r),
    pduType: 26,
    entityId: entityIdJson(r.entityId),
    radioId: r.radioId,
    encodingScheme: r.encodingScheme,
    encodingClass: r.encodingScheme >>> 14,
    tdlType: r.tdlType,
    sampleRate: r.sampleRate,
    dataLengthBits: r.dataLengthBits,
    samples: r.samples,
    data: hexOf(r.data, r.dataOffset, signalDataBytes(r.dataLengthBits)),
  };
}

export function signalFromJson(p: SignalPdu): SignalRecord {
  const r = new SignalRecord();
  headerFromJson(r, p);
  entityIdInto(r.entityId, p.entityId);
  r.radioId = p.radioId;
  r.encodingScheme = p.encodingScheme;
  r.tdlType = p.tdlType;
  r.sampleRate = p.sampleRate;
  r.dataLengthBits = p.dataLengthBits;
  r.samples = p.samples;
  r.data = new Uint8Array(p.data.length >>> 1);
  hexIntoChecked(r.data, 0, p.data, 'signal data');
  if (signalDataBytes(p.dataLengthBits) !== r.data.length) {
    throw new RangeError(
      `signal data: ${p.dataLengthBits} bits need ${signalDataBytes(p.dataLengthBits)} bytes, the data has ${r.data.length}`,
    );
  }
  return r;
}

export function receiverToJson(r: ReceiverRecord): ReceiverPdu {
  return {
    ...headerToJson(r),
    pduType: 27,
    entityId: entityIdJson(r.entityId),
    radioId: r.radioId,
    receiverState: r.receiverState,
    receivedPowerDbm: r.receivedPowerDbm,
    transmitterEntityId: entityIdJson(r.transmitterEntityId),
    transmitterRadioId: r.transmitterRadioId,
  };
}

export function receiverFromJson(p: ReceiverPdu): ReceiverRecord {
  const r = new ReceiverRecord();
  headerFromJson(r, p);
  entityIdInto(r.entityId, p.entityId);
  r.radioId = p.radioId;
  r.receiverState = p.receiverState;
  r.receivedPowerDbm = p.receivedPowerDbm;
  entityIdInto(r.transmitterEntityId, p.transmitterEntityId);
  r.transmitterRadioId = p.transmitterRadioId;
  return r;
}

export function emissionToJson(r: ElectromagneticEmissionRecord): ElectromagneticEmissionPdu {
  const systems = [];
  let beam = 0,
    target = 0;
  for (let s = 0; s < r.systemCount; s++) {
    const beams = [];
    for (let b = 0; b < r.systemBeamCount[s]!; b++, beam++) {
      const f = r.beamParameters.subarray(BEAM_PARAMETERS * beam, BEAM_PARAMETERS * (beam + 1));
      const targets = [];
      for (let t = 0; t < r.beamTargetCount[beam]!; t++, target++) {
        const ids = r.targetEntityIds;
        targets.push({
          entityId: { site: ids[3 * target]!, application: ids[3 * target + 1]!, entity: ids[3 * target + 2]! },
          emitterNumber: r.targetEmitterNumber[target]!,
          beamId: r.targetBeamId[target]!,
        });
      }
      beams.push({
        dataLength: r.beamDataLength[beam]!,
        beamId: r.beamId[beam]!,
        parameterIndex: r.beamParameterIndex[beam]!,
        frequency: f[0]!,
        frequencyRange: f[1]!,
        effectiveRadiatedPower: f[2]!,
        pulseRepetitionFrequency: f[3]!,
        pulseWidth: f[4]!,
        azimuthCenter: f[5]!,
        azimuthSweep: f[6]!,
        elevationCenter: f[7]!,
        elevationSweep: f[8]!,
        sweepSync: f[9]!,
        beamFunction: r.beamFunction[beam]!,
        highDensity: r.beamHighDensity[beam]!,
        beamStatus: r.beamStatus[beam]!,
        jammingModeSequence: r.beamJammingModeSequence[beam]!,
        targets,
      });
    }
    systems.push({
      dataLength: r.systemDataLength[s]!,
      emitterName: r.systemEmitterName[s]!,
      function: r.systemFunction[s]!,
      emitterNumber: r.systemEmitterNumber[s]!,
      location: vec3Json(r.systemLocation, 3 * s),
      beams,
    });
  }
  return {
    ...headerToJson(r),
    pduType: 23,
    emittingEntityId: entityIdJson(r.emittingEntityId),
    eventId: eventIdJson(r.eventId),
    stateUpdateIndicator: r.stateUpdateIndicator,
    systems,
  };
}

export function emissionFromJson(p: ElectromagneticEmissionPdu): ElectromagneticEmissionRecord {
  const beams = p.systems.reduce((n, s) => n + s.beams.length, 0);
  const targets = p.systems.reduce((n, s) => n + s.beams.reduce((m, b) => m + b.targets.length, 0), 0);
  const r = new ElectromagneticEmissionRecord(beams, targets);
  headerFromJson(r, p);
  entityIdInto(r.emittingEntityId, p.emittingEntityId);
  eventIdInto(r.eventId, p.eventId);
  r.stateUpdateIndicator = p.stateUpdateIndicator;
  let beam = 0,
    target = 0;
  p.systems.forEach((s, i) => {
    r.systemDataLength[i] = s.dataLength;
    r.systemBeamCount[i] = s.beams.length;
    r.systemEmitterName[i] = s.emitterName;
    r.systemFunction[i] = s.function;
    r.systemEmitterNumber[i] = s.emitterNumber;
    vec3Into(r.systemLocation, s.location, 3 * i);
    for (const b of s.beams) {
      r.beamDataLength[beam] = b.dataLength;
      r.beamId[beam] = b.beamId;
      r.beamParameterIndex[beam] = b.parameterIndex;
      r.beamParameters.set(
        [
          b.frequency,
          b.frequencyRange,
          b.effectiveRadiatedPower,
          b.pulseRepetitionFrequency,
          b.pulseWidth,
          b.azimuthCenter,
          b.azimuthSweep,
          b.elevationCenter,
          b.elevationSweep,
          b.sweepSync,
        ],
        BEAM_PARAMETERS * beam,
      );
      r.beamFunction[beam] = b.beamFunction;
      r.beamTargetCount[beam] = b.targets.length;
      r.beamHighDensity[beam] = b.highDensity;
      r.beamStatus[beam] = b.beamStatus;
      r.beamJammingModeSequence[beam] = b.jammingModeSequence;
      for (const t of b.targets) {
        r.targetEntityIds.set([t.entityId.site, t.entityId.application, t.entityId.entity], 3 * target);
        r.targetEmitterNumber[target] = t.emitterNumber;
        r.targetBeamId[target] = t.beamId;
        target++;
      }
      beam++;
    }
  });
  r.systemCount = p.systems.length;
  r.beamCount = beam;
  r.targetCount = target;
  return r;
}

export function designatorToJson(r: DesignatorRecord): DesignatorPdu {
  return {
    ...headerToJson(r),
    pduType: 24,
    designatingEntityId: entityIdJson(r.designatingEntityId),
    codeName: r.codeName,
    designatedEntityId: entityIdJson(r.designatedEntityId),
    designatorCode: r.designatorCode,
    power: r.power,
    wavelength: r.wavelength,
    spotRelativeToEntity: vec3Json(r.spotRelativeToEntity),
    spotLocation: vec3Json(r.spotLocation),
    drAlgorithm: r.drAlgorithm,
    linearAcceleration: vec3Json(r.linearAcceleration),
  };
}

export function designatorFromJson(p: DesignatorPdu): DesignatorRecord {
  const r = new DesignatorRecord();
  headerFromJson(r, p);
  entityIdInto(r.designatingEntityId, p.designatingEntityId);
  r.codeName = p.codeName;
  entityIdInto(r.designatedEntityId, p.designatedEntityId);
  r.designatorCode = p.designatorCode;
  r.power = p.power;
  r.wavelength = p.wavelength;
  vec3Into(r.spotRelativeToEntity, p.spotRelativeToEntity);
  vec3Into(r.spotLocation, p.spotLocation);
  r.drAlgorithm = p.drAlgorithm;
  vec3Into(r.linearAcceleration, p.linearAcceleration);
  return r;
}

export function iffToJson(r: IffRecord): IffPdu {
  const q = r.parameters;
  return {
    ...headerToJson(r),
    pduType: 28,
    emittingEntityId: entityIdJson(r.emittingEntityId),
    eventId: eventIdJson(r.eventId),
    relativeAntennaLocation: vec3Json(r.relativeAntennaLocation),
    systemType: r.systemType,
    systemName: r.systemName,
    systemMode: r.systemMode,
    changeOptions: r.changeOptions,
    systemDesignator: r.systemDesignator,
    systemSpecificData: r.systemSpecificData,
    systemStatus: r.systemStatus,
    alternateParameter4: r.alternateParameter4,
    informationLayers: r.informationLayers,
    modifier: r.modifier,
    parameters: [q[0]!, q[1]!, q[2]!, q[3]!, q[4]!, q[5]!],
    layers: hexOf(r.layers, 0, r.layerBytes),
  };
}

export function iffFromJson(p: IffPdu): IffRecord {
  const r = new IffRecord(p.layers.length >>> 1);
  headerFromJson(r, p);
  entityIdInto(r.emittingEntityId, p.emittingEntityId);
  eventIdInto(r.eventId, p.eventId);
  vec3Into(r.relativeAntennaLocation, p.relativeAntennaLocation);
  r.systemType = p.systemType;
  r.systemName = p.systemName;
  r.systemMode = p.systemMode;
  r.changeOptions = p.changeOptions;
  r.systemDesignator = p.systemDesignator;
  r.systemSpecificData = p.systemSpecificData;
  r.systemStatus = p.systemStatus;
  r.alternateParameter4 = p.alternateParameter4;
  r.informationLayers = p.informationLayers;
  r.modifier = p.modifier;
  r.parameters.set(p.parameters);
  r.layerBytes = hexIntoChecked(r.layers, 0, p.layers, 'IFF layers');
  return r;
}

export function environmentalToJson(r: EnvironmentalProcessRecord): EnvironmentalProcessPdu {
  return {
    ...headerToJson(r),
    pduType: 41,
    processId: entityIdJson(r.processId),
    environmentType: entityTypeJson(r.environmentType),
    modelType: r.modelType,
    environmentStatus: r.environmentStatus,
    recordCount: r.recordCount,
    sequenceNumber: r.sequenceNumber,
    records: hexOf(r.records, 0, r.recordBytes),
  };
}

export function environmentalFromJson(p: EnvironmentalProcessPdu): EnvironmentalProcessRecord {
  const r = new EnvironmentalProcessRecord(p.records.length >>> 1);
  headerFromJson(r, p);
  entityIdInto(r.processId, p.processId);
  entityTypeInto(r.environmentType, p.environmentType);
  r.modelType = p.modelType;
  r.environmentStatus = p.environmentStatus;
  r.recordCount = p.recordCount;
  r.sequenceNumber = p.sequenceNumber;
  r.recordBytes = hexIntoChecked(r.records, 0, p.records, 'environment records');
  return r;
}

export function otherToJson(r: OtherPduRecord): OtherPdu {
  return { ...headerToJson(r), body: hexOf(r.body, r.bodyOffset, r.bodyLength) };
}

export function otherFromJson(p: OtherPdu): OtherPduRecord {
  const r = new OtherPduRecord();
  headerFromJson(r, p);
  r.body = new Uint8Array(p.body.length >>> 1);
  r.bodyLength = hexIntoChecked(r.body, 0, p.body, 'body');
  return r;
}
