// `reckon decode` end to end, run in process (test/support/cli.ts) on both recorded captures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pduJsonSchema } from '../../src/pdu/json/pdu-json.js';
import { cli } from '../support/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const capture = (name: string) => `test/fixtures/dis/${name}.pcap`;
const DIS5 = capture('dis5_kdis_vrforces_hind_vs_m1a2');
const DIS7 = capture('dis7_vrforces_gaz69_90deg_turn');

/** `reckon decode ...args`, in process. */
const reckon = (...args: string[]) => cli('decode', ...args);

describe('reckon decode', () => {
  it('summarises the v7 capture: entities, rates, DR, positions, totals and the rejected PDU', async () => {
    const { code, stdout } = await reckon(DIS7);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^1:3001:54\s+UtilVeh 1\s+1:1:222:6:1:0:0\s+GAZ-69 4x4 light vehicle · Small Wheeled Utility Vehicle · RUS\s+v7\s+94\s+\d+\.\d+\s+4 RVW\s+21\.\d{5}° N 157\.\d{5}° W -?\d+ m\s+10\.0$/m,
    );
    expect(stdout).toMatch(/^1:3001:59\s/m);
    expect(stdout).toMatch(/Frames: 171; UDP datagrams 171 \(DIS 171, other 0\)/);
    expect(stdout).toMatch(/PDUs: 278\n\s+97\s+type 1 Entity State\n/);
    expect(stdout).toMatch(/108\s+type 72 Attribute/);
    expect(stdout).toMatch(/Rejected: 1\n\s+1\s+TRUNCATED: /);
    // The one radio: VR-Forces' unattached transmitter (entity 0:0:0), its 17 Transmitter PDUs and no Signal PDU.
    expect(stdout).toMatch(
      /Radios: 1\n.*\n\s+0:0:0 #11999\s+72\.275 MHz\s+1\.0 dBm\s+On but not transmitting\s+17\s+0\s+0 bytes\s+0\n/,
    );
  });

  it('summarises the v5 capture with its three entities', async () => {
    const { code, stdout } = await reckon(DIS5, '--port-filter', '3000');
    expect(code).toBe(0);
    for (const line of [/^1:3001:15\s+M1A2 1\s/m, /^1:3001:18\s+CISARW 1\s/m, /^1:3001:21\s+Spiral 1\s/m])
      expect(stdout).toMatch(line);
    // Each entity's type named from SISO-REF-010.
    expect(stdout).toMatch(/^1:3001:15 .* 1:1:225:1:1:3:0\s+M1A2 · Tank · USA\s+v5/m);
    expect(stdout).toMatch(/^1:3001:18 .* Mi-24\/25\/35 Hind · Attack helicopter · RUS\s+v5/m);
    expect(stdout).toMatch(/^1:3001:21 .* AT-6 Spiral · Guided · RUS\s+v5/m);
    expect(stdout).toMatch(/^\s+6\s+type 41 Environmental Process$/m);
    expect(stdout).toMatch(/Rejected: 0/);
    expect(stdout).toMatch(/\n\s+1\s+type 2 Fire\n\s+1\s+type 3 Detonation\n/);
    expect(stdout).not.toMatch(/Radios/);
  });

  it.each([
    { file: DIS5, lines: 88, espdus: 60, types: { 2: 1, 3: 1, 20: 20, 41: 6 }, errors: 0 },
    { file: DIS7, lines: 278 + 1, espdus: 97, types: { 20: 26, 25: 17, 41: 30, 72: 108 }, errors: 1 },
  ])(
    'prints one JSON object per PDU with --json, every type in its JSON form: $file',
    async ({ file, lines, espdus, types, errors }) => {
      const { code, stdout } = await reckon(file, '--json');
      expect(code).toBe(0);
      const objects = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(objects).toHaveLength(lines);
      const pdus = objects.filter((o) => o.pdu);
      expect(pdus.filter((o) => o.pdu.pduType === 1)).toHaveLength(espdus);
      const byType: Record<number, number> = {};
      for (const o of pdus) {
        expect(pduJsonSchema(o.pdu.pduType).safeParse(o.pdu).success, `frame ${o.frame}`).toBe(true);
        expect(typeof o.frame === 'number' && typeof o.time === 'number').toBe(true);
        if (o.pdu.pduType !== 1) byType[o.pdu.pduType] = (byType[o.pdu.pduType] ?? 0) + 1;
      }
      expect(byType).toEqual(types);
      const rejected = objects.filter((o) => o.error);
      expect(rejected).toHaveLength(errors);
      if (errors) expect(rejected[0]).toMatchObject({ frame: 155, error: { code: 'TRUNCATED', offset: 0 } });
      const others = objects.filter((o) => !o.pdu && !o.error);
      for (const o of others) expect(Object.keys(o).sort()).toEqual(['frame', 'length', 'pduType', 'time']);
    },
  );

  it('names the numbers of each Entity State PDU with --json: type, country, force, appearance, parts', async () => {
    const { code, stdout } = await reckon(DIS5, '--json');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const objects = lines.map((line) => JSON.parse(line));
    const tank = objects.find((o) => o.names && o.pdu.pduType === 1 && o.pdu.entityId.entity === 15)!;
    expect(tank.names).toMatchObject({
      type: 'M1A2 · Tank · USA',
      typePath: 'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2',
      kind: 'Platform',
      domain: 'Land',
      country: 'United States of America (USA)',
      category: 'Tank',
      subcategory: 'M1 Abrams',
      specific: 'M1A2',
      force: 'Friendly',
      deadReckoning: expect.stringMatching(/^DRM \(RVW\)/),
      appearance: {},
    });
    expect(tank.names.parts).toHaveLength(8);
    expect(tank.names.parts[0]).toEqual({
      record: 'Articulated Part',
      part: 'Primary Turret Number 1 · Azimuth',
      value: 0,
      unit: 'deg',
    });
    // The missile's last PDU: destroyed, smoking, burning, deactivated (appearance 0x00808038).
    const missile = objects.filter((o) => o.names && o.pdu.pduType === 1 && o.pdu.entityId.entity === 21).at(-1)!;
    expect(missile.pdu.appearance).toBe(0x00808038);
    expect(missile.names.appearance).toEqual({
      damage: 'Destroyed',
      'smoke vapor emanating': 'yes',
      flaming: 'yes',
      state: 'Deactivated',
    });
    expect(missile.names.domain).toBe('Anti-Armor');
    // Still one line per PDU.
    expect(lines).toHaveLength(88);
  });

  it('says a record with a damaged length is corrupt, naming its byte offset, not that the file ends mid-frame', async () => {
    const bytes = readFileSync(join(root, DIS5));
    // The third record's captured length, made impossible (the first two records are decoded).
    let offset = 24;
    for (let i = 0; i < 2; i++) offset += 16 + bytes.readUInt32LE(offset + 8);
    bytes.writeUInt32LE(0x0100_0000, offset + 8);
    const dir = mkdtempSync(join(tmpdir(), 'reckon-decode-'));
    const file = join(dir, 'corrupt.pcap');
    writeFileSync(file, bytes);
    try {
      for (const args of [[file], [file, '--json']]) {
        const { code, stdout, stderr } = await reckon(...args);
        expect(code).toBe(0);
        expect(stderr).toContain(`record 3 at byte ${offset} is corrupt: captured length 16777216 exceeds the maximum`);
        expect(stderr).toContain('the 2 frames before it were decoded');
        expect(stderr + stdout).not.toMatch(/mid-frame|middle of a frame/);
      }
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it.each(['--port-filter', '--port'])(
    'finds nothing on a port the capture does not use, and says so (%s)',
    async (flag) => {
      const { code, stdout } = await reckon(DIS5, flag, '3001');
      expect(code).toBe(0);
      expect(stdout).toMatch(/No Entity State PDUs\./);
      expect(stdout).toMatch(/DIS 0, other 88/);
    },
  );

  it.each([
    { name: 'no capture', args: [], problem: /missing capture file: reckon decode <capture\.pcap\|capture\.pcapng>/ },
    {
      name: 'a bad port',
      args: [DIS5, '--port-filter', '70000'],
      problem: /--port-filter: expected a UDP port 1–65535, e\.g\. 3000; got "70000"/,
    },
    {
      name: 'a bad port (old name)',
      args: [DIS5, '--port', '3000x'],
      problem: /--port: expected a UDP port 1–65535, e\.g\. 3000; got "3000x"/,
    },
    { name: 'an unknown flag', args: [DIS5, '--jsno'], problem: /--jsno: unknown flag \(did you mean --json\?\)/ },
    {
      name: 'a missing file',
      args: ['no/such/capture.pcap'],
      problem: /cannot read the capture "no\/such\/capture.pcap": no such file/,
    },
    { name: 'a file that is not a capture', args: ['package.json'], problem: /not a pcap or pcapng file/ },
  ])('exits 2 and lists the problem for $name', async ({ args, problem }) => {
    const { code, stdout, stderr } = await reckon(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(problem);
    expect(stderr).toMatch(/^reckon decode: .*\(see reckon decode --help\)\n$/);
    expect(stdout).toBe('');
  });
});
