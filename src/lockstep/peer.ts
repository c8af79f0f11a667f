/**
 * One lockstep peer of a two-player session, socket-free and clock-free: `tick(now)` generates the local inputs
 * that are due, plays out the peer's inputs, simulates every frame for which both inputs are present and returns
 * the packet to send; `receive(bytes, now)` takes the peer's packets. Checksums of the simulation travel in the
 * packets every `checksumEveryFrames` frames so that both sides detect a desync, and a reliable hello carries the
 * seed so that mismatched runs are named as such.
 */
import { botInput } from './input.js';
import { InputReceiver, InputSender } from './input-window.js';
import {
  DecodedLockstepPacket,
  LockstepPacketEncoder,
  PACKET_STATUS_NAMES,
  PacketStatus,
  decodeLockstepPacket,
} from './packet.js';
import { PlayoutBuffer } from './playout-buffer.js';
import { ReliableEndpoint } from './reliable.js';
import { unwrapSequence } from './sequence.js';
import { LockstepSimulation } from './simulation.js';

/** Options of a `LockstepPeer`. */
export interface LockstepPeerOptions {
  /** Player index of this peer: 0 or 1. */
  readonly player: 0 | 1;
  /** Seeds the world and the bot input; both peers must agree. Defaults to 1. */
  readonly seed?: number;
  /** Frame period, s. Defaults to 1/60. */
  readonly stepSeconds?: number;
  /** Playout delay of the peer's inputs, s. Defaults to 0.1. */
  readonly playoutDelaySeconds?: number;
  /** Un-acknowledged inputs held; when full, local input (and so the simulation) waits. Defaults to 512. */
  readonly window?: number;
  /** A peer silent this long after first contact is timed out, s. Defaults to 2. */
  readonly peerTimeoutSeconds?: number;
  /** Checksum exchange period, frames. Defaults to 30. */
  readonly checksumEveryFrames?: number;
}

/** Counters of a `LockstepPeer`. */
export interface LockstepPeerStats {
  /** Frames simulated. */
  frame: number;
  hitches: number;
  longestStallSeconds: number;
  checksumsCompared: number;
  checksumsAgreed: number;
  /** First frame whose checksums differed, or −1. */
  firstMismatchFrame: number;
  packetsSent: number;
  packetsReceived: number;
  largestPacketBytes: number;
  /** Rejected datagrams by decoder status name. */
  rejected: Record<string, number>;
  /** The peer's hello said its seed differs from ours. */
  seedMismatch: boolean;
  timedOut: boolean;
}

const RING = 1024;
const CHECKSUM_RING = 64;

/** One peer of a two-player lockstep session: `tick(now)` to send, `receive(bytes, now)` to take packets. */
export class LockstepPeer {
  readonly stats: LockstepPeerStats;
  private readonly seed: number;
  private readonly player: 0 | 1;
  private readonly step: number;
  private readonly timeout: number;
  private readonly every: number;
  private readonly simulation: LockstepSimulation;
  private readonly sender: InputSender;
  private readonly receiver = new InputReceiver();
  private readonly playout: PlayoutBuffer;
  private readonly reliable = new ReliableEndpoint();
  private readonly encoder = new LockstepPacketEncoder();
  private readonly decoded: DecodedLockstepPacket;
  private readonly local = new Uint8Array(RING);
  private readonly remote = new Uint8Array(RING);
  private readonly frameInputs = new Uint8Array(2);
  private readonly checksumFrames = new Float64Array(CHECKSUM_RING).fill(-1);
  private readonly checksums = new Uint32Array(CHECKSUM_RING);
  private startSeconds = NaN;
  private lastHeardSeconds = NaN;
  private remoteThrough = -1;
  private pendingRemoteFrame = -1;
  private pendingRemoteChecksum = 0;
  private lastComparedFrame = 0;
  private nowSeconds = 0;

  constructor(options: LockstepPeerOptions) {
    this.player = options.player;
    this.seed = (options.seed ?? 1) >>> 0;
    this.step = options.stepSeconds ?? 1 / 60;
    this.timeout = options.peerTimeoutSeconds ?? 2;
    this.every = options.checksumEveryFrames ?? 30;
    this.simulation = new LockstepSimulation({ seed: this.seed, players: 2 });
    this.sender = new InputSender(options.window ?? 512);
    this.decoded = new DecodedLockstepPacket(this.sender.capacity);
    this.playout = new PlayoutBuffer({
      stepSeconds: this.step,
      delaySeconds: options.playoutDelaySeconds ?? 0.1,
      capacity: RING,
    });
    this.stats = {
      frame: 0,
      hitches: 0,
      longestStallSeconds: 0,
      checksumsCompared: 0,
      checksumsAgreed: 0,
      firstMismatchFrame: -1,
      packetsSent: 0,
      packetsReceived: 0,
      largestPacketBytes: 0,
      rejected: {},
      seedMismatch: false,
      timedOut: false,
    };
    const hello = new Uint8Array(5);
    hello[0] = 1; // message kind: hello
    new DataView(hello.buffer).setUint32(1, this.seed);
    this.reliable.send(hello);
  }

