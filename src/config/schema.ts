/**
 * The one definition of every reckon setting. Files, `RECKON_…` environment variables and CLI flags are all
 * read through this schema, `schemas/config.schema.json` is generated from it, and `Config` is its output type.
 * Every leaf carries a description and an example; quantities accept units (`"2 m"`, `"3 deg"`, `"5 s"`).
 *
 * Leaf names are unique across sections because each one is also a flag (`emitter.positionThreshold` ↔
 * `--position-threshold`) and an environment variable (`RECKON_EMITTER_POSITION_THRESHOLD`).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_KDIS,
  HEARTBEAT_STATIONARY_SECONDS,
  HEARTBEAT_TIMEOUT_MULTIPLIER,
} from '../dr/owner/heartbeat.js';
import { HEARTBEAT_CLASSES, type HeartbeatClass } from '../dr/owner/heartbeat.js';
import { SMOOTHING_METHODS, type SmoothingMethodName } from '../dr/receiver/position-smoothing.js';
import { anyCaseEnum } from './any-case.js';
import { parseCircleArea } from './circle-area.js';
import { MIN_RATE_HZ, nonNegativeQuantity, positiveQuantity, quantity } from './units.js';

/** Largest `heartbeat.timeoutMultiplier`: an entity whose owner is gone leaves the displays after at most this many heartbeats. */
export const MAX_TIMEOUT_MULTIPLIER = 100;
/** Longest `emitter.adaptiveTravelTime`, s. */
export const MAX_ADAPTIVE_TRAVEL_SECONDS = 60;

/** Human example of a valid value, shown in error messages and the JSON Schema. */
function setting<T extends z.ZodType>(schema: T, description: string, example: unknown): T {
  return schema.meta({ description, examples: [example] });
}

const ip = z.string().refine((s) => isIP(s) !== 0, 'must be an IPv4 or IPv6 address');
// A host name (RFC 1123 §2.1 labels; RFC 3696 §2: the last label is not all digits, so "10.0.0.256" is no name).
const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*(?!\d+$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?$/i;
const host = z
  .string()
  .refine((s) => isIP(s) !== 0 || hostName.test(s), 'must be an IPv4 or IPv6 address or a host name such as localhost');
const multicastGroup = z
  .string()
  .refine((s) => (isIP(s) === 4 ? Number(s.split('.')[0]) >> 4 === 14 : isIP(s) === 6 && /^ff/i.test(s)), {
    message: 'must be a multicast address (224.0.0.0/4 or ff00::/8)',
  });
const uint8 = z.number().int().min(0).max(255);
const siteApplication = z
  .string()
  .regex(/^\d{1,5}(:\d{1,5})?$/, 'must be SITE or SITE:APPLICATION, e.g. "1:3001"')
  .refine((s) => s.split(':').every((n) => Number(n) <= 0xffff), 'ids must be at most 65535');

export const NetworkConfigSchema = z.strictObject({
  address: setting(
    host.optional(),
    'Address or host name (resolved once, IPv4 first unless `ipv6`) to bind when receiving (default: all interfaces) or to send to (default: 127.0.0.1, the multicast group when `multicast` is set, 255.255.255.255 with `broadcast`). An IPv6 address implies `ipv6`.',
    '127.0.0.1',
  ),
  port: setting(z.number().int().min(0).max(65535).default(3000), 'UDP port. DIS uses 3000.', 3000),
  multicast: setting(multicastGroup.optional(), 'Multicast group to join when receiving and to send to.', '239.1.2.3'),
  ttl: setting(uint8.default(1), 'Multicast time-to-live (hops); 1 keeps traffic on the local network.', 1),
  multicastLoopback: setting(
    z.boolean().default(true),
    'Deliver multicast sent by this host to its own receivers.',
    true,
  ),
  broadcast: setting(
    z.boolean().default(false),
    'Allow sending to broadcast addresses (classic DIS deployments).',
    false,
  ),
  interface: setting(
    ip.optional(),
    'Local interface address for multicast (default: chosen by the OS).',
    '192.168.1.10',
  ),
  ipv6: setting(
    z.boolean().default(false),
    'Use IPv6 (udp6) instead of IPv4. Implied by an IPv6 address, group or destination; needed to prefer the IPv6 address of a host name.',
    false,
  ),
  reuseAddress: setting(
    z.boolean().default(false),
    'Share the receiving port with other programs that share it too (SO_REUSEADDR), e.g. record and subscribe on one port. Each gets every multicast and broadcast datagram; a unicast datagram reaches only one of them (on Linux the one that bound it last). Always on with `multicast`.',
    false,
  ),
  mtu: setting(
    z.number().int().min(144).max(65507).default(1472),
    'Most UDP payload bytes per datagram when bundling PDUs; 1472 fits a 1500-byte Ethernet MTU.',
    1472,
  ),
  receiveBufferSize: setting(
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 30, 'at most 1073741824 bytes (1 GiB); the OS caps it lower anyway (Linux: net.core.rmem_max)')
      .default(4 * 1024 * 1024),
    'Socket receive buffer in bytes (0 = OS default). 4 MiB keeps loss low at high rates; Linux caps it at net.core.rmem_max.',
    4194304,
  ),
});

