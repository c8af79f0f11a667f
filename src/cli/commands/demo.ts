/**
 * `reckon demo`: a tank, a ship and an aircraft published over real UDP on 127.0.0.1 and received by a subscriber
 * in the same process, with a live table (PDUs, rates, why each was sent, displayed error against the truth,
 * bandwidth against a fixed 15 Hz update) and a closing summary. Also serves the live map page (`reckon view`)
 * with the truth as an extra layer, unless `--no-view`. Ends by itself after `--duration` or on Ctrl-C.
 */
import { booleanFlag, stringFlag } from '../args.js';
import { EXIT_OK, UsageError, type Command, type UsageProblem } from '../command.js';
import { settingFlags } from '../config-flags.js';
import { ALGORITHM_FLAG_NAMES, algorithmFlag } from '../terminal/algorithm-flag.js';

export const command: Command = {
  name: 'demo',
  summary: 'Publish a tank, a ship and an aircraft over UDP on 127.0.0.1 and watch them dead-reckoned live',
  usage: 'reckon demo [--duration T] [--algorithm auto|1-9|NAME] [--json] [--port P] [--position-threshold D] …',
  flags: {
    duration: {
      type: 'string',
      value: 'T',
      description: 'How long to run, e.g. "30 s", "2 min" or 30 (seconds). Defaults to 30 s.',
    },
    algorithm: {
      type: 'string',
      value: 'ALG',
      description: `DR algorithm the entities send: auto (static at rest, F/R × P/V chosen by the motion), 1–9 or a name (${ALGORITHM_FLAG_NAMES.join(', ')}). Defaults to auto.`,
    },
    rate: {
      type: 'string',
      value: 'HZ',
      description: 'Truth samples per second given to each emitter, e.g. "60 Hz" or 60. Defaults to 30 Hz.',
    },
    json: { type: 'boolean', description: 'Print only a JSON summary on stdout (no live table).' },
    view: {
      type: 'boolean',
      description:
        'Serve the live map page (its URL is printed on stderr) with the truth as an extra layer. ' +
        'On by default; --no-view turns it off.',
    },
    http: {
      type: 'string',
      value: 'HOST:PORT',
      description: 'Where the live map is served. Defaults to 127.0.0.1:8080, or a free port when 8080 is taken.',
    },
    ...settingFlags(['network', 'dis', 'emitter', 'heartbeat', 'receiver'], {
      detailed: ['emitter', 'receiver'],
      defaults: { port: 'a free port', 'latency-compensation': 'timestamp' },
    }),
  },
  examples: [
    'reckon demo',
    'reckon demo --duration 10 --position-threshold "0.5 m"',
    'reckon demo --algorithm FPW --orientation-threshold "5 deg"',
    'reckon demo --duration 5 --json > summary.json',
    'reckon demo --port 3000   # a fixed port instead of a free one (e.g. to capture it with Wireshark)',
    'reckon demo --duration "10 min" --http 127.0.0.1:9000   # watch the live map longer, on another port',
    'reckon demo --no-view   # the terminal table only',
  ],
  async run(args, io) {
    const { configOrProblems, durationFlag, frequencyFlag } = await import('../config-from-flags.js');
    const problems: UsageProblem[] = [];
    const durationSeconds = durationFlag(args.flags, 'duration', problems) ?? 30;
    const algorithm = algorithmFlag(stringFlag(args.flags, 'algorithm'), problems);
    const rateHz = frequencyFlag(args.flags, 'rate', problems, 1000) ?? 30;
    const { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, parseHttpAddress } = await import('../../view/http.js');
    const httpText = stringFlag(args.flags, 'http');
    const http =
      httpText === undefined ? { host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT } : parseHttpAddress(httpText);
    if (typeof http === 'string') problems.push({ path: '--http', message: http });
    const config = configOrProblems(args.flags, problems);
    const { configInputs, sameFileProblems } = await import('../same-files.js');
    problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), [])));
    if (problems.length > 0 || !config || typeof http === 'string') throw new UsageError(problems);
    // A free ephemeral port unless one was asked for, so the demo runs beside anything on port 3000.
    const portGiven =
      args.flags.port !== undefined || process.env.RECKON_NETWORK_PORT !== undefined || config.network.port !== 3000;
    const network = { ...config.network, port: portGiven ? config.network.port : 0 };
    // Publishers and subscriber share this host's clock, so PDUs carry absolute timestamps and the subscriber
    // dead-reckons from the time of sending, not of arrival, unless told otherwise.
    const compensationGiven =
      args.flags['latency-compensation'] !== undefined ||
      process.env.RECKON_RECEIVER_LATENCY_COMPENSATION !== undefined;
    const receiver = {
      ...config.receiver,
      latencyCompensation: compensationGiven ? config.receiver.latencyCompensation : ('timestamp' as const),
    };

    const [{ runDemo }, view, { LiveView }] = await Promise.all([
      import('../terminal/demo-session.js'),
      import('../terminal/demo-view.js'),
      import('../terminal/live-view.js'),
    ]);
    const json = booleanFlag(args.flags, 'json');
    const map = args.flags.view === false ? undefined : await startMap(config, http, httpText === undefined);
    const live = new LiveView(io.stdout, { plainIntervalSeconds: 5 });
    // On a terminal the URL heads the live table; in a log or with --json it is said once here.
    const tableShowsMap = map !== undefined && live.tty && !json;
    if (map && !tableShowsMap) {
      io.stderr.write(`demo: live map at ${map.url}  (open it in a browser; it runs as long as the demo)\n`);
    }
    const report = await (async () => {
      try {
        return await runDemo({
          ...(map ? { tap: map.gateway.receive, onTruth: (entities) => map.gateway.sendTruth(entities) } : {}),
          config: { ...config, network, receiver },
          durationSeconds,
          rateHz,
          algorithm,
          frameRateHz: 20,
          signal: io.signal,
          onProgress: json
            ? undefined
            : (r) => {
                // The map's URL stays on screen as the table's first line (a resize clears what was above it).
                const size = map ? { ...live.size, rows: live.size.rows - 1 } : live.size;
                const table = live.tty ? view.demoLiveLines(r, live.tty, size, live.color) : [];
                const mapLine = `live map: ${map?.url} (open it in a browser)`;
                live.update(tableShowsMap ? [mapLine, ...table] : table, view.demoPlainLines(r));
              },
        });
      } finally {
        live.close();
        await map?.close();
      }
    })();
    if (json) io.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else {
      const width = live.tty ? live.size.columns : Number.POSITIVE_INFINITY;
      io.stdout.write(view.demoSummaryLines(report, live.tty, live.color, width).join('\n') + '\n');
    }
    return EXIT_OK;
  },
};

/** The live map: a gateway for the demo's datagrams and the page's HTTP server. */
async function startMap(
  config: import('../../config/schema.js').Config,
  http: { host: string; port: number },
  fallbackToFreePort: boolean,
) {
  const [{ ViewGateway }, { createViewServer, listenView, pageUrl }, { hostPolicy }] = await Promise.all([
    import('../../view/gateway.js'),
    import('../../view/http.js'),
    import('../../view/host-check.js'),
  ]);
  const gateway = new ViewGateway({ config, demo: true });
  const server = createViewServer({ gateway, hostAllowed: hostPolicy({ bindHost: http.host }) });
  try {
    const url = pageUrl(await listenView(server, http.host, http.port, fallbackToFreePort));
    return {
      gateway,
      url,
      async close() {
        gateway.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  } catch (error) {
    gateway.close();
    throw error;
  }
}
