/**
 * Lockstep inputs over TCP against the redundant UDP channel, on the simulated network. One side sends one
 * input per frame at 60 Hz; the other plays them out through a `PlayoutBuffer` and counts hitches.
 *
 * - `latencyMs` is the ONE-WAY delay of each direction (the round trip is twice it).
 * - `bytesPerSecond` counts the input direction only, IP and transport headers included (UDP + IPv4 28 bytes per
 *   datagram, TCP + IPv4 40 bytes per segment); `largestPacketBytes` is the largest payload the sender put in one
 *   datagram or segment.
 * - TCP model: one segment per input (Nagle off), delivered to the application in order only (head-of-line
 *   blocking); a segment not acknowledged after RTO = 2 × RTT (at least 200 ms) is resent, and the RTO doubles on
 *   each further resend of the same segment (RFC 6298 backoff). Cumulative ACKs travel the lossy reverse link.
 * - UDP: every packet carries all un-acknowledged inputs (see packet.ts); the receiver acknowledges every frame.
 * - Both receivers anchor frame 0 at its loss-free arrival time (one-way latency after it was sent), as a receiver
 *   with a synchronised clock would. Anchoring on the first arrival instead lets a lost first segment silently
 *   add its retransmission time to the playout delay of the whole run, which hides TCP's stalls.
 */
import { SimulatedLink, type NetworkProfile } from './simulated-network.js';
import { botInput } from '../lockstep/input.js';
import { InputReceiver, InputSender } from '../lockstep/input-window.js';
import {
  DecodedLockstepPacket,
  LockstepPacketEncoder,
  PacketStatus,
  decodeLockstepPacket,
} from '../lockstep/packet.js';
import { PlayoutBuffer } from '../lockstep/playout-buffer.js';

/** One condition of the lockstep comparison and what it measured. */
export interface LockstepComparisonRow {
  /** One-way latency, ms. */
  latencyMs: number;
  lossPercent: number;
  playoutDelayMs: number;
  transport: 'tcp' | 'udp-redundant';
  hitchesPerMinute: number;
  longestStallMs: number;
  /** Input direction, headers included. */
  bytesPerSecond: number;
  /** Largest input payload in one datagram or segment. */
  largestPacketBytes: number;
}

export interface LockstepCondition {
  readonly latencyMs: number;
  readonly lossPercent: number;
  readonly playoutDelayMs: number;
}

/** The conditions of the standard comparison. */
export const LOCKSTEP_CONDITIONS: readonly LockstepCondition[] = [
  { latencyMs: 100, lossPercent: 1, playoutDelayMs: 100 },
  { latencyMs: 250, lossPercent: 5, playoutDelayMs: 100 },
  { latencyMs: 2000, lossPercent: 25, playoutDelayMs: 100 },
  { latencyMs: 2000, lossPercent: 50, playoutDelayMs: 250 },
];

const STEP_SECONDS = 1 / 60;
const UDP_HEADER_BYTES = 28;
const TCP_HEADER_BYTES = 40;
const ACK_PACKET_BYTES = 8;

/**
 * Runs every condition of `LOCKSTEP_CONDITIONS` over both transports. Deterministic for a seed.
 * @param options.durationSeconds - simulated time per run, s. Defaults to 60.
 * @param options.seed - seeds the links and the bot input. Defaults to 1.
 */
export function runLockstepComparison(
  options: { durationSeconds?: number; seed?: number } = {},
): LockstepComparisonRow[] {
  const duration = options.durationSeconds ?? 60;
  const seed = options.seed ?? 1;
  const rows: LockstepComparisonRow[] = [];
  LOCKSTEP_CONDITIONS.forEach((condition, i) => {
    const runSeed = (seed * 1_000_003 + i * 7919) >>> 0;
    rows.push(runTcp(condition, duration, runSeed));
    rows.push(runRedundantUdp(condition, duration, runSeed));
  });
  return rows;
}

function profileOf(condition: LockstepCondition): NetworkProfile {
  return { latencyMs: condition.latencyMs, jitterMs: 5, lossPercent: condition.lossPercent };
}

function createPlayout(condition: LockstepCondition): PlayoutBuffer {
  const playout = new PlayoutBuffer({ delaySeconds: condition.playoutDelayMs / 1000, stepSeconds: STEP_SECONDS });
  playout.anchor(0, condition.latencyMs / 1000);
  return playout;
}

