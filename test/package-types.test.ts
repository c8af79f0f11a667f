// The published package as a consumer meets it: every entry point of package.json "exports" loads from dist/ and
// type-checks with skipLibCheck off — without @types/node (a development dependency only) but for the servers'
// subpaths — and each exports exactly the names of its list in test/fixtures/api/.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_DIR, apiSurface, entryPoints } from '../scripts/api-surface.js';
import { ROOT } from './support/binary.js';
import { createConsumer } from './support/consumer.js';

const project = createConsumer();
const consumer = project.dir;
afterAll(() => project.remove());

/** The package's entry points as a consumer names them: `reckon`, `reckon/nats`, … */
const exportsField = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, unknown>;
const entries = Object.keys(exportsField)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'reckon' : `reckon/${key.slice(2)}`));

/** The servers' subpaths: their declarations name Node's own types (`node:http`, `Buffer`, the NATS client's). */
const NODE_ONLY = new Set(['reckon/nats', 'reckon/view']);

/** Type-checks a consumer module importing `imported` (skipLibCheck off); the compiler's output, '' if clean. */
function compileConsumer(imported: readonly string[], types: readonly string[]): string {
  project.write(
    'consumer.ts',
    [
      ...imported.map((entry, i) => `import * as entry${i} from '${entry}';`),
      `export const api = [${imported.map((_, i) => `entry${i}`).join(', ')}];`,
      '',
    ].join('\n'),
  );
  return project.compile(['consumer.ts'], types);
}

describe('published types', () => {
  it('compile without @types/node (skipLibCheck off), every subpath but the servers', () => {
    project.write(
      'core.ts',
      "import { createPublisher, createSubscriber, PduBundler, type EntityEvent } from 'reckon';\n" +
        "import type { FireEvent, DetonationEvent, CollisionEvent, EngagementEvent, SubscriberEvent } from 'reckon';\n" +
        'export const api = [createPublisher, createSubscriber, PduBundler];\nexport type Event = EntityEvent;\n' +
        // What events$ emits, told apart by `type`, as docs/api.md shows.
        'export type Shot = [FireEvent, DetonationEvent, CollisionEvent, EngagementEvent];\n' +
        "export const kind = (e: SubscriberEvent): string => (e.type === 'fire' ? e.munition.name : e.type);\n",
    );
    expect(compileConsumer(['reckon', './core.js', ...entries.filter((e) => !NODE_ONLY.has(e))], [])).toBe('');
  }, 180_000);

  it('compile with @types/node for the servers (reckon/nats, reckon/view)', () => {
    expect(compileConsumer([...NODE_ONLY], ['node'])).toBe('');
  }, 180_000);
});

/** What a consumer gets from each entry point of the built package, by name. */
function exportedNames(): Record<string, string[]> {
  const script = `const names = {};
for (const entry of ${JSON.stringify(entries)}) names[entry] = Object.keys(await import(entry)).sort();
console.log(JSON.stringify(names));`;
  const node = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: consumer,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(node.stderr).toBe('');
  return JSON.parse(node.stdout) as Record<string, string[]>;
}

describe('public API by subpath', () => {
  const names = exportedNames();

  it('has the core at `reckon` and the rest at subpaths, each loading from dist/', () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        'reckon',
        'reckon/pdu',
        'reckon/names',
        'reckon/math',
        'reckon/truth',
        'reckon/experiment',
        'reckon/lockstep',
        'reckon/compression',
        'reckon/pcap',
        'reckon/nats',
        'reckon/cot',
        'reckon/view',
        'reckon/feeds',
      ]),
    );
    for (const entry of entries) expect(names[entry]?.length, entry).toBeGreaterThan(3);
    const core = names.reckon!;
    for (const name of ['decodeEntityStateInto', 'DeadReckoningModel', 'createSubscriber', 'decodePdu'])
      expect(core).toContain(name);
    // A small root: what the README and docs/api.md use; the rest by area.
    expect(core.length).toBeLessThanOrEqual(100);
    // Each name has one home: what a subpath holds is not repeated at the root.
    for (const [entry, held] of Object.entries(names))
      if (entry !== 'reckon')
        expect(
          held.filter((n) => core.includes(n)),
          entry,
        ).toEqual([]);
    expect(names['reckon/pdu']).toContain('decodeFireInto');
    expect(names['reckon/math']).toContain('geodeticToEcef');
    expect(names['reckon/names']).toContain('entityTypeName');
    expect(names['reckon/experiment']).toContain('runSweep');
    expect(names['reckon/lockstep']).toContain('LockstepPeer');
    expect(names['reckon/view']).toContain('ViewGateway');
    expect(names['reckon/feeds']).toEqual(expect.arrayContaining(['adsbFeed', 'aisFeed', 'truthFromNdjson']));
  });

  // A new export, or one gone, is a decision made in the diff of test/fixtures/api/ (`npm run api` writes it).
  it('exports exactly the names of test/fixtures/api/<entry>.txt', async () => {
    const lists = await apiSurface(ROOT);
    expect(readdirSync(join(ROOT, API_DIR)).sort(), 'one list per entry point').toEqual(
      [...lists.keys()].map((file) => `${file}.txt`).sort(),
    );
    for (const [file, text] of lists) {
      const golden = readFileSync(join(ROOT, API_DIR, `${file}.txt`), 'utf8');
      expect(text, `${API_DIR}/${file}.txt is out of date: run npm run api and review the diff`).toBe(golden);
    }
    // The lists' values are what a consumer imports through package.json "exports".
    for (const entry of entryPoints(ROOT)) {
      const golden = readFileSync(join(ROOT, API_DIR, `${entry.file}.txt`), 'utf8').split('\n');
      expect(
        golden.filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('type ')),
        entry.specifier,
      ).toEqual(names[entry.specifier]);
    }
  }, 60_000);
});
