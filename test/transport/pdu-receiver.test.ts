import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { PduBundler } from '../../src/transport/bundler.js';
import {
  PduReceiver,
  receiveFilterFromConfig,
  type ReceiveFilterOptions,
  type RejectionSink,
} from '../../src/transport/pdu-receiver.js';
import {
  otherPduCounts,
  totalOtherPdus,
  totalRejected,
  type DatagramSource,
  type RejectReason,
} from '../../src/transport/transport.js';
import { entityOf, makePdu, type PduSpec } from '../support/pdus.js';

const FROM = { address: '127.0.0.1', port: 3000, family: 'IPv4' };

function receiverWith(options: ReceiveFilterOptions = {}) {
  const accepted: number[] = [];
  const receiver = new PduReceiver((bytes, offset) => accepted.push(entityOf(bytes, offset)), options);
  return { receiver, accepted };
}

describe('PduReceiver filters', () => {
  const filter: ReceiveFilterOptions = {
    exercise: 1,
    protocolVersions: [6, 7],
    pduTypes: [1, 67],
    applications: ['1:3001', '2'],
  };
  it.each<[string, PduSpec, RejectReason | 'accepted' | 'other']>([
    ['a matching PDU', {}, 'accepted'],
    ['another exercise', { exercise: 2 }, 'wrongExercise'],
    ['protocol version 4', { version: 4 }, 'unsupportedVersion'],
    ['a Fire PDU', { pduType: 2 }, 'other'],
    ['an Entity State Update', { pduType: 67, length: 72 }, 'accepted'],
    ['site 1, application 3002', { application: 3002 }, 'applicationNotAllowed'],
    ['any application of site 2', { site: 2, application: 77 }, 'accepted'],
    ['a PDU too short to carry an id', { length: 14 }, 'applicationNotAllowed'],
    ['a Length field over 8192', { length: 8200 }, 'oversized'],
  ])('%s', (_name, spec, outcome) => {
    const { receiver, accepted } = receiverWith(filter);
    receiver.receive(makePdu({ ...spec, entity: 9 }), FROM);
    if (outcome === 'accepted') {
      expect(accepted).toEqual([9]);
      expect(totalRejected(receiver.stats)).toBe(0);
    } else if (outcome === 'other') {
      expect(accepted).toEqual([]);
      expect(totalRejected(receiver.stats)).toBe(0);
      expect(otherPduCounts(receiver.stats)).toEqual([[spec.pduType, 1]]);
    } else {
      expect(accepted).toEqual([]);
      expect(receiver.stats.rejected[outcome]).toBe(1);
      expect(totalRejected(receiver.stats)).toBe(1);
    }
  });

  it('drops whole datagrams from sources not allowed', () => {
    const { receiver, accepted } = receiverWith({ sources: ['10.0.0.1'] });
    receiver.receive(Buffer.concat([makePdu({ entity: 1 }), makePdu({ entity: 2 })]), FROM);
    receiver.receive(makePdu({ entity: 3 }), { ...FROM, address: '10.0.0.1' });
    expect(accepted).toEqual([3]);
    expect(receiver.stats.rejected.sourceNotAllowed).toBe(1);
  });

  it('takes exercise, versions and allow-lists from the configuration', () => {
    const config = defaultConfig();
    config.filter.allowApplications = ['5'];
    expect(receiveFilterFromConfig(config)).toEqual({
      exercise: 1,
      protocolVersions: [5, 6, 7],
      sources: [],
      applications: ['5'],
    });
  });
});

