import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { CaptureFormatError, CaptureParser, MAX_PCAPNG_INTERFACES, readCapture } from '../../src/pcap/reader.js';
import { ipv4HeaderChecksum, pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const PAYLOAD = hex('07 01 01 01 00000000 000c 0000'); // a bare 12-byte DIS header

// IPv4 (20 bytes, 127.0.0.1 → 127.0.0.1, UDP) + UDP (3000 → 3000, length 20) + PAYLOAD; checksum left 0 (readers ignore it).
const IP_UDP = hex('4500 0028 0001 0000 4011 0000 7f000001 7f000001  0bb8 0bb8 0014 0000');
const ipUdp = (flagsFragment = '0000') => {
  const b = Uint8Array.from([...IP_UDP, ...PAYLOAD]);
  b.set(hex(flagsFragment), 6);
  return b;
};
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

function classicPcap(littleEndian: boolean, nanos: boolean, linkType: number, frames: Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const header = new DataView(new ArrayBuffer(24));
  header.setUint32(0, nanos ? 0xa1b23c4d : 0xa1b2c3d4, littleEndian);
  header.setUint16(4, 2, littleEndian);
  header.setUint16(6, 4, littleEndian);
  header.setUint32(16, 65535, littleEndian);
  header.setUint32(20, linkType, littleEndian);
  parts.push(new Uint8Array(header.buffer));
  frames.forEach((frame, i) => {
    const rec = new DataView(new ArrayBuffer(16));
    rec.setUint32(0, 1_700_000_000 + i, littleEndian);
    rec.setUint32(4, nanos ? 500_000_000 : 500_000, littleEndian);
    rec.setUint32(8, frame.length, littleEndian);
    rec.setUint32(12, frame.length, littleEndian);
    parts.push(new Uint8Array(rec.buffer), frame);
  });
  return concat(...parts);
}

function pcapngBlock(type: number, body: Uint8Array, le: boolean): Uint8Array {
  const padded = Math.ceil(body.length / 4) * 4;
  const view = new DataView(new ArrayBuffer(12 + padded));
  view.setUint32(0, type, le);
  view.setUint32(4, 12 + padded, le);
  new Uint8Array(view.buffer).set(body, 8);
  view.setUint32(8 + padded, 12 + padded, le);
  return new Uint8Array(view.buffer);
}

function pcapng(le: boolean, linkType: number, tsresol: number | undefined, frames: Uint8Array[]): Uint8Array {
  const shb = new DataView(new ArrayBuffer(16));
  shb.setUint32(0, 0x1a2b3c4d, le);
  shb.setUint16(4, 1, le);
  shb.setBigInt64(8, -1n, le);
  const idb = new DataView(new ArrayBuffer(tsresol === undefined ? 8 : 20));
  idb.setUint16(0, linkType, le);
  idb.setUint32(4, 65535, le);
  if (tsresol !== undefined) {
    idb.setUint16(8, 9, le); // if_tsresol
    idb.setUint16(10, 1, le);
    idb.setUint8(12, tsresol);
    // then opt_endofopt (4 zero bytes)
  }
  const blocks = [
    pcapngBlock(0x0a0d0d0a, new Uint8Array(shb.buffer), le),
    pcapngBlock(1, new Uint8Array(idb.buffer), le),
  ];
  for (const frame of frames) {
    const epb = new DataView(new ArrayBuffer(20 + frame.length));
    const ticks =
      BigInt(1_700_000_000) * (tsresol === 9 ? 1_000_000_000n : 1_000_000n) + (tsresol === 9 ? 250_000_000n : 250_000n);
    epb.setUint32(4, Number(ticks >> 32n), le);
    epb.setUint32(8, Number(ticks & 0xffff_ffffn), le);
    epb.setUint32(12, frame.length, le);
    epb.setUint32(16, frame.length, le);
    new Uint8Array(epb.buffer).set(frame, 20);
    blocks.push(pcapngBlock(6, new Uint8Array(epb.buffer), le));
  }
  return concat(...blocks);
}

const ETH = hex('ffffffffffff 020000000001 0800');
const ETH_VLAN = hex('ffffffffffff 020000000001 8100 0064 0800');
const ETH_QINQ = hex('ffffffffffff 020000000001 88a8 0064 8100 0065 0800');
const SLL = hex('0000 0304 0006 000000000000 0000 0800');
const SLL2 = hex('0800 0000 00000001 0304 00 00 000000000000 0000');

describe('readCapture', () => {
  it.each([
    { name: 'pcap big-endian µs', bytes: classicPcap(false, false, 1, [concat(ETH, ipUdp())]), time: 1_700_000_000.5 },
    {
      name: 'pcap little-endian µs',
      bytes: classicPcap(true, false, 1, [concat(ETH, ipUdp())]),
      time: 1_700_000_000.5,
    },
    { name: 'pcap little-endian ns', bytes: classicPcap(true, true, 1, [concat(ETH, ipUdp())]), time: 1_700_000_000.5 },
    { name: 'pcap big-endian ns', bytes: classicPcap(false, true, 1, [concat(ETH, ipUdp())]), time: 1_700_000_000.5 },
    {
      name: 'pcapng little-endian, default µs',
      bytes: pcapng(true, 1, undefined, [concat(ETH, ipUdp())]),
      time: 1_700_000_000.25,
    },
    {
      name: 'pcapng big-endian, if_tsresol 9 (ns)',
      bytes: pcapng(false, 1, 9, [concat(ETH, ipUdp())]),
      time: 1_700_000_000.25,
    },
  ])('$name', ({ bytes, time }) => {
    const capture = readCapture(bytes);
    expect(capture.frames).toHaveLength(1);
    expect(capture.truncated).toBe(false);
    expect(capture.frames[0]!.timeSeconds).toBeCloseTo(time, 6);
    const udp = udpFromFrame(capture.frames[0]!.linkType, capture.frames[0]!.data);
    expect(udp).toMatchObject({ kind: 'udp', source: '127.0.0.1', destinationPort: 3000 });
    expect(udp.kind === 'udp' && Buffer.from(udp.payload).equals(Buffer.from(PAYLOAD))).toBe(true);
  });

  it('keeps the frames before a record cut short and says the file is truncated', () => {
    const full = classicPcap(true, false, 1, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]);
    const capture = readCapture(full.subarray(0, full.length - 5));
    expect(capture.frames).toHaveLength(1);
    expect(capture.truncated).toBe(true);
  });

  it('calls a record length beyond 256 KiB corrupt, with its byte offset, and keeps the frames before it', () => {
    const full = classicPcap(true, false, 1, [concat(ETH, ipUdp()), concat(ETH, ipUdp()), concat(ETH, ipUdp())]);
    const second = 24 + 16 + ETH.length + ipUdp().length;
    new DataView(full.buffer, full.byteOffset).setUint32(second + 8, 0x7fff_0000, true);
    const capture = readCapture(full);
    expect(capture.frames).toHaveLength(1);
    expect(capture.truncated).toBe(false);
    expect(capture.corrupt?.offset).toBe(second);
    expect(capture.corrupt?.message).toMatch(
      new RegExp(`record 2 at byte ${second} is corrupt: captured length 2147418112 exceeds`),
    );
  });

  it('calls a record that holds more bytes than were on the wire corrupt', () => {
    const full = classicPcap(false, false, 1, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]);
    new DataView(full.buffer, full.byteOffset).setUint32(24 + 12, 10, false);
    const capture = readCapture(full);
    expect(capture.frames).toHaveLength(0);
    expect(capture.corrupt).toMatchObject({ offset: 24, message: expect.stringMatching(/length on the wire 10/) });
  });

  it('tells a pcapng block cut short by the end of the file from one whose length is damaged', () => {
    const full = pcapng(true, 1, undefined, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]);
    const cut = readCapture(full.subarray(0, full.length - 8));
    expect(cut).toMatchObject({ truncated: true, frames: [{}] });
    expect(cut.corrupt).toBeUndefined();
    const damaged = full.slice();
    const last = full.length - (12 + 20 + Math.ceil((ETH.length + ipUdp().length) / 4) * 4);
    new DataView(damaged.buffer).setUint32(last + 4, 24, true); // a valid-looking length, not the block's
    expect(readCapture(damaged)).toMatchObject({ truncated: false, frames: [{}], corrupt: { offset: last } });
  });

  it('reads a pcapng section of up to 4096 interfaces and refuses one that describes more, with one line', () => {
    const le = true;
    const idb = new DataView(new ArrayBuffer(8));
    idb.setUint16(0, 1, le); // Ethernet
    const one = pcapngBlock(1, new Uint8Array(idb.buffer), le);
    const full = pcapng(le, 1, undefined, [concat(ETH, ipUdp())]);
    // The section header, then 4095 more interfaces after its first, then its packet (on interface 0).
    const sectionEnd = 28;
    const many = (n: number) =>
      concat(full.subarray(0, sectionEnd + one.length), ...Array.from({ length: n }, () => one), full.subarray(48));
    expect(MAX_PCAPNG_INTERFACES).toBe(4096);
    expect(readCapture(many(4095))).toMatchObject({ frames: [{ linkType: 1 }] });
    const refused = readCapture(many(5000));
    const at = sectionEnd + 4096 * one.length;
    expect(refused.frames).toEqual([]);
    expect(refused.corrupt).toEqual({
      offset: at,
      message: `block at byte ${at} is refused: it describes interface 4097 of its section, more than the 4096 read`,
    });
  });

  it.each([
    { name: 'text', bytes: new TextEncoder().encode('hello, world') },
    { name: 'too short', bytes: hex('d4c3') },
  ])('rejects a file that is not a capture: $name', ({ bytes }) => {
    expect(() => readCapture(bytes)).toThrow(CaptureFormatError);
  });
});

