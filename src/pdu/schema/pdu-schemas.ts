/**
 * The JSON forms of the PDUs beyond Entity State: a public contract (`reckon decode --json` prints them, tests and
 * users read them). These zod schemas are their single definition; `schemas/*.schema.json` are generated from them
 * (src/json-schemas.ts). Fields marked derived are computed on decode and ignored on encode. Add fields; never
 * rename these.
 */
import { z } from 'zod';
import { EntityIdSchema, EntityTypeSchema, TimestampSchema, VariableParameterSchema } from './schema.js';

const uint8 = z.number().int().min(0).max(0xff);
const uint16 = z.number().int().min(0).max(0xffff);
const uint32 = z.number().int().min(0).max(0xffffffff);
const int32 = z.number().int().min(-0x80000000).max(0x7fffffff);
const hex = z.string().regex(/^([0-9a-f]{2})*$/, 'lower-case hex, two digits per byte');
const vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** The bits of the v7 PDU Status byte this PDU type defines, by name. */
export const PduStatusBitsSchema = z
  .object({
    tei: uint8.optional().describe('Transferred entity indicator (bit 0).'),
    lvc: uint8.describe(
      'Live-virtual-constructive indicator (bits 1–2): 0 no statement, 1 live, 2 virtual, 3 constructive.',
    ),
    cei: uint8.optional().describe('Coupled extension indicator (bit 3).'),
    fti: uint8.optional().describe('Fire type indicator (bit 4): 0 munition, 1 expendable.'),
    dti: uint8
      .optional()
      .describe('Detonation type indicator (bits 4–5): 0 munition, 1 expendable, 2 non-munition explosion.'),
    rai: uint8.optional().describe('Radio attached indicator (bits 4–5): 0 no statement, 1 unattached, 2 attached.'),
    iai: uint8.optional().describe('Intercom attached indicator (bits 4–5).'),
    ism: uint8.optional().describe('IFF simulation mode (bit 4): 0 regeneration, 1 interactive.'),
    aii: uint8.optional().describe('IFF active interrogation indicator (bit 5).'),
  })
  .describe('Derived: the bits of the v7 PDU status byte this PDU type defines (IEEE 1278.1-2012 §6.2.67).');

/** The header fields every PDU's JSON form starts with. */
function header<T extends z.ZodType>(pduType: T, family: string) {
  return {
    protocolVersion: uint8.describe('5 = IEEE 1278.1-1995, 6 = 1278.1A-1998, 7 = 1278.1-2012.'),
    exerciseId: uint8,
    pduType,
    protocolFamily: uint8.describe(family),
    timestamp: TimestampSchema,
    length: uint16.describe('Derived: the Length field as received; encoding computes it.'),
    pduStatus: uint8.describe('v7 PDU status byte (byte 10); 0 for v5/v6.'),
    statusBits: PduStatusBitsSchema.optional(),
  };
}

/** An Event Identifier: simulation address and event number. */
export const EventIdSchema = z
  .object({ site: uint16, application: uint16, eventNumber: uint16 })
  .describe('Event Identifier (site, application, event number).');

/** A Munition Descriptor: munition type, warhead, fuse, quantity and rate. */
export const MunitionDescriptorSchema = z
  .object({
    munitionType: EntityTypeSchema,
    warhead: uint16.describe('SISO-REF-010 UID 60.'),
    fuse: uint16.describe('SISO-REF-010 UID 61.'),
    quantity: uint16.describe('Rounds in the burst.'),
    rate: uint16.describe('Rounds per minute.'),
  })
  .describe('Burst (v5/v6) or munition (v7) descriptor, 16 bytes.');

/** The JSON form of a Fire PDU (type 2). */
export const FirePduSchema = z
  .object({
    ...header(z.literal(2), '2 = warfare.'),
    firingEntityId: EntityIdSchema,
    targetEntityId: EntityIdSchema.describe('0:0:0 when the target is not known.'),
    munitionId: EntityIdSchema.describe('The munition as an entity, 0:0:0 when it is not tracked as one.'),
    eventId: EventIdSchema,
    fireMissionIndex: uint32,
    location: vec3.describe('Where the round left, ECEF metres.'),
    descriptor: MunitionDescriptorSchema,
    velocity: vec3.describe('Of the round at launch, m/s, ECEF.'),
    range: z.number().describe('Metres; 0 when none.'),
  })
  .describe('Fire PDU (type 2), IEEE 1278.1-2012 §7.3.2.');