export const DisConfigSchema = z.strictObject({
  exercise: setting(z.number().int().min(1).max(255).default(1), 'Exercise ID sent, and the only one accepted.', 1),
  protocolVersion: setting(
    z.number().int().min(1).max(7).default(7),
    'Protocol version sent (7 = IEEE 1278.1-2012, 6 = 1278.1A-1998).',
    7,
  ),
  acceptProtocolVersions: setting(
    z.array(z.number().int().min(1).max(7)).min(1).default([5, 6, 7]),
    'Protocol versions accepted on receipt: 1–7, the DIS versions up to 7 = IEEE 1278.1-2012.',
    [6, 7],
  ),
  site: setting(z.number().int().min(1).max(0xfffe).default(1), "Site id of this application's entities.", 1),
  application: setting(
    z.number().int().min(1).max(0xfffe).default(1),
    "Application id of this application's entities.",
    3001,
  ),
});

export const FilterConfigSchema = z.strictObject({
  allowSources: setting(
    z.array(ip).default([]),
    'Accept datagrams only from these source addresses (empty = from anyone).',
    ['10.0.0.5', '10.0.0.6'],
  ),
  allowApplications: setting(
    z.array(siteApplication).default([]),
    'Accept PDUs only from these sites or site:application pairs (empty = all).',
    ['1:3001', '2'],
  ),
});

export const EmitterConfigSchema = z
  .strictObject({
    positionThreshold: setting(
      positiveQuantity('length').default(1),
      'Send an update when the dead-reckoned position is off by more (DRA_POS_THRSH).',
      '1 m',
    ),
    orientationThreshold: setting(
      positiveQuantity('angle').default((3 * Math.PI) / 180),
      'Send an update when the dead-reckoned orientation is off by more (DRA_ORIENT_THRSH).',
      '3 deg',
    ),
    adaptiveThresholds: setting(
      z.boolean().default(false),
      'Scale the position threshold with speed instead of using positionThreshold: the distance travelled in adaptiveTravelTime, kept within minPositionThreshold and maxPositionThreshold. Slow entities then send on smaller errors, fast ones on larger.',
      false,
    ),
    adaptiveTravelTime: setting(
      positiveQuantity('time')
        .refine((seconds) => seconds <= MAX_ADAPTIVE_TRAVEL_SECONDS, {
          message: `must be at most ${MAX_ADAPTIVE_TRAVEL_SECONDS} s (the speed times it is the threshold)`,
        })
        .default(0.1),
      'With adaptiveThresholds: the position threshold is the speed times this (at 10 m/s, 100 ms gives 1 m); at most 60 s.',
      '100 ms',
    ),
    minPositionThreshold: setting(
      positiveQuantity('length').default(0.1),
      'With adaptiveThresholds: the smallest position threshold (reached at low speed).',
      '10 cm',
    ),
    maxPositionThreshold: setting(
      positiveQuantity('length').default(10),
      'With adaptiveThresholds: the largest position threshold (reached at high speed).',
      '10 m',
    ),
  })
  .refine((e) => e.minPositionThreshold <= e.maxPositionThreshold, {
    path: ['maxPositionThreshold'],
    message: 'must not be below minPositionThreshold',
  });

