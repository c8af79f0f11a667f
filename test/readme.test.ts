// The README and docs/ as a user reads them: the README stays short and every relative link resolves; every
// `reckon …` line of their sh blocks names a command and flags that exist with values the command takes, and the
// NATS lines work as a sequence (the publisher's entity is inside the subscriber's area) against a real nats-server.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args.js';
import { configOrProblems } from '../src/cli/config-from-flags.js';
import { loadCommand } from '../src/cli/run.js';
import { within } from './support/binary.js';
import { startCli } from './support/cli.js';
import { startNatsServer, type RunningNatsServer } from '../scripts/support/nats-server.js';
import { findSystemBinary } from '../scripts/support/system-binary.js';

const ROOT = new URL('..', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** README.md and every docs/*.md, by path from the root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const TEXTS = PAGES.map((page) => readFileSync(join(ROOT, page), 'utf8'));

/** The words of a shell command line: quotes removed, `# comment` and what follows `|`, `>` or `&&` left out. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const c of line) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) break;
    else if ((c === '|' || c === '>' || c === '&') && word === undefined) break;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Every `reckon …` line of the sh blocks of the README and docs/, as words without the `reckon`. */
const COMMAND_LINES = TEXTS.flatMap((text) => [...text.matchAll(/```sh\n([\s\S]*?)```/g)])
  .flatMap((m) => m[1]!.split('\n'))
  .filter((line) => line.startsWith('reckon '))
  .map((line) => ({ line, words: shellWords(line).slice(1) }));

describe('the README and docs/', () => {
  it('keep the README within 180 lines, with the two set-up commands', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(180);
    expect(README).toContain('npm install && npm start');
    expect(README).toContain('npm install && npm test');
  });

  it('link only to files that exist', () => {
    const broken: string[] = [];
    PAGES.forEach((page, i) => {
      for (const m of TEXTS[i]!.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(page), decodeURIComponent(target)))) broken.push(`${page}: ${m[1]}`);
      }
    });
    expect(broken).toEqual([]);
  });

  it('have reckon command lines in their sh blocks', () => {
    expect(COMMAND_LINES.length).toBeGreaterThan(25);
  });

  it.each(COMMAND_LINES.map((c) => [c.line, c.words] as const))(
    '%s: a command, its flags and its settings exist',
    async (_line, words) => {
      const [name, ...rest] = words;
      const command = await loadCommand(name!);
      expect(command, `no command ${name}`).toBeDefined();
      const { args, problems } = parseArgs(rest, command!.flags);
      configOrProblems(args.flags, problems, {});
      expect(problems).toEqual([]);
      const bounds = command!.positionals ?? { min: 0, max: 0 };
      expect(args.positionals.length).toBeLessThanOrEqual(bounds.max);
    },
  );
});

const natsServer = findSystemBinary('nats-server');

describe.skipIf(!natsServer.path)('the README, Scaling out: its publish and subscribe lines together', () => {
  let server: RunningNatsServer;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The README's line for `command --nats`, with its hub replaced by the test's server. */
  const natsLine = (command: string): string[] => {
    const found = COMMAND_LINES.find((c) => c.words[0] === command && c.words.includes('--nats'));
    expect(found, `a "reckon ${command} --nats" line`).toBeDefined();
    return found!.words.map((w) => w.replace('nats://hub:4222', server.url));
  };

  it('the subscriber of the area sees the publisher’s tank', async () => {
    const subscribe = startCli([...natsLine('subscribe'), '--count', '1', '--duration', '30']);
    await subscribe.waitFor(/connected to NATS .*area/);
    const publish = startCli([...natsLine('publish'), '--duration', '3']);
    expect(await within(subscribe.exited, 30_000, 'subscribe to see the tank')).toBe(0);
    expect(await within(publish.exited, 15_000, 'publish to exit')).toBe(0);
    expect(JSON.parse(subscribe.stdout().trim().split('\n')[0]!)).toMatchObject({
      type: 'appeared',
      marking: 'TANK 1',
    });
  }, 60_000);
});
