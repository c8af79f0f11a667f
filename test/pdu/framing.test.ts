// Framing lives in src/pdu/wire/header.ts: the bundle walk, the DIS-or-not test and the receiver's size bound, used by
// the transport's receiver, the capture reader and the CLI alike.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as reckon from '../../src/index.js';
import * as reckonPdu from '../../src/pdu/index.js';
import { readCapture } from '../../src/pcap/reader.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { MAX_PDU_BYTES } from '../../src/pdu/wire/constants.js';
import { forEachPdu, looksLikeDis } from '../../src/pdu/wire/header.js';
import { PduReceiver } from '../../src/transport/pdu-receiver.js';
import { makePdu } from '../support/pdus.js';

const CAPTURES = ['dis5_kdis_vrforces_hind_vs_m1a2', 'dis7_vrforces_gaz69_90deg_turn'];
const FROM = { address: '127.0.0.1', port: 3000, family: 'IPv4' };
const DNS_QUERY = [0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0x77, 0x77, 0x77, 0, 0, 1, 0, 1];

describe('looksLikeDis', () => {
  it('takes every datagram of the recorded DIS v5 and v7 exercises for DIS', () => {
    for (const name of CAPTURES) {
      const capture = readCapture(readFileSync(new URL(`../fixtures/dis/${name}.pcap`, import.meta.url)));
      let datagrams = 0;
      for (const frame of capture.frames) {
        const udp = udpFromFrame(frame.linkType, frame.data);
        if (udp.kind !== 'udp') continue;
        datagrams++;
        expect(looksLikeDis(udp.payload), `${name} frame ${frame.number}`).toBe(true);
      }
      expect(datagrams).toBeGreaterThan(80);
    }
  });

  it.each<[string, Uint8Array]>([
    ['a DNS query (RFC 1035: id 0x1234, recursion desired, one question)', Uint8Array.from(DNS_QUERY)],
    ['an NTP v4 client request (first byte 0x23)', Uint8Array.from({ length: 48 }, (_, i) => (i === 0 ? 0x23 : 0))],
    ['fewer than 12 bytes', makePdu().subarray(0, 11)],
    ['protocol version 0', Uint8Array.from(makePdu({ version: 0 }))],
    ['protocol version 8', Uint8Array.from(makePdu({ version: 8 }))],
    ['PDU type 0', Uint8Array.from(makePdu({ pduType: 0 }))],
    ['a Length of 11', Uint8Array.from(makePdu({ lengthField: 11 }))],
  ])('turns away %s', (_name, datagram) => {
    expect(looksLikeDis(datagram)).toBe(false);
  });

  it('looks at the header only: a DIS header before garbage passes, and forEachPdu then finds the fault', () => {
    const datagram = Buffer.concat([makePdu({ version: 1 }), Buffer.alloc(5)]);
    expect(looksLikeDis(datagram)).toBe(true);
    expect(forEachPdu(datagram, () => {})).toBe(reckon.CodecStatus.TRUNCATED);
  });
});

describe('one framing path', () => {
  it('the package exports the pdu framing: looksLikeDis, and MAX_PDU_BYTES (DIS MAX_PDU_SIZE_OCTETS, 8192) in reckon/pdu', () => {
    expect(reckon.looksLikeDis).toBe(looksLikeDis);
    expect(reckon.forEachPdu).toBe(forEachPdu);
    expect(reckonPdu.MAX_PDU_BYTES).toBe(MAX_PDU_BYTES);
    expect(MAX_PDU_BYTES).toBe(8192);
  });

  it('a receiver accepts PDUs up to MAX_PDU_BYTES unless told otherwise', () => {
    const accepted: number[] = [];
    const receiver = new PduReceiver((_bytes, _offset, length) => accepted.push(length));
    receiver.receive(makePdu({ length: MAX_PDU_BYTES }), FROM);
    receiver.receive(makePdu({ length: MAX_PDU_BYTES + 1 }), FROM);
    expect(accepted).toEqual([MAX_PDU_BYTES]);
    expect(receiver.stats.rejected.oversized).toBe(1);
  });
});
