/**
 * `reckon bridge`: connects a DIS exercise to other systems. Two bridges, usable together:
 * - `--cot URL` (more than once): the remote entities, dead-reckoned, as Cursor on Target events to TAK (multicast
 *   mesh, unicast UDP, a TAK Server's TCP or TLS input), from DIS received over UDP or, with `--nats`, over NATS;
 * - `--udp HOST:PORT --nats URL`: a site's LAN and NATS, both ways, without loops (src/cli/nats-bridge.ts).
 * Stops on Ctrl-C or after `--duration`, then prints what was received and sent on stderr.
 */
import {
  EXIT_FAILURE,
  EXIT_OK,
  UsageError,
  type Command,
  type CommandIo,
  type FlagValues,
  type ParsedArgs,
  type UsageProblem,
} from '../command.js';
import { settingFlags } from '../config-flags.js';
import { NATS_BRIDGE_FLAGS } from '../nats-bridge.js';
import type { CotOutputTarget } from '../../cot/output.js';
import { printable } from '../terminal/printable.js';
import { untilStopped } from '../until-stopped.js';

/** Environment variables read for the TLS settings when their flags are absent. */
const TLS_ENV = { 'cot-cert': 'RECKON_COT_CERT', 'cot-key': 'RECKON_COT_KEY', 'cot-ca': 'RECKON_COT_CA' } as const;
const PASSPHRASE_ENV = 'RECKON_COT_KEY_PASSPHRASE';

export const command: Command = {
  name: 'bridge',
  summary: 'Forward remote entities to TAK as Cursor on Target events, and DIS between a LAN and NATS',
  usage:
    'reckon bridge [--cot URL …] [--udp HOST:PORT --nats URL] [--cot-rate R] [--duration T] ' +
    '[--address A] [--port P] [--exercise N] [--multicast GROUP] …',
  flags: {
    cot: {
      type: 'string',
      value: 'URL',
      multiple: true,
      description:
        "Send CoT events to udp://HOST:PORT (unicast, or multicast such as TAK's mesh udp://239.2.3.1:6969; " +
        '?ttl=N (default 1) and ?interface=ADDR for multicast), tcp://HOST:PORT (a TAK Server input, e.g. port 8087) ' +
        'or tls://HOST:PORT (e.g. 8089, see --cot-cert). May be given more than once.',
    },
    'cot-rate': {
      type: 'string',
      value: 'R',
      description:
        'CoT events per entity per second while nothing changes, e.g. "1 Hz" or "0.2 Hz". Appearing, changing ' +
        'type and leaving are sent at once. Defaults to 1 Hz.',
    },
    'cot-uid-prefix': {
      type: 'string',
      value: 'P',
      description: 'First part of every CoT uid: P.EXERCISE.SITE.APPLICATION.ENTITY. Defaults to DIS.',
    },
    'cot-cert': {
      type: 'string',
      value: 'FILE',
      description: `Client certificate (PEM) for tls:// outputs. [${TLS_ENV['cot-cert']}]`,
    },
    'cot-key': {
      type: 'string',
      value: 'FILE',
      description:
        `Private key (PEM) of --cot-cert; its passphrase, if any, from ${PASSPHRASE_ENV}. ` + `[${TLS_ENV['cot-key']}]`,
    },
    'cot-ca': {
      type: 'string',
      value: 'FILE',
      description:
        "CA certificate(s) (PEM) the TAK Server's certificate must chain to. Defaults to the system's roots. " +
        `[${TLS_ENV['cot-ca']}]`,
    },
    duration: {
      type: 'string',
      value: 'T',
      description: 'Stop after this time, e.g. "30 s" or 30 (seconds). Defaults to until Ctrl-C.',
    },
    // Both sides of the network (DIS in; the LAN side of NATS out), but it forwards, never originates, PDUs.
    ...settingFlags(['network', 'dis', 'filter', 'heartbeat', 'receiver'], {
      detailed: ['dis'],
      omit: ['dis.protocolVersion', 'dis.site', 'dis.application'],
    }),
    ...NATS_BRIDGE_FLAGS,
  },
  examples: [
    "reckon bridge --cot udp://239.2.3.1:6969   # TAK's multicast mesh: ATAK, WinTAK, iTAK on the LAN",
    'reckon bridge --port 3000 --exercise 2 --cot tcp://takserver:8087 --cot udp://239.2.3.1:6969',
    'reckon bridge --cot tls://takserver:8089 --cot-cert client.pem --cot-key client.key --cot-ca takserver-ca.pem',
    'reckon bridge --multicast 239.1.2.3 --cot udp://10.0.0.5:4242 --cot-rate "0.5 Hz"',
    'reckon bridge --udp 0.0.0.0:3000 --nats nats://hub.example:4222 --broadcast   # a LAN ⇄ NATS, no loops',
    'reckon bridge --nats nats://hub:4222 --area "48.1,11.6,100 km" --cot udp://239.2.3.1:6969   # NATS → TAK',
  ],
  async run(args, io) {
    const lan = args.flags.udp !== undefined;
    const cot = args.flags.cot !== undefined;
    if (!lan && !cot) {
      throw new UsageError([
        args.flags.nats !== undefined
          ? {
              path: '--udp',
              message:
                'required with --nats for the LAN ⇄ NATS bridge, e.g. --udp 0.0.0.0:3000 ' +
                '(or --cot URL to send the entities NATS carries to TAK)',
            }
          : {
              path: '--cot',
              message:
                'no output given: add at least one, e.g. --cot udp://239.2.3.1:6969 (TAK), ' +
                'or --udp HOST:PORT with --nats URL (LAN ⇄ NATS)',
            },
      ]);
    }
    // Both halves check their flags before either starts, so every problem is listed and nothing runs half-way.
    const problems: UsageProblem[] = [];
    const starts = await Promise.all([
      lan
        ? import('../nats-bridge.js').then(({ prepareNatsBridge }) => prepareNatsBridge(args, io, problems))
        : undefined,
      cot ? prepareCotBridge(args, io, problems) : undefined,
    ]);
    if (problems.length > 0) throw new UsageError(uniqueProblems(problems));
    const codes = await Promise.all(starts.flatMap((start) => (start ? [start()] : [])));
    return Math.max(...codes);
  },
};

