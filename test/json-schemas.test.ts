import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMAS, renderJsonSchema } from '../src/json-schemas.js';

describe('schemas/ is generated from the zod schemas', () => {
  it.each(JSON_SCHEMAS.map((s) => [s.file, s] as const))(
    '%s is up to date (run `npm run schemas`)',
    (file, { schema }) => {
      const committed = readFileSync(new URL(`../schemas/${file}`, import.meta.url), 'utf8');
      expect(committed).toBe(renderJsonSchema(schema, file));
    },
  );
});
