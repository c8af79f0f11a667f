/**
 * From a captured frame to its UDP payload: link layer (Ethernet with 802.1Q/802.1ad tags, Linux cooked SLL and
 * SLL2, raw IPv4, BSD loopback), IPv4, UDP. IPv4 fragments are recognised and skipped, not reassembled.
 */

export const LinkType = {
  NULL: 0,
  ETHERNET: 1,
  RAW: 101,
  LOOP: 108,
  LINUX_SLL: 113,
  IPV4: 228,
  LINUX_SLL2: 276,
} as const;

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_VLAN = 0x8100;
const ETHERTYPE_QINQ = 0x88a8;
const IP_PROTOCOL_UDP = 17;

/** The UDP payload of a frame with its addresses and ports. */
export interface UdpDatagram {
  readonly kind: 'udp';
  /** Dotted-quad IPv4 addresses. */
  readonly source: string;
  readonly destination: string;
  readonly sourcePort: number;
  readonly destinationPort: number;
  /** The UDP payload (a view into the frame). */
  readonly payload: Uint8Array;
}

/** Why a frame carries no UDP payload we can read. */
export type SkipReason = 'link-type' | 'not-ipv4' | 'not-udp' | 'fragment' | 'truncated';

/** A frame that carries no UDP payload reckon reads, and why. */
export interface SkippedFrame {
  readonly kind: 'skip';
  readonly reason: SkipReason;
}

/**
 * Extracts the UDP datagram carried by one captured frame.
 * @param linkType - the frame's LINKTYPE_* value.
 * @param frame - the captured bytes.
 */
export function udpFromFrame(linkType: number, frame: Uint8Array): UdpDatagram | SkippedFrame {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  let ip: number;
  switch (linkType) {
    case LinkType.ETHERNET: {
      let at = 12;
      if (frame.length < at + 2) return skip('truncated');
      let etherType = view.getUint16(at);
      while (etherType === ETHERTYPE_VLAN || etherType === ETHERTYPE_QINQ) {
        at += 4;
        if (frame.length < at + 2) return skip('truncated');
        etherType = view.getUint16(at);
      }
      if (etherType !== ETHERTYPE_IPV4) return skip('not-ipv4');
      ip = at + 2;
      break;
    }
    case LinkType.LINUX_SLL:
      if (frame.length < 16) return skip('truncated');
      if (view.getUint16(14) !== ETHERTYPE_IPV4) return skip('not-ipv4');
      ip = 16;
      break;
    case LinkType.LINUX_SLL2:
      if (frame.length < 20) return skip('truncated');
      if (view.getUint16(0) !== ETHERTYPE_IPV4) return skip('not-ipv4');
      ip = 20;
      break;
    case LinkType.RAW:
    case LinkType.IPV4:
      ip = 0;
      break;
    case LinkType.NULL:
    case LinkType.LOOP: {
      // A 4-byte address family: host byte order for NULL, network order for LOOP. AF_INET is 2 everywhere.
      if (frame.length < 4) return skip('truncated');
      if (view.getUint32(0, true) !== 2 && view.getUint32(0, false) !== 2) return skip('not-ipv4');
      ip = 4;
      break;
    }
    default:
      return skip('link-type');
  }
  return udpFromIpv4(frame, view, ip);
}

function udpFromIpv4(frame: Uint8Array, view: DataView, ip: number): UdpDatagram | SkippedFrame {
  if (frame.length < ip + 20) return skip('truncated');
  const versionIhl = frame[ip]!;
  if (versionIhl >> 4 !== 4) return skip('not-ipv4');
  const headerBytes = (versionIhl & 0x0f) * 4;
  const totalLength = view.getUint16(ip + 2);
  const flagsFragment = view.getUint16(ip + 6);
  // More-fragments flag or a non-zero fragment offset: a piece of a larger datagram.
  if ((flagsFragment & 0x2000) !== 0 || (flagsFragment & 0x1fff) !== 0) return skip('fragment');
  if (frame[ip + 9] !== IP_PROTOCOL_UDP) return skip('not-udp');
  const udp = ip + headerBytes;
  if (headerBytes < 20 || totalLength < headerBytes + 8 || frame.length < udp + 8) return skip('truncated');
  const udpLength = view.getUint16(udp + 4);
  const ipEnd = Math.min(ip + totalLength, frame.length);
  if (udpLength < 8 || udp + udpLength > ipEnd) return skip('truncated');
  return {
    kind: 'udp',
    source: dottedQuad(frame, ip + 12),
    destination: dottedQuad(frame, ip + 16),
    sourcePort: view.getUint16(udp),
    destinationPort: view.getUint16(udp + 2),
    payload: frame.subarray(udp + 8, udp + udpLength),
  };
}

function dottedQuad(bytes: Uint8Array, at: number): string {
  return `${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}`;
}

function skip(reason: SkipReason): SkippedFrame {
  return { kind: 'skip', reason };
}
