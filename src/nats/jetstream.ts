/**
 * Durable recording in a JetStream stream (docs/nats.md): the stream captures the exercise's subjects on the
 * server (limits by age and bytes, oldest messages dropped first), and is read back from a start time with an
 * ordered consumer, for replay at a chosen speed or export of a time window to pcap. Works with nats-server 2.9.
 */
import {
  DeliverPolicy,
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type StreamInfo,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Config } from '../config/schema.js';
import { LEFT_CELL_HEADER } from './subject-names.js';

/** A JetStream stream to record DIS into. */
export interface StreamSettings {
  /** Stream name. */
  readonly name: string;
  /** Subjects it captures, e.g. `dis.1.>`. */
  readonly subjects: readonly string[];
  /** Oldest message kept, seconds; 0 = no limit. */
  readonly maxAgeSeconds: number;
  /** Most bytes kept; -1 = no limit. */
  readonly maxBytes: number;
}

/** The stream a configuration asks for (`nats.stream` and its limits, on the exercise's subjects), if any. */
export function streamSettingsFromConfig(config: Pick<Config, 'nats' | 'dis'>): StreamSettings | undefined {
  const nats = config.nats;
  if (nats.stream === undefined) return undefined;
  return {
    name: nats.stream,
    subjects: [`${nats.subjectPrefix}.${config.dis.exercise}.>`],
    maxAgeSeconds: nats.streamMaxAge,
    maxBytes: nats.streamMaxBytes,
  };
}

/** One stored message. */
export interface StoredMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  /** When the server stored it, Unix epoch milliseconds. */
  readonly timeMs: number;
  /** Stream sequence number. */
  readonly sequence: number;
  /** A copy sent to the cell an entity left (docs/nats.md), not a PDU of where the entity is. */
  readonly leftCell: boolean;
}

/** Explains JetStream failures: not enabled on the server, or another stream holding the subjects. */
function explain(action: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  let hint = '';
  if (/503|no responders|jetstream not enabled/i.test(message))
    hint = ' — JetStream is not enabled on the server: start nats-server with -js (and -sd DIR)';
  else if (/subjects overlap/i.test(message))
    hint = ' — another stream already captures these subjects: record into that stream (--stream) or delete it';
  else if (/not found/i.test(message))
    hint = ' — no such stream: create it with reckon record --nats URL --stream NAME';
  return new Error(`${action} failed: ${message}${hint}`, { cause: error });
}

/** What `ensureStream` did. */
export interface EnsuredStream {
  /** The stream's info after the call. */
  readonly info: StreamInfo;
  /** Whether it was created. */
  readonly created: boolean;
  /** The changes made to an existing stream (`max age 1 h → 24 h`); empty when none. */
  readonly changes: readonly string[];
}

/**
 * An existing stream that recording would change in a way that is not reckon's to make without being asked: other
 * subjects than the exercise's (a stream of somebody else's, or of another exercise), or tighter limits on a stream
 * that holds messages (the server would drop some). The message says what would change and what to do.
 */
export class StreamConflictError extends Error {
  constructor(
    message: string,
    readonly changes: readonly string[],
  ) {
    super(message);
    this.name = 'StreamConflictError';
  }
}

const NS_PER_SECOND = 1e9;

function ageText(ns: number): string {
  if (ns <= 0) return 'no age limit';
  const seconds = ns / NS_PER_SECOND;
  return seconds % 3600 === 0 ? `${seconds / 3600} h` : `${seconds} s`;
}

function bytesText(bytes: number): string {
  return bytes < 0 ? 'no byte limit' : `${bytes} B`;
}

/** A limit tighter than another: less room (0 age and −1 bytes are "no limit"). */
function tighter(next: number, previous: number): boolean {
  if (next <= 0) return false;
  return previous <= 0 || next < previous;
}

/**
 * Creates the stream, or checks an existing one against the settings. An existing stream is changed only when that
 * loses nothing and touches nobody else's subjects (the same subjects, limits as loose or looser), or when `update`
 * says so; otherwise nothing is changed and `StreamConflictError` says what would be.
 */