export { HEARTBEAT_CLASSES, type HeartbeatClass };

export const HeartbeatConfigSchema = z.strictObject({
  heartbeatTable: setting(
    anyCaseEnum(['ieee', 'kdis']).default('ieee'),
    `Default heartbeats: "ieee" = IEEE 1278.1-2012 Table 25 (${HEARTBEAT_IEEE_TABLE_25.defaultSeconds} s for every kind); "kdis" = KDIS (${HEARTBEAT_KDIS.platformByDomain[1]} s land/surface/subsurface platforms, ${HEARTBEAT_KDIS.byKind[3]} s life forms, cultural features, environmentals).`,
    'ieee',
  ),
  heartbeatOverrides: setting(
    z.partialRecord(z.enum(HEARTBEAT_CLASSES), positiveQuantity('time')).default({}),
    'Heartbeat per entity class, overriding the table.',
    { platformLand: '55 s' },
  ),
  stationaryHeartbeat: setting(
    quantity('time')
      .refine((s) => s >= 0, 'must be 0 (off) or more, e.g. 60 s')
      .default(HEARTBEAT_STATIONARY_SECONDS),
    'Heartbeat of an entity that does not move (HBT_STATIONARY): one whose last update has the static algorithm, or zero velocity, acceleration and rates where its algorithm uses them. Receivers time such an entity out after this × timeoutMultiplier. Never shorter than the regular heartbeat; 0 turns it off (the regular heartbeat applies at rest too).',
    '60 s',
  ),
  timeoutMultiplier: setting(
    z.number().min(1).max(MAX_TIMEOUT_MULTIPLIER).default(HEARTBEAT_TIMEOUT_MULTIPLIER),
    'A remote entity times out after heartbeat × this with no update (HBT_TIMEOUT_MPLIER); 1 to 100.',
    HEARTBEAT_TIMEOUT_MULTIPLIER,
  ),
});

/** How the live receiver times a PDU unless told otherwise; experiments model the same receiver. */
export const DEFAULT_LATENCY_COMPENSATION = 'arrival' as const;

export const ReceiverConfigSchema = z.strictObject({
  smoothing: setting(
    anyCaseEnum(Object.keys(SMOOTHING_METHODS) as [SmoothingMethodName, ...SmoothingMethodName[]]).default(
      'projective',
    ),
    'How a remote entity moves from its old to its new dead-reckoned track after an update: "snap" jumps; "linear" blends the position straight; "projective" blends the velocity too (projective velocity blending, no kink at either end); "convergence" closes the error like a critically damped spring.',
    'projective',
  ),
  smoothingTime: setting(nonNegativeQuantity('time').default(0.5), 'Duration of the blend after an update.', '500 ms'),
  teleportDistance: setting(
    positiveQuantity('length').default(100),
    'Snap instead of smoothing when the correction is larger.',
    '100 m',
  ),
  maxEntities: setting(
    z
      .number()
      .int()
      .min(1)
      .max(1_000_000, 'at most 1000000 entities (the table is allocated up front, ~0.6 kB per entity)')
      .default(10_000),
    'Most remote entities tracked (at most 1 000 000); PDUs of further ones are counted and dropped. The table is allocated up front at about 0.6 kB per entity (0.6 kB more with display "interpolate"), so 10 000 take ~6 MB; raise it for larger exercises, e.g. 100000 (~60 MB per subscriber).',
    10000,
  ),
  latencyCompensation: setting(
    anyCaseEnum(['arrival', 'timestamp']).default(DEFAULT_LATENCY_COMPENSATION),
    'Extrapolate from the arrival time, or from the PDU timestamp (needs absolute timestamps and synchronised clocks).',
    'arrival',
  ),
  renderRate: setting(
    // A slower rate's frame period would outlast Node's longest timer (24.8 days) and fire at once instead.
    positiveQuantity('frequency')
      .refine((hz) => hz >= MIN_RATE_HZ, { message: `must be at least ${MIN_RATE_HZ} Hz (a frame per 1000 s)` })
      .default(30),
    'Frames per second of extrapolated entity states.',
    '30 Hz',
  ),
  display: setting(
    anyCaseEnum(['extrapolate', 'interpolate']).default('extrapolate'),
    'What frames show: "extrapolate" dead-reckons every entity to the present (smoothing corrections); "interpolate" shows entities interpolationDelay in the past, between the states received on either side, and dead-reckons only beyond the newest one.',
    'interpolate',
  ),
  interpolationDelay: setting(
    nonNegativeQuantity('time').default(0.1),
    'With display "interpolate": how far in the past entities are shown (a playout delay). Longer than the update interval, motion is interpolated; shorter, it is partly dead-reckoned.',
    '100 ms',
  ),
});