function row(
  condition: LockstepCondition,
  transport: LockstepComparisonRow['transport'],
  playout: PlayoutBuffer,
  duration: number,
  bytes: number,
  largest: number,
): LockstepComparisonRow {
  playout.finish(duration);
  return {
    latencyMs: condition.latencyMs,
    lossPercent: condition.lossPercent,
    playoutDelayMs: condition.playoutDelayMs,
    transport,
    hitchesPerMinute: round((playout.stats.hitches * 60) / duration),
    longestStallMs: Math.round(playout.stats.longestStallSeconds * 1000),
    bytesPerSecond: Math.round(bytes / duration),
    largestPacketBytes: largest,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function runRedundantUdp(condition: LockstepCondition, duration: number, seed: number): LockstepComparisonRow {
  const forward = new SimulatedLink<Uint8Array>(profileOf(condition), seed);
  const backward = new SimulatedLink<Uint8Array>(profileOf(condition), seed + 1);
  const sender = new InputSender(1024);
  const receiver = new InputReceiver();
  const encoder = new LockstepPacketEncoder();
  const ackEncoder = new LockstepPacketEncoder(64);
  const noInputs = new InputSender(1);
  const decoded = new DecodedLockstepPacket();
  const ackDecoded = new DecodedLockstepPacket(1);
  const playout = createPlayout(condition);
  let bytes = 0;
  let largest = 0;
  let now = 0;
  const add = (frame: number, input: number) => playout.add(frame, input, now);
  const noop = () => {};

  for (let tick = 0; (now = tick * STEP_SECONDS) < duration; tick++) {
    // A full window means the receiver has been silent for 17 s: the peer would have been timed out long before.
    sender.push(botInput(seed, 0, tick));
    const packet = encoder.encode(-1, sender)!;
    forward.send(now, packet.slice(), packet.length + UDP_HEADER_BYTES);
    bytes += packet.length + UDP_HEADER_BYTES;
    if (packet.length > largest) largest = packet.length;

    forward.poll(now, (datagram) => {
      if (decodeLockstepPacket(datagram, decoded) === PacketStatus.OK) receiver.receive(decoded, add);
    });
    const ack = ackEncoder.encode(receiver.ackSequence, noInputs)!;
    backward.send(now, ack.slice(), ACK_PACKET_BYTES + UDP_HEADER_BYTES);
    backward.poll(now, (datagram) => {
      if (decodeLockstepPacket(datagram, ackDecoded) === PacketStatus.OK && ackDecoded.ackSequence >= 0) {
        sender.acknowledge(ackDecoded.ackSequence);
      }
    });
    playout.update(now, noop);
  }
  return row(condition, 'udp-redundant', playout, duration, bytes, largest);
}

function runTcp(condition: LockstepCondition, duration: number, seed: number): LockstepComparisonRow {
  const forward = new SimulatedLink<number>(profileOf(condition), seed);
  const backward = new SimulatedLink<number>(profileOf(condition), seed + 1);
  const frames = Math.ceil(duration / STEP_SECONDS) + 1;
  const inputs = new Uint8Array(frames);
  const retransmitAt = new Float64Array(frames);
  const backoff = new Uint8Array(frames);
  const received = new Uint8Array(frames);
  const rtoSeconds = Math.max(0.2, (2 * 2 * condition.latencyMs) / 1000);
  const playout = createPlayout(condition);
  let next = 0; // next new segment
  let unacked = 0; // sender: first segment not cumulatively acknowledged
  let delivered = 0; // receiver: next segment owed to the application
  let bytes = 0;
  let now = 0;
  const send = (segment: number) => {
    forward.send(now, segment, 1 + TCP_HEADER_BYTES);
    bytes += 1 + TCP_HEADER_BYTES;
    retransmitAt[segment] = now + rtoSeconds * 2 ** backoff[segment]!;
  };
  const noop = () => {};

  for (let tick = 0; (now = tick * STEP_SECONDS) < duration; tick++) {
    inputs[next] = botInput(seed, 0, tick);
    send(next++);
    for (let s = unacked; s < next; s++) {
      if (retransmitAt[s]! <= now) {
        if (backoff[s]! < 8) backoff[s]!++;
        send(s);
      }
    }
    let acked = false;
    forward.poll(now, (segment) => {
      received[segment] = 1;
      acked = true;
    });
    // In-order delivery: a missing segment holds back everything after it.
    while (delivered < next && received[delivered]) {
      playout.add(delivered, inputs[delivered]!, now);
      delivered++;
    }
    if (acked) backward.send(now, delivered, TCP_HEADER_BYTES);
    backward.poll(now, (cumulative) => {
      if (cumulative > unacked) unacked = cumulative;
    });
    playout.update(now, noop);
  }
  return row(condition, 'tcp', playout, duration, bytes, 1);
}
