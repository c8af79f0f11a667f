/**
 * The transport contract: something that sends and receives whole datagrams. `UdpTransport` implements it over
 * `node:dgram`; a simulated network (latency, loss, reordering) or a test double can stand in for it. PDU-level work
 * — bundling, splitting, filtering — sits on top (`PduBundler`, `PduReceiver`) and works with any transport.
 */

/** Where a datagram came from. Node's `dgram` `RemoteInfo` has this shape, so it is passed on as is. */
export interface DatagramSource {
  readonly address: string;
  readonly port: number;
  readonly family: string;
}

/**
 * Receives each datagram. Must not throw (a `PduReceiver` catches and counts its consumer's errors), and must not
 * keep `datagram` past the call unless it copies it (a transport may reuse the memory).
 */
export type DatagramReceiver = (datagram: Uint8Array, source: DatagramSource) => void;

/** What carries datagrams: UDP, NATS, a simulated network or a test double. */
export interface DatagramTransport {
  /** Counters, updated in place (read them at any time; never replaced). */
  readonly stats: TransportStats;
  /**
   * Sends one datagram to the transport's destination. Never throws: failures are counted in `stats.sendErrors`
   * (the first one explained in `stats.sendFailure`).
   * UDP sends complete asynchronously, so the bytes must stay unchanged after the call: pass a prebuilt buffer, or
   * a fresh one per datagram (as `PduBundler` does).
   * @param length - bytes of `datagram` to send, from its start. Defaults to all of it.
   */
  send(datagram: Uint8Array, length?: number): void;
  /** Sets the receiver of arriving datagrams (one at a time; `undefined` stops delivery). */
  onDatagram(receiver: DatagramReceiver | undefined): void;
  /**
   * Calls `listener` once when the transport ends: with an `Error` when a failure ended it (reported exactly once),
   * with nothing after `close()`.
   */
  onClose(listener: (error?: Error) => void): void;
  /** Stops receiving and releases the socket. Idempotent; resolves when the port is free again. */
  close(): Promise<void>;
}

/** Why a PDU (or, for `sourceNotAllowed`, a whole datagram) was dropped on receipt. */
export const REJECT_REASONS = {
  truncated: 'the datagram ends before the PDU does (fewer than 12 header bytes, or the Length field says more)',
  badLength: 'the Length field is below the 12-byte header size',
  oversized: 'the Length field exceeds the largest PDU accepted (DIS MAX_PDU_SIZE_OCTETS = 8192)',
  unsupportedVersion: 'protocol version not in the accepted list (dis.acceptProtocolVersions)',
  wrongExercise: 'exercise id differs from dis.exercise',
  sourceNotAllowed: 'datagram from an address not in filter.allowSources (counted per datagram)',
  applicationNotAllowed: 'site/application not in filter.allowApplications',
} as const;
/** Why a received datagram or PDU was not taken. */
export type RejectReason = keyof typeof REJECT_REASONS;

/** PDUs taken in spite of a fault the receiver could repair, by kind. */
export const WARNING_REASONS = {
  lengthZero:
    "the header's Length field was 0: the rest of the datagram was taken as the PDU (Python opendis sends these)",
} as const;
export type WarningReason = keyof typeof WARNING_REASONS;

/** Warnings by reason. A fixed-shape object, so counting allocates nothing. */
export type WarningCounts = { [reason in WarningReason]: number };

/** Rejections by reason. A fixed-shape object, so counting allocates nothing. */
export type RejectCounts = { [reason in RejectReason]: number };

/** Traffic counters of one transport and the layers on it. */
export interface TransportStats {
  datagramsIn: number;
  bytesIn: number;
  datagramsOut: number;
  bytesOut: number;
  /** Sends the operating system refused (e.g. EMSGSIZE, ENETUNREACH); the transport keeps going. */
  sendErrors: number;
  /**
   * Why the first refused send failed, as `CODE: what to do` (e.g. "EACCES: sending to a broadcast address needs
   * --broadcast (network.broadcast)"); undefined while every send succeeded.
   */
  sendFailure: string | undefined;
  /** PDUs that passed every filter and reached the consumer. */
  pdusAccepted: number;
  /**
   * Well-formed PDUs of the types the receiver's consumer does not take, counted by PDU type (index = type):
   * passed over, not rejected.
   */
  readonly otherPdus: Uint32Array;
  readonly rejected: RejectCounts;
  /** PDUs accepted (or rejected by a filter) after a repair, by reason. */
  readonly warnings: WarningCounts;
  /** Exceptions thrown by a PDU consumer; caught so that reception never stops. */
  consumerErrors: number;
  /** Remote entities currently tracked; maintained by the layer that owns the entity table. */
  entities: number;
  /** Remote entities dropped for silence (heartbeat × timeout multiplier); maintained by that same layer. */
  timeouts: number;
}

/** Zeroed counters for a transport and its receiver. */
export function createTransportStats(): TransportStats {
  const rejected = {} as RejectCounts;
  for (const reason of Object.keys(REJECT_REASONS) as RejectReason[]) rejected[reason] = 0;
  return {
    datagramsIn: 0,
    bytesIn: 0,
    datagramsOut: 0,
    bytesOut: 0,
    sendErrors: 0,
    sendFailure: undefined,
    pdusAccepted: 0,
    otherPdus: new Uint32Array(256),
    rejected,
    warnings: { lengthZero: 0 },
    consumerErrors: 0,
    entities: 0,
    timeouts: 0,
  };
}

/** Total of all rejections. */
export function totalRejected(stats: TransportStats): number {
  let total = 0;
  for (const reason of Object.keys(stats.rejected) as RejectReason[]) total += stats.rejected[reason];
  return total;
}

/** PDUs of other types passed over, all types together. */
export function totalOtherPdus(stats: TransportStats): number {
  let total = 0;
  for (let type = 0; type < 256; type++) total += stats.otherPdus[type]!;
  return total;
}

/** The PDU types passed over with their counts, most frequent first. */
export function otherPduCounts(stats: TransportStats): Array<[pduType: number, count: number]> {
  const counts: Array<[number, number]> = [];
  for (let type = 0; type < 256; type++) if (stats.otherPdus[type]! > 0) counts.push([type, stats.otherPdus[type]!]);
  return counts.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** `, rejected 3 (truncated 2, wrongExercise 1)`, or an empty string when nothing was rejected. */
export function formatRejections(rejected: RejectCounts): string {
  const reasons = (Object.keys(rejected) as RejectReason[]).filter((r) => rejected[r] > 0);
  if (reasons.length === 0) return '';
  const total = reasons.reduce((n, r) => n + rejected[r], 0);
  return `, rejected ${total} (${reasons.map((r) => `${r} ${rejected[r]}`).join(', ')})`;
}

/** `; warnings: lengthZero 2`, or an empty string when there were none. */
export function formatWarnings(warnings: WarningCounts): string {
  const reasons = (Object.keys(warnings) as WarningReason[]).filter((r) => warnings[r] > 0);
  if (reasons.length === 0) return '';
  return `; warnings: ${reasons.map((r) => `${r} ${warnings[r]}`).join(', ')}`;
}
