// The Entity State PDUs of the recorded captures, read with the project's own capture reader.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { PduType } from '../../src/pdu/constants.js';
import { forEachPdu } from '../../src/pdu/header.js';

export const CAPTURES = ['dis7_vrforces_gaz69_90deg_turn.pcap', 'dis5_kdis_vrforces_hind_vs_m1a2.pcap'] as const;

/** Every Entity State PDU (PDU type 1) of a fixture capture, in capture order, each as its own copy. */
export function readEntityStatePdus(name: string): Uint8Array[] {
  const file = readFileSync(fileURLToPath(new URL(`../fixtures/dis/${name}`, import.meta.url)));
  const pdus: Uint8Array[] = [];
  for (const frame of readCapture(file).frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp') continue;
    forEachPdu(udp.payload, (bytes, offset, length, pduType) => {
      if (pduType === PduType.ENTITY_STATE) pdus.push(new Uint8Array(bytes.subarray(offset, offset + length)));
    });
  }
  return pdus;
}

/** The XOR delta of each ESPDU against the previous ESPDU of the same entity (the first one of each is raw). */
export function entityStateDeltas(
  pdus: readonly Uint8Array[],
  xorDelta: (out: Uint8Array, a: Uint8Array, b: Uint8Array) => Uint8Array,
): Uint8Array[] {
  const previous = new Map<string, Uint8Array>();
  return pdus.map((pdu) => {
    const key = Array.from(pdu.subarray(12, 18)).join('.');
    const delta = xorDelta(new Uint8Array(pdu.length), pdu, previous.get(key) ?? new Uint8Array(0));
    previous.set(key, pdu);
    return delta;
  });
}
