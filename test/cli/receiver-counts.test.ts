// The receiving commands' summaries count what happened under its own name: a rejected Fire PDU is a Fire PDU
// rejected, not an Entity State PDU; every PDU refused is counted by its type.
import { createSocket } from 'node:dgram';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { encodeAnyPduInto, type AnyPduRecord } from '../../src/pdu/wire/any-pdu.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { StopFreezeRecord } from '../../src/pdu/wire/simulation-management.js';
import { FireRecord } from '../../src/pdu/wire/warfare.js';
import { MAX_PENDING_ORDERS } from '../../src/dr/receiver/pending-orders.js';
import { within } from '../support/binary.js';
import { startCli } from '../support/cli.js';

const encoded = (record: AnyPduRecord): Uint8Array => {
  const out = new Uint8Array(2000);
  return out.slice(0, encodeAnyPduInto(out, record));
};

/** Entity State PDU of 1:1:1, exercise 1, with one more byte in its Length than its records hold. */
function badLengthEntityState(): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = r.application = r.entity = 1;
  r.location.set([6_379_137, 0, 0]);
  const bytes = new Uint8Array(152);
  encodeEntityStateInto(bytes, r);
  new DataView(bytes.buffer).setUint16(8, 152);
  return bytes;
}

/** A Fire PDU of exercise 1 whose location is not a number. */
function fireNowhere(): Uint8Array {
  const fire = new FireRecord();
  fire.exerciseId = 1;
  Object.assign(fire.firingEntityId, { site: 1, application: 1, entity: 1 });
  fire.location.set([Number.NaN, 0, 0]);
  return encoded(fire);
}

/** 200 Stop/Freeze PDUs of exercise 1 for entities 1:1:from… , dated `seconds` ahead of now. */
function stopsAhead(from: number, seconds: number): Uint8Array {
  const stop = new StopFreezeRecord();
  stop.exerciseId = 1;
  const when = Date.now() / 1000 + seconds;
  stop.realWorldTime.hour = Math.floor(when / 3600);
  stop.realWorldTime.timePastHour = Math.floor(((when % 3600) / 3600) * 0x8000_0000) * 2;
  const out = new Uint8Array(200 * 40);
  for (let k = 0; k < 200; k++) {
    Object.assign(stop.receivingId, { site: 1, application: 1, entity: from + k });
    out.set(encoded(stop), 40 * k);
  }
  return out;
}

/** A Stop/Freeze PDU of exercise 1 four bytes longer than its 40. */
function longStopFreeze(): Uint8Array {
  const stop = new StopFreezeRecord();
  stop.exerciseId = 1;
  const bytes = new Uint8Array(44);
  bytes.set(encoded(stop));
  new DataView(bytes.buffer).setUint16(8, 44);
  return bytes;
}

async function sendAll(port: number, datagrams: readonly Uint8Array[]): Promise<void> {
  const socket = createSocket('udp4');
  try {
    for (const bytes of datagrams) {
      await new Promise<void>((resolve, reject) =>
        socket.send(bytes, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
      );
    }
  } finally {
    socket.close();
  }
}

describe('subscribe summary', () => {
  it('counts rejected PDUs under their own type', async () => {
    const run = startCli(['subscribe', '--address', '127.0.0.1', '--port', '0', '--diagnostics', '--duration', '60']);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    await sendAll(Number(port), [fireNowhere(), fireNowhere(), longStopFreeze(), badLengthEntityState()]);
    await run.waitFor(/(?:rejected \d+-byte datagram[\s\S]*){4}/, 15_000);
    run.interrupt();
    expect(await within(run.exited, 10_000, 'subscribe to stop')).toBe(0);
    const summary = run
      .stderr()
      .split('\n')
      .find((l) => l.includes('received'))!;
    expect(summary).toContain('; Entity State PDUs rejected: BAD_LENGTH 1');
    expect(summary).toContain('; Fire PDUs rejected: LOCATION_NOT_FINITE 2');
    expect(summary).toContain('; Stop/Freeze PDUs rejected: BAD_LENGTH 1');
    // The diagnostics name each PDU's own layout.
    expect(run.stderr()).toContain('(Stop/Freeze PDU: exactly 40 bytes)');
  });
});

describe.concurrent('a flood of Stop/Freeze PDUs dated ahead', () => {
  // 2 000 orders for entities of their own, 10 s ahead: at most MAX_PENDING_ORDERS wait; the rest are counted.
  it.each([
    ['subscribe', []],
    ['bridge', ['--cot', 'udp://127.0.0.1:9']],
  ])('%s keeps the orders waiting bounded and says how many it did not carry out', async (command, extra) => {
    // Side by side, each waits out its 3 s: the datagrams are in its socket's buffer long before.
    const run = startCli([command, '--address', '127.0.0.1', '--port', '0', '--duration', '3', ...extra]);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const floods = Array.from({ length: 10 }, (_, d) => stopsAhead(1 + 200 * d, 10));
    // The same 200 again: each replaces the order waiting for its entity.
    await sendAll(Number(port), [...floods, floods[0]!]);
    expect(await within(run.exited, 15_000, `${command} to stop`)).toBe(0);
    const summary = run
      .stderr()
      .split('\n')
      .find((l) => l.includes('received'))!;
    expect(summary).toContain(
      `; ${200 + 2000 - MAX_PENDING_ORDERS} Stop/Freeze or Start/Resume orders dated ahead not carried out ` +
        `(200 replaced by a newer one for the same entities, ${2000 - MAX_PENDING_ORDERS} over the 1024 waiting)`,
    );
  });
});

describe('view summary', () => {
  it('counts every feed message served, text ones too, and the clients', async () => {
    const run = startCli(['view', '--http', '127.0.0.1:0', '--address', '127.0.0.1', '--port', '0']);
    const [, url] = await run.waitFor(/map at (http:\/\/127\.0\.0\.1:\d+\/)/);
    const [, port] = await run.waitFor(/receiving DIS on 127\.0\.0\.1 port (\d+)/);
    const socket = new WebSocket(`${url!.replace('http:', 'ws:')}feed`);
    const types: string[] = [];
    const fired = new Promise<void>((resolve) =>
      socket.on('message', (data, binary) => {
        if (binary) return;
        types.push((JSON.parse(String(data)) as { type: string }).type);
        if (types.includes('fire')) resolve();
      }),
    );
    await within(new Promise((resolve) => socket.once('open', resolve)), 10_000, 'the feed to open');
    const fire = new FireRecord();
    fire.exerciseId = 1;
    Object.assign(fire.firingEntityId, { site: 1, application: 1, entity: 1 });
    fire.location.set([6_378_137, 0, 0]);
    await sendAll(Number(port), [encoded(fire)]);
    await within(fired, 10_000, 'the fire message');
    socket.close();
    run.interrupt();
    expect(await within(run.exited, 10_000, 'view to stop')).toBe(0);
    const served = run
      .stderr()
      .split('\n')
      .find((l) => l.includes('served'))!;
    // hello and fire at least (and the counters of each second): text messages are feed messages too.
    const [, messages, size] = /served {4}1 client: (\d+) feed messages \(([^)]+)\)/.exec(served) ?? [];
    expect(Number(messages), served).toBeGreaterThanOrEqual(types.length);
    expect(size, served).not.toBe('0 bytes');
    expect(served).toContain('0 clients dropped (replies unread)');
  });
});
