// `reckon publish --feed` and `--truth` end to end: recorded feeds replayed by real servers on 127.0.0.1 (TCP as
// dump1090 serves SBS-1 and Beast, UDP and TCP as AIS-catcher sends AIVDM, HTTP as readsb serves aircraft.json;
// truth records on standard input, UDP, TCP and from a file), and a real `reckon subscribe` receiving the
// entities — their markings, their SISO types — and their leave notices.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCotEvent } from '../../src/cot/event.js';
import { repeatUntil, within } from '../support/binary.js';
import { startCli, type RunningCli } from '../support/cli.js';
import {
  aircraftJsonServer,
  beastFrames,
  evenLines,
  fixture,
  paced,
  pghpLines,
  replayServer,
  udpReplay,
} from './feed-replay.js';

interface Event {
  type: 'appeared' | 'updated' | 'removed' | string;
  marking: string;
  entityId: { site: number; application: number; entity: number };
  state: {
    forceId: number;
    entityType: {
      kind: number;
      domain: number;
      country: number;
      category: number;
      subcategory: number;
      specific: number;
    };
  };
  names: { type: string };
}

let subscribe: RunningCli;
let port = '';
const dir = mkdtempSync(join(tmpdir(), 'reckon-feeds-'));

beforeAll(async () => {
  subscribe = startCli(['subscribe', '--port', '0', '--address', '127.0.0.1', '--json']);
  [, port] = (await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 10_000)) as unknown as [string, string];
});
afterAll(async () => {
  subscribe.interrupt();
  await subscribe.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** The subscriber's events of one application (each test publishes as an application of its own). */
function events(application: number): Event[] {
  return subscribe
    .stdout()
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Event)
    .filter((e) => e.entityId.application === application);
}

/** Waits until the subscriber has seen `count` removals of the application's entities. */
async function removals(application: number, count: number): Promise<Event[]> {
  await subscribe.waitFor(
    new RegExp(`("type":"removed"[^\\n]*"application":${application}[^\\n]*\\n[\\s\\S]*){${count}}`),
    15_000,
  );
  return events(application);
}

function publish(application: number, ...args: string[]): RunningCli {
  return startCli(['publish', '--port', port, '--application', String(application), ...args]);
}

describe.concurrent('publish --feed: recorded ADS-B replayed by real servers', () => {
  it('beast://: the dump1090 capture at 10× becomes TRA89M, an aircraft, which leaves at the end', async () => {
    const server = await replayServer(beastFrames(), 10);
    const run = publish(101, '--feed', `beast://127.0.0.1:${server.port}`, '--duration', '3');
    expect(await run.exited).toBe(0);
    await server.close();
    const mine = await removals(101, 1);
    expect(mine[0]!.type).toBe('appeared');
    expect(mine.at(-1)!.type).toBe('removed');
    expect(mine.some((e) => e.marking === 'TRA89M')).toBe(true);
    expect(
      mine.every((e) => e.state.entityType.kind === 1 && e.state.entityType.domain === 2 && e.state.forceId === 3),
    ).toBe(true);
    expect(run.stderr()).toMatch(
      /beast:\/\/127\.0\.0\.1:\d+: [\d,]+ messages, 0 aircraft \(1 seen, 1 left\)|beast:\/\/127\.0\.0\.1:\d+: [\d,]+ messages, 1 aircraft \(1 seen\)/,
    );
    expect(run.stderr()).toMatch(/\d+ positions? → \d+ PDUs?/);
  });

  it('sbs://: the Los Angeles SBS-1 recording becomes its five placed aircraft, with their callsigns', async () => {
    const server = await replayServer(evenLines(fixture('adsb_sbs1_node_sbs1_msgs.txt.gz').toString(), 0.0005), 1);
    const run = publish(102, '--feed', `sbs://127.0.0.1:${server.port}`);
    await server.sent;
    // Everything sent: once the status says it all arrived, stop as Ctrl-C does.
    await run.waitFor(/publish: \d+ s, /, 15_000);
    run.interrupt();
    expect(await run.exited).toBe(0);
    await server.close();
    const appeared = events(102).filter((e) => e.type === 'appeared');
    // The five aircraft the recording has positions of (MSG,3).
    expect(new Set(appeared.map((e) => e.entityId.entity)).size).toBe(5);
    expect(events(102).some((e) => e.marking === 'SWR40')).toBe(true);
    expect(run.stderr()).toMatch(/stopped \(interrupted\)[\s\S]*4184 messages/);
  });

  it('http://…/aircraft.json: readsb trace of N899DN at 20×, typed Boeing 737-900 by its "t"', async () => {
    const server = await aircraftJsonServer(20);
    const run = publish(103, '--feed', server.url, '--poll', '0.2 s');
    await subscribe.waitFor(/"type":"appeared"[^\n]*"application":103/, 15_000);
    run.interrupt();
    expect(await run.exited).toBe(0);
    await server.close();
    expect(server.requests()).toBeGreaterThanOrEqual(1);
    const mine = await removals(103, 1);
    expect(mine[0]!.marking).toBe('N899DN');
    expect(mine[0]!.state.entityType).toMatchObject({
      kind: 1,
      domain: 2,
      country: 225,
      category: 87,
      subcategory: 32,
      specific: 5,
    });
    expect(mine[0]!.names.type).toMatch(/737-900/);
  });
});

describe.concurrent('publish --feed: recorded AIS replayed by real senders', () => {
  it('aivdm+udp://: 27 s of Danish traffic at 10× becomes vessels, named by their static reports', async () => {
    const run = publish(104, '--feed', 'aivdm+udp://127.0.0.1:0');
    const [, udpPort] = (await run.waitFor(/listening on 127\.0\.0\.1:(\d+)/, 10_000)) as unknown as [string, string];
    await udpReplay(pghpLines(), 10, Number(udpPort));
    // Counted, not matched by one pattern: a pattern of 50 repeated wildcards backtracks for minutes over 1,000 vessels.
    // Type 5 reports name vessels: wait for a marking that is a name, not an MMSI, too (they come later).
    const named = () => events(104).some((e) => /[A-Z]{3}/.test(e.marking));
    const fifty = () => events(104).filter((e) => e.type === 'appeared').length >= 50 && named();
    await within(
      repeatUntil(fifty, () => {}),
      15_000,
      '50 vessels, one named',
    );
    run.interrupt();
    expect(await run.exited).toBe(0);
    const appeared = events(104).filter((e) => e.type === 'appeared');
    // Hundreds of vessels; on a loaded machine loopback UDP may drop some datagrams, as a real network would.
    expect(appeared.length).toBeGreaterThanOrEqual(50);
    expect(appeared.every((e) => e.state.entityType.kind === 1 && e.state.entityType.domain === 3)).toBe(true);
    expect(named()).toBe(true);
    expect(run.stderr()).toMatch(/vessels/);
  });

  it('aivdm+tcp://: satellite AIS with tag blocks from a TCP server', async () => {
    const server = await replayServer(evenLines(fixture('ais_amsa_exact_earth_tag_block.txt').toString(), 0.005), 1);
    const run = publish(105, '--feed', `aivdm+tcp://127.0.0.1:${server.port}`, '--duration', '2');
    expect(await run.exited).toBe(0);
    await server.close();
    expect(events(105).filter((e) => e.type === 'appeared').length).toBeGreaterThan(20);
    expect(run.stderr()).not.toMatch(/bad input/);
  });
});

describe('TAK: live traffic through `reckon bridge --cot`', () => {
  it('shows the airliner and the vessels as civil aircraft and ships, neutral, with their callsigns', async () => {
    const listener = createSocket('udp4');
    await new Promise<void>((resolve) => listener.bind(0, '127.0.0.1', resolve));
    const events: ReturnType<typeof parseCotEvent>[] = [];
    listener.on('message', (m) => events.push(parseCotEvent(m.toString('utf8'))));
    const bridge = startCli([
      'bridge',
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--cot',
      `udp://127.0.0.1:${listener.address().port}`,
    ]);
    try {
      const [, bridgePort] = (await bridge.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 10_000)) as unknown as [
        string,
        string,
      ];
      const server = await aircraftJsonServer(20);
      const ais = await replayServer(evenLines(fixture('ais_amsa_exact_earth_tag_block.txt').toString(), 0.002), 1);
      const run = startCli([
        'publish',
        '--port',
        bridgePort,
        '--application',
        '110',
        '--feed',
        server.url,
        '--poll',
        '0.2 s',
        '--feed',
        `aivdm+tcp://127.0.0.1:${ais.port}`,
      ]);
      const deadline = Date.now() + 15_000;
      const seen = () => events.filter((e) => e?.event.type?.startsWith('a-n-S-X')).length;
      while ((!events.some((e) => e?.contact.callsign === 'N899DN') || seen() < 5) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      run.interrupt();
      expect(await run.exited).toBe(0);
      await Promise.all([server.close(), ais.close()]);
      // CoT types from the SISO types: a civil fixed-wing aircraft (MIL-STD-2525 civilian air), civil ships.
      expect(events.find((e) => e?.contact.callsign === 'N899DN')?.event.type).toBe('a-n-A-C-F');
      expect(seen()).toBeGreaterThanOrEqual(5);
    } finally {
      bridge.interrupt();
      await bridge.exited;
      listener.close();
    }
  });
});

const records = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: 'tank-7',
      time: i * 0.1,
      lat: 36.6 + i * 1e-5,
      lon: -121.9,
      alt: 20,
      heading: 0,
      type: 'M1A2',
      marking: 'TANK 7',
    }),
  );

