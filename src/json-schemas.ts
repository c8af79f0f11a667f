/**
 * Every JSON Schema reckon publishes, generated from its zod schema (the single source of truth).
 * `npm run schemas` writes them into `schemas/`; a test fails when a committed file is stale.
 */
import { z } from 'zod';
import { ConfigSchema } from './config/schema.js';
import { EntityStatePduSchema } from './pdu/schema.js';
import { ExperimentSpecSchema } from './experiment/spec.js';

export const JSON_SCHEMAS: ReadonlyArray<{ readonly file: string; readonly schema: z.ZodType }> = [
  { file: 'entity-state-pdu.schema.json', schema: EntityStatePduSchema },
  { file: 'config.schema.json', schema: ConfigSchema },
  { file: 'experiment.schema.json', schema: ExperimentSpecSchema },
];

/** The JSON text written for one schema: stable key order, two-space indent, trailing newline. */
export function renderJsonSchema(schema: z.ZodType, file: string): string {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return JSON.stringify({ $id: `https://reckon.dev/schemas/${file}`, ...json }, null, 2) + '\n';
}