describe('CaptureParser: the file in pieces', () => {
  /** The capture as the parser sees it when the file comes in pieces cut at `cuts`. */
  function inPieces(bytes: Uint8Array, cuts: readonly number[]) {
    const parser = new CaptureParser();
    const frames: Array<{ number: number; timeSeconds: number; linkType: number; data: string }> = [];
    let from = 0;
    for (const to of [...[...cuts].sort((a, b) => a - b), bytes.length]) {
      for (const f of parser.push(bytes.subarray(from, to))) {
        frames.push({
          number: f.number,
          timeSeconds: f.timeSeconds,
          linkType: f.linkType,
          data: Buffer.from(f.data).toString('hex'),
        });
      }
      from = to;
    }
    parser.finish();
    return { format: parser.format, frames, truncated: parser.truncated, corrupt: parser.corrupt };
  }
  const whole = (bytes: Uint8Array) => inPieces(bytes, []);

  const files = {
    'a real DIS 7 capture': readFileSync(
      new URL('../fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap', import.meta.url),
    ),
    'pcapng, two sections of either byte order': concat(
      pcapng(true, 1, undefined, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]),
      pcapng(false, 1, 9, [concat(ETH, ipUdp())]),
    ),
    'a pcap cut short': classicPcap(true, false, 1, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]).subarray(0, 124),
  };

  it.each(Object.keys(files))('%s: any cuts give the frames of the whole file', (name) => {
    const bytes = files[name as keyof typeof files];
    const expected = whole(bytes);
    expect(expected.frames.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        expect(inPieces(bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
    // One byte at a time.
    expect(
      inPieces(
        bytes,
        Array.from({ length: Math.min(bytes.length, 4000) }, (_, i) => i),
      ),
    ).toEqual(expected);
  });

  it('says where a corrupt record is in the file, whatever piece it came in', () => {
    const bytes = classicPcap(true, false, 1, [concat(ETH, ipUdp()), concat(ETH, ipUdp())]);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(24 + 16 + 54 + 8, 300_000, true); // second record's length
    const corrupt = whole(bytes).corrupt;
    expect(corrupt?.offset).toBe(24 + 16 + 54);
    expect(inPieces(bytes, [30, 100, 101]).corrupt).toEqual(corrupt);
  });
});

describe('udpFromFrame', () => {
  it.each([
    { name: 'Ethernet', linkType: 1, frame: concat(ETH, ipUdp()) },
    { name: 'Ethernet + 802.1Q', linkType: 1, frame: concat(ETH_VLAN, ipUdp()) },
    { name: 'Ethernet + 802.1ad + 802.1Q', linkType: 1, frame: concat(ETH_QINQ, ipUdp()) },
    { name: 'Linux cooked (SLL)', linkType: 113, frame: concat(SLL, ipUdp()) },
    { name: 'Linux cooked v2 (SLL2)', linkType: 276, frame: concat(SLL2, ipUdp()) },
    { name: 'raw IPv4', linkType: 101, frame: ipUdp() },
    { name: 'BSD loopback', linkType: 0, frame: concat(hex('02000000'), ipUdp()) },
  ])('finds the UDP payload in $name', ({ linkType, frame }) => {
    const udp = udpFromFrame(linkType, frame);
    expect(udp.kind).toBe('udp');
    expect(udp.kind === 'udp' && Buffer.from(udp.payload).toString('hex')).toBe(Buffer.from(PAYLOAD).toString('hex'));
  });

  it.each([
    { name: 'a first fragment (MF set)', linkType: 1, frame: concat(ETH, ipUdp('2000')), reason: 'fragment' },
    { name: 'a later fragment (offset ≠ 0)', linkType: 1, frame: concat(ETH, ipUdp('00b9')), reason: 'fragment' },
    { name: 'IPv6', linkType: 1, frame: concat(hex('ffffffffffff 020000000001 86dd'), ipUdp()), reason: 'not-ipv4' },
    {
      name: 'TCP',
      linkType: 101,
      frame: (() => {
        const b = ipUdp();
        b[9] = 6;
        return b;
      })(),
      reason: 'not-udp',
    },
    { name: 'a cut UDP header', linkType: 101, frame: ipUdp().subarray(0, 24), reason: 'truncated' },
    { name: 'an unknown link type', linkType: 147, frame: ipUdp(), reason: 'link-type' },
  ])('skips $name', ({ linkType, frame, reason }) => {
    expect(udpFromFrame(linkType, frame)).toEqual({ kind: 'skip', reason });
  });
});

describe('pcap writer', () => {
  it('computes the IPv4 header checksum (a textbook header whose checksum is known)', () => {
    // A header with a known checksum 0xb861, taken from the usual textbook example.
    const header = hex('4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7');
    expect(ipv4HeaderChecksum(header, 0)).toBe(0xb861);
  });

  it('writes the file header libpcap expects', () => {
    expect(Buffer.from(pcapFileHeader()).toString('hex')).toBe(
      'd4c3b2a1' + '0200' + '0400' + '00000000' + '00000000' + 'ffff0000' + '01000000',
    );
  });

  it('frames a payload as Ethernet/IPv4/UDP that the reader gets back', () => {
    const payload = Uint8Array.from({ length: 144 }, (_, i) => i);
    const file = concat(
      pcapFileHeader(),
      pcapUdpRecord(payload, 1_700_000_000.123456, {
        source: '10.1.2.3',
        destination: '239.1.2.3',
        sourcePort: 4000,
        destinationPort: 3000,
      }),
    );
    const record = file.subarray(24);
    // Record header: seconds, microseconds, captured = original = 14 + 20 + 8 + 144.
    expect(Buffer.from(record.subarray(0, 16)).toString('hex')).toBe('00f15365' + '40e20100' + 'ba000000' + 'ba000000');
    const ip = record.subarray(16 + 14, 16 + 34);
    expect(Buffer.from(ip.subarray(0, 4)).toString('hex')).toBe('450000ac'); // IPv4, 20-byte header, total 172
    // The checksum verifies: the ones' complement sum over the whole header, checksum included, is 0xffff.
    let sum = 0;
    for (let i = 0; i < 20; i += 2) sum += (ip[i]! << 8) | ip[i + 1]!;
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    expect(sum).toBe(0xffff);

    const capture = readCapture(file);
    expect(capture.frames[0]!.timeSeconds).toBeCloseTo(1_700_000_000.123456, 6);
    const udp = udpFromFrame(capture.frames[0]!.linkType, capture.frames[0]!.data);
    expect(udp).toMatchObject({
      kind: 'udp',
      source: '10.1.2.3',
      destination: '239.1.2.3',
      sourcePort: 4000,
      destinationPort: 3000,
    });
    expect(udp.kind === 'udp' && Buffer.from(udp.payload).equals(Buffer.from(payload))).toBe(true);
  });

  it('refuses what one IPv4 packet cannot carry', () => {
    expect(() => pcapUdpRecord(new Uint8Array(65_508), 0)).toThrow(RangeError);
    expect(() => pcapUdpRecord(new Uint8Array(1), 0, { source: 'localhost' })).toThrow(/dotted-quad/);
  });

  const tshark = findSystemBinary('tshark').path !== undefined;
  it.skipIf(!tshark)(
    'writes files tshark opens, with a good IPv4 checksum (tshark from Debian, which .ci/run installs)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'reckon-pcap-'));
      try {
        const dis = readFileSync(new URL('../fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', import.meta.url));
        const espdu = udpFromFrame(1, readCapture(dis).frames[4]!.data);
        if (espdu.kind !== 'udp') throw new Error('fixture frame 5 should be UDP');
        writeFileSync(join(dir, 'out.pcap'), concat(pcapFileHeader(), pcapUdpRecord(espdu.payload, 1_700_000_000.5)));
        const out = execFileSync(
          'tshark',
          [
            '-r',
            join(dir, 'out.pcap'),
            '-o',
            'ip.check_checksum:TRUE',
            '-T',
            'fields',
            '-e',
            'ip.checksum.status',
            '-e',
            'dis.pdu_type',
            '-e',
            'dis.entity_marking',
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
        );
        expect(out.trim()).toBe('1\t1\tM1A2 1'); // checksum status 1 = good (0 bad, 2 unverified)
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
