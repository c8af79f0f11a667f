// Writes src/config/setting-leaves.generated.ts from ConfigSchema (`npm run config-leaves`).
import { writeFileSync } from 'node:fs';
import { GENERATED_FILE, renderLeafTable } from './config-leaves.js';

writeFileSync(new URL(`../${GENERATED_FILE}`, import.meta.url), renderLeafTable());
console.log(`wrote ${GENERATED_FILE}`);