// A NATS server URL (nats://, tls://, or a bare host:port as the client takes it).
const natsUrl = z
  .string()
  .regex(/^((nats|tls):\/\/)?[^\s/]+(:\d{1,5})?\/?$/i, 'must be a NATS server URL such as nats://127.0.0.1:4222');

/** An area of interest: a circle as text (`"lat,lon,radius"`) or a polygon of `[latDeg, lonDeg]` corners. */
export const AreaSchema = z.union([
  z
    .string()
    .regex(
      /^\s*[-+]?\d+(\.\d+)?\s*,\s*[-+]?\d+(\.\d+)?\s*,\s*\d+(\.\d+)?\s*(m|km|nmi|mi)?\s*$/i,
      'must be "LAT,LON,RADIUS" in degrees and metres (or km, nmi, mi), e.g. "48.1,11.6,50 km"',
    )
    .superRefine((text, ctx) => {
      // The form is the pattern's to check; the ranges (latitude 91, radius 0) are the parser's.
      try {
        parseCircleArea(text);
      } catch (error) {
        const message = (error as Error).message;
        if (!/is not "LAT,LON,RADIUS"/.test(message)) ctx.addIssue({ code: 'custom', message });
      }
    }),
  z.strictObject({
    polygon: z
      .array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]))
      .min(3, 'needs at least 3 corners [latDeg, lonDeg]'),
  }),
]);

export const NatsConfigSchema = z.strictObject({
  servers: setting(
    z.array(natsUrl).default([]).meta({ flag: 'nats' }),
    'NATS servers to publish to or subscribe from instead of UDP (several URLs = one cluster; the client fails over between them). Empty = UDP.',
    ['nats://127.0.0.1:4222'],
  ),
  token: setting(
    z.string().min(1).optional().meta({ flag: 'nats-token', secret: true }),
    'NATS authentication token. Never printed; prefer the environment variable over the flag (flags show in ps).',
    'change-me',
  ),
  user: setting(z.string().min(1).optional().meta({ flag: 'nats-user' }), 'NATS user name (with password).', 'reckon'),
  password: setting(
    z.string().min(1).optional().meta({ flag: 'nats-password', secret: true }),
    'NATS password (with user). Never printed; prefer the environment variable over the flag.',
    'change-me',
  ),
  credsFile: setting(
    z.string().min(1).optional().meta({ flag: 'nats-creds' }),
    'NATS credentials file (JWT and NKey seed, as nsc writes it).',
    '/etc/reckon/site.creds',
  ),
  tlsCa: setting(
    z.string().min(1).optional().meta({ flag: 'nats-tls-ca' }),
    "PEM file of the CA that signed the NATS servers' certificates (turns TLS on).",
    '/etc/reckon/ca.pem',
  ),
  tlsCert: setting(
    z.string().min(1).optional().meta({ flag: 'nats-tls-cert' }),
    'PEM client certificate for NATS TLS (with tlsKey).',
    '/etc/reckon/client.pem',
  ),
  tlsKey: setting(
    z.string().min(1).optional().meta({ flag: 'nats-tls-key' }),
    'PEM private key of tlsCert.',
    '/etc/reckon/client-key.pem',
  ),
  connectTimeout: setting(
    positiveQuantity('time')
      .refine((seconds) => seconds <= 86_400, { message: 'must be at most a day (86400 s)' })
      .default(20)
      .meta({ flag: 'nats-connect-timeout' }),
    "How long to wait at start for a NATS server's answer before giving up (a server that wants a client certificate, or is over its connection limits, drops the connection without saying so: it shows only as no answer).",
    '5 s',
  ),
  subjectPrefix: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be NATS subject tokens such as "dis" or "site1.dis"')
      .default('dis')
      .meta({ flag: 'subject-prefix' }),
    'First tokens of every subject: PREFIX.EXERCISE.CELL.KIND.DOMAIN (docs/nats.md).',
    'dis',
  ),
  h3Resolution: setting(
    z.number().int().min(0).max(15).default(5),
    'H3 resolution of the cells that route Entity State PDUs (docs/nats.md): 5 = cells of ~250 km² (8.5 km edge), 4 = ~1 800 km², 6 = ~36 km². Publishers and subscribers of one exercise must use the same one.',
    5,
  ),
  area: setting(
    AreaSchema.optional(),
    'Area of interest of a subscriber: "LAT,LON,RADIUS" (a circle) or, in a file, {"polygon": [[lat, lon], …]}. Only the H3 cells covering it are subscribed to. Default: the whole exercise.',
    '48.1,11.6,50 km',
  ),
  maxMessageBytes: setting(
    z
      .number()
      .int()
      .min(144)
      .max(1024 * 1024)
      .default(16384)
      .meta({ flag: 'nats-max-message-bytes' }),
    'Most bytes of PDUs bundled into one NATS message per subject (NATS servers accept up to 1 MiB by default).',
    16384,
  ),
  stream: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a JetStream stream name: letters, digits, _ and -')
      .optional(),
    'JetStream stream that record keeps the traffic in and replay reads from.',
    'DIS',
  ),
  streamMaxAge: setting(
    nonNegativeQuantity('time').default(24 * 3600),
    'Oldest traffic a stream keeps (0 = no limit).',
    '24 h',
  ),
  streamMaxBytes: setting(
    z
      .number()
      .int()
      .min(-1)
      .default(1024 ** 3),
    'Most bytes a stream keeps (-1 = no limit); the oldest messages go first.',
    1073741824,
  ),
});