/** Problems both halves found (the settings they share) are listed once. */
function uniqueProblems(problems: readonly UsageProblem[]): UsageProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The TAK half: remote entities received over UDP (or NATS) → CoT events to every `--cot` output. Adds its usage
 * problems to `problems`; returns what starts it when it has none.
 */
async function prepareCotBridge(
  args: ParsedArgs,
  io: CommandIo,
  problems: UsageProblem[],
): Promise<(() => Promise<number>) | undefined> {
  const [{ configOrProblems, durationFlag }, { readQuantity }] = await Promise.all([
    import('../config-from-flags.js'),
    import('../../config/units.js'),
  ]);
  const { parseCotUrl, cotEventsOptionProblems } = await import('../../cot/index.js');
  const before = problems.length;
  const durationSeconds = durationFlag(args.flags, 'duration', problems);
  const config = configOrProblems(args.flags, problems);

  // Called only when --cot was given (the command checks that an output was asked for).
  const urls = ([] as string[]).concat(args.flags.cot as string | string[]);
  const targets: CotOutputTarget[] = [];
  for (const url of urls) {
    const parsed = parseCotUrl(url);
    if (parsed.ok) targets.push(parsed.target);
    else problems.push({ path: '--cot', message: parsed.message });
  }

  let rateHz: number | undefined;
  const rateText = args.flags['cot-rate'];
  if (typeof rateText === 'string') {
    const rate = readQuantity(rateText, 'frequency');
    if (!rate.ok) problems.push({ path: '--cot-rate', message: rate.message });
    else if (rate.value > 0 && rate.value <= 100) rateHz = rate.value;
    else problems.push({ path: '--cot-rate', message: `must be above 0 and at most 100 Hz, got "${rateText}"` });
  }
  const prefixText = args.flags['cot-uid-prefix'];
  const uidPrefix = typeof prefixText === 'string' ? prefixText : undefined;
  for (const message of cotEventsOptionProblems({ ...(uidPrefix !== undefined ? { uidPrefix } : {}) })) {
    problems.push({ path: '--cot-uid-prefix', message });
  }
  const tls = targets.some((t) => t.protocol === 'tls') ? await readTlsFiles(args.flags, problems) : undefined;
  const { configInputs, sameFileProblems } = await import('../same-files.js');
  const certificates = (['cot-cert', 'cot-key', 'cot-ca'] as const).flatMap((flag) => {
    const fromFlag = args.flags[flag];
    const path = typeof fromFlag === 'string' ? fromFlag : process.env[TLS_ENV[flag]];
    return path ? [{ path, name: `--${flag}` }] : [];
  });
  problems.push(...(await sameFileProblems(io, [...certificates, ...configInputs(args.flags, config)], [])));
  if (problems.length > before || !config) return undefined;
  return () => runCotBridge(io, { config, targets, tls, rateHz, uidPrefix, durationSeconds });
}