/** The JSON form of a Detonation PDU (type 3). */
export const DetonationPduSchema = z
  .object({
    ...header(z.literal(3), '2 = warfare.'),
    firingEntityId: EntityIdSchema,
    targetEntityId: EntityIdSchema,
    munitionId: EntityIdSchema,
    eventId: EventIdSchema,
    velocity: vec3.describe('m/s, ECEF.'),
    location: vec3.describe('ECEF metres.'),
    descriptor: MunitionDescriptorSchema,
    locationInEntity: vec3.describe("Relative to the target's centre in its body coordinates, metres."),
    result: uint8.describe('Detonation result, SISO-REF-010 UID 62.'),
    variableParameters: z.array(VariableParameterSchema).max(255),
  })
  .describe('Detonation PDU (type 3), IEEE 1278.1-2012 §7.3.3.');

/** The JSON form of a Collision PDU (type 4). */
export const CollisionPduSchema = z
  .object({
    ...header(z.literal(4), '1 = entity information/interaction.'),
    issuingEntityId: EntityIdSchema,
    collidingEntityId: EntityIdSchema.describe('0:0:0 for terrain or an object that is not an entity.'),
    eventId: EventIdSchema,
    collisionType: uint8.describe('SISO-REF-010 UID 189: 0 inelastic, 1 elastic.'),
    velocity: vec3.describe('Of the issuing entity, m/s, ECEF.'),
    mass: z.number().describe('Of the issuing entity, kg.'),
    location: vec3.describe("Where it collided, in the issuing entity's coordinates, metres."),
  })
  .describe('Collision PDU (type 4), IEEE 1278.1-2012 §7.2.3.');

/** The JSON form of a Collision-Elastic PDU (type 66). */
export const CollisionElasticPduSchema = z
  .object({
    ...header(z.literal(66), '1 = entity information/interaction.'),
    issuingEntityId: EntityIdSchema,
    collidingEntityId: EntityIdSchema,
    eventId: EventIdSchema,
    contactVelocity: vec3,
    mass: z.number(),
    locationOfImpact: vec3,
    intermediateResults: z
      .tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])
      .describe('xx, xy, xz, yy, yz, zz.'),
    unitSurfaceNormal: vec3,
    coefficientOfRestitution: z.number(),
  })
  .describe('Collision-Elastic PDU (type 66), IEEE 1278.1-2012 §7.2.4.');

const simulationManagement = {
  originatingId: EntityIdSchema.describe('The simulation (entity 0) or entity that sends the PDU.'),
  receivingId: EntityIdSchema.describe('The one addressed; 65535 in a part means all.'),
};

/** A Clock Time record: hours and time past the hour. */
export const ClockTimeSchema = z
  .object({
    hour: int32.describe('Hours since 1970-01-01 (or of the exercise).'),
    timePastHour: uint32.describe('A DIS timestamp: time units past the hour × 2 + absolute flag.'),
    secondsPastHour: z.number().optional().describe('Derived from timePastHour.'),
  })
  .describe('Clock Time record, IEEE 1278.1-2012 §6.2.14.');

/** The JSON form of a Create Entity or Remove Entity PDU. */
export const EntityManagementPduSchema = z
  .object({
    ...header(z.union([z.literal(11), z.literal(12)]), '5 = simulation management.'),
    ...simulationManagement,
    requestId: uint32,
  })
  .describe('Create Entity (11) or Remove Entity (12) PDU, IEEE 1278.1-2012 §7.5.2–7.5.3.');

/** The JSON form of a Start/Resume PDU (type 13). */
export const StartResumePduSchema = z
  .object({
    ...header(z.literal(13), '5 = simulation management.'),
    ...simulationManagement,
    realWorldTime: ClockTimeSchema,
    simulationTime: ClockTimeSchema,
    requestId: uint32,
  })
  .describe('Start/Resume PDU (type 13), IEEE 1278.1-2012 §7.5.4.');

/** The JSON form of a Stop/Freeze PDU (type 14). */
export const StopFreezePduSchema = z
  .object({
    ...header(z.literal(14), '5 = simulation management.'),
    ...simulationManagement,
    realWorldTime: ClockTimeSchema,
    reason: uint8.describe('SISO-REF-010 UID 67.'),
    frozenBehavior: uint8.describe('Bit 0 run the simulation clock, bit 1 transmit updates, bit 2 process updates.'),
    requestId: uint32,
  })
  .describe('Stop/Freeze PDU (type 14), IEEE 1278.1-2012 §7.5.5.');

