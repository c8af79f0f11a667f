/**
 * Turns the SISO-REF-010 data of data/siso/ into the compact module the names code loads
 * (src/names/siso-data.generated.ts), read back by src/names/siso-tables.ts.
 */
import { readFileSync } from 'node:fs';

export const SISO_VERSION = 'SISO-REF-010 v33 (2023-12-17)';
export const SISO_ATTRIBUTION = 'Reprinted with permission from SISO Inc.';
export const GENERATED_FILE = 'src/names/siso-data.generated.ts';

const DATA = new URL('../data/siso/', import.meta.url);

interface Enumeration {
  readonly uid: number;
  readonly values: readonly (readonly [number, string])[];
}
type BitField = readonly [string, number, number, string | null, string];

/** Characters the data never holds, used to separate it: checked for each name. */
const SEPARATORS = /[|^~\n\r]/;

/**
 * The generated module's text from the files in data/siso/. Names are written out where they are used (no shared
 * string table), so that each part is read on its own at its first use:
 *
 * - `ENUMERATIONS`, a line per enumeration: `Name^uid|step^name|step^name…`, values ascending, each written as its
 *   step from the one before (numbers in base 36).
 * - `ENTITY_TYPES`, a line per kind, domain and country: `high^rows|low^names|low^names…`, where high is
 *   kind << 24 | domain << 16 | country, low is category << 24 | subcategory << 16 | specific << 8 | extra,
 *   and names are the names of category, subcategory, specific and extra down to the deepest the row has,
 *   separated by `^`: empty for "as in the row before", `~` for a level without a name.
 * - `BIT_RECORDS`, a line per record: `Record|FIELD^firstBit^bitCount^enumeration^label|…`.
 */
export function renderNamesModule(): string {
  const tsv = readFileSync(new URL('entity-types.tsv', DATA), 'utf8');
  const enumerations = JSON.parse(readFileSync(new URL('enumerations.json', DATA), 'utf8')) as Record<
    string,
    Enumeration
  >;
  const bitRecords = JSON.parse(readFileSync(new URL('bitfields.json', DATA), 'utf8')) as Record<string, BitField[]>;
  const checked = (text: string): string => {
    if (SEPARATORS.test(text))
      throw new Error(`a name holds a separator (| ^ ~ or a line break): ${JSON.stringify(text)}`);
    return text;
  };
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

  let valueCount = 0;
  const enumerationLines = Object.entries(enumerations)
    .sort(byName)
    .map(([name, { uid, values }]) => {
      const sorted = [...values].sort((a, b) => a[0] - b[0]);
      let last = 0;
      const pairs = sorted.map(([value, text]) => {
        if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
          throw new Error(`${name}: value ${value} is not a whole number from 0 to 2^32 - 1`);
        }
        const step = value - last;
        last = value;
        return `${step.toString(36)}^${checked(text)}`;
      });
      valueCount += pairs.length;
      return [`${checked(name)}^${uid.toString(36)}`, ...pairs].join('|');
    });

  const rows = tsv
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line, r) => {
      const cells = line.split('\t');
      const fields = cells.slice(0, 7).map(Number);
      if (fields.some((f, i) => !Number.isInteger(f) || f < 0 || f > (i === 2 ? 0xffff : 0xff))) {
        throw new Error(`entity-types.tsv row ${r + 2}: ${cells.slice(0, 7).join(' ')} is not an entity type`);
      }
      const [k, d, c, cat, sub, spec, extra] = fields as [number, number, number, number, number, number, number];
      const names = [8, 9, 10, 11].map((i) => checked((cells[i] ?? '').trim()));
      while (names.length > 0 && names[names.length - 1] === '') names.pop();
      return {
        high: k * 0x100_0000 + d * 0x1_0000 + c,
        low: cat * 0x100_0000 + sub * 0x1_0000 + spec * 0x100 + extra,
        names,
      };
    })
    .sort((a, b) => a.high - b.high || a.low - b.low);
  const groups = new Map<number, typeof rows>();
  for (const row of rows) {
    const group = groups.get(row.high) ?? [];
    if (group.length > 0 && group[group.length - 1]!.low === row.low) {
      throw new Error(`entity-types.tsv lists ${row.high.toString(16)}:${row.low.toString(16)} twice`);
    }
    group.push(row);
    groups.set(row.high, group);
  }
  const typeLines = [...groups].map(([high, group]) => {
    let above: string[] = [];
    const written = group.map(({ low, names }) => {
      const fields = names.map((n, i) => (n === (above[i] ?? '') ? '' : n === '' ? '~' : n));
      above = names;
      return [low.toString(36), ...fields].join('^');
    });
    return [`${high.toString(36)}^${group.length.toString(36)}`, ...written].join('|');
  });

  const allFields = Object.values(bitRecords).flat();
  const vocabulary = labelVocabulary(
    allFields.map((f) => f[4]),
    allFields.flatMap((f) => (f[3] === null ? [] : [f[3]])),
  );
  const bitLines = Object.entries(bitRecords)
    .sort(byName)
    .map(([record, fields]) =>
      [
        record,
        ...fields.map(([field, first, count, enumeration]) => {
          if (enumeration !== null && !(enumeration in enumerations)) {
            throw new Error(`${record}.${field} names enumeration ${enumeration}, which enumerations.json lacks`);
          }
          return [field, first, count, enumeration ?? '', fieldLabel(field, vocabulary)].join('^');
        }),
      ].join('|'),
    );

  // ASCII only (other characters as \u escapes): the module's source then needs no UTF-8 decoding to load.
  const literal = (text: string) =>
    JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [
    `/*! ${SISO_VERSION} enumerations. ${SISO_ATTRIBUTION} */`,
    '// Generated by `npm run names` (scripts/generate-names.ts) from data/siso/; do not edit. Layout: scripts/siso-names.ts.',
    `export const SISO_VERSION = ${literal(SISO_VERSION)};`,
    `export const SISO_ATTRIBUTION = ${literal(SISO_ATTRIBUTION)};`,
    `export const ENUMERATION_VALUE_COUNT = ${valueCount};`,
    `export const ENTITY_TYPE_COUNT = ${rows.length};`,
    `export const ENUMERATIONS: string = ${literal(enumerationLines.join('\n'))};`,
    `export const ENTITY_TYPES: string = ${literal(typeLines.join('\n'))};`,
    `export const BIT_RECORDS: string = ${literal(bitLines.join('\n'))};`,
    '',
  ].join('\n');
}

