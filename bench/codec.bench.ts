/**
 * Entity State codec: reckon's zero-allocation decode/encode against open-dis (the package main, DIS v6), measured
 * in the same run on the same PDU (v6, one articulation parameter, 160 bytes).
 *
 * open-dis is used as its README's example client does (keckxde/node-disnetworkclient, DISUtils.js), minus two
 * costs that would only flatter reckon: decoding reuses one `PduFactory` and copies the datagram with
 * `ArrayBuffer.slice` (the example builds a factory per message and copies byte by byte); encoding allocates the
 * example's 1500-byte `ArrayBuffer` and `OutputStream` per PDU and takes the PDU bytes as a Buffer view. The
 * fastest use open-dis allows (one OutputStream, rewound) is measured too, as `codec.encode.open-dis.reused-stream`.
 */
import { createRequire } from 'node:module';
import { ENTITY_STATE_FIXTURES } from '../test/fixtures/pdu/entity-state.js';
import { decodeEntityStateInto } from '../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { decodeEntityState, entityStateRecordFromPdu } from '../src/pdu/json/entity-state-json.js';
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { validateEntityState } from '../src/pdu/checks/validate.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const fixture = ENTITY_STATE_FIXTURES[1]!;
const BATCH = 1000;

/**
 * Heap per op of an allocating operation, measured over 100 ops at a time (median of 5): over more, a scavenge
 * inside the measured loop frees most of what was allocated and the figure comes out ~10× too low.
 */
function allocatingHeapBytesPerOp(op: () => void): number {
  const samples = Array.from({ length: 5 }, () => heapBytesPerOp(op, 100)).sort((a, b) => a - b);
  return samples[2]!;
}

const suite: BenchSuite = async ({ quick }) => {
  // Many short passes rather than a few long ones: each contender gets more chances at a quiet moment.
  const timing = quick ? { minMillis: 100, rounds: 3 } : { minMillis: 100, rounds: 5 };
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
  const decodeOpenDis = (buf: Buffer) =>
    factory.createPdu(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));

  const source = entityStateRecordFromPdu(new EntityStateRecord(), fixture.pdu);
  const out = new Uint8Array(1500);
  const theirPdu = decodeOpenDis(datagram);
  theirPdu.pduLength = datagram.length; // open-dis does not compute Length on encode
  const encodeOpenDis = (): Buffer => {
    const arrayBuffer = new ArrayBuffer(1500);
    const stream = new openDis.OutputStream(arrayBuffer);
    theirPdu.encodeToBinary(stream);
    return Buffer.from(arrayBuffer, 0, stream.currentPosition);
  };
  const reusedStream = new openDis.OutputStream(new ArrayBuffer(1500));
  const encodeOpenDisReused = (): number => {
    reusedStream.currentPosition = 0;
    theirPdu.encodeToBinary(reusedStream);
    return reusedStream.currentPosition;
  };

  // Same bytes out of every encoder, or the comparison means nothing.
  const reusedBytes = Buffer.from(reusedStream.binaryData, 0, encodeOpenDisReused());
  const ours = out.subarray(0, encodeEntityStateInto(out, source, 0));
  if (![encodeOpenDis(), reusedBytes, ours].every((bytes) => datagram.equals(bytes))) {
    throw new Error('codec bench: the encoders disagree with the fixture bytes');
  }
  if (decodeEntityStateInto(record, datagram) !== 0 || validateEntityState(record) !== 0) {
    throw new Error('codec bench: the fixture must decode and validate, or decode-validate measures a rejection');
  }

  const batches = {
    decodeOpenDis: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeOpenDis(datagram).pduLength);
    },
    decode: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeEntityStateInto(record, datagram));
    },
    // What a receiver runs per PDU: decode, then the plausibility checks (docs/pdu-validation.md).
    decodeValidate: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeEntityStateInto(record, datagram) || validateEntityState(record));
    },
    decodeSeparate: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeEntityStateInto(record, separate[i & 1023]!));
    },
    decodeJson: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeEntityState(datagram).length);
    },
    encodeOpenDis: () => {
      for (let i = 0; i < BATCH; i++) consume(encodeOpenDis().length);
    },
    encodeOpenDisReused: () => {
      for (let i = 0; i < BATCH; i++) consume(encodeOpenDisReused());
    },
    encode: () => {
      for (let i = 0; i < BATCH; i++) consume(encodeEntityStateInto(out, source, 0));
    },
  };
  // Interleaved passes, best of each: on a shared machine the load drifts, and a ratio of two rates measured
  // minutes apart would mostly measure the drift. A full collection before each batch: the garbage open-dis leaves
  // behind (5–6 kB per decoded PDU) is otherwise still being swept by V8's background threads while the next batch
  // runs, and on two cores that halves the next contender's rate.
  const gc = (globalThis as { gc?: () => void }).gc;
  const rate = Object.fromEntries(Object.keys(batches).map((name) => [name, 0])) as Record<
    keyof typeof batches,
    number
  >;
  for (let pass = 0; pass < (quick ? 1 : 6); pass++) {
    for (const [name, batch] of Object.entries(batches) as [keyof typeof batches, () => void][]) {
      gc?.();
      rate[name] = Math.max(rate[name], opsPerSecond(batch, BATCH, timing));
    }
  }

  const results: BenchResult[] = [
    {
      name: 'codec.decode.reckon',
      opsPerSec: round(rate.decode),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeEntityStateInto(record, datagram)), heapOps)),
      ratioVsOpenDis: round(rate.decode / rate.decodeOpenDis),
    },
    {
      name: 'codec.decode-validate.reckon',
      opsPerSec: round(rate.decodeValidate),
      heapBytesPerOp: round(
        heapBytesPerOp(() => consume(decodeEntityStateInto(record, datagram) || validateEntityState(record)), heapOps),
      ),
      ratioVsOpenDis: round(rate.decodeValidate / rate.decodeOpenDis),
    },
    {
      name: 'codec.decode.reckon.separate-buffers',
      opsPerSec: round(rate.decodeSeparate),
      heapBytesPerOp: round(
        heapBytesPerOp((i) => consume(decodeEntityStateInto(record, separate[i & 1023]!)), heapOps),
      ),
      ratioVsOpenDis: round(rate.decodeSeparate / rate.decodeOpenDis),
    },
    {
      name: 'codec.decode.open-dis',
      opsPerSec: round(rate.decodeOpenDis),
      heapBytesPerOp: round(allocatingHeapBytesPerOp(() => consume(decodeOpenDis(datagram).pduLength))),
    },
    {
      name: 'codec.decode-json.reckon',
      opsPerSec: round(rate.decodeJson),
      heapBytesPerOp: round(allocatingHeapBytesPerOp(() => consume(decodeEntityState(datagram).length))),
      ratioVsOpenDis: round(rate.decodeJson / rate.decodeOpenDis),
    },
    {
      name: 'codec.encode.reckon',
      opsPerSec: round(rate.encode),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(encodeEntityStateInto(out, source, 0)), heapOps)),
      ratioVsOpenDis: round(rate.encode / rate.encodeOpenDis),
      ratioVsOpenDisReusedStream: round(rate.encode / rate.encodeOpenDisReused),
    },
    {
      name: 'codec.encode.open-dis',
      opsPerSec: round(rate.encodeOpenDis),
      heapBytesPerOp: round(allocatingHeapBytesPerOp(() => consume(encodeOpenDis().length))),
    },
    {
      name: 'codec.encode.open-dis.reused-stream',
      opsPerSec: round(rate.encodeOpenDisReused),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(encodeOpenDisReused()), heapOps / 10)),
    },
  ];
  return results;
};

export default suite;