describe.concurrent("publish --truth: any program's records", () => {
  it('-: records on standard input become the entity, with its SISO type by name; the end of input ends the run', async () => {
    const stdin = new PassThrough();
    const run = startCli(['publish', '--port', port, '--application', '106', '--truth', '-'], {}, undefined, stdin);
    for (const line of records(20)) stdin.write(`${line}\n`);
    stdin.write('not json\n');
    stdin.write(`${JSON.stringify({ id: 'tank-7', leave: true })}\n`);
    stdin.end();
    expect(await run.exited).toBe(0);
    const mine = await removals(106, 1);
    expect(mine[0]!.marking).toBe('TANK 7');
    expect(mine[0]!.names.type).toBe('M1A2 · Tank · USA');
    expect(run.stderr()).toMatch(/stopped \(the input ended\)/);
    expect(run.stderr()).toMatch(/bad input \(counted, skipped\); the first: message 21: not JSON: not json/);
    expect(run.stderr()).toMatch(
      /\n {2}standard input: 22 messages \(1 bad one\), 0 entities \(1 seen, 1 left\), 20 positions → \d PDUs/,
    );
    expect(run.stderr()).toMatch(/^publish: standard input → /);
  });

  it('udp:// and tcp://: records listened for, from a sender and a client', async () => {
    const udp = publish(107, '--truth', 'udp://127.0.0.1:0', '--duration', '2');
    const tcp = publish(108, '--truth', 'tcp://127.0.0.1:0', '--duration', '2');
    const [, udpPort] = (await udp.waitFor(/listening on 127\.0\.0\.1:(\d+)/, 10_000)) as unknown as [string, string];
    const [, tcpPort] = (await tcp.waitFor(/listening on 127\.0\.0\.1:(\d+)/, 10_000)) as unknown as [string, string];
    const socket = createSocket('udp4');
    const client = connect(Number(tcpPort), '127.0.0.1');
    const lines = records(10);
    await paced(
      lines.map((l, i) => ({ atSeconds: i * 0.05, bytes: Buffer.from(`${l}\n`) })),
      1,
      (bytes) => {
        socket.send(bytes, Number(udpPort), '127.0.0.1');
        client.write(bytes);
      },
    );
    expect(await udp.exited).toBe(0);
    expect(await tcp.exited).toBe(0);
    socket.close();
    client.destroy();
    for (const application of [107, 108]) {
      const mine = await removals(application, 1);
      expect(mine[0]!.marking).toBe('TANK 7');
    }
  });

  it("FILE: played at the pace of its records' times", async () => {
    const file = join(dir, 'truth.ndjson');
    writeFileSync(file, `${records(15).join('\n')}\n`); // 1.4 s of records
    const startedMs = Date.now();
    const run = publish(109, '--truth', file);
    expect(await run.exited).toBe(0);
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(1300);
    expect((await removals(109, 1))[0]!.marking).toBe('TANK 7');
  });
});
