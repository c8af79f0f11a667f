// Walks the libpcap fixtures (24-byte global header, 16-byte record headers, 14 + 20 + 8 bytes of Ethernet, IPv4
// and UDP before the DIS payload, as test/fixtures/SOURCES.md describes them) and yields the Entity State PDUs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CAPTURES = [
  'dis7_vrforces_gaz69_90deg_turn.pcap',
  'dis5_kdis_vrforces_hind_vs_m1a2.pcap',
] as const;

const FRAME_HEADER_BYTES = 14 + 20 + 8;

/** Every Entity State PDU (PDU type 1) of a fixture capture, in capture order, each as its own copy. */
export function readEntityStatePdus(name: string): Uint8Array[] {
  const file = readFileSync(fileURLToPath(new URL(`../fixtures/dis/${name}`, import.meta.url)));
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const littleEndian = view.getUint32(0, true) === 0xa1b2c3d4;
  const pdus: Uint8Array[] = [];
  for (let offset = 24; offset + 16 <= file.length; ) {
    const captured = view.getUint32(offset + 8, littleEndian);
    const payload = file.subarray(offset + 16 + FRAME_HEADER_BYTES, offset + 16 + captured);
    offset += 16 + captured;
    if (payload.length < 144 || payload[2] !== 1) continue;
    const length = (payload[8]! << 8) | payload[9]!;
    if (length <= payload.length) pdus.push(new Uint8Array(payload.subarray(0, length)));
  }
  return pdus;
}

/** The XOR delta of each ESPDU against the previous ESPDU of the same entity (the first one of each is raw). */
export function entityStateDeltas(pdus: readonly Uint8Array[], xorDelta: (out: Uint8Array, a: Uint8Array, b: Uint8Array) => Uint8Array): Uint8Array[] {
  const previous = new Map<string, Uint8Array>();
  return pdus.map((pdu) => {
    const key = Array.from(pdu.subarray(12, 18)).join('.');
    const delta = xorDelta(new Uint8Array(pdu.length), pdu, previous.get(key) ?? new Uint8Array(0));
    previous.set(key, pdu);
    return delta;
  });
}
