// Generated from ConfigSchema by scripts/config-leaves.ts (`npm run config-leaves`); do not edit.
import type { ConfigLeaf } from './setting-leaf.js';

/** Every setting, in schema order. */
export const CONFIG_LEAVES: readonly ConfigLeaf[] = [
  {
    "section": "network",
    "key": "address",
    "path": "network.address",
    "flag": "address",
    "env": "RECKON_NETWORK_ADDRESS",
    "kind": "string",
    "description": "Address or host name (resolved once, IPv4 first unless `ipv6`) to bind when receiving (default: all interfaces) or to send to (default: 127.0.0.1, the multicast group when `multicast` is set, 255.255.255.255 with `broadcast`). An IPv6 address implies `ipv6`.",
    "example": "127.0.0.1"
  },
  {
    "section": "network",
    "key": "port",
    "path": "network.port",
    "flag": "port",
    "env": "RECKON_NETWORK_PORT",
    "kind": "number",
    "description": "UDP port. DIS uses 3000.",
    "example": 3000,
    "defaultValue": 3000,
    "defaultText": "3000"
  },
  {
    "section": "network",
    "key": "multicast",
    "path": "network.multicast",
    "flag": "multicast",
    "env": "RECKON_NETWORK_MULTICAST",
    "kind": "string",
    "description": "Multicast group to join when receiving and to send to.",
    "example": "239.1.2.3"
  },
  {
    "section": "network",
    "key": "ttl",
    "path": "network.ttl",
    "flag": "ttl",
    "env": "RECKON_NETWORK_TTL",
    "kind": "number",
    "description": "Multicast time-to-live (hops); 1 keeps traffic on the local network.",
    "example": 1,
    "defaultValue": 1,
    "defaultText": "1"
  },
  {
    "section": "network",
    "key": "multicastLoopback",
    "path": "network.multicastLoopback",
    "flag": "multicast-loopback",
    "env": "RECKON_NETWORK_MULTICAST_LOOPBACK",
    "kind": "boolean",
    "description": "Deliver multicast sent by this host to its own receivers.",
    "example": true,
    "defaultValue": true
  },
  {
    "section": "network",
    "key": "broadcast",
    "path": "network.broadcast",
    "flag": "broadcast",
    "env": "RECKON_NETWORK_BROADCAST",
    "kind": "boolean",
    "description": "Allow sending to broadcast addresses (classic DIS deployments).",
    "example": false,
    "defaultValue": false
  },
  {
    "section": "network",
    "key": "interface",
    "path": "network.interface",
    "flag": "interface",
    "env": "RECKON_NETWORK_INTERFACE",
    "kind": "string",
    "description": "Local interface address for multicast (default: chosen by the OS).",
    "example": "192.168.1.10"
  },
  {
    "section": "network",
    "key": "ipv6",
    "path": "network.ipv6",
    "flag": "ipv6",
    "env": "RECKON_NETWORK_IPV6",
    "kind": "boolean",
    "description": "Use IPv6 (udp6) instead of IPv4. Implied by an IPv6 address, group or destination; needed to prefer the IPv6 address of a host name.",
    "example": false,
    "defaultValue": false
  },
  {
    "section": "network",
    "key": "reuseAddress",
    "path": "network.reuseAddress",
    "flag": "reuse-address",
    "env": "RECKON_NETWORK_REUSE_ADDRESS",
    "kind": "boolean",
    "description": "Share the receiving port with other programs that share it too (SO_REUSEADDR), e.g. record and subscribe on one port. Each gets every multicast and broadcast datagram; a unicast datagram reaches only one of them (on Linux the one that bound it last). Always on with `multicast`.",
    "example": false,
    "defaultValue": false
  },
  {
    "section": "network",
    "key": "mtu",
    "path": "network.mtu",
    "flag": "mtu",
    "env": "RECKON_NETWORK_MTU",
    "kind": "number",
    "description": "Most UDP payload bytes per datagram when bundling PDUs; 1472 fits a 1500-byte Ethernet MTU.",
    "example": 1472,
    "defaultValue": 1472,
    "defaultText": "1472"
  },
  {
    "section": "network",
    "key": "receiveBufferSize",
    "path": "network.receiveBufferSize",
    "flag": "receive-buffer-size",
    "env": "RECKON_NETWORK_RECEIVE_BUFFER_SIZE",
    "kind": "number",
    "description": "Socket receive buffer in bytes (0 = OS default). 4 MiB keeps loss low at high rates; Linux caps it at net.core.rmem_max.",
    "example": 4194304,
    "defaultValue": 4194304,
    "defaultText": "4194304"
  },
  {
    "section": "dis",
    "key": "exercise",
    "path": "dis.exercise",
    "flag": "exercise",
    "env": "RECKON_DIS_EXERCISE",
    "kind": "number",
    "description": "Exercise ID sent, and the only one accepted.",
    "example": 1,
    "defaultValue": 1,
    "defaultText": "1"
  },
  {
    "section": "dis",
    "key": "protocolVersion",
    "path": "dis.protocolVersion",
    "flag": "protocol-version",
    "env": "RECKON_DIS_PROTOCOL_VERSION",
    "kind": "number",
    "description": "Protocol version sent (7 = IEEE 1278.1-2012, 6 = 1278.1A-1998).",
    "example": 7,
    "defaultValue": 7,
    "defaultText": "7"
  },
  {
    "section": "dis",
    "key": "acceptProtocolVersions",
    "path": "dis.acceptProtocolVersions",
    "flag": "accept-protocol-versions",
    "env": "RECKON_DIS_ACCEPT_PROTOCOL_VERSIONS",
    "kind": "numberList",
    "description": "Protocol versions accepted on receipt: 1–7, the DIS versions up to 7 = IEEE 1278.1-2012.",
    "example": [
      6,
      7
    ],
    "defaultValue": [
      5,
      6,
      7
    ],
    "defaultText": "5,6,7"
  },
  {
    "section": "dis",
    "key": "site",
    "path": "dis.site",
    "flag": "site",
    "env": "RECKON_DIS_SITE",
    "kind": "number",
    "description": "Site id of this application's entities.",
    "example": 1,
    "defaultValue": 1,
    "defaultText": "1"
  },
  {
    "section": "dis",
    "key": "application",
    "path": "dis.application",
    "flag": "application",
    "env": "RECKON_DIS_APPLICATION",
    "kind": "number",
    "description": "Application id of this application's entities.",
    "example": 3001,
    "defaultValue": 1,
    "defaultText": "1"
  },
  {
    "section": "filter",
    "key": "allowSources",
    "path": "filter.allowSources",
    "flag": "allow-sources",
    "env": "RECKON_FILTER_ALLOW_SOURCES",
    "kind": "list",
    "description": "Accept datagrams only from these source addresses (empty = from anyone).",
    "example": [
      "10.0.0.5",
      "10.0.0.6"
    ],
    "defaultValue": [],
    "defaultText": "none"
  },
  {
    "section": "filter",
    "key": "allowApplications",
    "path": "filter.allowApplications",
    "flag": "allow-applications",
    "env": "RECKON_FILTER_ALLOW_APPLICATIONS",
    "kind": "list",
    "description": "Accept PDUs only from these sites or site:application pairs (empty = all).",
    "example": [
      "1:3001",
      "2"
    ],
    "defaultValue": [],
    "defaultText": "none"
  },
  {
    "section": "emitter",
    "key": "positionThreshold",
    "path": "emitter.positionThreshold",
    "flag": "position-threshold",
    "env": "RECKON_EMITTER_POSITION_THRESHOLD",
    "kind": "string",
    "description": "Send an update when the dead-reckoned position is off by more (DRA_POS_THRSH).",
    "example": "1 m",
    "defaultValue": 1,
    "defaultText": "1 m"
  },
  {
    "section": "emitter",
    "key": "orientationThreshold",
    "path": "emitter.orientationThreshold",
    "flag": "orientation-threshold",
    "env": "RECKON_EMITTER_ORIENTATION_THRESHOLD",
    "kind": "string",
    "description": "Send an update when the dead-reckoned orientation is off by more (DRA_ORIENT_THRSH).",
    "example": "3 deg",
    "defaultValue": 0.05235987755982988,
    "defaultText": "3 deg"
  },
  {
    "section": "emitter",
    "key": "adaptiveThresholds",
    "path": "emitter.adaptiveThresholds",
    "flag": "adaptive-thresholds",
    "env": "RECKON_EMITTER_ADAPTIVE_THRESHOLDS",
    "kind": "boolean",
    "description": "Scale the position threshold with speed instead of using positionThreshold: the distance travelled in adaptiveTravelTime, kept within minPositionThreshold and maxPositionThreshold. Slow entities then send on smaller errors, fast ones on larger.",
    "example": false,
    "defaultValue": false
  },
  {
    "section": "emitter",
    "key": "adaptiveTravelTime",
    "path": "emitter.adaptiveTravelTime",
    "flag": "adaptive-travel-time",
    "env": "RECKON_EMITTER_ADAPTIVE_TRAVEL_TIME",
    "kind": "string",
    "description": "With adaptiveThresholds: the position threshold is the speed times this (at 10 m/s, 100 ms gives 1 m); at most 60 s.",
    "example": "100 ms",
    "defaultValue": 0.1,
    "defaultText": "100 ms"
  },
  {
    "section": "emitter",
    "key": "minPositionThreshold",
    "path": "emitter.minPositionThreshold",
    "flag": "min-position-threshold",
    "env": "RECKON_EMITTER_MIN_POSITION_THRESHOLD",
    "kind": "string",
    "description": "With adaptiveThresholds: the smallest position threshold (reached at low speed).",
    "example": "10 cm",
    "defaultValue": 0.1,
    "defaultText": "10 cm"
  },
  {
    "section": "emitter",
    "key": "maxPositionThreshold",
    "path": "emitter.maxPositionThreshold",
    "flag": "max-position-threshold",
    "env": "RECKON_EMITTER_MAX_POSITION_THRESHOLD",
    "kind": "string",
    "description": "With adaptiveThresholds: the largest position threshold (reached at high speed).",
    "example": "10 m",
    "defaultValue": 10,
    "defaultText": "10 m"
  },
  {
    "section": "heartbeat",
    "key": "heartbeatTable",
    "path": "heartbeat.heartbeatTable",
    "flag": "heartbeat-table",
    "env": "RECKON_HEARTBEAT_HEARTBEAT_TABLE",
    "kind": "string",
    "description": "Default heartbeats: \"ieee\" = IEEE 1278.1-2012 Table 25 (5 s for every kind); \"kdis\" = KDIS (55 s land/surface/subsurface platforms, 60 s life forms, cultural features, environmentals).",
    "example": "ieee",
    "defaultValue": "ieee",
    "defaultText": "ieee"
  },
  {
    "section": "heartbeat",
    "key": "heartbeatOverrides",
    "path": "heartbeat.heartbeatOverrides",
    "flag": "heartbeat-overrides",
    "env": "RECKON_HEARTBEAT_HEARTBEAT_OVERRIDES",
    "kind": "object",
    "description": "Heartbeat per entity class, overriding the table.",
    "example": {
      "platformLand": "55 s"
    },
    "defaultValue": {}
  },
  {
    "section": "heartbeat",
    "key": "stationaryHeartbeat",
    "path": "heartbeat.stationaryHeartbeat",
    "flag": "stationary-heartbeat",
    "env": "RECKON_HEARTBEAT_STATIONARY_HEARTBEAT",
    "kind": "string",
    "description": "Heartbeat of an entity that does not move (HBT_STATIONARY): one whose last update has the static algorithm, or zero velocity, acceleration and rates where its algorithm uses them. Receivers time such an entity out after this × timeoutMultiplier. Never shorter than the regular heartbeat; 0 turns it off (the regular heartbeat applies at rest too).",
    "example": "60 s",
    "defaultValue": 60,
    "defaultText": "60 s"
  },
  {
    "section": "heartbeat",
    "key": "timeoutMultiplier",
    "path": "heartbeat.timeoutMultiplier",
    "flag": "timeout-multiplier",
    "env": "RECKON_HEARTBEAT_TIMEOUT_MULTIPLIER",
    "kind": "number",
    "description": "A remote entity times out after heartbeat × this with no update (HBT_TIMEOUT_MPLIER); 1 to 100.",
    "example": 2.4,
    "defaultValue": 2.4,
    "defaultText": "2.4"
  },
  {
    "section": "receiver",
    "key": "smoothing",
    "path": "receiver.smoothing",
    "flag": "smoothing",
    "env": "RECKON_RECEIVER_SMOOTHING",
    "kind": "string",
    "description": "How a remote entity moves from its old to its new dead-reckoned track after an update: \"snap\" jumps; \"linear\" blends the position straight; \"projective\" blends the velocity too (projective velocity blending, no kink at either end); \"convergence\" closes the error like a critically damped spring.",
    "example": "projective",
    "defaultValue": "projective",
    "defaultText": "projective"
  },
  {
    "section": "receiver",
    "key": "smoothingTime",
    "path": "receiver.smoothingTime",
    "flag": "smoothing-time",
    "env": "RECKON_RECEIVER_SMOOTHING_TIME",
    "kind": "string",
    "description": "Duration of the blend after an update.",
    "example": "500 ms",
    "defaultValue": 0.5,
    "defaultText": "500 ms"
  },
  {
    "section": "receiver",
    "key": "teleportDistance",
    "path": "receiver.teleportDistance",
    "flag": "teleport-distance",
    "env": "RECKON_RECEIVER_TELEPORT_DISTANCE",
    "kind": "string",
    "description": "Snap instead of smoothing when the correction is larger.",
    "example": "100 m",
    "defaultValue": 100,
    "defaultText": "100 m"
  },
  {
    "section": "receiver",
    "key": "maxEntities",
    "path": "receiver.maxEntities",
    "flag": "max-entities",
    "env": "RECKON_RECEIVER_MAX_ENTITIES",
    "kind": "number",
    "description": "Most remote entities tracked (at most 1 000 000); PDUs of further ones are counted and dropped. The table is allocated up front at about 0.6 kB per entity (0.6 kB more with display \"interpolate\"), so 10 000 take ~6 MB; raise it for larger exercises, e.g. 100000 (~60 MB per subscriber).",
    "example": 10000,
    "defaultValue": 10000,
    "defaultText": "10000"
  },
  {
    "section": "receiver",
    "key": "latencyCompensation",
    "path": "receiver.latencyCompensation",
    "flag": "latency-compensation",
    "env": "RECKON_RECEIVER_LATENCY_COMPENSATION",
    "kind": "string",
    "description": "Extrapolate from the arrival time, or from the PDU timestamp (needs absolute timestamps and synchronised clocks).",
    "example": "arrival",
    "defaultValue": "arrival",
    "defaultText": "arrival"
  },
  {
    "section": "receiver",
    "key": "renderRate",
    "path": "receiver.renderRate",
    "flag": "render-rate",
    "env": "RECKON_RECEIVER_RENDER_RATE",
    "kind": "string",
    "description": "Frames per second of extrapolated entity states.",
    "example": "30 Hz",
    "defaultValue": 30,
    "defaultText": "30 Hz"
  },
  {
    "section": "receiver",
    "key": "display",
    "path": "receiver.display",
    "flag": "display",
    "env": "RECKON_RECEIVER_DISPLAY",
    "kind": "string",
    "description": "What frames show: \"extrapolate\" dead-reckons every entity to the present (smoothing corrections); \"interpolate\" shows entities interpolationDelay in the past, between the states received on either side, and dead-reckons only beyond the newest one.",
    "example": "interpolate",
    "defaultValue": "extrapolate",
    "defaultText": "extrapolate"
  },
  {
    "section": "receiver",
    "key": "interpolationDelay",
    "path": "receiver.interpolationDelay",
    "flag": "interpolation-delay",
    "env": "RECKON_RECEIVER_INTERPOLATION_DELAY",
    "kind": "string",
    "description": "With display \"interpolate\": how far in the past entities are shown (a playout delay). Longer than the update interval, motion is interpolated; shorter, it is partly dead-reckoned.",
    "example": "100 ms",
    "defaultValue": 0.1,
    "defaultText": "100 ms"
  },
  {
    "section": "nats",
    "key": "servers",
    "path": "nats.servers",
    "flag": "nats",
    "env": "RECKON_NATS_SERVERS",
    "kind": "list",
    "description": "NATS servers to publish to or subscribe from instead of UDP (several URLs = one cluster; the client fails over between them). Empty = UDP.",
    "example": [
      "nats://127.0.0.1:4222"
    ],
    "defaultValue": [],
    "defaultText": "none"
  },
  {
    "section": "nats",
    "key": "token",
    "path": "nats.token",
    "flag": "nats-token",
    "env": "RECKON_NATS_TOKEN",
    "kind": "string",
    "description": "NATS authentication token. Never printed; prefer the environment variable over the flag (flags show in ps).",
    "example": "change-me"
  },
  {
    "section": "nats",
    "key": "user",
    "path": "nats.user",
    "flag": "nats-user",
    "env": "RECKON_NATS_USER",
    "kind": "string",
    "description": "NATS user name (with password).",
    "example": "reckon"
  },
  {
    "section": "nats",
    "key": "password",
    "path": "nats.password",
    "flag": "nats-password",
    "env": "RECKON_NATS_PASSWORD",
    "kind": "string",
    "description": "NATS password (with user). Never printed; prefer the environment variable over the flag.",
    "example": "change-me"
  },
  {
    "section": "nats",
    "key": "credsFile",
    "path": "nats.credsFile",
    "flag": "nats-creds",
    "env": "RECKON_NATS_CREDS_FILE",
    "kind": "string",
    "description": "NATS credentials file (JWT and NKey seed, as nsc writes it).",
    "example": "/etc/reckon/site.creds"
  },
  {
    "section": "nats",
    "key": "tlsCa",
    "path": "nats.tlsCa",
    "flag": "nats-tls-ca",
    "env": "RECKON_NATS_TLS_CA",
    "kind": "string",
    "description": "PEM file of the CA that signed the NATS servers' certificates (turns TLS on).",
    "example": "/etc/reckon/ca.pem"
  },
  {
    "section": "nats",
    "key": "tlsCert",
    "path": "nats.tlsCert",
    "flag": "nats-tls-cert",
    "env": "RECKON_NATS_TLS_CERT",
    "kind": "string",
    "description": "PEM client certificate for NATS TLS (with tlsKey).",
    "example": "/etc/reckon/client.pem"
  },
  {
    "section": "nats",
    "key": "tlsKey",
    "path": "nats.tlsKey",
    "flag": "nats-tls-key",
    "env": "RECKON_NATS_TLS_KEY",
    "kind": "string",
    "description": "PEM private key of tlsCert.",
    "example": "/etc/reckon/client-key.pem"
  },
  {
    "section": "nats",
    "key": "connectTimeout",
    "path": "nats.connectTimeout",
    "flag": "nats-connect-timeout",
    "env": "RECKON_NATS_CONNECT_TIMEOUT",
    "kind": "string",
    "description": "How long to wait at start for a NATS server's answer before giving up (a server that wants a client certificate, or is over its connection limits, drops the connection without saying so: it shows only as no answer).",
    "example": "5 s",
    "defaultValue": 20,
    "defaultText": "20 s"
  },
  {
    "section": "nats",
    "key": "subjectPrefix",
    "path": "nats.subjectPrefix",
    "flag": "subject-prefix",
    "env": "RECKON_NATS_SUBJECT_PREFIX",
    "kind": "string",
    "description": "First tokens of every subject: PREFIX.EXERCISE.CELL.KIND.DOMAIN (docs/nats.md).",
    "example": "dis",
    "defaultValue": "dis",
    "defaultText": "dis"
  },
  {
    "section": "nats",
    "key": "h3Resolution",
    "path": "nats.h3Resolution",
    "flag": "h3-resolution",
    "env": "RECKON_NATS_H3_RESOLUTION",
    "kind": "number",
    "description": "H3 resolution of the cells that route Entity State PDUs (docs/nats.md): 5 = cells of ~250 km² (8.5 km edge), 4 = ~1 800 km², 6 = ~36 km². Publishers and subscribers of one exercise must use the same one.",
    "example": 5,
    "defaultValue": 5,
    "defaultText": "5"
  },
  {
    "section": "nats",
    "key": "area",
    "path": "nats.area",
    "flag": "area",
    "env": "RECKON_NATS_AREA",
    "kind": "string",
    "description": "Area of interest of a subscriber: \"LAT,LON,RADIUS\" (a circle) or, in a file, {\"polygon\": [[lat, lon], …]}. Only the H3 cells covering it are subscribed to. Default: the whole exercise.",
    "example": "48.1,11.6,50 km"
  },
  {
    "section": "nats",
    "key": "maxMessageBytes",
    "path": "nats.maxMessageBytes",
    "flag": "nats-max-message-bytes",
    "env": "RECKON_NATS_MAX_MESSAGE_BYTES",
    "kind": "number",
    "description": "Most bytes of PDUs bundled into one NATS message per subject (NATS servers accept up to 1 MiB by default).",
    "example": 16384,
    "defaultValue": 16384,
    "defaultText": "16384"
  },
  {
    "section": "nats",
    "key": "stream",
    "path": "nats.stream",
    "flag": "stream",
    "env": "RECKON_NATS_STREAM",
    "kind": "string",
    "description": "JetStream stream that record keeps the traffic in and replay reads from.",
    "example": "DIS"
  },
  {
    "section": "nats",
    "key": "streamMaxAge",
    "path": "nats.streamMaxAge",
    "flag": "stream-max-age",
    "env": "RECKON_NATS_STREAM_MAX_AGE",
    "kind": "string",
    "description": "Oldest traffic a stream keeps (0 = no limit).",
    "example": "24 h",
    "defaultValue": 86400,
    "defaultText": "24 h"
  },
  {
    "section": "nats",
    "key": "streamMaxBytes",
    "path": "nats.streamMaxBytes",
    "flag": "stream-max-bytes",
    "env": "RECKON_NATS_STREAM_MAX_BYTES",
    "kind": "number",
    "description": "Most bytes a stream keeps (-1 = no limit); the oldest messages go first.",
    "example": 1073741824,
    "defaultValue": 1073741824,
    "defaultText": "1073741824"
  }
];
