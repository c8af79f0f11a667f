// The options of a NATS transport, and those a configuration's `nats` section gives: apart from the transport, so
// that settings code can build them without loading the NATS client.
import type { NatsConfig } from '../config/schema.js';
import type { TransportStats } from '../transport/transport.js';
import { areaFromConfig, type Area } from './area.js';

/** What a transport subscribes to. */
export interface NatsReceiveOptions {
  /** Exercise whose subjects are taken. */
  readonly exercise: number;
  /** Only the cells covering this area. Defaults to the whole exercise. */
  readonly area?: Area;
  /** Also take the per-exercise subject of the other PDU types (`PREFIX.EXERCISE.all.>`). Defaults to false. */
  readonly global?: boolean;
  /** Share the messages with the other members of this NATS queue group (one of them gets each). Defaults to none. */
  readonly queue?: string;
}

/** Options of `openNatsTransport`. */
export interface NatsTransportOptions {
  /** NATS server URLs (one cluster). */
  readonly servers: readonly string[];
  readonly token?: string;
  readonly user?: string;
  readonly password?: string;
  /** Credentials file (JWT + NKey seed). */
  readonly credsFile?: string;
  readonly tlsCa?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /** First subject tokens. Defaults to `dis`. */
  readonly subjectPrefix?: string;
  /** H3 resolution of the cells. Defaults to 5. */
  readonly h3Resolution?: number;
  /** Most bytes of PDUs per message. Defaults to 16384. */
  readonly maxMessageBytes?: number;
  /** Subscribe as described; leave out for a transport that only sends. */
  readonly receive?: NatsReceiveOptions;
  /** Client name the server shows (`nats server report connections`). Defaults to `reckon`. */
  readonly name?: string;
  /** Counters to update. Defaults to new ones. */
  readonly stats?: TransportStats;
  /** Wait for each reconnect attempt this long, ms. Defaults to 250. */
  readonly reconnectTimeWaitMs?: number;
  /** Give up the first connection after this long without the server's answer, ms. Defaults to 20000 (the client's). */
  readonly connectTimeoutMs?: number;
}

/** The options of a transport that do not concern connecting. */
export type NatsSubjectOptions = Pick<
  NatsTransportOptions,
  'subjectPrefix' | 'h3Resolution' | 'maxMessageBytes' | 'receive' | 'stats'
>;

/** Transport options for the `nats` section of a configuration. */
export function natsOptionsFromConfig(nats: NatsConfig, receive?: NatsReceiveOptions): NatsTransportOptions {
  const optional = <K extends keyof NatsConfig>(key: K) => (nats[key] === undefined ? {} : { [key]: nats[key] });
  return {
    servers: nats.servers,
    ...optional('token'),
    ...optional('user'),
    ...optional('password'),
    ...optional('credsFile'),
    ...optional('tlsCa'),
    ...optional('tlsCert'),
    ...optional('tlsKey'),
    connectTimeoutMs: nats.connectTimeout * 1000,
    subjectPrefix: nats.subjectPrefix,
    h3Resolution: nats.h3Resolution,
    maxMessageBytes: nats.maxMessageBytes,
    ...(receive
      ? {
          receive: {
            ...receive,
            ...(nats.area !== undefined && !receive.area ? { area: areaFromConfig(nats.area) } : {}),
          },
        }
      : {}),
  };
}
