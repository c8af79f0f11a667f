/**
 * The LAN ⇄ NATS half of `reckon bridge --udp HOST:PORT --nats URL`: forwards DIS between a site's LAN and NATS,
 * both ways, with loop prevention, exercise and site filters, and rate and byte counters (src/nats/bridge.ts,
 * docs/nats.md). Stops on Ctrl-C or after `--duration`, then prints what went each way on stderr.
 */
import { EXIT_FAILURE, EXIT_OK, type CommandIo, type FlagSpec, type ParsedArgs, type UsageProblem } from './command.js';
import { natsFlags } from './config-flags.js';
import { formatCount } from './terminal/format.js';
import { hostPortFlag } from './network.js';
import { untilStopped } from './until-stopped.js';

/**
 * The flags of the LAN ⇄ NATS bridge, merged into `reckon bridge`'s (which takes the network settings of both sides:
 * `--multicast`, `--broadcast`, `--interface`, `--ttl`, `--mtu` apply to the LAN side).
 */
export const NATS_BRIDGE_FLAGS: Record<string, FlagSpec> = {
  udp: {
    type: 'string',
    value: 'HOST:PORT',
    group: 'LAN ⇄ NATS bridge',
    description:
      'Local address and port the LAN side binds, e.g. 0.0.0.0:3000 (shared with other DIS programs on the host).',
  },
  'udp-send': {
    type: 'string',
    value: 'HOST:PORT',
    group: 'LAN ⇄ NATS bridge',
    description:
      'Where traffic from NATS goes on the LAN. Default: the --multicast group, else 255.255.255.255 with --broadcast, else 127.0.0.1, on the --udp port.',
  },
  ...natsFlags({ area: true }),
};

/**
 * Checks the LAN ⇄ NATS bridge's flags, adding each problem to `problems`; when there is none, returns what runs
 * the bridge until Ctrl-C, SIGTERM or `--duration` and resolves with the exit code.
 */
export async function prepareNatsBridge(
  args: ParsedArgs,
  io: CommandIo,
  problems: UsageProblem[],
): Promise<(() => Promise<number>) | undefined> {
  const { configOrProblems, durationFlag } = await import('./config-from-flags.js');
  const before = problems.length;
  const durationSeconds = durationFlag(args.flags, 'duration', problems);
  const udpText = args.flags.udp;
  const bind = hostPortFlag(typeof udpText === 'string' ? udpText : undefined, '--udp', problems, {
    defaultHost: '0.0.0.0',
    example: '0.0.0.0:3000',
  });
  if (typeof udpText !== 'string')
    problems.push({ path: '--udp', message: 'required: the LAN address and port to bind, e.g. 0.0.0.0:3000' });
  const sendText = args.flags['udp-send'];
  const sendTo = hostPortFlag(typeof sendText === 'string' ? sendText : undefined, '--udp-send', problems, {
    defaultHost: '127.0.0.1',
    example: '239.1.2.3:3000',
  });
  const config = configOrProblems(args.flags, problems);
  if (config && config.nats.servers.length === 0)
    problems.push({
      path: '--nats',
      message: 'required: the NATS server URL, e.g. nats://127.0.0.1:4222 (or RECKON_NATS_SERVERS)',
    });
  const { configInputs, sameFileProblems } = await import('./same-files.js');
  problems.push(...(await sameFileProblems(io, configInputs(args.flags, config), [])));
  if (problems.length > before || !config || !bind) return undefined;
  return () => runNatsBridge(io, config, bind, sendTo, durationSeconds);
}

