// Writes src/names/siso-data.generated.ts from data/siso/ (`npm run names`).
import { writeFileSync } from 'node:fs';
import { GENERATED_FILE, renderNamesModule } from './siso-names.js';

writeFileSync(new URL(`../${GENERATED_FILE}`, import.meta.url), renderNamesModule());
console.log(`wrote ${GENERATED_FILE}`);