/** The JSON form of an Acknowledge PDU (type 15). */
export const AcknowledgePduSchema = z
  .object({
    ...header(z.literal(15), '5 = simulation management.'),
    ...simulationManagement,
    acknowledgeFlag: uint16.describe('SISO-REF-010 UID 69.'),
    responseFlag: uint16.describe('SISO-REF-010 UID 70.'),
    requestId: uint32,
  })
  .describe('Acknowledge PDU (type 15), IEEE 1278.1-2012 §7.5.6.');

/** A fixed datum: its id and a 32-bit value. */
export const FixedDatumSchema = z.object({
  id: uint32.describe('Datum id, SISO-REF-010 UID 66.'),
  value: uint32.describe('The 32 bits as sent (an integer, or a float32 as the datum id says).'),
});

/** A variable datum: its id and its bytes. */
export const VariableDatumSchema = z.object({
  id: uint32.describe('Datum id, SISO-REF-010 UID 66.'),
  lengthBits: uint32.describe('The value length in bits, as on the wire.'),
  value: hex.describe('ceil(lengthBits / 8) bytes, without the padding to 64 bits.'),
  text: z.string().optional().describe('Derived: the value as text when it is printable ASCII.'),
});

/** The JSON form of a PDU of fixed and variable datums (Action Request, Set Data, Data, …). */
export const DatumPduSchema = z
  .object({
    ...header(
      z.union([z.literal(16), z.literal(17), z.literal(19), z.literal(20), z.literal(21), z.literal(22)]),
      '5 = simulation management.',
    ),
    ...simulationManagement,
    requestId: uint32.optional().describe('Action Request, Action Response, Set Data, Data.'),
    actionId: uint32.optional().describe('Action Request: SISO-REF-010 UID 71.'),
    requestStatus: uint32.optional().describe('Action Response: SISO-REF-010 UID 72.'),
    eventType: uint32.optional().describe('Event Report: SISO-REF-010 UID 73.'),
    fixedDatums: z.array(FixedDatumSchema),
    variableDatums: z.array(VariableDatumSchema),
  })
  .describe(
    'Action Request (16), Action Response (17), Set Data (19), Data (20), Event Report (21) or Comment (22) PDU, IEEE 1278.1-2012 §7.5.7–7.5.13.',
  );

/** The JSON form of a Data Query PDU (type 18). */
export const DataQueryPduSchema = z
  .object({
    ...header(z.literal(18), '5 = simulation management.'),
    ...simulationManagement,
    requestId: uint32,
    timeInterval: uint32.describe('How often to answer, a DIS timestamp; 0 = once.'),
    fixedDatumIds: z.array(uint32),
    variableDatumIds: z.array(uint32),
  })
  .describe('Data Query PDU (type 18), IEEE 1278.1-2012 §7.5.9.');

/** A Radio Type record (the entity type of a radio). */
export const RadioTypeSchema = z.object({
  kind: uint8,
  domain: uint8,
  country: uint16,
  category: uint8,
  nomenclatureVersion: uint8,
  nomenclature: uint16,
});

/** A Modulation Type record. */
export const ModulationTypeSchema = z.object({
  spreadSpectrum: uint16.describe('Bits: frequency hopping, pseudo noise, time hopping.'),
  major: uint16.describe('SISO-REF-010 UID 155.'),
  detail: uint16,
  radioSystem: uint16.describe('SISO-REF-010 UID 163.'),
});

/** The JSON form of a Transmitter PDU (type 25). */
export const TransmitterPduSchema = z
  .object({
    ...header(z.literal(25), '4 = radio communications.'),
    entityId: EntityIdSchema,
    radioId: uint16,
    radioType: RadioTypeSchema,
    transmitState: uint8.describe('0 off, 1 on but not transmitting, 2 on and transmitting.'),
    inputSource: uint8,
    antennaLocation: vec3.describe('ECEF metres.'),
    relativeAntennaLocation: vec3.describe("In the entity's coordinates, metres."),
    antennaPatternType: uint16,
    frequencyHz: z.number().int().min(0).describe('A 64-bit field: exact below 2^53.'),
    bandwidthHz: z.number(),
    powerDbm: z.number(),
    modulationType: ModulationTypeSchema,
    cryptoSystem: uint16,
    cryptoKeyId: uint16,
    modulationParameters: hex.max(510).describe('As sent; their length (bytes) is computed.'),
    antennaPattern: hex.describe('As sent; its length (bytes) is computed.'),
    variableTransmitterParameters: z
      .array(
        z.object({ recordType: uint32, data: hex.describe('After the 6-byte type and length, padding included.') }),
      )
      .describe('v7 only.'),
  })
  .describe('Transmitter PDU (type 25), IEEE 1278.1-2012 §7.7.2.');

