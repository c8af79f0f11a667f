/**
 * The `reckon view` protocol between the gateway (Node) and the map page (browser), over one WebSocket at
 * `/feed`. Pure: no node: modules, no clock, no sockets; both sides import this file.
 *
 * - Binary messages (server → client) carry Entity State (type 1) and Entity State Update (type 67) PDUs exactly as
 *   they came off the network (IEEE 1278.1 §5.3.2 / §7.2.2), each preceded by its arrival time:
 *   repeated `[float64 BE arrivalTimeMs][uint16 BE length][length bytes]`, at most `MAX_FEED_MESSAGE_BYTES` each.
 *   The page decodes them with the project's own codec and dead-reckons them itself.
 * - Text messages are JSON in both directions: `ServerMessage`, `ClientMessage`; the shots, detonations,
 *   collisions, entity control and radios among them in src/view/engagement-messages.ts.
 */

import type { SmoothingMethodName } from '../dr/receiver/position-smoothing.js';
import type { EngagementMessage } from './engagement-messages.js';

/** Version of this protocol, sent in `hello`. */
export const VIEW_PROTOCOL_VERSION = 1;
/** The WebSocket's path. */
export const FEED_PATH = '/feed';
/** Largest message a client may send, bytes (the server refuses larger ones). */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** Largest binary feed message, bytes: a tick with more PDUs is split over several messages. */
export const MAX_FEED_MESSAGE_BYTES = 64 * 1024;
/** Bytes before each PDU in a feed message: float64 arrival time + uint16 length. */
export const FEED_RECORD_HEADER_BYTES = 10;
/** Largest PDU a feed record can hold (its length field is 16 bits, as a DIS header's Length). */
export const MAX_FEED_PDU_BYTES = 0xffff;

// ---------------------------------------------------------------------------------------------------------------
// Binary framing
// ---------------------------------------------------------------------------------------------------------------

/**
 * Builds feed messages in one buffer it owns (no allocation per PDU): `add` PDUs, send `bytes()`, `reset()`.
 *
 * ## Example
 * ```ts
 * import { FeedWriter } from 'reckon/view';
 *
 * const writer = new FeedWriter();
 * const messages: Uint8Array[] = [];
 * const pdus = [{ arrivalTimeMs: Date.now(), bytes: new Uint8Array(144) }];
 * for (const { arrivalTimeMs, bytes } of pdus) {
 *   if (writer.add(arrivalTimeMs, bytes, 0, bytes.length)) continue;
 *   messages.push(writer.bytes().slice()); // full: keep what is there, start the next message
 *   writer.reset();
 *   writer.add(arrivalTimeMs, bytes, 0, bytes.length);
 * }
 * if (writer.records > 0) messages.push(writer.bytes().slice());
 * ```
 */
export class FeedWriter {
  /** The buffer; `bytes()` is its first `length` bytes. */
  readonly buffer: Uint8Array;
  private readonly view: DataView;
  /** Bytes written since the last `reset`. */
  length = 0;
  /** Records written since the last `reset`. */
  records = 0;

  /** @param capacityBytes - largest message. Defaults to `MAX_FEED_MESSAGE_BYTES`. */
  constructor(capacityBytes = MAX_FEED_MESSAGE_BYTES) {
    this.buffer = new Uint8Array(capacityBytes);
    this.view = new DataView(this.buffer.buffer);
  }

  /**
   * Appends one record.
   * @param arrivalTimeMs - when the PDU arrived, ms since the Unix epoch (server clock).
   * @param pdu - bytes holding the PDU at `[offset, offset + length)`.
   * @returns false, writing nothing, when the record does not fit (send and reset, then add again) or when
   *   `length` is not 1 to `MAX_FEED_PDU_BYTES`.
   */
  add(arrivalTimeMs: number, pdu: Uint8Array, offset: number, length: number): boolean {
    if (!(length > 0 && length <= MAX_FEED_PDU_BYTES)) return false;
    const at = this.length;
    if (at + FEED_RECORD_HEADER_BYTES + length > this.buffer.length) return false;
    this.view.setFloat64(at, arrivalTimeMs, false);
    this.view.setUint16(at + 8, length, false);
    copyBytes(pdu, offset, this.buffer, at + FEED_RECORD_HEADER_BYTES, length);
    this.length = at + FEED_RECORD_HEADER_BYTES + length;
    this.records++;
    return true;
  }

