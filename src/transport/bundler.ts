/**
 * Bundling on send (IEEE 1278.1 allows several PDUs per datagram): PDUs are packed into a datagram of at most
 * `mtu` bytes, which goes out in one `send` when the next PDU does not fit or on `flush()`. Receivers split them by
 * each header's Length (`PduReceiver`).
 */
import type { DatagramTransport } from './transport.js';

/** Bytes of UDP payload that fit a 1500-byte Ethernet frame (1500 − 20 IPv4 − 8 UDP). */
export const DEFAULT_MTU = 1472;

/** Packs PDUs into datagrams of at most `mtu` bytes and sends each when full or on `flush()`. */
export class PduBundler {
  /** The datagram being filled; PDUs claimed with `claim` are written here. */
  buffer: Uint8Array;
  private used = 0;
  private pdus = 0;
  private readonly transport: Pick<DatagramTransport, 'send'>;
  readonly mtu: number;

  /**
   * @param transport - where datagrams go.
   * @param mtu - most payload bytes per datagram. Defaults to 1472.
   */
  constructor(transport: Pick<DatagramTransport, 'send'>, mtu = DEFAULT_MTU) {
    this.transport = transport;
    this.mtu = mtu;
    this.buffer = Buffer.allocUnsafe(mtu);
  }

  /** Bytes waiting in the current datagram. */
  get pendingBytes(): number {
    return this.used;
  }

  /** PDUs waiting in the current datagram. */
  get pendingPdus(): number {
    return this.pdus;
  }

  /**
   * Reserves `length` bytes for one PDU and returns their offset in `this.buffer` (read `buffer` after the call:
   * it is replaced when the previous datagram is sent). A PDU larger than the MTU gets a datagram of its own.
   */
  claim(length: number): number {
    if (this.used + length > this.buffer.length) {
      this.flush();
      // Only a PDU larger than the MTU gets here with an empty datagram.
      if (length > this.buffer.length) this.buffer = Buffer.allocUnsafe(length);
    }
    const offset = this.used;
    this.used += length;
    this.pdus++;
    return offset;
  }

  /** Copies one PDU into the current datagram. */
  append(pdu: Uint8Array, offset = 0, length = pdu.length - offset): void {
    const at = this.claim(length);
    const buffer = this.buffer;
    if (offset === 0 && length === pdu.length) buffer.set(pdu, at);
    else for (let i = 0; i < length; i++) buffer[at + i] = pdu[offset + i]!; // no subarray view per PDU
  }

  /** Sends the current datagram, if it holds anything. Call at the end of each publishing tick. */
  flush(): void {
    if (this.used === 0) return;
    this.transport.send(this.buffer, this.used);
    // A fresh buffer per datagram: the send completes asynchronously and must not see the next PDUs. Buffers under
    // 4 KiB come from Node's shared pool, so this is a cheap slice, once per datagram rather than per PDU.
    this.buffer = Buffer.allocUnsafe(this.mtu);
    this.used = 0;
    this.pdus = 0;
  }
}
