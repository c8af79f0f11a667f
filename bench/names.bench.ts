/**
 * `names.lookup`: names for the numbers of received PDUs, as a live table asks for them per entity and frame — the
 * entity type (seven numbers in, its cached names out), the country, the force and the PDU type — over 4096
 * entity types drawn from the SISO list (one in eight not listed, named by a parent). Baseline: a `Map` from
 * strings to strings holding the same names under keys made beforehand (so the baseline builds no key per lookup).
 * A lookup is one of the four; `heapBytesPerOp` is what a lookup allocates once the names are cached.
 */
import { readFileSync } from 'node:fs';
import { countryName, entityTypeNameOf, entityTypeText, forceName, pduTypeName } from '../src/names/index.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const TYPES = 4096;

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const listed = readFileSync(new URL('../data/siso/entity-types.tsv', import.meta.url), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split('\t').slice(0, 7).map(Number));
  // Seven numbers per query, from listed rows spread over the whole list; every eighth gets a made-up extra.
  const queries = new Uint16Array(TYPES * 7);
  for (let q = 0; q < TYPES; q++) {
    const fields = [...listed[Math.floor((q * listed.length) / TYPES)]!];
    if (q % 8 === 7) fields[6] = 250;
    queries.set(fields, q * 7);
  }
  const keys = Array.from({ length: TYPES }, (_, q) => entityTypeText(queries.subarray(q * 7, q * 7 + 7)));
  const map = new Map<string, string>();
  for (let q = 0; q < TYPES; q++) {
    const base = q * 7;
    map.set(keys[q]!, entityTypeOf(queries, base).label);
    map.set(`country ${queries[base + 2]}`, countryName(queries[base + 2]!));
    map.set(`force ${q % 4}`, forceName(q % 4));
    map.set(`pdu ${q % 72}`, pduTypeName(q % 72));
  }
  const countryKeys = Array.from({ length: TYPES }, (_, q) => `country ${queries[q * 7 + 2]}`);
  const forceKeys = Array.from({ length: TYPES }, (_, q) => `force ${q % 4}`);
  const pduKeys = Array.from({ length: TYPES }, (_, q) => `pdu ${q % 72}`);

  const ours = () => {
    for (let q = 0; q < TYPES; q++) {
      consume(entityTypeOf(queries, q * 7).label.length);
      consume(countryName(queries[q * 7 + 2]!).length);
      consume(forceName(q & 3).length);
      consume(pduTypeName(q % 72).length);
    }
  };
  const baseline = () => {
    for (let q = 0; q < TYPES; q++) {
      consume(map.get(keys[q]!)!.length);
      consume(map.get(countryKeys[q]!)!.length);
      consume(map.get(forceKeys[q]!)!.length);
      consume(map.get(pduKeys[q]!)!.length);
    }
  };
  const timing = quick ? { minMillis: 50, rounds: 3 } : { minMillis: 200, rounds: 7 };
  let rate = 0;
  let baselineRate = 0;
  // Interleaved passes, best of each: the ratio is not skewed by load drifting between them.
  for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
    rate = Math.max(rate, opsPerSecond(ours, TYPES * 4, timing));
    baselineRate = Math.max(baselineRate, opsPerSecond(baseline, TYPES * 4, timing));
  }
  const heap = heapBytesPerOp((i) => {
    const q = i & (TYPES - 1);
    consume(entityTypeOf(queries, q * 7).label.length + countryName(queries[q * 7 + 2]!).length);
  }, 200_000);
  return [
    {
      name: 'names.lookup',
      opsPerSec: round(rate),
      baselineOpsPerSec: round(baselineRate),
      ratio: round(rate / baselineRate),
      heapBytesPerOp: round(heap),
      types: TYPES,
    },
  ];
};

function entityTypeOf(q: Uint16Array, base: number) {
  return entityTypeNameOf(q[base]!, q[base + 1]!, q[base + 2]!, q[base + 3]!, q[base + 4]!, q[base + 5]!, q[base + 6]!);
}

export default suite;