/** The JSON form of a Signal PDU (type 26). */
export const SignalPduSchema = z
  .object({
    ...header(z.literal(26), '4 = radio communications.'),
    entityId: EntityIdSchema,
    radioId: uint16,
    encodingScheme: uint16.describe('Bits 15–14 encoding class, 13–0 encoding type or TDL message count.'),
    encodingClass: uint8
      .optional()
      .describe('Derived: 0 encoded audio, 1 raw binary, 2 application-specific, 3 database index.'),
    tdlType: uint16,
    sampleRate: uint32,
    dataLengthBits: uint16.describe('The data length in bits, as on the wire.'),
    samples: uint16,
    data: hex.describe('ceil(dataLengthBits / 8) bytes, without the padding to 32 bits.'),
  })
  .describe('Signal PDU (type 26), IEEE 1278.1-2012 §7.7.3.');

/** The JSON form of a Receiver PDU (type 27). */
export const ReceiverPduSchema = z
  .object({
    ...header(z.literal(27), '4 = radio communications.'),
    entityId: EntityIdSchema,
    radioId: uint16,
    receiverState: uint16.describe('0 off, 1 on but not receiving, 2 on and receiving.'),
    receivedPowerDbm: z.number(),
    transmitterEntityId: EntityIdSchema,
    transmitterRadioId: uint16,
  })
  .describe('Receiver PDU (type 27), IEEE 1278.1-2012 §7.7.4.');

/** One beam of an emitter system in an Electromagnetic Emission PDU. */
export const EmissionBeamSchema = z.object({
  dataLength: uint8.describe('As sent, in 32-bit words.'),
  beamId: uint8,
  parameterIndex: uint16,
  frequency: z.number(),
  frequencyRange: z.number(),
  effectiveRadiatedPower: z.number().describe('dBm.'),
  pulseRepetitionFrequency: z.number(),
  pulseWidth: z.number().describe('µs.'),
  azimuthCenter: z.number(),
  azimuthSweep: z.number(),
  elevationCenter: z.number(),
  elevationSweep: z.number(),
  sweepSync: z.number(),
  beamFunction: uint8,
  highDensity: uint8,
  beamStatus: uint8.describe('v7 beam status; padding before v7.'),
  jammingModeSequence: uint32,
  targets: z.array(z.object({ entityId: EntityIdSchema, emitterNumber: uint8, beamId: uint8 })).max(255),
});

/** The JSON form of an Electromagnetic Emission PDU (type 23). */
export const ElectromagneticEmissionPduSchema = z
  .object({
    ...header(z.literal(23), '6 = distributed emission regeneration.'),
    emittingEntityId: EntityIdSchema,
    eventId: EventIdSchema,
    stateUpdateIndicator: uint8,
    systems: z
      .array(
        z.object({
          dataLength: uint8.describe('As sent, in 32-bit words.'),
          emitterName: uint16,
          function: uint8,
          emitterNumber: uint8,
          location: vec3.describe("In the entity's coordinates, metres."),
          beams: z.array(EmissionBeamSchema).max(255),
        }),
      )
      .max(255),
  })
  .describe('Electromagnetic Emission PDU (type 23), IEEE 1278.1-2012 §7.6.2.');

/** The JSON form of a Designator PDU (type 24). */
export const DesignatorPduSchema = z
  .object({
    ...header(z.literal(24), '6 = distributed emission regeneration.'),
    designatingEntityId: EntityIdSchema,
    codeName: uint16,
    designatedEntityId: EntityIdSchema,
    designatorCode: uint16,
    power: z.number().describe('Watts.'),
    wavelength: z.number().describe('Micrometres.'),
    spotRelativeToEntity: vec3,
    spotLocation: vec3.describe('ECEF metres.'),
    drAlgorithm: uint8,
    linearAcceleration: vec3,
  })
  .describe('Designator PDU (type 24), IEEE 1278.1-2012 §7.6.3.');

