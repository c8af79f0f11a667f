/**
 * The `Host` check of the page's HTTP server, against DNS rebinding: a page at `http://rebind.attacker.example:PORT`
 * whose name the attacker's DNS later resolves to 127.0.0.1 is same-origin with itself, so the origin check alone
 * lets it read the feed; its requests still carry `Host: rebind.attacker.example:PORT`. Only the names this server is
 * reachable by are accepted: an IP address (a rebinding page always has a name), `localhost`, the name given to
 * `--http`, this host's name when bound to every interface, and the names given with `--allow-host`.
 */
import { isIP } from 'node:net';
import { hostname } from 'node:os';

export interface HostPolicyOptions {
  /** The address or name the server listens on (`--http HOST:PORT`). Defaults to 127.0.0.1. */
  readonly bindHost?: string;
  /** More names the server may be reached by (`--allow-host`), e.g. `map.example.org`. */
  readonly allowHosts?: readonly string[];
}

/** Whether a request's `Host` header names this server. */
export type HostAllowed = (hostHeader: string | undefined) => boolean;

/** The host name of a `Host` header, lower case, without port, brackets or a trailing dot; undefined if malformed. */
export function hostNameOf(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined) return undefined;
  const text = hostHeader.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(text);
  if (v6) return v6[1];
  const named = /^([a-z0-9._-]+?)\.?(?::\d{1,5})?$/.exec(text);
  return named ? named[1] : undefined;
}

/** A name as a policy compares it: lower case, no trailing dot, IPv6 without brackets. */
function normalizeName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** The check for a server bound to `bindHost` that also answers to `allowHosts`. */
export function hostPolicy(options: HostPolicyOptions = {}): HostAllowed {
  const bindHost = normalizeName(options.bindHost ?? '127.0.0.1');
  const names = new Set(['localhost', ...(options.allowHosts ?? []).map(normalizeName)]);
  if (isIP(bindHost) === 0) names.add(bindHost);
  // Bound to every interface: people reach it by this host's name too.
  if (bindHost === '0.0.0.0' || bindHost === '::') names.add(normalizeName(hostname()));
  return (hostHeader) => {
    const name = hostNameOf(hostHeader);
    if (name === undefined) return false;
    return isIP(name) !== 0 || names.has(name) || name.endsWith('.localhost');
  };
}

/** The body of the 403 for a foreign `Host` (the header itself is not echoed). */
export const HOST_REFUSED =
  'this server does not answer to that host name (DNS rebinding protection); open it by its address or ' +
  'localhost, or add the name with --allow-host NAME';

/** `--allow-host` values: host names (letters, digits, dots, hyphens) or IP addresses; a message for a bad one. */
export function allowHostProblem(text: string): string | undefined {
  const name = normalizeName(text);
  if (isIP(name) !== 0 || /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) {
    return undefined;
  }
  return `expected a host name such as map.example.org (no scheme, port or path), got "${text}"`;
}
