// A DatagramTransport test double: datagrams are handed in by the test and sent ones are kept.
import { createTransportStats, type DatagramReceiver, type DatagramTransport } from '../../src/transport/transport.js';

export class FakeTransport implements DatagramTransport {
  readonly stats = createTransportStats();
  readonly sent: Uint8Array[] = [];
  closed = false;
  private receiver: DatagramReceiver | undefined;

  send(datagram: Uint8Array, length = datagram.length): void {
    this.stats.datagramsOut++;
    this.sent.push(datagram.slice(0, length));
  }
  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }
  onClose(): void {}
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
  /** Delivers one datagram as if it arrived from 127.0.0.1:4000. */
  deliver(datagram: Uint8Array): void {
    this.stats.datagramsIn++;
    this.receiver?.(datagram, { address: '127.0.0.1', port: 4000, family: 'IPv4' });
  }
  get listening(): boolean {
    return this.receiver !== undefined;
  }
}
