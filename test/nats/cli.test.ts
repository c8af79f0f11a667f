// `reckon publish --nats` → `reckon subscribe --nats`: two real processes through a real nats-server, and the
// failures a user meets (refused credentials, no server) as one clear line and exit 1, with no secret printed. Runs
// with no secret to watch for run in process (runCli, as the binary does).
import { connect } from '@nats-io/transport-node';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reckon, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';
import { freePort, freeUdpPort, startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;
const TOKEN = 'tok-9f3a71';

describeNats('reckon publish/subscribe --nats', () => {
  let server: RunningNatsServer;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!, { args: ['--auth', TOKEN] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  // The processes of these tests run side by side, each pair on its own subjects; the bridge test below waits for
  // them, as it takes the first message of the exercise.
  it.concurrent('the subscriber sees the published entity appear, update and leave; the token is never printed', async () => {
    const env = { RECKON_NATS_TOKEN: TOKEN };
    const subscribe = reckon(['subscribe', '--nats', server.url, '--json', '--duration', '30'], env);
    await subscribe.waitFor(/connected to NATS 127\.0\.0\.1:\d+, exercise 1, the whole exercise/);
    const publish = reckon(['publish', '--entity', 'tank', '--nats', server.url, '--duration', '1.5'], env);
    expect(await within(publish.exited, 15_000, 'publish to exit', publish.child)).toBe(0);
    expect(publish.stderr()).toMatch(
      /tank \(1:1:1\) → NATS nats:\/\/127\.0\.0\.1:\d+ \(subjects dis\.1\.<H3 cell, resolution 5>/,
    );
    await subscribe.waitFor(/"type":"removed"/);
    subscribe.child.kill('SIGINT');
    expect(await within(subscribe.exited, 10_000, 'subscribe to exit', subscribe.child)).toBe(0);
    const types = subscribe
      .stdout()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('appeared');
    expect(types[types.length - 1]).toBe('removed');
    expect(subscribe.stderr()).toMatch(/nats {6}\d+ messages?, 0 left the area, 0 disconnects/);
    for (const run of [publish, subscribe]) expect(run.stdout() + run.stderr()).not.toContain(TOKEN);
  }, 30_000);

  it.concurrent('publish --track through NATS: the recorded ship appears at its place and leaves', async () => {
    const nats = ['--nats', server.url, '--nats-token', TOKEN, '--subject-prefix', 'ship'];
    const ship = new URL('../fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv', import.meta.url).pathname;
    const subscribe = startCli(['subscribe', ...nats, '--json', '--duration', '30']);
    await subscribe.waitFor(/connected to NATS/);
    const publish = startCli(['publish', '--track', ship, ...nats, '--duration', '1.5']);
    expect(await within(publish.exited, 15_000, 'publish to exit'), publish.stderr()).toBe(0);
    expect(publish.stderr()).toMatch(/→ NATS nats:\/\/127\.0\.0\.1:\d+/);
    await subscribe.waitFor(/"type":"removed"/);
    subscribe.interrupt();
    expect(await within(subscribe.exited, 10_000, 'subscribe to exit')).toBe(0);
    const events = subscribe
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; latitudeDeg?: number; geodetic?: { latitudeDeg: number } });
    expect(events[0]!.type).toBe('appeared');
    expect(events[events.length - 1]!.type).toBe('removed');
    // The track is in the Baltic off Finland: the entity is where the recording put it, through NATS.
    expect(JSON.stringify(events[0])).toMatch(/"lat(itude)?(Deg)?":(59|60)\.\d+/);
  }, 30_000);

  it.concurrent.each([
    ['subscribe', ['--nats-token', 'wrong-secret-1']],
    ['publish', ['--entity', 'tank', '--duration', '1', '--nats-token', 'wrong-secret-1']],
  ])(
    '%s with a wrong token: one clear line, exit 1, the token not shown',
    async (command, extra) => {
      const run = reckon([command, '--nats', server.url, ...extra]);
      expect(await within(run.exited, 15_000, `${command} to exit`, run.child)).toBe(1);
      expect(run.stderr()).toMatch(/refused the credentials: check nats\.token/);
      expect(run.stderr()).not.toContain('wrong-secret-1');
      expect(run.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    },
    20_000,
  );

  it.concurrent('no server at the URL: exit 1 saying to start one', async () => {
    const run = startCli(['subscribe', '--nats', `nats://127.0.0.1:${await freePort()}`]);
    expect(await within(run.exited, 15_000, 'subscribe to exit')).toBe(1);
    expect(run.stderr()).toMatch(/nothing listens there: start nats-server/);
  }, 20_000);

  it.concurrent('a bad --area or --h3-resolution is a usage error (exit 2) naming the setting', async () => {
    const { code, stderr } = await cli('subscribe', '--nats', server.url, '--area', '48,11', '--h3-resolution', '16');
    expect(code).toBe(2);
    expect(stderr).toMatch(/nats\.area/);
    expect(stderr).toMatch(/nats\.h3Resolution/);
  });

  it('bridge forwards a LAN datagram to NATS and reports it; --udp is required', async () => {
    const missing = await cli('bridge', '--nats', server.url);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--udp: required/);

    const raw = await connect({ servers: server.url, token: TOKEN });
    const received = raw.subscribe('dis.1.>', { max: 1 });
    await raw.flush();
    const port = await freeUdpPort();
    const bridge = reckon(
      ['bridge', '--udp', `127.0.0.1:${port}`, '--udp-send', '127.0.0.1:9', '--nats', server.url, '--duration', '20'],
      { RECKON_NATS_TOKEN: TOKEN },
    );
    await bridge.waitFor(
      /bridge: LAN 127\.0\.0\.1:\d+ .* ⇄ NATS nats:\/\/127\.0\.0\.1:\d+, exercise 1, the whole exercise/,
    );
    const pdu = Buffer.alloc(144);
    pdu.set([7, 1, 1, 1]);
    pdu.writeUInt16BE(144, 8);
    pdu.writeUInt16BE(1, 16);
    const lan = createSocket('udp4');
    lan.send(pdu, port, '127.0.0.1');
    const message = (await received[Symbol.asyncIterator]().next()).value!;
    expect(message.subject).toBe('dis.1.all.1'); // location (0, 0, 0): no cell
    lan.close();
    bridge.child.kill('SIGINT');
    expect(await within(bridge.exited, 10_000, 'bridge to exit', bridge.child)).toBe(0);
    expect(bridge.stderr()).toMatch(/LAN→NATS {2}1 datagram in, 1 PDU/);
    expect(bridge.stdout() + bridge.stderr()).not.toContain(TOKEN);
    await raw.close();
  }, 30_000);
});