/** Every setting of reckon, with defaults and units (`schemas/config.schema.json`; docs in `reckon --help`). */
export const ConfigSchema = z
  .strictObject({
    network: NetworkConfigSchema.default(() => NetworkConfigSchema.parse({})),
    dis: DisConfigSchema.default(() => DisConfigSchema.parse({})),
    filter: FilterConfigSchema.default(() => FilterConfigSchema.parse({})),
    emitter: EmitterConfigSchema.default(() => EmitterConfigSchema.parse({})),
    heartbeat: HeartbeatConfigSchema.default(() => HeartbeatConfigSchema.parse({})),
    receiver: ReceiverConfigSchema.default(() => ReceiverConfigSchema.parse({})),
    nats: NatsConfigSchema.default(() => NatsConfigSchema.parse({})),
  })
  .meta({
    title: 'reckon configuration',
    description:
      'Settings of reckon. Quantities take a number in SI units or a string with a unit. Precedence: CLI flags > RECKON_* environment > file > defaults.',
  });

/** The validated configuration, every quantity in SI units (m, rad, s, Hz). */
export type Config = z.output<typeof ConfigSchema>;
/** What a configuration file may contain (any part may be left out). */
export type ConfigInput = z.input<typeof ConfigSchema>;
/** Where PDUs are sent and received: address, port, interface, TTL, … */
export type NetworkConfig = Config['network'];
/** What is sent: protocol version, exercise, site and application. */
export type DisConfig = Config['dis'];
/** Which received PDUs are taken. */
export type FilterConfig = Config['filter'];
/** When an owner sends: thresholds, rate cap, algorithm. */
export type EmitterConfig = Config['emitter'];
/** Heartbeat intervals and the timeout multiplier. */
export type HeartbeatConfig = Config['heartbeat'];
/** How remote entities are held and shown: capacity, smoothing, display, … */
export type ReceiverConfig = Config['receiver'];
export type NatsConfig = Config['nats'];
export type AreaConfig = z.output<typeof AreaSchema>;
/** The name of a configuration section. */
export type ConfigSection = keyof Config;
/** The sections of the configuration: `network`, `dis`, `filter`, … */
export const CONFIG_SECTIONS = Object.keys(ConfigSchema.shape) as readonly ConfigSection[];

/** The defaults: what an empty file gives. */
export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}
