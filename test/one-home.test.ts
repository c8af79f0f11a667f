// Facts written once: the entity key arithmetic, the JSON form of an entity type, the DR algorithms' names, the
// heartbeat classes and the PDU type numbers each have one home in src/, which every other file imports instead of
// writing them out again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const sources = files(join(ROOT, 'src'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts'))
  .map((f) => ({ file: f.slice(ROOT.length), text: readFileSync(f, 'utf8') }));

interface Fact {
  readonly name: string;
  /** What writing the fact out looks like. */
  readonly pattern: RegExp;
  /** Where it may be written: its home. */
  readonly home: readonly string[];
  /** Files that still write it out and are to import it from its home instead. */
  readonly notYet: readonly string[];
}

const FACTS: readonly Fact[] = [
  {
    name: 'the entity key (site · 2³² + application · 2¹⁶ + entity) and its split',
    pattern: /\bsite!?\s*\*\s*(?:0x1_0000_0000|2\s*\*\*\s*32)\s*\+|Math\.floor\(key\s*\/\s*0x1_0000_0000\)/,
    home: ['src/pdu/wire/entity-state-record.ts'],
    notYet: [],
  },
  {
    name: 'the JSON form of an entity type from its seven numbers',
    pattern: /kind: \w+\[0\]!,\s*domain: \w+\[1\]!,\s*country: \w+\[2\]!,\s*category: \w+\[3\]!,\s*subcategory:/,
    home: ['src/pdu/json/pdu-json-parts.ts'],
    notYet: [],
  },
  {
    name: "the DR algorithms' names",
    pattern: /'FPW',\s*'RPW'|\bFPW: 2\b/,
    home: ['src/dr/models/algorithm.ts'],
    notYet: [],
  },
  {
    name: 'the heartbeat classes and their rules',
    pattern: /'platformSubsurface',\s*'platformSpace',\s*'munition'|function heartbeatClass\(/,
    home: ['src/dr/owner/heartbeat.ts'],
    notYet: [],
  },
  {
    name: 'the heartbeat timeout multiplier (HBT_TIMEOUT_MPLIER) as a bare number',
    pattern: /[*/]\s*2\.4(?![\d.])|\bHEARTBEAT_TIMEOUT_MULTIPLIER = 2\.4\b/,
    home: ['src/dr/owner/heartbeat.ts'],
    notYet: [],
  },
  {
    name: 'a PDU type as a bare number (PduType names it)',
    pattern: /\bpduType\s*[!=]==\s*\d|\b\d+\s*[!=]==\s*pduType\b/,
    home: [],
    notYet: [],
  },
];

describe('one home per fact', () => {
  for (const fact of FACTS) {
    it(`${fact.name}: written only in its home`, () => {
      const writers = sources.filter(({ text }) => fact.pattern.test(text)).map(({ file }) => file);
      expect(writers.filter((f) => !fact.home.includes(f) && !fact.notYet.includes(f))).toEqual([]);
      // The list of files still to change only shrinks: one that no longer writes the fact leaves it.
      expect(fact.notYet.filter((f) => !writers.includes(f))).toEqual([]);
      for (const home of fact.home) expect(writers, `${home} holds ${fact.name}`).toContain(home);
    });
  }

  it('the patterns find what they look for', () => {
    const [key, typeJson, names, , multiplier, bare] = FACTS.map((f) => f.pattern);
    expect(key!.test('out.entityKey = site * 2 ** 32 + application * 2 ** 16 + number;')).toBe(true);
    expect(key!.test('return site! * 0x1_0000_0000 + application! * 0x1_0000 + entity!;')).toBe(true);
    expect(key!.test('const site = Math.floor(key / 0x1_0000_0000),')).toBe(true);
    expect(key!.test('getUint32(p + 72) * 0x1_0000_0000 + v.getUint32(p + 76)')).toBe(false);
    expect(
      typeJson!.test('kind: t[0]!,\n domain: t[1]!,\n country: t[2]!,\n category: t[3]!,\n subcategory: t[4]!'),
    ).toBe(true);
    expect(typeJson!.test('kind: t[0]!, domain: t[1]!, country: t[2]!, category: t[3]!, nomenclatureVersion: 1')).toBe(
      false,
    );
    expect(names!.test("const DR_NAMES = ['other', 'static', 'FPW', 'RPW'];")).toBe(true);
    expect(names!.test("'emitter.algorithm': ['FPW', 'RVW']")).toBe(false);
    expect(multiplier!.test('const heartbeatSeconds = timeoutSeconds[slot]! / 2.4;')).toBe(true);
    expect(multiplier!.test('timeout: heartbeat * 2.4,')).toBe(true);
    expect(multiplier!.test('return 2.45 * x / 2.45;')).toBe(false);
    expect(bare!.test('if (record.pduType !== 67) return;')).toBe(true);
    expect(bare!.test('if (record.pduType === PduType.FIRE) return;')).toBe(false);
  });
});
