/**
 * Writes classic libpcap files (LINKTYPE_ETHERNET, microsecond timestamps, little-endian as tcpdump does) that
 * Wireshark opens: each UDP payload framed as Ethernet II + IPv4 (valid header checksum) + UDP (checksum 0,
 * which IPv4 allows: "not computed").
 */

export const PCAP_FILE_HEADER_BYTES = 24;
export const PCAP_RECORD_HEADER_BYTES = 16;
const ETHERNET_BYTES = 14;
const IPV4_BYTES = 20;
const UDP_BYTES = 8;
/** Bytes a frame adds around the payload: record header + Ethernet + IPv4 + UDP. */
export const PCAP_UDP_OVERHEAD_BYTES = PCAP_RECORD_HEADER_BYTES + ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES;
/** The largest UDP payload one IPv4 packet holds. */
export const MAX_UDP_PAYLOAD_BYTES = 0xffff - IPV4_BYTES - UDP_BYTES;

/** The 24-byte file header; write it once, then one `pcapUdpRecord` per datagram. */
export function pcapFileHeader(snapLength = 0xffff): Uint8Array {
  const out = new Uint8Array(PCAP_FILE_HEADER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xa1b2c3d4, true); // magic: microsecond resolution
  view.setUint16(4, 2, true); // version 2.4
  view.setUint16(6, 4, true);
  view.setInt32(8, 0, true); // timestamps are UTC
  view.setUint32(12, 0, true);
  view.setUint32(16, snapLength, true);
  view.setUint32(20, 1, true); // LINKTYPE_ETHERNET
  return out;
}

/** Addresses and ports written into a capture's UDP records. */
export interface UdpEndpoints {
  /** Dotted-quad IPv4 source address. Defaults to 127.0.0.1. */
  readonly source?: string;
  /** Dotted-quad IPv4 destination address. Defaults to 127.0.0.1. */
  readonly destination?: string;
  /** Defaults to 3000 (the DIS port). */
  readonly sourcePort?: number;
  /** Defaults to 3000 (the DIS port). */
  readonly destinationPort?: number;
}

let ipIdentification = 0;

/**
 * One pcap record: record header + Ethernet II + IPv4 + UDP around `payload`.
 * @param payload - the UDP payload, e.g. a DIS datagram; at most 65 507 bytes.
 * @param timeSeconds - capture time, seconds since the Unix epoch (fractions kept to the microsecond).
 * @param endpoints - addresses and ports written into the headers.
 * @throws RangeError for a payload too large for one IPv4 packet or an address that is not dotted-quad IPv4.
 */
export function pcapUdpRecord(payload: Uint8Array, timeSeconds: number, endpoints: UdpEndpoints = {}): Uint8Array {
  if (payload.length > MAX_UDP_PAYLOAD_BYTES) {
    throw new RangeError(`UDP payload of ${payload.length} bytes exceeds ${MAX_UDP_PAYLOAD_BYTES}`);
  }
  const frameBytes = ETHERNET_BYTES + IPV4_BYTES + UDP_BYTES + payload.length;
  const out = new Uint8Array(PCAP_RECORD_HEADER_BYTES + frameBytes);
  const view = new DataView(out.buffer);
  let seconds = Math.floor(timeSeconds);
  let micros = Math.round((timeSeconds - seconds) * 1e6);
  if (micros === 1_000_000) {
    seconds += 1;
    micros = 0;
  }
  view.setUint32(0, seconds, true);
  view.setUint32(4, micros, true);
  view.setUint32(8, frameBytes, true);
  view.setUint32(12, frameBytes, true);

  const eth = PCAP_RECORD_HEADER_BYTES;
  out.set([0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01], eth); // locally administered MACs: dst, src
  view.setUint16(eth + 12, 0x0800);

  const ip = eth + ETHERNET_BYTES;
  out[ip] = 0x45; // version 4, 20-byte header
  view.setUint16(ip + 2, IPV4_BYTES + UDP_BYTES + payload.length);
  view.setUint16(ip + 4, (ipIdentification = (ipIdentification + 1) & 0xffff));
  out[ip + 8] = 64; // TTL
  out[ip + 9] = 17; // UDP
  out.set(parseIpv4(endpoints.source ?? '127.0.0.1'), ip + 12);
  out.set(parseIpv4(endpoints.destination ?? '127.0.0.1'), ip + 16);
  view.setUint16(ip + 10, ipv4HeaderChecksum(out, ip));

  const udp = ip + IPV4_BYTES;
  view.setUint16(udp, endpoints.sourcePort ?? 3000);
  view.setUint16(udp + 2, endpoints.destinationPort ?? 3000);
  view.setUint16(udp + 4, UDP_BYTES + payload.length);
  out.set(payload, udp + UDP_BYTES);
  return out;
}

/**
 * The IPv4 header checksum (RFC 791): ones' complement of the ones' complement sum of the header's 16-bit words,
 * computed with the checksum field taken as zero.
 * @param offset - where the 20-byte header starts in `bytes`.
 */
export function ipv4HeaderChecksum(bytes: Uint8Array, offset: number): number {
  const headerBytes = (bytes[offset]! & 0x0f) * 4;
  let sum = 0;
  for (let i = 0; i < headerBytes; i += 2) {
    if (i === 10) continue;
    sum += (bytes[offset + i]! << 8) | bytes[offset + i + 1]!;
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

function parseIpv4(address: string): number[] {
  const parts = address.split('.');
  const octets = parts.map(Number);
  if (parts.length !== 4 || octets.some((o, i) => !/^\d{1,3}$/.test(parts[i]!) || o > 255)) {
    throw new RangeError(`"${address}" is not a dotted-quad IPv4 address`);
  }
  return octets;
}
