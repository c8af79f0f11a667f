// disCapturePdus splits datagrams with the pdu framing (forEachPdu) and reports a bad header as one event at the
// offset where it starts, after the PDUs before it.
import { describe, expect, it } from 'vitest';
import { disCapturePdus, emptyTotals } from '../../src/pcap/dis-capture.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { makePdu } from '../support/pdus.js';

function capture(...datagrams: Uint8Array[]) {
  const file = Buffer.concat([pcapFileHeader(), ...datagrams.map((d, i) => pcapUdpRecord(d, 1_700_000_000 + i))]);
  return readCapture(file);
}

describe('disCapturePdus framing', () => {
  it('yields each PDU of a bundle, then the bad header with its offset, Length and type; counts each', () => {
    // A Fire PDU (96 bytes, any contents), and PDUs of types reckon passes through (Attribute, Gridded Data).
    const fire = makePdu({ pduType: 2, length: 96 });
    const badLength = Buffer.concat([
      makePdu({ pduType: 72, length: 60 }),
      makePdu({ pduType: 20, lengthField: 4 }),
      makePdu(),
    ]);
    const truncated = Buffer.concat([fire, makePdu({ pduType: 42, length: 40 }), Buffer.alloc(7, 1)]);
    const cutHeader = Buffer.concat([fire, makePdu({ pduType: 41, lengthField: 200 }).subarray(0, 11)]);
    const notDis = Uint8Array.from([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    const totals = emptyTotals();
    const events = [...disCapturePdus(capture(badLength, truncated, cutHeader, notDis), totals)];
    expect(events.map((e) => [e.frame, e.offset, e.pduType, e.length, e.status])).toEqual([
      [1, 0, 72, 60, CodecStatus.OK],
      [1, 60, 20, 4, CodecStatus.BAD_LENGTH],
      [2, 0, 2, 96, CodecStatus.OK],
      [2, 96, 42, 40, CodecStatus.OK],
      [2, 136, 1, -1, CodecStatus.TRUNCATED], // 7 bytes: not even the Length field
      [3, 0, 2, 96, CodecStatus.OK],
      [3, 96, 41, 200, CodecStatus.TRUNCATED],
    ]);
    expect(totals).toMatchObject({ frames: 4, udpDatagrams: 4, otherDatagrams: 1, disDatagrams: 3, pdus: 4 });
    expect(totals.pdusByType).toEqual({ 2: 2, 72: 1, 42: 1 });
    expect(totals.rejected).toEqual({ BAD_LENGTH: 1, TRUNCATED: 2 });
  });
});
