/**
 * Entity State codec: reckon's zero-allocation decode/encode against open-dis (the package main, DIS v6, used as
 * its sources show: `new dis.PduFactory().createPdu(arrayBuffer)` and `pdu.encodeToBinary(new OutputStream(…))`),
 * measured in the same run on the same PDU (v6, one articulation parameter, 160 bytes).
 */
import { createRequire } from 'node:module';
import { ENTITY_STATE_FIXTURES } from '../test/fixtures/pdu/entity-state.js';
import { decodeEntityStateInto } from '../src/pdu/entity-state-codec.js';
import { encodeEntityStateInto } from '../src/pdu/entity-state-encoder.js';
import { decodeEntityState, entityStateRecordFromPdu } from '../src/pdu/entity-state-json.js';
import { EntityStateRecord } from '../src/pdu/entity-state-record.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const fixture = ENTITY_STATE_FIXTURES[1]!;
const BATCH = 1000;

const suite: BenchSuite = async ({ quick }) => {
  const timing = quick ? { minMillis: 100, rounds: 3 } : { minMillis: 300, rounds: 7 };
  const heapOps = quick ? 20_000 : 100_000;
  // open-dis assigns a global `dis`: keep the import under another name.
  const openDis = createRequire(import.meta.url)('open-dis');

  // As a socket delivers it: a Node Buffer (pooled, non-zero byteOffset).
  const datagram = Buffer.from(fixture.hex, 'hex');
  // Separate allocations, as dgram gives each message its own ArrayBuffer: one DataView per datagram.
  const separate = Array.from({ length: 1024 }, () => {
    const b = Buffer.allocUnsafeSlow(datagram.length);
    datagram.copy(b);
    return b;
  });
  const record = new EntityStateRecord();
  const factory = new openDis.PduFactory();
  const decodeOpenDis = (buf: Buffer) => factory.createPdu(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));

  const decodeReckon = () => {
    for (let i = 0; i < BATCH; i++) consume(decodeEntityStateInto(record, datagram));
  };
  const decodeReckonSeparate = () => {
    for (let i = 0; i < BATCH; i++) consume(decodeEntityStateInto(record, separate[i & 1023]!));
  };
  const decodeJson = () => {
    for (let i = 0; i < BATCH; i++) consume(decodeEntityState(datagram).length);
  };
  const decodeTheirs = () => {
    for (let i = 0; i < BATCH; i++) consume(decodeOpenDis(datagram).pduLength);
  };

  const source = entityStateRecordFromPdu(new EntityStateRecord(), fixture.pdu);
  const out = new Uint8Array(1500);
  const theirPdu = decodeOpenDis(datagram);
  theirPdu.pduLength = datagram.length; // open-dis does not compute Length on encode
  const encodeReckon = () => {
    for (let i = 0; i < BATCH; i++) consume(encodeEntityStateInto(source, out, 0));
  };
  const encodeTheirs = () => {
    for (let i = 0; i < BATCH; i++) {
      const stream = new openDis.OutputStream(new ArrayBuffer(datagram.length));
      theirPdu.encodeToBinary(stream);
      consume(stream.currentPosition);
    }
  };

  // Same bytes out of both encoders, or the comparison means nothing.
  const theirStream = new openDis.OutputStream(new ArrayBuffer(datagram.length));
  theirPdu.encodeToBinary(theirStream);
  if (!Buffer.from(theirStream.binaryData).equals(datagram) || encodeEntityStateInto(source, out, 0) !== datagram.length) {
    throw new Error('codec bench: the encoders disagree with the fixture bytes');
  }

  // Interleaved passes, best of each: on a shared machine the load drifts, and a ratio of two rates measured
  // minutes apart would mostly measure the drift.
  const batches = [decodeTheirs, decodeReckon, decodeReckonSeparate, decodeJson, encodeTheirs, encodeReckon];
  const best = batches.map(() => 0);
  for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
    batches.forEach((batch, i) => (best[i] = Math.max(best[i]!, opsPerSecond(batch, BATCH, timing))));
  }
  const [decodeOpenDisRate, decodeRate, decodeSeparateRate, decodeJsonRate, encodeOpenDisRate, encodeRate] = best as [
    number, number, number, number, number, number,
  ];

  const results: BenchResult[] = [
    {
      name: 'codec.decode.reckon',
      opsPerSec: round(decodeRate),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeEntityStateInto(record, datagram)), heapOps)),
      ratioVsOpenDis: round(decodeRate / decodeOpenDisRate),
    },
    {
      name: 'codec.decode.reckon.separate-buffers',
      opsPerSec: round(decodeSeparateRate),
      heapBytesPerOp: round(heapBytesPerOp((i) => consume(decodeEntityStateInto(record, separate[i & 1023]!)), heapOps)),
      ratioVsOpenDis: round(decodeSeparateRate / decodeOpenDisRate),
    },
    {
      name: 'codec.decode.open-dis',
      opsPerSec: round(decodeOpenDisRate),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeOpenDis(datagram).pduLength), heapOps / 10)),
    },
    {
      name: 'codec.decode-json.reckon',
      opsPerSec: round(decodeJsonRate),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeEntityState(datagram).length), heapOps / 10)),
      ratioVsOpenDis: round(decodeJsonRate / decodeOpenDisRate),
    },
    {
      name: 'codec.encode.reckon',
      opsPerSec: round(encodeRate),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(encodeEntityStateInto(source, out, 0)), heapOps)),
      ratioVsOpenDis: round(encodeRate / encodeOpenDisRate),
    },
    {
      name: 'codec.encode.open-dis',
      opsPerSec: round(encodeOpenDisRate),
      heapBytesPerOp: round(
        heapBytesPerOp(() => {
          const stream = new openDis.OutputStream(new ArrayBuffer(datagram.length));
          theirPdu.encodeToBinary(stream);
          consume(stream.currentPosition);
        }, heapOps / 10),
      ),
    },
  ];
  return results;
};

export default suite;
