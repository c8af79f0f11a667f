// Writes every JSON Schema of src/json-schemas.ts into schemas/.
import { writeFileSync } from 'node:fs';
import { JSON_SCHEMAS, renderJsonSchema } from '../src/json-schemas.js';

for (const { file, schema } of JSON_SCHEMAS) {
  writeFileSync(new URL(`../schemas/${file}`, import.meta.url), renderJsonSchema(schema, file));
  console.log(`wrote schemas/${file}`);
}
