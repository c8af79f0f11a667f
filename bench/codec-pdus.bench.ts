/**
 * Fire and Detonation PDU decode into a reused record, against open-dis (the package main, DIS v6) decoding the
 * same bytes, in the same run: the Fire and the Detonation PDU of the recorded VR-Forces engagement
 * (test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap), as a socket delivers them (Node Buffers).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { udpFromFrame } from '../src/pcap/packet.js';
import { readCapture } from '../src/pcap/reader.js';
import { DetonationRecord, decodeDetonationInto, decodeFireInto, FireRecord } from '../src/pdu/wire/warfare.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const BATCH = 1000;

/** The first PDU of each type in a recorded capture, as a Buffer. */
function recorded(type: number): Buffer {
  const capture = readCapture(
    readFileSync(new URL('../test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', import.meta.url)),
  );
  for (const frame of capture.frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind === 'udp' && udp.payload[2] === type) return Buffer.from(udp.payload);
  }
  throw new Error(`no PDU of type ${type} in the capture`);
}

const suite: BenchSuite = async ({ quick }) => {
  const timing = quick ? { minMillis: 100, rounds: 3 } : { minMillis: 100, rounds: 5 };
  const heapOps = quick ? 20_000 : 100_000;
  const openDis = createRequire(import.meta.url)('open-dis');
  const factory = new openDis.PduFactory();
  const decodeOpenDis = (buf: Buffer) =>
    factory.createPdu(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));

  const fire = recorded(2);
  const detonation = recorded(3);
  const fireRecord = new FireRecord();
  const detonationRecord = new DetonationRecord();
  if (decodeFireInto(fireRecord, fire) !== 0 || decodeDetonationInto(detonationRecord, detonation) !== 0) {
    throw new Error('codec-pdus bench: the recorded PDUs must decode');
  }
  if (decodeOpenDis(fire).rangeToTarget !== fireRecord.range) throw new Error('codec-pdus bench: open-dis disagrees');

  const batches = {
    fire: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeFireInto(fireRecord, fire));
    },
    fireOpenDis: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeOpenDis(fire).pduLength);
    },
    detonation: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeDetonationInto(detonationRecord, detonation));
    },
    detonationOpenDis: () => {
      for (let i = 0; i < BATCH; i++) consume(decodeOpenDis(detonation).pduLength);
    },
  };
  // Interleaved passes, best of each, a full collection before each batch (as bench/codec.bench.ts).
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
      name: 'codec.decode.fire.reckon',
      opsPerSec: round(rate.fire),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeFireInto(fireRecord, fire)), heapOps)),
      ratioVsOpenDis: round(rate.fire / rate.fireOpenDis),
    },
    { name: 'codec.decode.fire.open-dis', opsPerSec: round(rate.fireOpenDis) },
    {
      name: 'codec.decode.detonation.reckon',
      opsPerSec: round(rate.detonation),
      heapBytesPerOp: round(heapBytesPerOp(() => consume(decodeDetonationInto(detonationRecord, detonation)), heapOps)),
      ratioVsOpenDis: round(rate.detonation / rate.detonationOpenDis),
    },
    { name: 'codec.decode.detonation.open-dis', opsPerSec: round(rate.detonationOpenDis) },
  ];
  return results;
};

export default suite;