describe('PduReceiver splitting and bad framing', () => {
  it.each<[string, Buffer, number[], Partial<Record<RejectReason, number>>]>([
    [
      'three bundled PDUs',
      Buffer.concat([makePdu({ entity: 1 }), makePdu({ entity: 2, length: 160 }), makePdu({ entity: 3 })]),
      [1, 2, 3],
      {},
    ],
    ['fewer than 12 bytes', Buffer.alloc(5, 7), [], { truncated: 1 }],
    ['a header claiming more bytes than arrived', makePdu({ lengthField: 144 }).subarray(0, 100), [], { truncated: 1 }],
    ['a Length field below 12', makePdu({ lengthField: 4 }), [], { badLength: 1 }],
    ['a good PDU then 7 stray bytes', Buffer.concat([makePdu({ entity: 4 }), Buffer.alloc(7)]), [4], { truncated: 1 }],
    [
      'a good PDU then a header with Length 0',
      Buffer.concat([makePdu({ entity: 5 }), Buffer.alloc(20)]),
      [5],
      { badLength: 1 },
    ],
    [
      'an oversized PDU between good ones',
      Buffer.concat([makePdu({ entity: 6 }), makePdu({ length: 9000 }), makePdu({ entity: 7 })]),
      [6, 7],
      { oversized: 1 },
    ],
  ])('%s', (_name, datagram, entities, rejected) => {
    const { receiver, accepted } = receiverWith();
    receiver.receive(datagram, FROM);
    expect(accepted).toEqual(entities);
    expect(receiver.stats.pdusAccepted).toBe(entities.length);
    expect(receiver.stats.rejected).toMatchObject(rejected);
    expect(totalRejected(receiver.stats)).toBe(Object.values(rejected).reduce((a, b) => a + b, 0));
  });

  it('never throws on random bytes and keeps delivering good PDUs after each', () => {
    const { receiver, accepted } = receiverWith({ exercise: 1 });
    let good = 0;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (junk) => {
        receiver.receive(junk, FROM);
        receiver.receive(makePdu({ entity: 42 }), FROM);
        good++;
      }),
      { numRuns: 2000 },
    );
    expect(accepted.filter((e) => e === 42).length).toBe(good);
  });

  it('counts a throwing consumer and goes on with the next PDU', () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    const receiver = new PduReceiver(
      (bytes, offset) => {
        seen.push(entityOf(bytes, offset));
        if (seen.length === 1) throw new Error('consumer bug');
      },
      { onConsumerError: (e) => errors.push(e) },
    );
    receiver.receive(Buffer.concat([makePdu({ entity: 1 }), makePdu({ entity: 2 })]), FROM);
    expect(seen).toEqual([1, 2]);
    expect(receiver.stats.consumerErrors).toBe(1);
    expect((errors[0] as Error).message).toBe('consumer bug');
  });
});

