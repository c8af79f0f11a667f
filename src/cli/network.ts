/**
 * Checks and wording shared by the commands that send (publish, replay), so that the same mistake gets the same
 * message and the same exit code from each of them.
 */
import type { Config } from '../config/schema.js';
import type { UsageProblem } from './command.js';

/**
 * The problem with sending to `port`, if any: 0 means "any free port" to a receiver (subscribe, record), but a
 * datagram cannot be sent to port 0.
 * @param path - where the port came from, e.g. `network.port`.
 */
export function destinationPortProblem(port: number, path = 'network.port'): UsageProblem | undefined {
  if (port !== 0) return undefined;
  return {
    path,
    message:
      '0 means "any free port" to a receiver, but a sender needs the port its receivers listen on; ' +
      'give it with --port, e.g. --port 3000 (the port `reckon subscribe --port 0` prints)',
  };
}

/** Counters of the sends of a transport (a subset of `TransportStats`). */
export interface SendCounts {
  readonly datagramsOut: number;
  readonly sendErrors: number;
  readonly sendFailure: string | undefined;
}

/** True when sends were tried and none of them succeeded: the command then exits 1. */
export function everySendFailed(stats: SendCounts): boolean {
  return stats.sendErrors > 0 && stats.sendErrors >= stats.datagramsOut;
}

/** `, N sends failed: CODE: what to do` (or `, every send failed (N): …`) for a summary line; "" when none failed. */
export function sendFailureSummary(stats: SendCounts): string {
  if (stats.sendErrors === 0) return '';
  const what = everySendFailed(stats)
    ? `every send failed (${stats.sendErrors})`
    : `${stats.sendErrors} ${stats.sendErrors === 1 ? 'send' : 'sends'} failed`;
  return `, ${what}${stats.sendFailure ? `: ${stats.sendFailure}` : ''}`;
}

/**
 * Where a sender's PDUs go, as its start line says it: `127.0.0.1:3000` (UDP; also the broadcast and IPv6
 * defaults), or the NATS servers (without credentials) and the subjects, when `nats.servers` is set.
 */
export async function sendDestination(config: Config): Promise<string> {
  if (config.nats.servers.length > 0) {
    const { redactUrl } = await import('../nats/url-credentials.js');
    const servers = config.nats.servers.map(redactUrl).join(',');
    const subjects = `${config.nats.subjectPrefix}.${config.dis.exercise}.<H3 cell, resolution ${config.nats.h3Resolution}>.<kind>.<domain>`;
    return `NATS ${servers} (subjects ${subjects})`;
  }
  const { udpOptionsFromConfig } = await import('../transport/udp.js');
  const to = udpOptionsFromConfig(config.network, 'send').destination!;
  return `${to.address.includes(':') ? `[${to.address}]` : to.address}:${to.port}`;
}

/** An address and port given on the command line. */
export interface HostPort {
  readonly address: string;
  readonly port: number;
}

/**
 * Reads a `HOST:PORT` flag: `127.0.0.1:3000`, `localhost:3000`, `[::1]:3000`, or a bare port `3000` meaning
 * `defaultHost` (as `view --http 8080` does). Adds one problem, with an example, when the text is none of these.
 * @returns it, or undefined when the flag is absent or malformed.
 */
export function hostPortFlag(
  text: string | undefined,
  flag: string,
  problems: UsageProblem[],
  options: { readonly defaultHost: string; readonly example: string },
): HostPort | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(trimmed) ?? /^()()(\d{1,5})$/.exec(trimmed);
  const port = match ? Number(match[3]) : NaN;
  if (!match || !(port >= 1 && port <= 65535)) {
    problems.push({
      path: flag,
      message:
        `expected HOST:PORT such as ${options.example}, [::1]:${options.example.replace(/^.*:/, '')} ` +
        `or a port alone (on ${options.defaultHost}); got "${text}"`,
    });
    return undefined;
  }
  return { address: match[1] || match[2] || options.defaultHost, port };
}
