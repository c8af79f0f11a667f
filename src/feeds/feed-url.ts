/**
 * Where a feed comes from, as a URL: `sbs://HOST[:30003]`, `beast://HOST[:30005]` (clients of dump1090/readsb),
 * `http(s)://HOST/…/aircraft.json` (polled), `aivdm+udp://ADDR:PORT` (listened to), `aivdm+tcp://HOST:PORT` (a
 * client); and a truth source: `-` (standard input), `udp://ADDR:PORT` and `tcp://ADDR:PORT` (listened to), or a
 * file. Parsed once, with a message naming what to fix.
 */
import type { FeedFormat } from '../fixes/feed-decoders.js';

/** How a feed's bytes arrive. */
export type FeedTransport = 'tcp-client' | 'tcp-listen' | 'udp-listen' | 'http-poll' | 'stdin' | 'file';

/** A feed's source as `parseFeedUrl` or `parseTruthSource` read it: its format, how it arrives and where from. */
export interface FeedSpec {
  /** As given (for messages and the status line). */
  readonly text: string;
  readonly format: FeedFormat;
  readonly transport: FeedTransport;
  readonly host: string;
  readonly port: number;
  /** The URL to poll (http-poll) or the file's path (file). */
  readonly location: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { sbs: 30003, beast: 30005 };

/** `HOST:PORT` or `[v6]:PORT` of a URL's authority; undefined port when absent. */
function hostPort(authority: string): { host: string; port: number | undefined } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!m) return undefined;
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { host, port };
}

/** A `--feed` URL, or the problem with it. */
export function parseFeedUrl(text: string): FeedSpec | string {
  const trimmed = text.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      const url = new URL(trimmed);
      return {
        text: trimmed,
        format: 'aircraft-json',
        transport: 'http-poll',
        host: url.hostname,
        port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        location: url.href,
      };
    } catch {
      return `"${text}" is not a URL`;
    }
  }
  const m = /^(sbs|beast|aivdm\+udp|aivdm\+tcp):\/\/([^/]*)\/?$/i.exec(trimmed);
  if (!m) {
    return `expected sbs://HOST:30003, beast://HOST:30005, http(s)://HOST/…/aircraft.json, aivdm+udp://ADDR:PORT or aivdm+tcp://HOST:PORT; got "${text}"`;
  }
  const scheme = m[1]!.toLowerCase();
  const at = hostPort(m[2]!);
  const port = at?.port ?? DEFAULT_PORTS[scheme];
  if (!at || port === undefined)
    return `${scheme}:// needs HOST:PORT (e.g. ${scheme}://127.0.0.1:${DEFAULT_PORTS[scheme] ?? 10110}); got "${text}"`;
  if (scheme === 'aivdm+udp') {
    return { text: trimmed, format: 'aivdm', transport: 'udp-listen', host: at.host, port, location: '' };
  }
  return {
    text: trimmed,
    format: scheme === 'aivdm+tcp' ? 'aivdm' : (scheme as 'sbs' | 'beast'),
    transport: 'tcp-client',
    host: at.host,
    port,
    location: '',
  };
}

/** A `--truth` source: `-`, `udp://ADDR:PORT`, `tcp://ADDR:PORT`, or a file; or the problem with it. */
export function parseTruthSource(text: string): FeedSpec | string {
  const trimmed = text.trim();
  if (trimmed === '-') return { text: '-', format: 'truth', transport: 'stdin', host: '', port: 0, location: '' };
  const m = /^(udp|tcp):\/\/([^/]*)\/?$/i.exec(trimmed);
  if (m) {
    const at = hostPort(m[2]!);
    if (!at || at.port === undefined)
      return `${m[1]!.toLowerCase()}:// needs ADDR:PORT to listen on, e.g. udp://127.0.0.1:4000; got "${text}"`;
    const transport = m[1]!.toLowerCase() === 'udp' ? 'udp-listen' : 'tcp-listen';
    return { text: trimmed, format: 'truth', transport, host: at.host, port: at.port, location: '' };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    return `expected -, udp://ADDR:PORT, tcp://ADDR:PORT or a file of NDJSON records; got "${text}"`;
  }
  if (trimmed === '') return 'expected -, udp://ADDR:PORT, tcp://ADDR:PORT or a file';
  return { text, format: 'truth', transport: 'file', host: '', port: 0, location: text };
}