  /** The message so far: a view of the writer's buffer (no copy), valid until the next `add` or `reset`. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  /** Empties the writer for the next message. */
  reset(): void {
    this.length = 0;
    this.records = 0;
  }
}

/**
 * Copies `length` bytes from `source[sourceOffset…]` to `target[targetOffset…]`. A loop rather than
 * `target.set(source.subarray(…))`, which allocates a view per call: PDUs are copied once per PDU per tick.
 */
export function copyBytes(
  source: Uint8Array,
  sourceOffset: number,
  target: Uint8Array,
  targetOffset: number,
  length: number,
): void {
  for (let i = 0; i < length; i++) target[targetOffset + i] = source[sourceOffset + i]!;
}

/** Receives one record of a feed message: the PDU is `bytes[offset, offset + length)` (no copy). */
export type FeedRecordVisitor = (arrivalTimeMs: number, bytes: Uint8Array, offset: number, length: number) => void;

/** `readFeedMessage`'s answer when the message ends inside a record (the records before it were visited). */
export const FEED_TRUNCATED = -1;

/**
 * Visits every record of a binary feed message in order. Never throws on bad bytes.
 * @returns the number of records visited, or `FEED_TRUNCATED` when the message ends inside a record header or
 *   PDU (the complete records before it were visited).
 */