export async function ensureStream(
  connection: NatsConnection,
  settings: StreamSettings,
  options: { readonly update?: boolean } = {},
): Promise<EnsuredStream> {
  const wanted = {
    subjects: [...settings.subjects],
    max_age: Math.round(settings.maxAgeSeconds * NS_PER_SECOND),
    max_bytes: settings.maxBytes,
    // The server refuses a duplicate window (default 2 min) longer than the age limit.
    duplicate_window:
      settings.maxAgeSeconds > 0 ? Math.round(Math.min(settings.maxAgeSeconds, 120) * NS_PER_SECOND) : 120e9,
  };
  let manager;
  let existing: StreamInfo | undefined;
  try {
    manager = await jetstreamManager(connection);
    existing = await manager.streams.info(settings.name).catch((error: unknown) => {
      if (/not found/i.test(error instanceof Error ? error.message : String(error))) return undefined;
      throw error;
    });
    if (existing === undefined) {
      const config = {
        name: settings.name,
        ...wanted,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
      };
      return { info: await manager.streams.add(config), created: true, changes: [] };
    }
  } catch (error) {
    throw explain(`creating JetStream stream ${settings.name}`, error);
  }
  const now = existing.config;
  const sameSubjects =
    now.subjects.length === wanted.subjects.length && now.subjects.every((s, i) => s === wanted.subjects[i]);
  const changes: string[] = [];
  if (!sameSubjects) changes.push(`subjects ${now.subjects.join(', ') || 'none'} → ${wanted.subjects.join(', ')}`);
  if (now.max_age !== wanted.max_age) changes.push(`max age ${ageText(now.max_age)} → ${ageText(wanted.max_age)}`);
  if (now.max_bytes !== wanted.max_bytes)
    changes.push(`max bytes ${bytesText(now.max_bytes)} → ${bytesText(wanted.max_bytes)}`);
  if (changes.length === 0) return { info: existing, created: false, changes };
  const holds = existing.state.messages > 0;
  const loses = holds && (tighter(wanted.max_age, now.max_age) || tighter(wanted.max_bytes, now.max_bytes));
  if (!options.update && (!sameSubjects || loses)) {
    const why = !sameSubjects
      ? `it captures ${now.subjects.join(', ') || 'no subjects'}, not ${wanted.subjects.join(', ')}`
      : `it holds ${existing.state.messages} messages (${existing.state.bytes} B), which tighter limits may drop`;
    throw new StreamConflictError(
      `stream ${settings.name} exists and ${why}; recording would change: ${changes.join('; ')}. ` +
        'Record into a stream of its own (--stream NAME), or give --stream-update to change this one',
      changes,
    );
  }
  try {
    const info = await manager.streams.update(settings.name, { ...now, ...wanted });
    return { info, created: false, changes };
  } catch (error) {
    throw explain(`updating JetStream stream ${settings.name}`, error);
  }
}

/** The stream's current state (messages, bytes, first and last times). */
export async function streamInfo(connection: NatsConnection, name: string): Promise<StreamInfo> {
  try {
    const manager = await jetstreamManager(connection);
    return await manager.streams.info(name);
  } catch (error) {
    throw explain(`reading JetStream stream ${name}`, error);
  }
}

/**
 * The stored messages from `fromMs` (inclusive) up to `toMs` (exclusive; default: the last one stored when reading
 * began), in order. Ends when it has caught up with the stream.
 */
export async function* readStream(
  connection: NatsConnection,
  name: string,
  fromMs: number,
  toMs = Number.POSITIVE_INFINITY,
): AsyncGenerator<StoredMessage> {
  let consumer;
  let lastSequence: number;
  try {
    const info = await streamInfo(connection, name);
    lastSequence = info.state.last_seq;
    if (info.state.messages === 0) return;
    consumer = await jetstream(connection).consumers.get(name, {
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(fromMs).toISOString(),
    });
  } catch (error) {
    throw explain(`reading JetStream stream ${name}`, error);
  }
  for (;;) {
    const batch = await consumer.fetch({ max_messages: 512, expires: 1000 });
    let got = 0;
    for await (const message of batch) {
      got++;
      const sequence = message.info.streamSequence;
      const timeMs = Number(message.timestampNanos) / 1e6;
      // Leaving the loop ends the fetch (the iterator's return stops it).
      if (timeMs >= toMs || sequence > lastSequence) return;
      const left = message.headers?.get(LEFT_CELL_HEADER);
      yield {
        subject: message.subject,
        data: message.data,
        timeMs,
        sequence,
        leftCell: left !== undefined && left !== '',
      };
      if (sequence >= lastSequence) return;
    }
    // Nothing more stored after the start time.
    if (got === 0) return;
  }
}
