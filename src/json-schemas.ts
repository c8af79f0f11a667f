/**
 * Every JSON Schema reckon publishes, generated from its zod schema (the single source of truth).
 * `npm run schemas` writes them into `schemas/`; a test fails when a committed file is stale.
 */
import { z } from 'zod';
import { ConfigSchema } from './config/schema.js';
import * as pdus from './pdu/schema/pdu-schemas.js';
import { EntityStatePduSchema } from './pdu/schema/schema.js';
import { ExperimentSpecSchema } from './experiment/spec.js';
import { TruthRecordSchema } from './fixes/truth-record-schema.js';

export const JSON_SCHEMAS: ReadonlyArray<{ readonly file: string; readonly schema: z.ZodType }> = [
  { file: 'entity-state-pdu.schema.json', schema: EntityStatePduSchema },
  { file: 'fire-pdu.schema.json', schema: pdus.FirePduSchema },
  { file: 'detonation-pdu.schema.json', schema: pdus.DetonationPduSchema },
  { file: 'collision-pdu.schema.json', schema: pdus.CollisionPduSchema },
  { file: 'collision-elastic-pdu.schema.json', schema: pdus.CollisionElasticPduSchema },
  { file: 'entity-management-pdu.schema.json', schema: pdus.EntityManagementPduSchema },
  { file: 'start-resume-pdu.schema.json', schema: pdus.StartResumePduSchema },
  { file: 'stop-freeze-pdu.schema.json', schema: pdus.StopFreezePduSchema },
  { file: 'acknowledge-pdu.schema.json', schema: pdus.AcknowledgePduSchema },
  { file: 'datum-pdu.schema.json', schema: pdus.DatumPduSchema },
  { file: 'data-query-pdu.schema.json', schema: pdus.DataQueryPduSchema },
  { file: 'electromagnetic-emission-pdu.schema.json', schema: pdus.ElectromagneticEmissionPduSchema },
  { file: 'designator-pdu.schema.json', schema: pdus.DesignatorPduSchema },
  { file: 'transmitter-pdu.schema.json', schema: pdus.TransmitterPduSchema },
  { file: 'signal-pdu.schema.json', schema: pdus.SignalPduSchema },
  { file: 'receiver-pdu.schema.json', schema: pdus.ReceiverPduSchema },
  { file: 'iff-pdu.schema.json', schema: pdus.IffPduSchema },
  { file: 'environmental-process-pdu.schema.json', schema: pdus.EnvironmentalProcessPduSchema },
  { file: 'other-pdu.schema.json', schema: pdus.OtherPduSchema },
  { file: 'config.schema.json', schema: ConfigSchema },
  { file: 'experiment.schema.json', schema: ExperimentSpecSchema },
  { file: 'truth.schema.json', schema: TruthRecordSchema },
];

/** The JSON text written for one schema: stable key order, two-space indent, trailing newline. */
export function renderJsonSchema(schema: z.ZodType, file: string): string {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return JSON.stringify({ $id: `https://reckon.dev/schemas/${file}`, ...json }, null, 2) + '\n';
}
