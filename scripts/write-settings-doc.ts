// Writes the table of every setting into docs/cli.md, between its markers (src/cli/help-settings.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS_DOC_MARKERS, settingsMarkdown } from '../src/cli/help-settings.js';
import { allCommands } from '../src/cli/run.js';

const file = new URL('../docs/cli.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf(SETTINGS_DOC_MARKERS[0]);
const end = doc.indexOf(SETTINGS_DOC_MARKERS[1]);
if (start < 0 || end < start) throw new Error(`docs/cli.md has no ${SETTINGS_DOC_MARKERS.join(' … ')}`);
const table = settingsMarkdown(await allCommands());
writeFileSync(file, doc.slice(0, start) + table + doc.slice(end + SETTINGS_DOC_MARKERS[1].length));
console.log('wrote the settings table of docs/cli.md');
