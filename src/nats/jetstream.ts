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
import { LEFT_CELL_HEADER } from './subjects.js';

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

/**
 * Creates the stream, or updates its limits if it exists.
 * @returns the stream's info after the change.
 */
export async function ensureStream(connection: NatsConnection, settings: StreamSettings): Promise<StreamInfo> {
  const config = {
    name: settings.name,
    subjects: [...settings.subjects],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: Math.round(settings.maxAgeSeconds * 1e9),
    max_bytes: settings.maxBytes,
    // The server refuses a duplicate window (default 2 min) longer than the age limit.
    duplicate_window: settings.maxAgeSeconds > 0 ? Math.round(Math.min(settings.maxAgeSeconds, 120) * 1e9) : 120e9,
  };
  try {
    const manager = await jetstreamManager(connection);
    try {
      const existing = await manager.streams.info(settings.name);
      return await manager.streams.update(settings.name, { ...existing.config, ...config });
    } catch (error) {
      if (!/not found/i.test(error instanceof Error ? error.message : String(error))) throw error;
      return await manager.streams.add(config);
    }
  } catch (error) {
    throw explain(`creating JetStream stream ${settings.name}`, error);
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
