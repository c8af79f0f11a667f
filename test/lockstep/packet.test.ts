import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputReceiver, InputSender, ReceiveStatus } from '../../src/lockstep/input-window.js';
import {
  DecodedLockstepPacket,
  LockstepPacketEncoder,
  PACKET_HEADER_BYTES,
  PacketStatus,
  decodeLockstepPacket,
  inputSectionBits,
} from '../../src/lockstep/packet.js';
import { ReliableEndpoint } from '../../src/lockstep/reliable.js';

function senderWith(inputs: readonly number[], capacity = 512): InputSender {
  const s = new InputSender(capacity);
  for (const i of inputs) expect(s.push(i)).toBe(true);
  return s;
}

describe('lockstep packet', () => {
  it('fits 120 changing inputs in 90 bytes of inputs plus 15 bytes of flags', () => {
    const inputs = Array.from({ length: 120 }, (_, i) => (i % 2 ? 0b101010 : 0b010101));
    const encoder = new LockstepPacketEncoder();
    const bytes = encoder.encode(-1, senderWith(inputs))!;
    expect(encoder.inputBits).toBe(6 + 119 * 7);
    expect(bytes.length - PACKET_HEADER_BYTES).toBeLessThanOrEqual(90 + 15);
  });

  it('charges one bit for an unchanged input', () => {
    const encoder = new LockstepPacketEncoder();
    const sender = senderWith([9, 9, 17]);
    encoder.encode(-1, sender);
    const before = encoder.inputBits;
    sender.push(17);
    encoder.encode(-1, sender);
    expect(encoder.inputBits - before).toBe(1);
    expect(inputSectionBits(sender)).toBe(6 + 1 + 7 + 1);
  });

  it('round-trips acknowledgement, inputs and checksum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 63 }), { maxLength: 300 }),
        fc.integer({ min: -1, max: 0xffff }),
        fc.integer({ min: -1, max: 100_000 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.nat(70_000),
        (inputs, ack, checksumFrame, checksum, skip) => {
          const sender = new InputSender(512);
          // Start anywhere, including past a 16-bit wrap.
          sender.oldestFrame = sender.nextFrame = skip;
          for (const i of inputs) sender.push(i);
          const bytes = new LockstepPacketEncoder().encode(ack, sender, checksumFrame, checksum)!;
          const out = new DecodedLockstepPacket();
          expect(decodeLockstepPacket(bytes, out)).toBe(PacketStatus.OK);
          expect(out.ackSequence).toBe(ack);
          expect(out.count).toBe(inputs.length);
          expect(Array.from(out.inputs.subarray(0, out.count))).toEqual(inputs);
          expect(out.newestSequence).toBe((skip + inputs.length - 1) & 0xffff);
          expect(out.checksumSequence).toBe(checksumFrame < 0 ? -1 : checksumFrame & 0xffff);
          if (checksumFrame >= 0) expect(out.checksum).toBe(checksum);
        },
      ),
    );
  });

  it.each([
    ['empty', [], PacketStatus.TRUNCATED],
    ['wrong magic', [0x4d, 0, 0, 0, 0, 0, 0, 0], PacketStatus.BAD_MAGIC],
    ['unknown flag', [0x4c, 0x80, 0, 0, 0, 0, 0, 0], PacketStatus.UNKNOWN_FLAGS],
    ['count beyond the window', [0x4c, 0, 0, 0, 0, 0, 0x04, 0x01], PacketStatus.BAD_COUNT],
    ['inputs cut short', [0x4c, 0, 0, 0, 0, 1, 0, 2], PacketStatus.TRUNCATED],
    ['checksum cut short', [0x4c, 2, 0, 0, 0, 0, 0, 0, 1, 2], PacketStatus.TRUNCATED],
    ['bad reliable section', [0x4c, 4, 0, 0, 0, 0, 0, 0, 0xf0], PacketStatus.BAD_RELIABLE_SECTION],
    ['trailing bytes', [0x4c, 0, 0, 0, 0, 0, 0, 1, 0xfc, 0], PacketStatus.BAD_LENGTH],
  ])('rejects %s, and the same decoder then takes a good packet', (_name, bytes, status) => {
    const out = new DecodedLockstepPacket();
    expect(decodeLockstepPacket(Uint8Array.from(bytes), out)).toBe(status);
    const good = new LockstepPacketEncoder().encode(3, senderWith([1, 2, 3]))!;
    expect(decodeLockstepPacket(good, out)).toBe(PacketStatus.OK);
    expect(Array.from(out.inputs.subarray(0, 3))).toEqual([1, 2, 3]);
  });

  it('never throws on random bytes', () => {
    const out = new DecodedLockstepPacket(512);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, magic) => {
        if (magic && bytes.length > 0) bytes[0] = 0x4c;
        const status = decodeLockstepPacket(bytes, out);
        expect(Object.values(PacketStatus)).toContain(status);
      }),
      { numRuns: 20_000 },
    );
  });

  it('carries a reliable section', () => {
    const endpoint = new ReliableEndpoint();
    endpoint.send(Uint8Array.of(7, 8, 9));
    const bytes = new LockstepPacketEncoder().encode(-1, senderWith([5]), 10, 99, endpoint)!;
    const out = new DecodedLockstepPacket();
    expect(decodeLockstepPacket(bytes, out)).toBe(PacketStatus.OK);
    const peer = new ReliableEndpoint();
    const got: number[][] = [];
    peer.readSection(bytes, out.reliableOffset, (m) => got.push(Array.from(m)));
    expect(got).toEqual([[7, 8, 9]]);
    expect(peer.unreliableAllowed).toBe(true);
  });
});

describe('input window', () => {
  it('refuses inputs when full and frees them on acknowledgement, across the 16-bit wrap', () => {
    const sender = new InputSender(4);
    sender.oldestFrame = sender.nextFrame = 65534;
    for (let i = 0; i < 4; i++) expect(sender.push(i)).toBe(true);
    expect(sender.isFull).toBe(true);
    expect(sender.push(9)).toBe(false);
    expect(sender.nextFrame).toBe(65538);
    expect(sender.acknowledge(0)).toBe(3); // frame 65536 → sequence 0
    expect(sender.oldestFrame).toBe(65537);
    expect(sender.acknowledge(65535)).toBe(0); // stale
    expect(sender.acknowledge(5)).toBe(0); // not sent yet
    expect(sender.push(9)).toBe(true);
  });

  it('receives each input once, in order, and rejects gaps', () => {
    const receiver = new InputReceiver();
    const got: Array<[number, number]> = [];
    const take = (f: number, i: number) => got.push([f, i]);
    const run = (newest: number, inputs: number[]) => ({
      newestSequence: newest,
      count: inputs.length,
      inputs: Uint8Array.from(inputs),
    });
    expect(receiver.ackSequence).toBe(-1);
    expect(receiver.receive(run(2, [10, 11, 12]), take)).toBe(ReceiveStatus.OK);
    expect(receiver.receive(run(2, [10, 11, 12]), take)).toBe(ReceiveStatus.STALE);
    expect(receiver.receive(run(4, [12, 13, 14]), take)).toBe(ReceiveStatus.OK);
    expect(receiver.receive(run(9, [19]), take)).toBe(ReceiveStatus.GAP);
    expect(got).toEqual([
      [0, 10],
      [1, 11],
      [2, 12],
      [3, 13],
      [4, 14],
    ]);
    expect(receiver.ackSequence).toBe(4);
  });
});