/** Words the bit field names use that no description spells out. */
const EXTRA_WORDS = [
  'on',
  'is',
  'are',
  'has',
  'in',
  'use',
  'nvg',
  'adsb',
  'killed',
  'propulsion',
  'opened',
  'carrier',
  'indicator',
  'organizable',
  'count',
  'mobility',
  'firepower',
  'status',
  'stationary',
  'breach',
  'location',
  'able',
  'lights',
  'flaming',
  'weight',
  'wheels',
  'detachable',
  'smoking',
  'cigarette',
  'percent',
  'complete',
];

/**
 * A readable label for a bit field from its SISO name, which runs the words together in capitals
 * (`ISSMOKEEMANATING` → "smoke emanating", `HEADLIGHTSON` → "head lights on"): the name is cut into the fewest
 * words of the descriptions and enumeration names of every bit record; a leading "is"/"are" is dropped; a word a
 * description writes in capitals (an acronym) keeps them.
 * @param vocabulary - from `labelVocabulary`.
 */
export function fieldLabel(field: string, vocabulary: ReadonlyMap<string, string>): string {
  const name = field.toLowerCase();
  // Fewest pieces that spell the name; a run of letters outside every word counts as ten.
  const cost = new Array<number>(name.length + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(name.length + 1).fill(-1);
  cost[0] = 0;
  for (let end = 1; end <= name.length; end++) {
    for (let start = 0; start < end; start++) {
      const c = cost[start]! + (vocabulary.has(name.slice(start, end)) ? 1 : 10);
      if (c < cost[end]!) {
        cost[end] = c;
        from[end] = start;
      }
    }
  }
  const pieces: string[] = [];
  for (let end = name.length; end > 0; end = from[end]!) pieces.unshift(name.slice(from[end]!, end));
  if (pieces.length > 1 && (pieces[0] === 'is' || pieces[0] === 'are')) pieces.shift();
  return pieces.map((p) => vocabulary.get(p) ?? p).join(' ');
}

/** The words of every description and enumeration name (lower case → as written; acronyms in capitals). */
export function labelVocabulary(
  descriptions: readonly string[],
  enumerationNames: readonly string[],
): Map<string, string> {
  const words = new Map<string, string>();
  const add = (word: string) => {
    const key = word.toLowerCase();
    if (key.length < 2 && !/[0-9]/.test(key)) return;
    const acronym = word.length > 1 && word === word.toUpperCase() && /[A-Z]/.test(word);
    if (!words.has(key) || acronym) words.set(key, acronym ? word : key);
  };
  for (const d of descriptions) for (const w of d.split(/[^A-Za-z0-9]+/)) add(w);
  for (const e of enumerationNames) for (const w of e.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) add(w);
  for (const w of EXTRA_WORDS) add(w);
  words.delete('lifeform'); // SISO writes "life form" too; two words read better
  return words;
}
