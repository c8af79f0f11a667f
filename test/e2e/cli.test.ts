// The binaries end to end on the real captures: `reckon replay` into `reckon subscribe --json`, and
// `reckon record` of a replay read back by `reckon decode`. Real processes, UDP on 127.0.0.1, bounded waits.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, reckon, within } from '../support/binary.js';

const CAPTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');

describe('captures through the binaries', () => {
  it('a capture replayed with reckon replay is seen by reckon subscribe --json', async () => {
    const subscribe = reckon([
      'subscribe',
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--json',
      '--count',
      '97',
      '--duration',
      '30',
    ]);
    const [, port] = await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const replay = reckon(['replay', CAPTURE, '--to', `127.0.0.1:${port}`, '--speed', '50']);
    expect(await within(replay.exited, 20_000, 'replay to exit', replay.child)).toBe(0);
    expect(await within(subscribe.exited, 20_000, 'subscribe to exit', subscribe.child)).toBe(0);
    const events = subscribe
      .stdout()
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            type: string;
            marking: string;
            entityId: { entity: number };
            state: { deadReckoning: { algorithm: number } };
          },
      );
    // The capture's 97 Entity State PDUs: entities 1:3001:54 (94, RVW) and 1:3001:59 (3), both "UtilVeh 1".
    expect(events).toHaveLength(97);
    expect(new Set(events.map((e) => e.entityId.entity))).toEqual(new Set([54, 59]));
    expect(events.filter((e) => e.type === 'appeared')).toHaveLength(2);
    expect(events.every((e) => e.marking === 'UtilVeh 1')).toBe(true);
    expect(events.find((e) => e.entityId.entity === 54)!.state.deadReckoning.algorithm).toBe(4);
    expect(subscribe.stderr()).toMatch(/stopped \(97 events\)/);
    // The Attribute, Data, … PDUs counted by type, not rejected; the one truncated Data PDU rejected.
    expect(subscribe.stderr()).toMatch(
      /181 PDUs of other types \(Attribute 108, Environmental Process 30, Data 26, Transmitter 17\), rejected 1 \(truncated 1\)/,
    );
  });

  it('the fire and the detonation of the VR-Forces engagement come out of reckon subscribe --json', async () => {
    const subscribe = reckon(['subscribe', '--port', '0', '--address', '127.0.0.1', '--json', '--duration', '30']);
    const [, port] = await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const engagement = join(ROOT, 'test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap');
    const replay = reckon(['replay', engagement, '--to', `127.0.0.1:${port}`, '--speed', '50']);
    expect(await within(replay.exited, 20_000, 'replay to exit', replay.child)).toBe(0);
    await subscribe.waitFor(/"type":"detonation"/);
    subscribe.child.kill('SIGINT');
    expect(await within(subscribe.exited, 20_000, 'subscribe to exit', subscribe.child)).toBe(0);
    const lines = subscribe
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const fire = lines.find((l) => l.type === 'fire');
    expect(fire).toMatchObject({
      shooter: { entityId: { site: 1, application: 3001, entity: 18 }, marking: 'CISARW 1' },
      target: { entityId: { entity: 15 }, marking: 'M1A2 1' },
      munition: { name: 'AT-6 Spiral · Guided · RUS', entity: { entityId: { entity: 21 } } },
      eventId: { eventNumber: 3 },
      pdu: { pduType: 2, length: 96 },
    });
    expect(fire.range).toBeCloseTo(1823.32, 2);
    expect(lines.find((l) => l.type === 'detonation')).toMatchObject({
      result: 1,
      resultName: 'Entity Impact',
      target: { marking: 'M1A2 1' },
      eventId: { eventNumber: 3 },
    });
    expect(subscribe.stderr()).toMatch(/; 1 fire, 1 detonation/);
  });

  it('a recording made with reckon record decodes with reckon decode', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'reckon-e2e-')), 'replayed.pcap');
    const record = reckon([
      'record',
      '--out',
      out,
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--count',
      '40',
      '--duration',
      '30',
    ]);
    const [, port] = await record.waitFor(/port (\d+)/);
    const replay = reckon(['replay', CAPTURE, '--to', `127.0.0.1:${port}`, '--speed', '50']);
    expect(await within(record.exited, 20_000, 'record to exit', record.child)).toBe(0);
    replay.child.kill('SIGINT');
    await within(replay.exited, 10_000, 'replay to exit', replay.child);
    const decode = reckon(['decode', out]);
    expect(await within(decode.exited, 10_000, 'decode to exit', decode.child)).toBe(0);
    expect(decode.stdout()).toMatch(/pcap, 40 frames/);
    expect(decode.stdout()).toMatch(/1:3001:54 +UtilVeh 1/);
  });
});
