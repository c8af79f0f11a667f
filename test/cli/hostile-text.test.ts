// Text from the network never reaches a terminal raw: Entity State PDUs whose markings hold terminal controls
// (`ESC ] 0 ; … BEL` sets the window title, `ESC [ 2 J` clears the screen, C1 CSI, DEL) sent to the real
// `reckon subscribe` over UDP on 127.0.0.1 (plain lines in process, and the real binary's live table on a
// pseudo-terminal of 80×24, its whole output checked), and written into a capture for `reckon decode`. The shown
// text has visible escapes; the NDJSON keeps the exact text.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APPEARANCE_DEACTIVATED, DR_FPW } from '../../src/dr/models/algorithm.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { BIN, ROOT, within } from '../support/binary.js';
import { startCli } from '../support/cli.js';
import { Screen } from './terminal/screen.js';

const TITLE_AND_CLEAR = '\x1b]0;PW\x07\x1b[2J'; // 11 bytes: a whole marking
const C1_AND_DEL = 'B\x9b2J\x7f';
const SHOWN_TITLE_AND_CLEAR = '\\x1b]0;PW\\x07\\x1b[2J';
/** Controls other than LF (and CR, which a pseudo-terminal adds), once our own CSI sequences are taken out. */
const RAW_CONTROL = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/; // eslint-disable-line no-control-regex
const OWN_CSI = /\x1b\[[0-9;?]*[A-Za-z]/g; // eslint-disable-line no-control-regex

function pdu(entity: number, marking: string, tSeconds: number, appearance = 0): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 77;
  r.entity = entity;
  r.forceId = 2;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  geodeticDegreesToEcef(r.location, 47.39712, 8.54803, 408);
  r.drAlgorithm = DR_FPW;
  r.appearance = appearance;
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  for (let i = 0; i < marking.length; i++) r.markingBytes[i] = marking.charCodeAt(i);
  r.markingCharacterSet = 1;
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

/** Entity 1 (title + clear) twice, entity 2 (C1 + DEL) once and then its leave notice. */
const HOSTILE_PDUS = [
  pdu(1, TITLE_AND_CLEAR, 0),
  pdu(2, C1_AND_DEL, 0),
  pdu(1, TITLE_AND_CLEAR, 1),
  pdu(2, C1_AND_DEL, 1, APPEARANCE_DEACTIVATED),
];

async function sendAll(port: number): Promise<void> {
  const socket = createSocket('udp4');
  try {
    for (const bytes of HOSTILE_PDUS) {
      await new Promise<void>((resolve, reject) =>
        socket.send(bytes, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
      );
    }
  } finally {
    socket.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'reckon-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each test listens on ports of its own: side by side, they wait out their durations together.
describe.concurrent('hostile markings through reckon', () => {
  it('subscribe (plain lines, no terminal) shows them escaped', async () => {
    const run = startCli(['subscribe', '--port', '0', '--address', '127.0.0.1', '--duration', '3']);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    await sendAll(Number(port));
    expect(await within(run.exited, 15_000, 'subscribe to exit')).toBe(0);
    const out = run.stdout() + run.stderr();
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).not.toContain('\x1b');
    expect(run.stdout()).toContain(`subscribe: 1:77:1 ${SHOWN_TITLE_AND_CLEAR} opposing`);
    expect(run.stdout()).toMatch(/subscribe: 1 left; last left 1:77:2 B\\x9b2J\\x7f \d+ s ago/);
  });

  it('subscribe --json keeps the exact text (JSON escapes it)', async () => {
    const run = startCli(['subscribe', '--port', '0', '--address', '127.0.0.1', '--json', '--count', '4']);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    await sendAll(Number(port));
    expect(await within(run.exited, 15_000, 'subscribe to exit')).toBe(0);
    expect(run.stdout()).not.toMatch(RAW_CONTROL);
    const markings = run
      .stdout()
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { marking: string }).marking);
    expect(markings).toEqual([TITLE_AND_CLEAR, C1_AND_DEL, TITLE_AND_CLEAR, C1_AND_DEL]);
  });

  const script = findSystemBinary('script', 'bsdutils');
  it.skipIf(!script.path)('subscribe on an 80×24 pseudo-terminal: escaped, one table, every line fits', async () => {
    const subscribe = `'${process.execPath}' '${BIN}' subscribe --port 0 --address 127.0.0.1 --duration 3`;
    const child = spawn(script.path!, ['-qec', `stty cols 80 rows 24; exec ${subscribe}`, '/dev/null'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '' },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += String(c)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const port = await within(
      new Promise<number>((resolve) => {
        const look = () => {
          const m = /listening on 127\.0\.0\.1 port (\d+)/.exec(out);
          if (!m) return;
          resolve(Number(m[1]));
          child.stdout.off('data', look);
        };
        child.stdout.on('data', look);
      }),
      15_000,
      'subscribe to listen',
      child,
    );
    await sendAll(port);
    expect(await within(exited, 15_000, 'subscribe to exit', child)).toBe(0);
    expect(out.replace(OWN_CSI, '')).not.toMatch(RAW_CONTROL);
    const screen = new Screen(80, 24);
    screen.write(out); // throws on any escape sequence other than our own CSI ones
    const shown = screen.lines();
    expect(
      shown.filter((l) => /remote entities/.test(l)),
      shown.join('\n'),
    ).toHaveLength(1);
    expect(shown.join('\n')).toContain(SHOWN_TITLE_AND_CLEAR);
    expect(shown.join('\n')).toMatch(/1 remote entities · 1 left/);
    expect(shown.join('\n')).toMatch(/left 1:77:2 B\\x9b2J\\x7f/);
    for (const line of out.split('\n')) expect(line.replace(OWN_CSI, '').replace(/\r$/, '').length).toBeLessThan(80);
  });

  it('decode shows them escaped in the summary and keeps them exact in the NDJSON', async () => {
    const file = join(dir, 'hostile.pcap');
    const records = HOSTILE_PDUS.map((p, i) => pcapUdpRecord(p, 1_700_000_000 + i));
    writeFileSync(file, Buffer.concat([pcapFileHeader(), ...records]));
    const summary = startCli(['decode', file]);
    expect(await within(summary.exited, 15_000, 'decode to exit')).toBe(0);
    expect(summary.stdout()).not.toMatch(RAW_CONTROL);
    expect(summary.stdout()).not.toContain('\x1b');
    expect(summary.stdout()).toMatch(/^1:77:1\s+\\x1b\]0;PW\\x07\\x1b\[2J\s/m);
    expect(summary.stdout()).toMatch(/^1:77:2\s+B\\x9b2J\\x7f\s.*47\.39712° N 8\.54803° E 408 m/m);
    const json = startCli(['decode', file, '--json']);
    expect(await within(json.exited, 15_000, 'decode to exit')).toBe(0);
    expect(json.stdout()).not.toMatch(RAW_CONTROL);
    const lines = json.stdout().trim().split('\n');
    const markings = lines.map((l) => (JSON.parse(l) as { pdu: { marking: { text: string } } }).pdu.marking.text);
    expect(markings).toEqual([TITLE_AND_CLEAR, C1_AND_DEL, TITLE_AND_CLEAR, C1_AND_DEL]);
  });

  it('subscribe names the Entity State PDUs it rejected for impossible values in its summary', async () => {
    const nanLocation = pdu(3, 'NAN', 0);
    new DataView(nanLocation.buffer).setFloat64(48, Number.NaN); // location X, IEEE 1278.1 Entity State PDU byte 48
    const noEntity = pdu(0, 'NONE', 0);
    const run = startCli(['subscribe', '--port', '0', '--address', '127.0.0.1', '--duration', '3']);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const socket = createSocket('udp4');
    for (const bytes of [nanLocation, noEntity]) {
      await new Promise<void>((resolve, reject) =>
        socket.send(bytes, Number(port), '127.0.0.1', (e) => (e ? reject(e) : resolve())),
      );
    }
    socket.close();
    expect(await within(run.exited, 15_000, 'subscribe to exit')).toBe(0);
    expect(run.stderr()).toMatch(/Entity State PDUs rejected: .*LOCATION_NOT_FINITE 1/);
    expect(run.stderr()).toMatch(/Entity State PDUs rejected: .*ENTITY_ID_NONE 1/);
    expect(run.stdout()).not.toContain('NaN');
  });
});