interface CotBridgeSettings {
  readonly config: import('../../config/schema.js').Config;
  readonly targets: readonly CotOutputTarget[];
  readonly tls: Awaited<ReturnType<typeof readTlsFiles>> | undefined;
  readonly rateHz: number | undefined;
  readonly uidPrefix: string | undefined;
  readonly durationSeconds: number | undefined;
}

async function runCotBridge(io: CommandIo, settings: CotBridgeSettings): Promise<number> {
  const { config, targets, tls, rateHz, uidPrefix, durationSeconds } = settings;
  const [
    { createSubscriber },
    { cotEvents, openCotOutput },
    { formatRejections, formatWarnings },
    { formatDecodeErrors, formatOrdersNotCarriedOut },
  ] = await Promise.all([
    import('../../stream/subscriber.js'),
    import('../../cot/index.js'),
    import('../../transport/transport.js'),
    import('../terminal/other-pdus.js'),
  ]);
  const status = (message: string): void => void io.stderr.write(`bridge: ${message}\n`);
  let outputs: Awaited<ReturnType<typeof openCotOutput>>[];
  try {
    const options = { ...(tls ? { tls } : {}), onStatus: status };
    outputs = await Promise.all(targets.map((target) => openCotOutput(target, options)));
  } catch (error) {
    io.stderr.write(
      `reckon bridge: cannot open an output: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT_FAILURE;
  }

  const subscriber = createSubscriber(config);
  const startedMs = Date.now();
  const { stop, stopped } = untilStopped(io.signal, durationSeconds);
  // A failure before the socket (or NATS) is open is reported in one line, without a summary of nothing.
  let listening = false;
  let failure: string | undefined;
  const fail = (error: unknown) => {
    failure ??= printable(error instanceof Error ? error.message : String(error));
    stop(`failed: ${failure}`);
  };
  const entities = new Set<number>();
  const byReason = { appeared: 0, typeChanged: 0, periodic: 0, removed: 0 };
  // Frames at least 10 Hz: appearances, type changes and departures go out within 0.1 s.
  const frameRateHz = Math.max(10, rateHz ?? 1);
  const subscriptions = [
    subscriber.listening$.subscribe({
      next: (local) => {
        listening = true;
        const group = config.network.multicast ? ` (group ${config.network.multicast})` : '';
        const to = targets.map((t) => t.text + (t.multicast ? ` (multicast, ttl ${t.ttl})` : '')).join(', ');
        const from =
          config.nats.servers.length > 0
            ? `connected to NATS ${local.address}, exercise ${config.dis.exercise}`
            : `listening on ${local.address} port ${local.port}${group}, exercise ${config.dis.exercise}`;
        status(`${from}; CoT to ${to}; Ctrl-C to stop`);
      },
      error: fail,
    }),
    subscriber
      .frames({ rateHz: frameRateHz })
      .pipe(
        cotEvents({
          ...(rateHz !== undefined ? { rateHz } : {}),
          ...(uidPrefix ? { uidPrefix } : {}),
          departures: subscriber.departures$,
        }),
      )
      .subscribe({
        next(event) {
          byReason[event.reason]++;
          if (event.reason === 'removed') entities.delete(event.key);
          else entities.add(event.key);
          for (const output of outputs) output.send(event.xml);
        },
        error: fail,
      }),
  ];

  const reason = await stopped;
  for (const s of subscriptions) s.unsubscribe();
  await Promise.all(outputs.map((o) => o.close()));
  if (!listening && failure !== undefined) {
    io.stderr.write(`reckon bridge: ${failure}\n`);
    return EXIT_FAILURE;
  }
  const s = subscriber.stats;
  const seconds = (Date.now() - startedMs) / 1000;
  const lines = [
    `bridge: stopped (${reason}) after ${seconds.toFixed(1)} s`,
    `  received  ${s.transport.datagramsIn} datagrams (${s.transport.bytesIn} bytes), ` +
      `${s.transport.pdusAccepted} PDUs accepted${formatRejections(s.transport.rejected)}${formatWarnings(s.transport.warnings)}` +
      formatDecodeErrors(s) +
      formatOrdersNotCarriedOut(s.control),
    `  entities  ${entities.size} held at the end; CoT events: ${byReason.appeared} appeared, ` +
      `${byReason.typeChanged} type changed, ${byReason.periodic} periodic, ${byReason.removed} removed`,
    ...outputs.map(
      (o) =>
        `  ${o.target.text}  ${o.stats.events} events, ${o.stats.bytes} bytes` +
        (o.target.protocol === 'udp' ? '' : `, ${o.stats.connections} connections`) +
        (o.stats.dropped > 0 ? `, ${o.stats.dropped} dropped` : '') +
        (o.stats.errors > 0 ? `, ${o.stats.errors} errors` : ''),
    ),
  ];
  io.stderr.write(lines.join('\n') + '\n');
  // Like subscribe and record, the bridge runs until it is stopped: Ctrl-C or SIGTERM is its normal end (exit 0).
  // Only a command stopped short of what it was asked for (experiment) exits 130 / 143.
  return reason.startsWith('failed') ? EXIT_FAILURE : EXIT_OK;
}

/** Most bytes a PEM file may hold: a certificate chain is a few kilobytes. */
const MAX_PEM_FILE_BYTES = 1 << 20;

/** Reads the PEM files for tls:// outputs (flags, else environment); every unreadable one is a problem. */
async function readTlsFiles(
  flags: FlagValues,
  problems: UsageProblem[],
): Promise<{ cert?: string; key?: string; ca?: string; passphrase?: string }> {
  const { readInputFile, InputFileError } = await import('../../files/input-file.js');
  const out: { cert?: string; key?: string; ca?: string; passphrase?: string } = {};
  const before = problems.length;
  for (const flag of ['cot-cert', 'cot-key', 'cot-ca'] as const) {
    const fromFlag = flags[flag];
    const path = typeof fromFlag === 'string' ? fromFlag : process.env[TLS_ENV[flag]];
    if (path === undefined || path === '') continue;
    const source = typeof fromFlag === 'string' ? `--${flag}` : `--${flag} (from ${TLS_ENV[flag]})`;
    try {
      const what = flag === 'cot-key' ? 'key file' : 'certificate file';
      const pem = (await readInputFile(path, what, MAX_PEM_FILE_BYTES)).toString('utf8');
      if (!pem.includes('-----BEGIN ')) {
        const hint = 'a TAK .p12 converts with `openssl pkcs12 -in FILE.p12 -out FILE.pem -nodes`';
        problems.push({ path: source, message: `"${path}" is not a PEM file (${hint})` });
      } else out[flag === 'cot-cert' ? 'cert' : flag === 'cot-key' ? 'key' : 'ca'] = pem;
    } catch (error) {
      if (!(error instanceof InputFileError)) throw error;
      problems.push({ path: source, message: error.message });
    }
  }
  if (problems.length === before && (out.cert === undefined) !== (out.key === undefined)) {
    problems.push({ path: '--cot-cert', message: '--cot-cert and --cot-key go together' });
  }
  const passphrase = process.env[PASSPHRASE_ENV];
  if (passphrase !== undefined && passphrase !== '') out.passphrase = passphrase;
  return out;
}