export function readFeedMessage(message: Uint8Array, visit: FeedRecordVisitor): number {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const end = message.byteLength;
  let offset = 0;
  let records = 0;
  while (offset < end) {
    if (end - offset < FEED_RECORD_HEADER_BYTES) return FEED_TRUNCATED;
    const arrivalTimeMs = view.getFloat64(offset, false);
    const length = view.getUint16(offset + 8, false);
    const start = offset + FEED_RECORD_HEADER_BYTES;
    if (length === 0 || start + length > end) return FEED_TRUNCATED;
    visit(arrivalTimeMs, message, start, length);
    records++;
    offset = start + length;
  }
  return records;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON messages
// ---------------------------------------------------------------------------------------------------------------

/** Smoothing methods of `src/dr/receiver/position-smoothing.ts`, as the config names them. */
export type ViewSmoothingMethod = SmoothingMethodName;

/** The receiver settings the page dead-reckons with (the gateway's configuration). */
export interface ViewConfig {
  /** Exercise the gateway accepts, or null for any. */
  readonly exercise: number | null;
  readonly smoothing: { readonly method: ViewSmoothingMethod; readonly timeSeconds: number };
  readonly positionThresholdMeters: number;
  readonly orientationThresholdDeg: number;
  /** An entity silent this long is gone (heartbeat × timeout multiplier). */
  readonly entityTimeoutSeconds: number;
  /**
   * Most entities the gateway holds (`receiver.maxEntities`): the page sizes its table from it, up to its own cap.
   * A gateway that does not send it (older than this field) leaves the page at its default of 10 000.
   */
  readonly maxEntities?: number;
  /** Map tile URL template, or null for none. */
  readonly tiles: string | null;
  /** Whether this is `reckon demo` (which also sends `truth`). */
  readonly demo: boolean;
}

/** What a client wants to see; null everywhere means everything. */
export interface ViewFilter {
  /** Exercise id (header byte 1), or null for any. */
  readonly exercise: number | null;
  /** Force ids (IEEE 1278.1 Force ID: 0 other, 1 friendly, 2 opposing, 3 neutral, …), or null for any. */
  readonly forces: readonly number[] | null;
  /** Entity kinds (entity type record, first byte), or null for any. */
  readonly kinds: readonly number[] | null;
  /** Entity domains (entity type record, second byte), or null for any. */
  readonly domains: readonly number[] | null;
  /**
   * Area of interest `[westDeg, southDeg, eastDeg, northDeg]` (WGS-84 geodetic), or null for anywhere. West greater
   * than east crosses the antimeridian.
   */
  readonly bbox: readonly [number, number, number, number] | null;
}

/** The filter that lets everything through: what a client gets on connect. */
export const EMPTY_FILTER: ViewFilter = Object.freeze({
  exercise: null,
  forces: null,
  kinds: null,
  domains: null,
  bbox: null,
});

export interface HelloMessage {
  readonly type: 'hello';
  readonly protocol: number;
  /** Server clock, ms since the Unix epoch: the page's offset from it aligns arrival times. */
  readonly serverTimeMs: number;
  readonly config: ViewConfig;
}

export interface CountersMessage {
  readonly type: 'counters';
  readonly serverTimeMs: number;
  /** Entities the gateway holds. */
  readonly entities: number;
  /**
   * PDUs the gateway took per second (Entity State and every other type it forwards or acts on, once the exercise
   * and allow-lists passed them), over the last 5 s: src/view/arrival-rate.ts.
   */
  readonly pdusPerSecond: number;
  /** Bytes of those PDUs per second. */
  readonly bytesPerSecond: number;
  /** PDUs this client did not get because newer ones of the same entity replaced them (backpressure). */
  readonly skipped: number;
  /** Clients connected. */
  readonly clients: number;
  /** Malformed, unknown or oversized messages the gateway received, from all clients. */
  readonly clientErrors: number;
}

export interface FilterOkMessage {
  readonly type: 'filter-ok';
  /** The filter now in force, normalised (sorted, deduplicated lists; null for no restriction). */
  readonly filter: ViewFilter;
}

export type ViewErrorCode = 'BAD_JSON' | 'BAD_MESSAGE' | 'TOO_LARGE' | 'UNKNOWN_TYPE';

export interface ErrorMessage {
  readonly type: 'error';
  readonly code: ViewErrorCode;
  readonly message: string;
}

export interface PongMessage {
  readonly type: 'pong';
  readonly serverTimeMs: number;
}

/** Where one entity really is (the demo's ground truth), for comparison with the dead-reckoned picture. */
export interface TruthEntity {
  /** `site:application:entity`. */
  readonly id: string;
  readonly lat: number;
  readonly lon: number;
  readonly altM: number;
  readonly headingDeg: number;
}

/** Demo only, at most 10 Hz. */
export interface TruthMessage {
  readonly type: 'truth';
  readonly serverTimeMs: number;
  readonly entities: readonly TruthEntity[];
}

/** A JSON message from the gateway to the page. */
export type ServerMessage =
  | HelloMessage
  | CountersMessage
  | FilterOkMessage
  | ErrorMessage
  | PongMessage
  | TruthMessage
  | EngagementMessage;

export interface FilterMessage extends ViewFilter {
  readonly type: 'filter';
}

export interface PingMessage {
  readonly type: 'ping';
}

/** A JSON message from the page to the gateway. */
export type ClientMessage = FilterMessage | PingMessage;

/** A client message checked and normalised, or what is wrong with it (the `error` reply to send). */
export type ParsedClientMessage =
  | { readonly ok: true; readonly message: ClientMessage }
  | { readonly ok: false; readonly error: ErrorMessage };

function problem(code: ViewErrorCode, message: string): { ok: false; error: ErrorMessage } {
  return { ok: false, error: { type: 'error', code, message } };
}

const LIST_FIELDS = ['forces', 'kinds', 'domains'] as const;

/** Sorted, deduplicated integers 0–255 (the one-byte fields they match), null for none/absent, or a problem. */
function byteList(value: unknown, field: string): readonly number[] | null | string {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) return `${field} must be an array of integers 0 to 255, or null`;
  if (value.length > 256) return `${field} has ${value.length} entries; at most 256 (each value once)`;
  for (const v of value) {
    if (!(Number.isInteger(v) && v >= 0 && v <= 255)) return `${field} must hold integers 0 to 255`;
  }
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

function bboxOf(value: unknown): ViewFilter['bbox'] | string {
  if (value === null || value === undefined) return null;
  const usage =
    'bbox must be [westDeg, southDeg, eastDeg, northDeg] (longitudes -180 to 180, latitudes -90 to 90, ' +
    'south ≤ north; west > east crosses the antimeridian), or null';
  if (!Array.isArray(value) || value.length !== 4 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return usage;
  }
  const [west, south, east, north] = value as [number, number, number, number];
  const lonOk = (v: number) => v >= -180 && v <= 180;
  const latOk = (v: number) => v >= -90 && v <= 90;
  if (!lonOk(west) || !lonOk(east) || !latOk(south) || !latOk(north) || south > north) return usage;
  return [west, south, east, north];
}

/**
 * Checks a filter's fields (absent fields count as null) and normalises them.
 * @returns the filter, or what is wrong with it.
 */
export function normalizeFilter(value: Record<string, unknown>): ViewFilter | string {
  const exercise = value['exercise'];
  const exerciseOk =
    exercise === null ||
    exercise === undefined ||
    (Number.isInteger(exercise) && (exercise as number) >= 0 && (exercise as number) <= 255);
  if (!exerciseOk) {
    return 'exercise must be an integer 0 to 255, or null';
  }
  const lists: Record<(typeof LIST_FIELDS)[number], readonly number[] | null> = {
    forces: null,
    kinds: null,
    domains: null,
  };
  for (const field of LIST_FIELDS) {
    const list = byteList(value[field], field);
    if (typeof list === 'string') return list;
    lists[field] = list;
  }
  const bbox = bboxOf(value['bbox']);
  if (typeof bbox === 'string') return bbox;
  return { exercise: (exercise as number | null | undefined) ?? null, ...lists, bbox };
}

/**
 * Parses one text message from a client. Never throws.
 * @returns the message, checked and normalised, or the `error` message to answer with (BAD_JSON: not JSON;
 *   BAD_MESSAGE: not an object with a string `type`, or a field out of range; UNKNOWN_TYPE).
 */
export function parseClientMessage(text: string): ParsedClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return problem('BAD_JSON', 'the message is not JSON; send e.g. {"type":"ping"}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return problem('BAD_MESSAGE', 'a message is a JSON object with a "type"');
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') return problem('BAD_MESSAGE', 'a message needs a string "type" ("filter" or "ping")');
  if (type === 'ping') return { ok: true, message: { type: 'ping' } };
  if (type === 'filter') {
    const filter = normalizeFilter(value as Record<string, unknown>);
    if (typeof filter === 'string') return problem('BAD_MESSAGE', filter);
    return { ok: true, message: { type: 'filter', ...filter } };
  }
  return problem('UNKNOWN_TYPE', `unknown message type (known: "filter", "ping")`);
}

/**
 * Parses one text message from the server. Never throws.
 * @returns the message, or undefined when it is not JSON or not an object with a string `type`. Types this version
 *   does not know are returned as they are; a client ignores them.
 */
export function parseServerMessage(text: string): ServerMessage | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    return typeof (value as { type?: unknown }).type === 'string' ? (value as ServerMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The message text of a client or server message. */
export function encodeMessage(message: ServerMessage | ClientMessage): string {
  return JSON.stringify(message);
}

// ---------------------------------------------------------------------------------------------------------------
// Filter matching
// ---------------------------------------------------------------------------------------------------------------

/** Whether a longitude lies in a bbox's west–east span, which crosses the antimeridian when west > east. */
export function longitudeInSpan(lonDeg: number, westDeg: number, eastDeg: number): boolean {
  return westDeg <= eastDeg ? lonDeg >= westDeg && lonDeg <= eastDeg : lonDeg >= westDeg || lonDeg <= eastDeg;
}

/**
 * Whether an entity passes a filter.
 * @param exercise - exercise id of its PDU.
 * @param force - its Force ID; `kind`, `domain` - the first two fields of its entity type.
 * @param latDeg - its geodetic latitude, `lonDeg` its longitude (WGS-84, degrees).
 */
export function filterMatches(
  filter: ViewFilter,
  exercise: number,
  force: number,
  kind: number,
  domain: number,
  latDeg: number,
  lonDeg: number,
): boolean {
  if (filter.exercise !== null && exercise !== filter.exercise) return false;
  if (filter.forces !== null && !filter.forces.includes(force)) return false;
  if (filter.kinds !== null && !filter.kinds.includes(kind)) return false;
  if (filter.domains !== null && !filter.domains.includes(domain)) return false;
  const bbox = filter.bbox;
  if (bbox !== null) {
    if (!(latDeg >= bbox[1] && latDeg <= bbox[3])) return false;
    if (!longitudeInSpan(lonDeg, bbox[0], bbox[2])) return false;
  }
  return true;
}

/** Whether a filter restricts nothing (every field null). */
export function isEmptyFilter(filter: ViewFilter): boolean {
  return (
    filter.exercise === null &&
    filter.forces === null &&
    filter.kinds === null &&
    filter.domains === null &&
    filter.bbox === null
  );
}
