/**
 * `reckon view`: receives DIS as `reckon subscribe` does and serves a live map page (plan view) with a WebSocket
 * feed of the Entity State PDUs received, as they came; the page dead-reckons and smooths them itself. Prints the
 * page's URL; stops on Ctrl-C or after `--duration`, then prints what was received and served on stderr.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { settingFlags } from '../config-flags.js';
import { formatBytes, formatCount } from '../terminal/format.js';
import { untilStopped } from '../until-stopped.js';
import type { GatewayStats } from '../../view/gateway-options.js';

export const command: Command = {
  name: 'view',
  summary: 'Receive Entity State PDUs and show them on a live map in the browser',
  usage:
    'reckon view [--http HOST:PORT] [--allow-host NAME]… [--allow-origin ORIGIN]… [--tiles URL] [--port P] ' +
    '[--exercise N] ' +
    '[--multicast GROUP] …',
  flags: {
    http: {
      type: 'string',
      value: 'HOST:PORT',
      description:
        'Where the page and its feed are served. Port 0 = any free port; 0.0.0.0:PORT opens it to the network. ' +
        'Defaults to 127.0.0.1:8080 (this host only), or a free port when 8080 is taken.',
    },
    'allow-host': {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description:
        'A host name the page may be opened by (e.g. map.example.org). Requests naming another host get 403, ' +
        'against DNS rebinding. Defaults to the addresses, localhost and the name given to --http.',
    },
    'allow-origin': {
      type: 'string',
      value: 'ORIGIN',
      multiple: true,
      description:
        'A web origin (e.g. http://localhost:5173) whose pages may also read the feed. ' +
        "Defaults to the page's own origin only.",
    },
    tiles: {
      type: 'string',
      value: 'URL',
      description:
        'Map tile URL template for the page, e.g. https://tile.example.org/{z}/{x}/{y}.png. ' +
        'Defaults to none (an offline outline map).',
    },
    'all-exercises': {
      type: 'boolean',
      description: 'Forward every exercise (the page filters per viewer), not only --exercise.',
    },
    duration: {
      type: 'string',
      value: 'T',
      description: 'Stop after this time, e.g. "30 s" or 30 (seconds). Defaults to until Ctrl-C.',
    },
    // The page dead-reckons and smooths by itself: of the receiver's settings it takes the smoothing and the bound.
    ...settingFlags(['network', 'dis', 'filter', 'heartbeat', 'receiver'], {
      side: 'receive',
      detailed: ['dis', 'receiver', 'emitter'],
      omit: [
        'receiver.teleportDistance',
        'receiver.latencyCompensation',
        'receiver.renderRate',
        'receiver.display',
        'receiver.interpolationDelay',
      ],
      also: ['emitter.positionThreshold', 'emitter.orientationThreshold'],
    }),
  },
  examples: [
    'reckon view                                   # DIS on UDP port 3000; open the printed URL',
    'reckon view --port 3001 --exercise 2 --http 127.0.0.1:9000',
    'reckon view --multicast 239.1.2.3 --http 0.0.0.0:8080   # the map for every host on the network',
    'reckon view --tiles "https://tile.openstreetmap.org/{z}/{x}/{y}.png"',
  ],
  async run(args, io) {
    const { configOrProblems, durationFlag } = await import('../config-from-flags.js');
    const { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, parseHttpAddress } = await import('../../view/http.js');
    const problems: UsageProblem[] = [];
    const durationSeconds = durationFlag(args.flags, 'duration', problems);
    const httpText = stringFlag(args.flags, 'http');
    const http =
      httpText === undefined ? { host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT } : parseHttpAddress(httpText);
    if (typeof http === 'string') problems.push({ path: '--http', message: http });
    const allowOrigins = originsFlag(args.flags['allow-origin'], problems);
    const allowHosts = await allowHostsFlag(args.flags['allow-host'], problems);
    const tiles = tilesFlag(stringFlag(args.flags, 'tiles'), problems);
    const config = configOrProblems(args.flags, problems);
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), [])));
    if (problems.length > 0 || !config || typeof http === 'string') throw new UsageError(problems);

    const [
      { ViewGateway },
      { createViewServer, listenView, pageUrl, defaultPageDir },
      { openUdpTransport },
      { formatRejections, formatWarnings },
      { existsSync },
      { formatMapPdus, formatOtherPdus },
    ] = await Promise.all([
      import('../../view/gateway.js'),
      import('../../view/http.js'),
      import('../../transport/udp.js'),
      import('../../transport/transport.js'),
      import('node:fs'),
      import('../terminal/other-pdus.js'),
    ]);
    const startedMs = Date.now();
    const udp = await openUdpTransport(config.network, 'receive');
    const allExercises = booleanFlag(args.flags, 'all-exercises');
    const gateway = new ViewGateway({ config, allowOrigins, tiles, allExercises });
    gateway.listen(udp);
    const { hostPolicy } = await import('../../view/host-check.js');
    const server = createViewServer({ gateway, tiles, hostAllowed: hostPolicy({ bindHost: http.host, allowHosts }) });
    let address;
    try {
      // The default address falls back to a free port, so `reckon view` runs beside whatever holds 8080.
      address = await listenView(server, http.host, http.port, httpText === undefined);
    } catch (error) {
      gateway.close();
      await udp.close();
      throw error;
    }
    const url = pageUrl(address);
    const local = udp.local;
    const exercises = allExercises ? 'every exercise' : `exercise ${config.dis.exercise}`;
    io.stdout.write(`view: map at ${url}\n`);
    io.stderr.write(
      `view: receiving DIS on ${local.address} port ${local.port}` +
        `${config.network.multicast ? ` (group ${config.network.multicast})` : ''}, ${exercises}; Ctrl-C to stop\n`,
    );
    if (!existsSync(`${defaultPageDir()}/index.html`)) {
      io.stderr.write('view: the page is not built (dist/view/page); run npm run build — the feed works meanwhile\n');
    }
    if (!isLoopbackAddress(address.address)) {
      io.stderr.write(
        `view: the page is open to the network on ${address.address}; ` +
          `anyone who reaches port ${address.port} sees the feed\n`,
      );
    }

    const { stop, stopped } = untilStopped(io.signal, durationSeconds);
    udp.onClose((error) => {
      if (error) stop(`failed: ${error.message}`);
    });
    server.on('error', (error) => stop(`failed: ${error.message}`));

    const reason = await stopped;
    gateway.close();
    await udp.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const s = gateway.stats,
      t = gateway.transportStats;
    io.stderr.write(
      [
        `view: stopped (${reason}) after ${((Date.now() - startedMs) / 1000).toFixed(1)} s`,
        `  received  ${t.datagramsIn} datagrams, ${s.pdus} Entity State PDUs forwarded${formatMapPdus(gateway.engagements.stats)}${formatOtherPdus(t)}${formatRejections(t.rejected)}${formatWarnings(t.warnings)}` +
          (s.rejected + s.unknownUpdates + s.tableFull > 0
            ? `; not forwarded: ${s.rejected} invalid, ${s.unknownUpdates} updates of unknown entities, ` +
              `${s.tableFull} over receiver.maxEntities`
            : ''),
        formatServed(s),
      ].join('\n') + '\n',
    );
    return reason.startsWith('failed') ? EXIT_FAILURE : EXIT_OK;
  },
};

/**
 * `  served    3 clients: 1200 feed messages (1.5 MiB); slow clients skipped 10 PDUs and 4 messages of shots, entity
 * control and radios (1 client greeted again); 0 clients dropped, 0 bad client messages, 0 connections refused`.
 */
