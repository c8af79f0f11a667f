/**
 * `reckon/lockstep`: deterministic lockstep with redundant inputs, the playout buffer and reliable messages over
 * an unreliable channel — socket- and clock-free (docs/lockstep.md).
 */
export { LockstepSimulation, type SimulationOptions } from './simulation.js';
export { botInput, packInput, unpackInput, INPUT_BITS, type InputButtons } from './input.js';
export { InputSender, InputReceiver, ReceiveStatus, MAX_INPUT_WINDOW } from './input-window.js';
export { LockstepPacketEncoder, DecodedLockstepPacket, decodeLockstepPacket, PacketStatus } from './packet.js';
export { ReliableEndpoint, type ReliableOptions } from './reliable.js';
export { PlayoutBuffer, PlayoutAddStatus, type PlayoutOptions, type PlayoutStats } from './playout-buffer.js';
export { LockstepPeer, type LockstepPeerOptions, type LockstepPeerStats } from './peer.js';
export { sequenceDifference, unwrapSequence } from './sequence.js';
