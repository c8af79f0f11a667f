// src/names/siso-data.generated.ts is the compact form of data/siso/, made by `npm run names`: it must be current,
// carry SISO's attribution and version, and stay small enough to ship twice (library and map page) within 1 MB.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_FILE,
  SISO_ATTRIBUTION,
  SISO_VERSION,
  fieldLabel,
  labelVocabulary,
  renderNamesModule,
} from '../../scripts/siso-names.js';

const ROOT = new URL('../../', import.meta.url);
const committed = readFileSync(new URL(GENERATED_FILE, ROOT), 'utf8');

describe('the generated SISO names module', () => {
  it('is up to date with data/siso/ (run `npm run names`)', () => {
    expect(committed === renderNamesModule(), `${GENERATED_FILE} differs from what data/siso/ makes`).toBe(true);
  });

  it("carries SISO's attribution and the version, in its header and as exports", () => {
    expect(SISO_ATTRIBUTION).toBe('Reprinted with permission from SISO Inc.');
    expect(committed.split('\n')[0]).toBe(`/*! ${SISO_VERSION} enumerations. ${SISO_ATTRIBUTION} */`);
    expect(committed).toContain(`export const SISO_ATTRIBUTION = "${SISO_ATTRIBUTION}";`);
    for (const notice of ['data/siso/README.md', 'THIRD_PARTY_NOTICES.md']) {
      const text = readFileSync(new URL(notice, ROOT), 'utf8');
      expect(text, notice).toContain(SISO_ATTRIBUTION);
      expect(text, notice).toContain(SISO_VERSION);
    }
  });

  it('is at most 450 kB gzipped, so that the library copy and the map page copy stay within 1 MB', () => {
    expect(gzipSync(committed, { level: 9 }).length).toBeLessThan(450_000);
  });
});

describe('bit field labels', () => {
  const records = JSON.parse(readFileSync(new URL('data/siso/bitfields.json', ROOT), 'utf8')) as Record<
    string,
    [string, number, number, string | null, string][]
  >;
  const fields = Object.values(records).flat();
  const vocabulary = labelVocabulary(
    fields.map((f) => f[4]),
    fields.flatMap((f) => (f[3] === null ? [] : [f[3]])),
  );

  it.each([
    ['ISSMOKEEMANATING', 'smoke emanating'],
    ['HEADLIGHTSON', 'head lights on'],
    ['ISFROZEN', 'frozen'],
    ['POWERPLANTON', 'power plant on'],
    ['MOBILITYKILLED', 'mobility killed'],
    ['NVGMODE', 'NVG mode'],
    ['ISATIRCMACTIVE', 'ATIRCM active'],
    ['SPOTSEARCHLIGHT1ON', 'spot search light 1 on'],
    ['WEIGHTONWHEELS', 'weight on wheels'],
    ['SIGNALSMOKEINUSE', 'signal smoke in use'],
  ])('%s reads "%s"', (field, label) => {
    expect(fieldLabel(field, vocabulary)).toBe(label);
  });

  it('cut every field name into words without a stray letter', () => {
    const stray = fields.map((f) => fieldLabel(f[0], vocabulary)).filter((l) => /(^| )[a-z]( |$)/.test(l));
    expect(stray).toEqual([]);
  });
});