function formatServed(s: GatewayStats): string {
  const again = s.greetedAgain > 0 ? ` (${formatCount(s.greetedAgain, 'client')} greeted again)` : '';
  return (
    `  served    ${formatCount(s.connections, 'client')}: ${formatCount(s.messagesSent, 'feed message')} ` +
    `(${formatBytes(s.bytesSent)}); slow clients skipped ${formatCount(s.skipped, 'PDU')} and ` +
    `${formatCount(s.messagesSkipped, 'message')} of shots, entity control and radios${again}; ` +
    `${formatCount(s.clientsDropped, 'client')} dropped (replies unread), ` +
    `${formatCount(s.clientErrors, 'bad client message')}, ${formatCount(s.upgradesRefused, 'connection')} refused`
  );
}

/** Whether an address is this host's own (127.0.0.0/8, ::1, an IPv4-mapped loopback): not open to the network. */
function isLoopbackAddress(address: string): boolean {
  return /^(::ffff:)?127\./.test(address) || address === '::1';
}

/** `--allow-host` values as names; a problem for each that is not a host name or address. */
async function allowHostsFlag(value: string | boolean | string[] | undefined, problems: UsageProblem[]) {
  const { allowHostProblem } = await import('../../view/host-check.js');
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  for (const text of values) {
    const message = allowHostProblem(text);
    if (message !== undefined) problems.push({ path: '--allow-host', message });
  }
  return values;
}

/** `--allow-origin` values as origins (scheme://host[:port]); a problem for each that is not one. */
function originsFlag(value: string | boolean | string[] | undefined, problems: UsageProblem[]): string[] {
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const origins: string[] = [];
  for (const text of values) {
    try {
      const url = new URL(text);
      const web = url.protocol === 'http:' || url.protocol === 'https:';
      if (!web || url.origin !== text.replace(/\/$/, '')) throw new Error('not an origin');
      origins.push(url.origin);
    } catch {
      const message = `expected an origin such as http://localhost:5173 (scheme, host, port; no path), got "${text}"`;
      problems.push({ path: '--allow-origin', message });
    }
  }
  return origins;
}

/** `--tiles`: an http(s) URL template, or null. */
function tilesFlag(text: string | undefined, problems: UsageProblem[]): string | null {
  if (text === undefined) return null;
  try {
    const url = new URL(text.replace(/[{}]/g, ''));
    if (url.protocol === 'http:' || url.protocol === 'https:') return text;
  } catch {
    // reported below
  }
  const example = 'https://tile.example.org/{z}/{x}/{y}.png';
  problems.push({ path: '--tiles', message: `expected an http(s) URL template such as ${example}, got "${text}"` });
  return null;
}