describe('PduReceiver rejection sink', () => {
  type Report = [reason: RejectReason, offset: number, datagramBytes: number, source: DatagramSource];
  function receiverReporting(options: ReceiveFilterOptions = {}) {
    const reports: Report[] = [];
    const sink: RejectionSink = { onRejected: (...report) => reports.push(report) };
    const accepted: number[] = [];
    const consumer = (bytes: Uint8Array, offset: number) => accepted.push(entityOf(bytes, offset));
    const receiver = new PduReceiver(consumer, { ...options, rejectionSink: sink });
    return { receiver, reports, accepted };
  }
  const OTHER = { address: '10.0.0.9', port: 4000, family: 'IPv4' };
  const PDU = makePdu();

  it.each<[string, ReceiveFilterOptions, Buffer, Array<[RejectReason, number]>]>([
    ['nothing for good PDUs', {}, Buffer.concat([makePdu({ entity: 1 }), makePdu({ entity: 2 })]), []],
    ['fewer than 12 bytes, at 0', {}, Buffer.alloc(5, 7), [['truncated', 0]]],
    [
      'a Length below 12 after a good PDU, at its header',
      {},
      Buffer.concat([PDU, Buffer.alloc(20)]),
      [['badLength', 144]],
    ],
    [
      'a header claiming more than arrived',
      {},
      Buffer.concat([PDU, makePdu({ lengthField: 200 })]),
      [['truncated', 144]],
    ],
    [
      'every filtered PDU of a bundle, each at its own offset',
      { exercise: 1 },
      Buffer.concat([
        makePdu({ exercise: 2 }),
        makePdu({ entity: 5 }),
        makePdu({ exercise: 3, length: 160 }),
        makePdu({ length: 9000 }),
      ]),
      [
        ['wrongExercise', 0],
        ['wrongExercise', 288],
        ['oversized', 448],
      ],
    ],
    [
      'version, type and application filters',
      { protocolVersions: [7], pduTypes: [1], applications: ['1:3001'] },
      Buffer.concat([
        makePdu({ version: 6 }),
        makePdu({ pduType: 2 }),
        makePdu({ application: 9 }),
        makePdu({ length: 14 }),
      ]),
      [
        ['unsupportedVersion', 0],
        ['applicationNotAllowed', 288],
        ['applicationNotAllowed', 432],
      ],
    ],
    [
      'a source not allowed, once per datagram',
      { sources: ['10.0.0.1'] },
      Buffer.concat([PDU, PDU]),
      [['sourceNotAllowed', 0]],
    ],
  ])('%s', (_name, options, datagram, expected) => {
    const { receiver, reports } = receiverReporting(options);
    receiver.receive(datagram, OTHER);
    expect(reports).toEqual(expected.map(([reason, offset]) => [reason, offset, datagram.length, OTHER]));
  });

  it('reports exactly what it counts, for any bytes', () => {
    const filter = { exercise: 1, protocolVersions: [6, 7], pduTypes: [1, 67], maxPduBytes: 200 };
    const { receiver, reports } = receiverReporting(filter);
    const pdu = fc.record({
      version: fc.integer({ min: 5, max: 8 }),
      exercise: fc.integer({ min: 0, max: 2 }),
      pduType: fc.constantFrom(1, 2, 67),
      length: fc.integer({ min: 12, max: 300 }),
    });
    const datagram = fc.oneof(
      fc.array(pdu, { maxLength: 5 }).map((specs) => Buffer.concat(specs.map((spec) => makePdu(spec)))),
      fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
    );
    fc.assert(
      fc.property(fc.array(datagram, { maxLength: 5 }), (datagrams) => {
        for (const d of datagrams) receiver.receive(d, FROM);
        const byReason: Partial<Record<RejectReason, number>> = {};
        for (const [reason] of reports) byReason[reason] = (byReason[reason] ?? 0) + 1;
        expect(reports.length).toBe(totalRejected(receiver.stats));
        for (const [reason, n] of Object.entries(receiver.stats.rejected)) {
          expect(byReason[reason as RejectReason] ?? 0, reason).toBe(n);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('counts the PDUs of types its consumer does not take by type, not as rejections', () => {
    const { receiver, accepted, reports } = (() => {
      const accepted: number[] = [];
      const reports: RejectReason[] = [];
      const receiver = new PduReceiver((bytes, offset) => accepted.push(entityOf(bytes, offset)), {
        pduTypes: [1, 67],
        rejectionSink: { onRejected: (reason) => reports.push(reason) },
      });
      return { receiver, accepted, reports };
    })();
    const other = (pduType: number, entity: number) => makePdu({ pduType, entity, length: 64 });
    receiver.receive(Buffer.concat([makePdu({ entity: 1 }), other(72, 2), other(20, 3), other(72, 4)]), FROM);
    receiver.receive(other(25, 5), FROM);
    expect(accepted).toEqual([1]);
    expect(reports).toEqual([]);
    expect(totalRejected(receiver.stats)).toBe(0);
    expect(otherPduCounts(receiver.stats)).toEqual([
      [72, 2],
      [20, 1],
      [25, 1],
    ]);
    expect(totalOtherPdus(receiver.stats)).toBe(4);
    expect(receiver.stats.pdusAccepted).toBe(1);
  });

  it('counts a throwing sink as a consumer error and goes on with the next PDU', () => {
    const errors: unknown[] = [];
    const accepted: number[] = [];
    const sink: RejectionSink = {
      onRejected() {
        throw new Error('sink bug');
      },
    };
    const receiver = new PduReceiver((bytes, offset) => accepted.push(entityOf(bytes, offset)), {
      exercise: 1,
      rejectionSink: sink,
      onConsumerError: (e) => errors.push(e),
    });
    receiver.receive(Buffer.concat([makePdu({ exercise: 2 }), makePdu({ entity: 8 })]), FROM);
    expect(accepted).toEqual([8]);
    expect(receiver.stats.rejected.wrongExercise).toBe(1);
    expect(receiver.stats.consumerErrors).toBe(1);
    expect((errors[0] as Error).message).toBe('sink bug');
  });

  it('tells the consumer the size of the datagram each PDU came in', () => {
    const sizes: number[] = [];
    const receiver = new PduReceiver((_bytes, _offset, _length, _source, datagramBytes) => sizes.push(datagramBytes));
    receiver.receive(Buffer.concat([makePdu(), makePdu({ length: 160 })]), FROM);
    receiver.receive(makePdu(), FROM);
    expect(sizes).toEqual([304, 304, 144]);
  });
});

describe('PduBundler', () => {
  function bundlerWith(mtu: number) {
    const sent: Buffer[] = [];
    const live: Array<{ bytes: Uint8Array; length: number }> = [];
    const bundler = new PduBundler(
      {
        send(datagram, length = datagram.length) {
          live.push({ bytes: datagram, length });
          sent.push(Buffer.from(datagram.subarray(0, length)));
        },
      },
      mtu,
    );
    return { bundler, sent, live };
  }

  it('packs whole PDUs up to the MTU and splits back to the same bytes', () => {
    const { bundler, sent, live } = bundlerWith(1472);
    const pdus = Array.from({ length: 25 }, (_, i) => makePdu({ entity: i + 1, length: i % 3 === 0 ? 160 : 144 }));
    for (const pdu of pdus) bundler.append(pdu);
    bundler.flush();
    bundler.flush(); // nothing pending: sends nothing
    expect(sent.every((d) => d.length <= 1472)).toBe(true);
    expect(sent.length).toBe(Math.ceil(pdus.reduce((n, p) => n + p.length, 0) / 1472));
    const back: Buffer[] = [];
    const receiver = new PduReceiver((bytes, offset, length) =>
      back.push(Buffer.from(bytes.subarray(offset, offset + length))),
    );
    for (const datagram of sent) receiver.receive(datagram, FROM);
    expect(back).toEqual(pdus);
    // Each datagram keeps its own memory: later PDUs never overwrite one already handed to send().
    expect(live.map((d) => Buffer.from(d.bytes.subarray(0, d.length)))).toEqual(sent);
  });

  it('sends a PDU larger than the MTU in a datagram of its own', () => {
    const { bundler, sent } = bundlerWith(200);
    bundler.append(makePdu({ entity: 1 }));
    bundler.append(makePdu({ entity: 2, length: 400 }));
    bundler.append(makePdu({ entity: 3 }));
    bundler.flush();
    expect(sent.map((d) => d.length)).toEqual([144, 400, 144]);
  });

  it('lets an encoder write in place with claim()', () => {
    const { bundler, sent } = bundlerWith(1472);
    const at = bundler.claim(144);
    bundler.buffer.set(makePdu({ entity: 77 }), at);
    expect([bundler.pendingPdus, bundler.pendingBytes]).toEqual([1, 144]);
    bundler.flush();
    expect(entityOf(sent[0]!, 0)).toBe(77);
    expect([bundler.pendingPdus, bundler.pendingBytes]).toEqual([0, 0]);
  });

  it('appends a slice of a larger buffer', () => {
    const { bundler, sent } = bundlerWith(1472);
    const two = Buffer.concat([makePdu({ entity: 1 }), makePdu({ entity: 2 })]);
    bundler.append(two, 144, 144);
    bundler.flush();
    expect(sent[0]).toEqual(makePdu({ entity: 2 }));
  });
});
