/**
 * The JSON form of an Entity State PDU: a public contract (the CLI prints it, tests and users read it).
 * This zod schema is its single definition; `schemas/entity-state-pdu.schema.json` is generated from it.
 * Vectors are arrays in the documented order. Add fields; never rename these.
 */
import { z } from 'zod';

const uint8 = z.number().int().min(0).max(0xff);
const uint16 = z.number().int().min(0).max(0xffff);
const uint32 = z.number().int().min(0).max(0xffffffff);
const hex = z.string().regex(/^([0-9a-f]{2})*$/, 'lower-case hex, two digits per byte');
const vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** Site, application and entity numbers of an entity. */
export const EntityIdSchema = z
  .object({ site: uint16, application: uint16, entity: uint16 })
  .describe('Entity ID (site, application, entity).');

/** The seven fields of an Entity Type record. */
export const EntityTypeSchema = z
  .object({
    kind: uint8,
    domain: uint8,
    country: uint16,
    category: uint8,
    subcategory: uint8,
    specific: uint8,
    extra: uint8,
  })
  .describe('Entity Type record, 8 bytes on the wire.');

export const TimestampSchema = z
  .object({
    raw: uint32.describe('The 32-bit header field as sent: time units since the hour × 2 + absolute flag.'),
    absolute: z.boolean().describe('Bit 0: true = absolute (UTC-synchronised), false = relative.'),
    secondsPastHour: z.number().min(0).max(3600).describe('(raw >>> 1) × 3600 / 2^31.'),
  })
  .describe('DIS timestamp, IEEE 1278.1 §6.2.88.');

export const DeadReckoningSchema = z.object({
  algorithm: uint8.describe('DR algorithm 0–9 (1 static, 2 FPW … 9 FVB).'),
  otherParameters: hex.describe('The 15 "other parameters" bytes as hex (30 digits).'),
  linearAcceleration: vec3.describe('m/s²: world frame for algorithms 4/5, body frame for 8/9.'),
  angularVelocity: vec3.describe('rad/s about the body axes x, y, z.'),
});

export const MarkingSchema = z.object({
  characterSet: uint8.describe('1 = ASCII.'),
  text: z.string().max(11).describe('Up to 11 characters; zero-filled on the wire.'),
});

/** One 16-byte variable (v7) or articulation (v5/v6) parameter record. */
export const VariableParameterSchema = z
  .object({
    recordType: uint8.describe('0 articulated part, 1 attached part, 2 separation, 3 entity type, 4 association.'),
    changeIndicator: uint8.optional().describe('Articulated part: change indicator.'),
    detachedIndicator: uint8.optional().describe('Attached part: detached indicator.'),
    partAttachedTo: uint16.optional(),
    parameterType: uint32.optional().describe('Articulated part: type class + type metric; attached part: station.'),
    parameterValue: z.number().optional().describe('Articulated part: float32 value.'),
    attachedPartType: EntityTypeSchema.optional().describe('Attached part: the attached entity type.'),
    raw: hex.describe('All 16 bytes as hex; the whole record for types reckon does not interpret.'),
  })
  .describe('Variable / articulation parameter record, 16 bytes.');

/** The JSON form of an Entity State PDU (`decodeEntityState` / `encodeEntityState`), as zod. */
export const EntityStatePduSchema = z
  .object({
    protocolVersion: uint8.describe('5 = IEEE 1278.1-1995, 6 = 1278.1A-1998, 7 = 1278.1-2012.'),
    exerciseId: uint8,
    pduType: z.literal(1),
    protocolFamily: uint8,
    timestamp: TimestampSchema,
    length: uint16.describe('Total bytes, header included: 144 + 16 × variableParameters.length.'),
    pduStatus: uint8.describe('v7 PDU status byte (byte 10); 0 for v5/v6.'),
    entityId: EntityIdSchema,
    forceId: uint8,
    entityType: EntityTypeSchema,
    alternativeEntityType: EntityTypeSchema,
    linearVelocity: vec3.describe('m/s; world (ECEF) frame for algorithms 2–5, body frame for 6–9.'),
    location: vec3.describe('ECEF metres (WGS-84), float64 on the wire.'),
    orientation: vec3.describe('psi, theta, phi in radians: Euler Z-Y-X relative to the ECEF axes.'),
    appearance: uint32.describe('Appearance bit field (bit 21 frozen, bit 23 deactivated).'),
    deadReckoning: DeadReckoningSchema,
    marking: MarkingSchema,
    capabilities: uint32,
    variableParameters: z.array(VariableParameterSchema).max(255),
  })
  .describe('Entity State PDU (PDU type 1), IEEE 1278.1 §5.3.2 / §7.2.2.');

/** An entity's site, application and entity numbers. */
export type EntityId = z.output<typeof EntityIdSchema>;
/** An Entity Type record: kind, domain, country, category, subcategory, specific, extra. */
export type EntityType = z.output<typeof EntityTypeSchema>;
/** A DIS timestamp in its JSON form: the raw field, whether it is absolute, seconds past the hour. */
export type DisTimestamp = z.output<typeof TimestampSchema>;
/** One variable parameter record (articulated or attached part, …) in its JSON form. */
export type VariableParameter = z.output<typeof VariableParameterSchema>;
/** An Entity State PDU in its JSON form. */
export type EntityStatePdu = z.output<typeof EntityStatePduSchema>;
/** Three numbers: x, y, z. */
export type Vec3Tuple = [number, number, number];
