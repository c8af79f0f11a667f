// Senders that leave the header's Length at 0 (Python opendis, and open-dis for JavaScript, unless the program sets
// it): a PDU alone in its datagram is read as the rest of the datagram, as Wireshark's DIS dissector reads it
// (tshark 4.0 shows the example sender's datagram as a whole Entity State PDU), and counted as the warning
// `lengthZero`. Lengths that disagree with the bytes are still refused.
import { describe, expect, it } from 'vitest';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { readCapture } from '../../src/pcap/reader.js';
import { disCapturePdus, emptyTotals } from '../../src/pcap/dis-capture.js';
import { decodeEntityStateOrUpdateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu, looksLikeDis, pduLengthAt } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { validateEntityState } from '../../src/pdu/checks/validate.js';
import { PduReceiver } from '../../src/transport/pdu-receiver.js';
import { renderCaptureSummary } from '../../src/cli/terminal/decode-summary.js';
import { ecefToGeodeticDegrees, headingPitchRollFromEuler } from '../../src/math/geodesy.js';
import { summarizeDisCapture } from '../../src/pcap/capture-summary.js';
import { makePdu } from '../support/pdus.js';
import {
  llarpy2ecefLevelNorth,
  pythonOpendisEntityState,
  pythonOpendisExampleDatagram,
} from '../support/python-opendis.js';

const FROM = { address: '127.0.0.1', port: 3000, family: 'IPv4' };
const example = pythonOpendisExampleDatagram(1);

describe('the framing of a Length of 0', () => {
  it('reads the example sender’s datagram as one 144-byte PDU', () => {
    expect(example.readUInt16BE(8)).toBe(0);
    expect(pduLengthAt(example)).toBe(144);
    const seen: number[][] = [];
    expect(forEachPdu(example, (_b, offset, length, type) => seen.push([offset, length, type]))).toBe(CodecStatus.OK);
    expect(seen).toEqual([[0, 144, 1]]);
    expect(looksLikeDis(example)).toBe(true);
  });

  it('takes the rest of a bundle for a last PDU whose Length is 0', () => {
    const bundle = Buffer.concat([makePdu({ entity: 1 }), example]);
    const seen: number[][] = [];
    expect(forEachPdu(bundle, (_b, offset, length) => seen.push([offset, length]))).toBe(CodecStatus.OK);
    expect(seen).toEqual([
      [0, 144],
      [144, 144],
    ]);
  });

  it('refuses zero bytes after a PDU: a Length of 0 is read so only in a header that is otherwise DIS', () => {
    const padded = Buffer.concat([makePdu({ entity: 1 }), Buffer.alloc(20)]);
    expect(forEachPdu(padded, () => {})).toBe(CodecStatus.BAD_LENGTH);
  });

  it('still refuses a header cut short and a Length below 12 that is not 0', () => {
    expect(pduLengthAt(example.subarray(0, 11))).toBe(-CodecStatus.TRUNCATED);
    expect(pduLengthAt(makePdu({ lengthField: 11 }))).toBe(-CodecStatus.BAD_LENGTH);
  });
});

describe('decoding a PDU whose Length is 0', () => {
  it('decodes the example sender’s entity where it put it, with the Length the bytes have', () => {
    const record = new EntityStateRecord();
    expect(decodeEntityStateOrUpdateInto(record, example)).toBe(CodecStatus.OK);
    expect(validateEntityState(record)).toBe(CodecStatus.OK);
    expect([record.site, record.application, record.entity]).toEqual([17, 23, 42]);
    expect(markingText(record)).toBe('Igor3d');
    expect(record.length).toBe(144);
    const [x, y, z] = llarpy2ecefLevelNorth(36.6, -121.9, 1);
    expect(Array.from(record.location)).toEqual([x, y, z]);
    const lla = ecefToGeodeticDegrees(new Float64Array(3), x!, y!, z!);
    expect(lla[0]).toBeCloseTo(36.6, 9);
    expect(lla[1]).toBeCloseTo(-121.9, 9);
    expect(lla[2]).toBeCloseTo(1, 6);
    const [psi, theta, phi] = record.orientation;
    const hpr = headingPitchRollFromEuler(
      new Float64Array(3),
      (36.6 * Math.PI) / 180,
      (-121.9 * Math.PI) / 180,
      psi!,
      theta!,
      phi!,
    );
    for (const angle of hpr) expect([Math.abs(Math.sin(angle)) < 1e-6, Math.cos(angle) > 0]).toEqual([true, true]); // level, facing north
  });

  it('refuses a Length of 0 where the datagram holds more than the PDU (the Length disagrees with the bytes)', () => {
    const record = new EntityStateRecord();
    const padded = Buffer.concat([example, Buffer.alloc(16)]);
    expect(decodeEntityStateOrUpdateInto(record, padded)).toBe(CodecStatus.BAD_LENGTH);
    const shortened = pythonOpendisEntityState({ location: [1, 2, 3], orientation: [0, 0, 0] }).subarray(0, 140);
    expect(decodeEntityStateOrUpdateInto(record, shortened)).toBe(CodecStatus.TRUNCATED);
  });
});

describe('a receiver given a PDU whose Length is 0', () => {
  it('accepts it, counts the warning lengthZero and hands on the PDU with its Length written in', () => {
    const lengths: number[] = [];
    const receiver = new PduReceiver((bytes, offset, length) =>
      lengths.push(length, (bytes[offset + 8]! << 8) | bytes[offset + 9]!),
    );
    receiver.receive(example, FROM);
    receiver.receive(makePdu(), FROM);
    expect(lengths).toEqual([144, 144, 144, 144]);
    expect(receiver.stats.pdusAccepted).toBe(2);
    expect(receiver.stats.warnings.lengthZero).toBe(1);
    expect(receiver.stats.rejected.badLength).toBe(0);
    expect(example.readUInt16BE(8)).toBe(0); // the datagram itself is left as it came
  });
});

describe('a capture of the example sender', () => {
  const capture = readCapture(
    Buffer.concat([
      pcapFileHeader(),
      pcapUdpRecord(pythonOpendisExampleDatagram(), 1e9),
      pcapUdpRecord(example, 1e9 + 1),
    ]),
  );

  it('decodes every PDU and counts each as lengthZero, which the summary names', () => {
    const totals = emptyTotals();
    const events = [...disCapturePdus(capture, totals)].map((e) => [e.status, e.length, e.record?.entity]);
    expect(events).toEqual([
      [CodecStatus.OK, 144, 42],
      [CodecStatus.OK, 144, 42],
    ]);
    expect(totals.warnings.lengthZero).toBe(2);
    expect(totals.rejected).toEqual({});
    expect(renderCaptureSummary('sender.pcap', capture, summarizeDisCapture(capture))).toMatch(
      /Warnings: 2\n\s+2 {2}lengthZero: Length field 0/,
    );
  });
});
