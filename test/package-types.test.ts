// The published declarations (dist/*.d.ts, built by `npm run build`) compile in a consumer project that has no
// @types/node: reckon lists @types/node only as a development dependency, so an installed reckon must not need it.
// The consumer gets the DOM library, which reckon's dependencies' own declarations need (rxjs's timers, zod's URL)
// and which @types/node would otherwise provide.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli/binary.js';

const consumer = mkdtempSync(join(tmpdir(), 'reckon-consumer-'));
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('published types', () => {
  it('compile without @types/node (skipLibCheck off)', () => {
    mkdirSync(join(consumer, 'node_modules'));
    symlinkSync(ROOT, join(consumer, 'node_modules', 'reckon'), 'dir');
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: [],
          strict: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(consumer, 'consumer.ts'),
      [
        "import * as reckon from 'reckon';",
        "import { createPublisher, createSubscriber, PduBundler, type EntityEvent } from 'reckon';",
        'export const api = [reckon, createPublisher, createSubscriber, PduBundler];',
        'export type Event = EntityEvent;',
        '',
      ].join('\n'),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