async function runNatsBridge(
  io: CommandIo,
  config: import('../config/schema.js').Config,
  bind: { address: string; port: number },
  sendTo: { address: string; port: number } | undefined,
  durationSeconds: number | undefined,
): Promise<number> {
  const [
    { UdpTransport },
    { openNatsTransport },
    { Bridge },
    { receiveFilterFromConfig },
    { describeArea },
    { redactUrl },
    { formatRejections, formatWarnings },
  ] = await Promise.all([
    import('../transport/udp.js'),
    import('../nats/transport.js'),
    import('../nats/bridge.js'),
    import('../transport/pdu-receiver.js'),
    import('../nats/area.js'),
    import('../nats/url-credentials.js'),
    import('../transport/transport.js'),
  ]);
  const network = config.network;
  const destination = sendTo ?? {
    address: network.multicast ?? (network.broadcast ? '255.255.255.255' : '127.0.0.1'),
    port: bind.port,
  };
  const udp = await UdpTransport.open({
    bindAddress: bind.address,
    bindPort: bind.port,
    destination,
    reuseAddress: true,
    broadcast: network.broadcast,
    multicastTtl: network.ttl,
    ...(network.multicast ? { multicastGroup: network.multicast } : {}),
    ...(network.interface ? { multicastInterface: network.interface } : {}),
  });
  let nats: Awaited<ReturnType<typeof openNatsTransport>>;
  try {
    nats = await openNatsTransport(config.nats, { exercise: config.dis.exercise, global: true });
  } catch (error) {
    await udp.close();
    throw error;
  }
  const bridge = new Bridge({ udp, nats, filter: receiveFilterFromConfig(config), mtu: network.mtu });
  const area = nats.currentArea;
  io.stderr.write(
    `bridge: LAN ${udp.local.address}:${udp.local.port} (sending to ${destination.address}:${destination.port}) ⇄ NATS ` +
      `${config.nats.servers.map(redactUrl).join(',')}, exercise ${config.dis.exercise}, ` +
      `${area ? `area ${describeArea(area)} (${nats.cells!.length} cells)` : 'the whole exercise'}; Ctrl-C to stop\n`,
  );

  const startedMs = Date.now();
  const { stop, stopped } = untilStopped(io.signal, durationSeconds);
  nats.onClose((error) => error && stop(`failed: ${error.message}`));
  udp.onClose((error) => error && stop(`failed: ${error.message}`));
  const s = bridge.stats;
  let last = { up: 0, down: 0, ms: startedMs };
  const progress = setInterval(() => {
    const now = Date.now(),
      dt = (now - last.ms) / 1000;
    io.stderr.write(
      `bridge: LAN→NATS ${Math.round((s.udpToNats.pdus - last.up) / dt)} PDU/s, NATS→LAN ${Math.round((s.natsToUdp.pdus - last.down) / dt)} PDU/s, ` +
        `${nats.natsStats.reconnects} reconnects\n`,
    );
    last = { up: s.udpToNats.pdus, down: s.natsToUdp.pdus, ms: now };
  }, 5000);

  const reason = await stopped;
  clearInterval(progress);
  await bridge.close();
  const seconds = (Date.now() - startedMs) / 1000;
  const rate = (n: number) => (seconds > 0 ? `${Math.round(n / seconds)}/s` : '–');
  const n = nats.natsStats;
  io.stderr.write(
    [
      `bridge: stopped (${reason}) after ${seconds.toFixed(1)} s`,
      `  LAN→NATS  ${formatCount(s.udpToNats.in, 'datagram')} in, ${formatCount(s.udpToNats.pdus, 'PDU')} (${rate(s.udpToNats.pdus)}, ${formatCount(s.udpToNats.bytes, 'byte')}) forwarded${formatRejections(s.udpReceive.rejected)}${formatWarnings(s.udpReceive.warnings)}; ${s.loopsDropped} own datagrams not sent back`,
      `  NATS→LAN  ${formatCount(s.natsToUdp.in, 'message')} in, ${formatCount(s.natsToUdp.pdus, 'PDU')} (${rate(s.natsToUdp.pdus)}, ${formatCount(s.natsToUdp.bytes, 'byte')}) forwarded in ${formatCount(s.natsToUdp.out, 'datagram')}${formatRejections(s.natsReceive.rejected)}${formatWarnings(s.natsReceive.warnings)}`,
      `  NATS      ${formatCount(n.messagesOut, 'message')} published, ${n.leftCellCopiesOut} left-cell copies, ${n.disconnects} disconnects, ${n.reconnects} reconnects (gap ${n.gapSeconds.toFixed(1)} s), ${n.slowConsumers} slow-consumer events` +
        (udp.stats.sendErrors > 0 ? `; LAN sends failed ${udp.stats.sendErrors}× (${udp.stats.sendFailure})` : ''),
    ].join('\n') + '\n',
  );
  return reason.startsWith('failed') ? EXIT_FAILURE : EXIT_OK;
}
