/**
 * Which settings a command uses, by the side of the network it is on, and how help names them there. A command that
 * only receives (subscribe, view, record) has no use for what only a sender reads (multicast TTL, bundling, its own
 * site and application), and one that only sends none for receive filters or smoothing; a setting both sides read
 * (the address, the exercise) is described in the words of the side the command is on. Kept free of zod: help
 * reads it.
 */
import type { ConfigSection } from '../config/schema.js';

/** The side of the network a command is on. */
export type Side = 'send' | 'receive';

/** Sections only one side reads as a whole. */
const SECTION_SIDE: Partial<Record<ConfigSection, Side>> = {
  emitter: 'send',
  filter: 'receive',
  receiver: 'receive',
};

/** Settings only one side reads, by path; the other settings of a section both sides read. */
const SETTING_SIDE: Readonly<Record<string, Side>> = {
  'network.ttl': 'send',
  'network.multicastLoopback': 'send',
  'network.broadcast': 'send',
  'network.mtu': 'send',
  'network.reuseAddress': 'receive',
  'network.receiveBufferSize': 'receive',
  'dis.protocolVersion': 'send',
  'dis.site': 'send',
  'dis.application': 'send',
  'dis.acceptProtocolVersions': 'receive',
  'heartbeat.timeoutMultiplier': 'receive',
  'nats.area': 'receive',
};

/** Whether a command on `side` reads the setting at `path` (`section.key`). */
export function usedOn(side: Side, section: ConfigSection, path: string): boolean {
  const only = SETTING_SIDE[path] ?? SECTION_SIDE[section];
  return only === undefined || only === side;
}

/**
 * The description of a setting that both sides read, in the words of one side (the schema's own text speaks of both,
 * as a configuration file serves every command).
 */
export const SIDE_DESCRIPTIONS: Readonly<Record<Side, Readonly<Record<string, string>>>> = {
  receive: {
    'network.address':
      'Address or host name to listen on (resolved once, IPv4 first unless --ipv6). Defaults to all interfaces. ' +
      'An IPv6 address implies --ipv6.',
    'network.port': 'UDP port to listen on. DIS uses 3000.',
    'network.multicast': 'Multicast group to join.',
    'network.interface': 'Local interface address that joins the multicast group (default: chosen by the OS).',
    'network.ipv6': 'Listen on IPv6 (udp6) instead of IPv4. Implied by an IPv6 address or group.',
    'dis.exercise': 'Exercise ID accepted; PDUs of other exercises are counted and dropped.',
    'emitter.positionThreshold':
      "The senders' position threshold (DRA_POS_THRSH): a PDU that comes when the dead-reckoned position had " +
      'drifted about this far is marked as sent for position.',
    'emitter.orientationThreshold':
      "The senders' orientation threshold (DRA_ORIENT_THRSH): a PDU that comes when the dead-reckoned " +
      'orientation had drifted about this far is marked as sent for orientation.',
  },
  send: {
    'network.address':
      'Address or host name to send to (resolved once, IPv4 first unless --ipv6). Defaults to 127.0.0.1, the ' +
      '--multicast group, or 255.255.255.255 with --broadcast. An IPv6 address implies --ipv6.',
    'network.port': 'UDP port to send to. DIS uses 3000.',
    'network.multicast': 'Multicast group to send to.',
    'network.interface': 'Local interface address multicast leaves from (default: chosen by the OS).',
    'network.ipv6': 'Send over IPv6 (udp6) instead of IPv4. Implied by an IPv6 destination or group.',
    'dis.exercise': 'Exercise ID sent.',
  },
};

/** The heading each section's flags are listed under; a line of common settings is labelled up to the bracket. */
export const SECTION_TITLES: Readonly<Record<ConfigSection, string>> = {
  network: 'Network (UDP)',
  dis: 'DIS',
  filter: 'Filters',
  emitter: 'Emitter (when a PDU is sent)',
  heartbeat: 'Heartbeats',
  receiver: 'Receiver (dead reckoning and smoothing)',
  nats: 'NATS',
};

/** Placeholders shown after a setting's flag where the kind alone (`VALUE`) would say little. */
export const SETTING_PLACEHOLDERS: Readonly<Record<string, string>> = {
  'network.address': 'ADDRESS',
  'network.multicast': 'GROUP',
  'network.interface': 'ADDRESS',
  'heartbeat.heartbeatTable': 'ieee|kdis',
  'receiver.smoothing': 'METHOD',
  'receiver.latencyCompensation': 'arrival|timestamp',
  'receiver.display': 'extrapolate|interpolate',
  'nats.servers': 'URL',
  'nats.token': 'TOKEN',
  'nats.user': 'NAME',
  'nats.password': 'PASSWORD',
  'nats.credsFile': 'FILE',
  'nats.tlsCa': 'FILE',
  'nats.tlsCert': 'FILE',
  'nats.tlsKey': 'FILE',
  'nats.subjectPrefix': 'PREFIX',
  'nats.area': 'LAT,LON,R',
  'nats.stream': 'NAME',
};

/** A placeholder from the unit of a quantity's example: `T` for "500 ms", `D` for "1 m", … or undefined. */
export function quantityPlaceholder(example: unknown): string | undefined {
  if (typeof example !== 'string') return undefined;
  const unit = /^[-+\d.]+\s*([a-z]+)$/i.exec(example.trim())?.[1];
  if (unit === undefined) return undefined;
  if (['ms', 's', 'min', 'h'].includes(unit)) return 'T';
  if (['m', 'cm', 'km', 'mm'].includes(unit)) return 'D';
  if (['deg', 'rad'].includes(unit)) return 'ANGLE';
  if (unit === 'Hz') return 'HZ';
  return undefined;
}
