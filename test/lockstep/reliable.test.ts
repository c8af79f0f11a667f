import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReliableEndpoint, reliableSectionLength } from '../../src/lockstep/reliable.js';
import { SimulatedLink } from '../../src/experiment/simulated-network.js';

interface Outcome {
  /** Delivered reliable message numbers, in delivery order. */
  reliable: number[];
  queued: number;
  /** Violations of "a reliable message is delivered before the first unreliable message sent after it". */
  orderViolations: string[];
  unreliableDelivered: number;
}

/**
 * A streams 60 packets/s to B, each with a reliable section and an unreliable payload (its packet number); B
 * streams back so that acknowledgements flow. Both directions lose and reorder packets.
 */
function exchange(seed: number, lossPercent: number, seconds = 20): Outcome {
  const profile = {
    latencyMs: 40,
    jitterMs: 15,
    jitter: 'exponential' as const,
    lossPercent,
    reorderPercent: 10,
    preserveOrder: false,
  };
  const forward = new SimulatedLink<Uint8Array>(profile, seed);
  const backward = new SimulatedLink<Uint8Array>(profile, seed + 1);
  const a = new ReliableEndpoint();
  const b = new ReliableEndpoint();
  const buffer = new Uint8Array(512);
  const firstPacketAfter: number[] = [];
  const outcome: Outcome = { reliable: [], queued: 0, orderViolations: [], unreliableDelivered: 0 };
  let packet = 0;
  let messageCounter = 0;
  const step = 1 / 60;
  for (let tick = 0; tick * step < seconds; tick++) {
    const now = tick * step;
    // Queue bursts of messages during the first half, then let the channel drain.
    if (now < seconds / 2 && (Math.imul(tick + 1, 2654435761) >>> 0) % 97 < 4 + (seed % 5)) {
      for (let k = 0; k < 1 + (tick % 3); k++) {
        const m = messageCounter;
        if (!a.send(Uint8Array.of(m >>> 8, m & 0xff, 0xab))) break;
        firstPacketAfter[m] = packet;
        messageCounter++;
      }
    }
    let end = a.writeSection(buffer, 0);
    new DataView(buffer.buffer).setUint32(end, packet++);
    end += 4;
    forward.send(now, buffer.slice(0, end), end + 28);
    const back = b.writeSection(buffer, 0);
    backward.send(now, buffer.slice(0, back), back + 28);

    forward.poll(now, (bytes) => {
      const length = reliableSectionLength(bytes, 0);
      expect(length).toBeGreaterThan(0);
      b.readSection(bytes, 0, (message) => {
        expect(message[2]).toBe(0xab);
        outcome.reliable.push((message[0]! << 8) | message[1]!);
      });
      if (!b.unreliableAllowed) return;
      const sequence = new DataView(bytes.buffer, bytes.byteOffset + length).getUint32(0);
      outcome.unreliableDelivered++;
      // Every message queued before this packet was sent must already be delivered.
      for (let m = 0; m < firstPacketAfter.length; m++) {
        if (firstPacketAfter[m]! <= sequence && !outcome.reliable.includes(m)) {
          outcome.orderViolations.push(`packet ${sequence} before message ${m}`);
        }
      }
    });
    backward.poll(now, (bytes) => a.readSection(bytes, 0, () => {}));
  }
  outcome.queued = messageCounter;
  return outcome;
}

describe('reliable messages on an unreliable stream', () => {
  it('delivers every message exactly once, in order, before any later unreliable payload', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 50 }), (seed, lossPercent) => {
        const outcome = exchange(seed, lossPercent);
        expect(outcome.queued).toBeGreaterThan(5);
        expect(outcome.reliable).toEqual(Array.from({ length: outcome.queued }, (_, i) => i));
        expect(outcome.orderViolations).toEqual([]);
        expect(outcome.unreliableDelivered).toBeGreaterThan(0);
      }),
      { numRuns: 25 },
    );
  });

  it('withholds an unreliable payload sent after a reliable message that has not arrived', () => {
    const a = new ReliableEndpoint();
    const b = new ReliableEndpoint();
    const bytes = new Uint8Array(64);
    a.send(Uint8Array.of(1));
    a.writeSection(bytes, 0); // lost
    a.send(Uint8Array.of(2));
    a.writeSection(bytes, 0); // carries message 1 (round robin), high water 1
    const got: number[] = [];
    b.readSection(bytes, 0, (m) => got.push(m[0]!));
    expect(got).toEqual([]); // message 1 held until message 0 arrives
    expect(b.unreliableAllowed).toBe(false);
    a.writeSection(bytes, 0); // message 0 again
    b.readSection(bytes, 0, (m) => got.push(m[0]!));
    expect(got).toEqual([1, 2]);
    expect(b.unreliableAllowed).toBe(true);
    expect(b.stats.unreliableWithheld).toBe(1);
  });

  it('refuses messages when the queue is full and accepts again after an acknowledgement', () => {
    const a = new ReliableEndpoint({ maxQueued: 2 });
    const b = new ReliableEndpoint();
    const bytes = new Uint8Array(64);
    expect(a.send(Uint8Array.of(1))).toBe(true);
    expect(a.send(Uint8Array.of(2))).toBe(true);
    expect(a.send(Uint8Array.of(3))).toBe(false);
    expect(a.send(new Uint8Array(256))).toBe(false);
    a.writeSection(bytes, 0);
    b.readSection(bytes, 0, () => {});
    b.writeSection(bytes, 0);
    a.readSection(bytes, 0, () => {});
    expect(a.queued).toBe(1);
    expect(a.send(Uint8Array.of(3))).toBe(true);
  });

  it.each([
    ['empty', []],
    ['unknown flags', [0x08]],
    ['ack cut short', [0x01, 0]],
    ['message longer than the packet', [0x04, 0, 0, 5, 1]],
  ])('rejects a malformed section: %s', (_name, bytes) => {
    expect(reliableSectionLength(Uint8Array.from(bytes), 0)).toBeLessThan(0);
  });
});
