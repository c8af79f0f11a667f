/**
 * The zod schema of a truth record, from which `schemas/truth.schema.json` is written (`npm run schemas`). The
 * feed reads records with the hand-written checks of `truth-record.ts` (no zod per line); a test holds the two to
 * the same verdict on generated records.
 */
import { z } from 'zod';

const vector = z.tuple([z.number(), z.number(), z.number()]);

export const TruthRecordSchema = z
  .object({
    id: z
      .union([z.string().min(1).max(64), z.number().int().min(0)])
      .describe('The entity: the same id is the same DIS entity (its entity number a stable hash of it).'),
    leave: z.boolean().optional().describe('true: the entity leaves (receivers drop it at once); only id is needed.'),
    entity: z.number().int().min(1).max(65534).optional().describe('The DIS entity number to use, when free.'),
    time: z
      .union([z.number(), z.string().regex(/^\d{4}-\d{2}-\d{2}T/)])
      .optional()
      .describe(
        'When the entity was there: seconds on any steady axis, or an ISO 8601 date-time. Defaults to arrival.',
      ),
    lat: z.number().min(-90).max(90).optional().describe('Latitude, degrees (WGS-84).'),
    lon: z.number().min(-180).max(180).optional().describe('Longitude, degrees.'),
    alt: z.number().optional().describe('Height above the WGS-84 ellipsoid, metres. Defaults to 0.'),
    ecef: vector.optional().describe('Position in ECEF metres, instead of lat/lon/alt.'),
    velocity: z
      .union([z.object({ enu: vector }).strict(), z.object({ ecef: vector }).strict()])
      .optional()
      .describe('Velocity in m/s: east-north-up at the entity, or ECEF. Defaults to the change between positions.'),
    heading: z.number().optional().describe('Degrees clockwise from true north. Defaults to the direction of travel.'),
    pitch: z.number().optional().describe('Degrees, nose up positive.'),
    roll: z.number().optional().describe('Degrees, right wing down positive.'),
    type: z
      .union([
        z.string().regex(/^\d+(:\d+){0,6}$/),
        z.string(),
        z.array(z.number().int().min(0).max(65535)).min(1).max(7),
      ])
      .optional()
      .describe('SISO-REF-010 entity type: "1:1:225:1:1:3:0", its 7 numbers, or a SISO name such as "M1A2".'),
    marking: z.string().optional().describe('The marking sent (11 ASCII characters). Defaults to the id.'),
    force: z
      .union([z.number().int().min(0).max(255), z.enum(['other', 'friendly', 'opposing', 'neutral'])])
      .optional()
      .describe('Force: 0 other, 1 friendly, 2 opposing, 3 neutral, or its name. Defaults to friendly.'),
  })
  .describe('One truth record of `reckon publish --truth` (docs/feeds.md): one JSON object per line.');

export type TruthRecord = z.infer<typeof TruthRecordSchema>;