/** The JSON form of an IFF PDU (type 28). */
export const IffPduSchema = z
  .object({
    ...header(z.literal(28), '6 = distributed emission regeneration.'),
    emittingEntityId: EntityIdSchema,
    eventId: EventIdSchema,
    relativeAntennaLocation: vec3,
    systemType: uint16,
    systemName: uint16,
    systemMode: uint8,
    changeOptions: uint8,
    systemDesignator: uint8.describe('v7; padding (0) before.'),
    systemSpecificData: uint8.describe('v7; padding (0) before.'),
    systemStatus: uint8,
    alternateParameter4: uint8,
    informationLayers: uint8,
    modifier: uint8,
    parameters: z
      .tuple([uint16, uint16, uint16, uint16, uint16, uint16])
      .describe('Parameters 1–6 (modes 1, 2, 3/A, 4, C, 6).'),
    layers: hex.describe('The layers after layer 1 as sent, each with its 4-byte header.'),
  })
  .describe('IFF PDU (type 28), layer 1, IEEE 1278.1-2012 §7.6.5.');

/** The JSON form of an Environmental Process PDU (type 41). */
export const EnvironmentalProcessPduSchema = z
  .object({
    ...header(z.literal(41), '9 = synthetic environment.'),
    processId: EntityIdSchema,
    environmentType: EntityTypeSchema,
    modelType: uint8,
    environmentStatus: uint8.describe('Bit 0 last PDU of the process, bit 1 active.'),
    recordCount: uint16,
    sequenceNumber: uint16,
    records: hex.describe('The environment records as sent.'),
  })
  .describe('Environmental Process PDU (type 41), IEEE 1278.1-2012 §7.10.2.');

/** The JSON form of a PDU of a type not decoded: the header and the body as hex. */
export const OtherPduSchema = z
  .object({
    ...header(uint8, 'As sent.'),
    body: hex.describe('Everything after the 12-byte header, as sent.'),
  })
  .describe('A PDU of a type reckon does not decode: its header, and its body as bytes.');

/** An Event Identifier. */
export type EventId = z.output<typeof EventIdSchema>;
/** A Clock Time record. */
export type ClockTime = z.output<typeof ClockTimeSchema>;
/** The PDU Status bits by name. */
export type PduStatusBitsJson = z.output<typeof PduStatusBitsSchema>;
/** A Munition Descriptor. */
export type MunitionDescriptor = z.output<typeof MunitionDescriptorSchema>;
/** A Fire PDU in its JSON form. */
export type FirePdu = z.output<typeof FirePduSchema>;
/** A Detonation PDU in its JSON form. */
export type DetonationPdu = z.output<typeof DetonationPduSchema>;
/** A Collision PDU in its JSON form. */
export type CollisionPdu = z.output<typeof CollisionPduSchema>;
/** A Collision-Elastic PDU in its JSON form. */
export type CollisionElasticPdu = z.output<typeof CollisionElasticPduSchema>;
/** A Create Entity or Remove Entity PDU in its JSON form. */
export type EntityManagementPdu = z.output<typeof EntityManagementPduSchema>;
/** A Start/Resume PDU in its JSON form. */
export type StartResumePdu = z.output<typeof StartResumePduSchema>;
/** A Stop/Freeze PDU in its JSON form. */
export type StopFreezePdu = z.output<typeof StopFreezePduSchema>;
/** An Acknowledge PDU in its JSON form. */
export type AcknowledgePdu = z.output<typeof AcknowledgePduSchema>;
/** A datum PDU in its JSON form. */
export type DatumPdu = z.output<typeof DatumPduSchema>;
/** A Data Query PDU in its JSON form. */
export type DataQueryPdu = z.output<typeof DataQueryPduSchema>;
/** A Transmitter PDU in its JSON form. */
export type TransmitterPdu = z.output<typeof TransmitterPduSchema>;
/** A Signal PDU in its JSON form. */
export type SignalPdu = z.output<typeof SignalPduSchema>;
/** A Receiver PDU in its JSON form. */
export type ReceiverPdu = z.output<typeof ReceiverPduSchema>;
/** An Electromagnetic Emission PDU in its JSON form. */
export type ElectromagneticEmissionPdu = z.output<typeof ElectromagneticEmissionPduSchema>;
/** A Designator PDU in its JSON form. */
export type DesignatorPdu = z.output<typeof DesignatorPduSchema>;
/** An IFF PDU in its JSON form. */
export type IffPdu = z.output<typeof IffPduSchema>;
/** An Environmental Process PDU in its JSON form. */
export type EnvironmentalProcessPdu = z.output<typeof EnvironmentalProcessPduSchema>;
/** A PDU of a type not decoded, in its JSON form. */
export type OtherPdu = z.output<typeof OtherPduSchema>;
