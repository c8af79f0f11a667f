// The fuzzer of `npm run fuzz` at a smaller count: random and mutated datagrams (from the real captures and a
// capture of every PDU type) through the subscriber's receive path, the decode path and the map's engagement feed. Nothing throws, no non-finite value reaches an event, a frame or a
// view, every status code and rejection the mutator aims at is met on both paths, and a seed reproduces a run.
import { describe, expect, it } from 'vitest';
import { captureSeeds, runFuzz } from '../../scripts/fuzz.js';
import { pduTypeName } from '../../src/names/enumerations.js';
import { RANDOM_PDU_TYPES } from '../fixtures/pdu/random-pdus.js';

const seeds = captureSeeds();
const VALIDATION = [
  'ENTITY_ID_NONE',
  'ENTITY_ID_ALL',
  'LOCATION_NOT_FINITE',
  'LOCATION_OUT_OF_RANGE',
  'VELOCITY_NOT_FINITE',
  'VELOCITY_OUT_OF_RANGE',
  'ORIENTATION_NOT_FINITE',
  'DR_ALGORITHM_INVALID',
  'ACCELERATION_NOT_FINITE',
  'ANGULAR_VELOCITY_NOT_FINITE',
];

describe('npm run fuzz', () => {
  it('20 000 datagrams: no throw, nothing non-finite shown, every aimed-at code met on both paths', () => {
    const report = runFuzz({ datagrams: 20_000, seed: 0x5eed, seeds });
    expect(report.problems).toEqual([]);
    expect(report.throws).toBe(0);
    expect(report.nonFinite).toBe(0);
    const r = report.receive;
    for (const reason of ['truncated', 'badLength', 'oversized', 'unsupportedVersion', 'wrongExercise']) {
      expect(r.rejected[reason] ?? 0, reason).toBeGreaterThan(0);
    }
    expect(r.rejected.pduTypeNotAccepted, 'other PDU types are not rejected').toBeUndefined();
    expect(r.other, 'other PDU types, counted').toBeGreaterThan(0);
    for (const code of ['OK', 'TRUNCATED', 'BAD_LENGTH', ...VALIDATION])
      expect(r.status[code] ?? 0, code).toBeGreaterThan(0);
    for (const outcome of [
      'appeared',
      'updated',
      'removed',
      'timedOut',
      'duplicates',
      'outOfOrder',
      'unknownUpdates',
      'full',
    ]) {
      expect(r.table[outcome] ?? 0, outcome).toBeGreaterThan(0);
    }
    expect(r.frames).toBeGreaterThan(50);
    for (const code of ['OK', 'TRUNCATED', 'BAD_LENGTH', 'UNSUPPORTED_VERSION', ...VALIDATION]) {
      expect(report.decode.status[code] ?? 0, code).toBeGreaterThan(0);
    }
    for (const code of ['TRUNCATED', 'BAD_LENGTH']) expect(report.decode.headers[code] ?? 0, code).toBeGreaterThan(0);
    // Every PDU type reckon decodes went through its own decoder, whole and mutated.
    for (const type of RANDOM_PDU_TYPES) {
      const counts = report.decode.types[pduTypeName(type)] ?? {};
      expect(counts.OK ?? 0, pduTypeName(type)).toBeGreaterThan(0);
    }
    const refused = Object.values(report.decode.types).flatMap((counts) => Object.keys(counts));
    for (const code of ['BAD_LENGTH', 'BAD_RECORD_LENGTH', 'TOO_MANY_PARAMETERS', 'UNSUPPORTED_VERSION']) {
      expect(refused, code).toContain(code);
    }
    for (const type of ['fire', 'detonation']) expect(r.events[type] ?? 0, type).toBeGreaterThan(0);
    for (const type of ['fire', 'detonation', 'collision', 'entity-control', 'radio']) {
      expect(report.view.messages[type] ?? 0, type).toBeGreaterThan(0);
    }
    expect(report.view.rejected).toBeGreaterThan(0);
  });

  it('a seed reproduces a run; another seed makes other datagrams', () => {
    const a = runFuzz({ datagrams: 2000, seed: 7, seeds });
    expect(runFuzz({ datagrams: 2000, seed: 7, seeds })).toEqual(a);
    expect(runFuzz({ datagrams: 2000, seed: 8, seeds })).not.toEqual(a);
  });
});