  /**
   * Advances to `nowSeconds`: local input, playout, simulation, timeout. Returns the packet to send now (a view
   * valid until the next call), or undefined once the peer has timed out.
   */
  tick(nowSeconds: number): Uint8Array | undefined {
    this.nowSeconds = nowSeconds;
    if (Number.isNaN(this.startSeconds)) this.startSeconds = nowSeconds;
    if (!Number.isNaN(this.lastHeardSeconds) && nowSeconds - this.lastHeardSeconds > this.timeout)
      this.stats.timedOut = true;
    if (this.stats.timedOut) return undefined;

    const sim = this.simulation;
    // Local input due by now, bounded by the un-acknowledged window and by the local history ring.
    while (
      this.startSeconds + this.sender.nextFrame * this.step <= nowSeconds &&
      !this.sender.isFull &&
      this.sender.nextFrame - sim.frame < RING
    ) {
      const frame = this.sender.nextFrame;
      const input = botInput(this.seed, this.player, frame);
      this.local[frame % RING] = input;
      this.sender.push(input);
    }
    this.playout.update(nowSeconds, this.onRelease);
    for (let steps = 0; steps < 4 && sim.frame <= this.remoteThrough && sim.frame < this.sender.nextFrame; steps++) {
      const f = sim.frame;
      this.frameInputs[this.player] = this.local[f % RING]!;
      this.frameInputs[1 - this.player] = this.remote[f % RING]!;
      sim.step(this.frameInputs);
      if (sim.frame % this.every === 0) {
        const slot = (sim.frame / this.every) % CHECKSUM_RING;
        this.checksumFrames[slot] = sim.frame;
        this.checksums[slot] = sim.checksum();
      }
    }
    if (this.pendingRemoteFrame >= 0) this.compare(this.pendingRemoteFrame, this.pendingRemoteChecksum);
    const s = this.stats;
    s.frame = sim.frame;
    s.hitches = this.playout.stats.hitches;
    s.longestStallSeconds = this.playout.stats.longestStallSeconds;

    const checksumFrame = sim.frame - (sim.frame % this.every);
    const packet = this.encoder.encode(
      this.receiver.ackSequence,
      this.sender,
      checksumFrame > 0 ? checksumFrame : -1,
      checksumFrame > 0 ? this.checksums[(checksumFrame / this.every) % CHECKSUM_RING] : 0,
      this.reliable,
    );
    if (packet) {
      s.packetsSent++;
      if (packet.length > s.largestPacketBytes) s.largestPacketBytes = packet.length;
    }
    return packet;
  }

  /** Takes one datagram from the peer. Total: bad bytes are counted by status, never thrown. */
  receive(bytes: Uint8Array, nowSeconds: number): void {
    this.nowSeconds = nowSeconds;
    const d = this.decoded;
    const status = decodeLockstepPacket(bytes, d);
    if (status !== PacketStatus.OK) {
      const name = PACKET_STATUS_NAMES[status]!;
      this.stats.rejected[name] = (this.stats.rejected[name] ?? 0) + 1;
      return;
    }
    this.stats.packetsReceived++;
    this.lastHeardSeconds = nowSeconds;
    if (d.ackSequence >= 0) this.sender.acknowledge(d.ackSequence);
    if (d.reliableOffset >= 0) this.reliable.readSection(bytes, d.reliableOffset, this.onReliable);
    if (!this.reliable.unreliableAllowed) return;
    if (this.receiver.newestFrame < 0 && d.count > 0) {
      // Frame 0 of the peer was sent at its start; anchor playout on the newest frame of this first packet.
      this.playout.anchor(0, nowSeconds - (d.count - 1) * this.step);
    }
    this.receiver.receive(d, this.onInput);
    if (d.checksumSequence >= 0) {
      this.compare(unwrapSequence(d.checksumSequence, this.simulation.frame), d.checksum);
    }
  }

  private readonly onInput = (frame: number, input: number): void => {
    this.playout.add(frame, input, this.nowSeconds);
  };

  private readonly onRelease = (frame: number, input: number): void => {
    this.remote[frame % RING] = input;
    this.remoteThrough = frame;
  };

  private readonly onReliable = (message: Uint8Array): void => {
    if (message[0] === 1 && message.length === 5) {
      const seed = new DataView(message.buffer, message.byteOffset, 5).getUint32(1);
      if (seed !== this.seed) this.stats.seedMismatch = true;
    }
  };

  /** Compares the peer's checksum after `frame` with ours, now or once we have simulated that far. */
  private compare(frame: number, checksum: number): void {
    if (frame <= this.lastComparedFrame || frame % this.every !== 0) return;
    if (frame > this.simulation.frame) {
      if (frame > this.pendingRemoteFrame) {
        this.pendingRemoteFrame = frame;
        this.pendingRemoteChecksum = checksum;
      }
      return;
    }
    if (frame === this.pendingRemoteFrame) this.pendingRemoteFrame = -1;
    const slot = (frame / this.every) % CHECKSUM_RING;
    if (this.checksumFrames[slot] !== frame) return; // too old to compare
    this.lastComparedFrame = frame;
    this.stats.checksumsCompared++;
    if (this.checksums[slot] === checksum) this.stats.checksumsAgreed++;
    else if (this.stats.firstMismatchFrame < 0) this.stats.firstMismatchFrame = frame;
  }
}
