// Every setting reaches what it configures: adaptive thresholds change what a publisher sends, and an audit
// changes each setting of the schema in turn and checks that something built from the configuration changes.
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { CONFIG_LEAVES } from '../../src/config/leaves.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { LocalEntities } from '../../src/stream/local-entities.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import { emitterOptionsFromConfig, tableOptionsFromConfig, type StreamConfig } from '../../src/stream/settings.js';
import { streamSettingsFromConfig } from '../../src/nats/jetstream.js';
import { natsOptionsFromConfig } from '../../src/nats/transport-options.js';
import { receiveFilterFromConfig } from '../../src/transport/pdu-receiver.js';
import { udpOptionsFromConfig } from '../../src/transport/udp.js';
import { FakeTransport } from '../support/fake-transport.js';

/** PDUs a publisher sends in 60 s for an entity circling at `speed` m/s on a circle of `radius` m (FPW, 20 Hz). */
async function pdusOnCircle(config: StreamConfig, speed: number, radius: number): Promise<number> {
  const publisher = await createPublisher(config, { transport: new FakeTransport() });
  publisher.define({ entity: 1, algorithm: 2 });
  const truth = createTruthState(),
    w = speed / radius;
  for (let t = 0; t <= 60; t += 0.05) {
    const c = Math.cos(w * t),
      s = Math.sin(w * t);
    truth.location.set([6_378_137 + radius * c, radius * s, 0]);
    truth.linearVelocity.set([-speed * s, speed * c, 0]);
    truth.linearAcceleration.set([-speed * w * c, -speed * w * s, 0]);
    publisher.update(1, truth, t);
  }
  await publisher.close({ deactivate: false });
  return publisher.sent.pdus;
}

describe('emitter.adaptiveThresholds', () => {
  const fixed = { heartbeat: { heartbeatOverrides: { platformOther: '1 h' } } } as const;
  const adaptive = {
    ...fixed,
    emitter: {
      adaptiveThresholds: true,
      adaptiveTravelTime: '100 ms',
      minPositionThreshold: '10 cm',
      maxPositionThreshold: '10 m',
    },
  };

  it('a slow entity (2 m/s: 0.2 m threshold) sends more than with the fixed 1 m, a fast one (100 m/s: 10 m) fewer', async () => {
    const slow = [await pdusOnCircle(fixed, 2, 100), await pdusOnCircle(adaptive, 2, 100)];
    const fast = [await pdusOnCircle(fixed, 100, 1000), await pdusOnCircle(adaptive, 100, 1000)];
    // FPW on a circle drifts ½(v²/R)t²: one PDU per √(2·threshold·R)/v seconds.
    expect(slow[1]).toBeGreaterThan(1.8 * slow[0]!);
    expect(fast[1]).toBeLessThan(0.5 * fast[0]!);
  });

  it('reaches the emitter options with its bounds, and rejects bounds the wrong way round', () => {
    const c = loadConfig({ overrides: adaptive });
    expect(emitterOptionsFromConfig(c, 1, 1).adaptiveThreshold).toEqual({
      secondsOfTravel: 0.1,
      minMeters: 0.1,
      maxMeters: 10,
    });
    expect(emitterOptionsFromConfig(loadConfig(), 1, 1).adaptiveThreshold).toBeNull();
    expect(() => loadConfig({ overrides: { emitter: { minPositionThreshold: 5, maxPositionThreshold: 2 } } })).toThrow(
      /emitter\.maxPositionThreshold .*must not be below minPositionThreshold/,
    );
  });
});

describe('heartbeat.stationaryHeartbeat', () => {
  /** PDUs a publisher sends in 130 s for a parked entity, updated at 10 Hz. */
  async function pdusParked(config: StreamConfig): Promise<number> {
    const publisher = await createPublisher(config, { transport: new FakeTransport() });
    const truth = createTruthState();
    truth.location.set([6_378_137, 0, 0]);
    for (let i = 0; i <= 1300; i++) publisher.update(1, truth, i / 10);
    await publisher.close({ deactivate: false });
    return publisher.sent.pdus;
  }

  it('paces a parked entity (0, 60, 120 s by default; every 5 s when off) and sets the receiver timeout', async () => {
    expect(await pdusParked({})).toBe(3);
    expect(await pdusParked({ heartbeat: { stationaryHeartbeat: '20 s' } })).toBe(7);
    expect(await pdusParked({ heartbeat: { stationaryHeartbeat: 0 } })).toBe(27);
    const c = loadConfig({ overrides: { heartbeat: { stationaryHeartbeat: '2 min' } } });
    expect(emitterOptionsFromConfig(c, 1, 1).stationaryHeartbeatSeconds).toBe(120);
    expect(tableOptionsFromConfig(c).stationaryHeartbeatSeconds).toBe(120);
  });
});

/** A valid value different from the default, for every setting (a new setting must be added here). */
const CHANGED: Readonly<Record<string, unknown>> = {
  'network.address': '127.0.0.2',
  'network.port': 3001,
  'network.multicast': '239.1.2.3',
  'network.ttl': 4,
  'network.multicastLoopback': false,
  'network.broadcast': true,
  'network.interface': '127.0.0.1',
  'network.ipv6': true,
  'network.reuseAddress': true,
  'network.mtu': 1400,
  'network.receiveBufferSize': 1 << 20,
  'dis.exercise': 2,
  'dis.protocolVersion': 6,
  'dis.acceptProtocolVersions': [7],
  'dis.site': 2,
  'dis.application': 2,
  'filter.allowSources': ['10.0.0.1'],
  'filter.allowApplications': ['1:2'],
  'emitter.positionThreshold': 2,
  'emitter.orientationThreshold': 0.1,
  'emitter.adaptiveThresholds': true,
  'emitter.adaptiveTravelTime': 0.5,
  'emitter.minPositionThreshold': 0.2,
  'emitter.maxPositionThreshold': 5,
  'heartbeat.heartbeatTable': 'kdis',
  'heartbeat.heartbeatOverrides': { platformAir: 2 },
  'heartbeat.stationaryHeartbeat': 120,
  'heartbeat.timeoutMultiplier': 3,
  'receiver.smoothing': 'convergence',
  'receiver.smoothingTime': 1,
  'receiver.teleportDistance': 50,
  'receiver.maxEntities': 20,
  'receiver.latencyCompensation': 'timestamp',
  'receiver.renderRate': 60,
  'receiver.display': 'interpolate',
  'receiver.interpolationDelay': 0.2,
  'nats.servers': ['nats://127.0.0.1:4333'],
  'nats.token': 'other-token',
  'nats.user': 'someone',
  'nats.password': 'other-password',
  'nats.credsFile': '/tmp/site.creds',
  'nats.tlsCa': '/tmp/ca.pem',
  'nats.tlsCert': '/tmp/cert.pem',
  'nats.tlsKey': '/tmp/key.pem',
  'nats.connectTimeout': 5,
  'nats.subjectPrefix': 'site1.dis',
  'nats.h3Resolution': 6,
  'nats.area': '48.1,11.6,50 km',
  'nats.maxMessageBytes': 4096,
  'nats.stream': 'DIS',
  'nats.streamMaxAge': 600,
  'nats.streamMaxBytes': 1 << 20,
};

/**
 * Settings read where they are used rather than by a function of the whole config: checked by their effect, below
 * (mtu, renderRate) and in interpolation.test.ts (display, interpolationDelay).
 */
const READ_IN_PLACE = new Set([
  'network.mtu',
  'receiver.renderRate',
  'receiver.display',
  'receiver.interpolationDelay',
]);

/** What the stream and transport layers build from a configuration (adaptive settings need the switch on). */
function builtFrom(c: Config): unknown {
  const adaptive: Config = { ...c, emitter: { ...c.emitter, adaptiveThresholds: true } };
  const locals = new LocalEntities(c);
  const header = locals.record(locals.define({ entity: 1 }), new EntityStateRecord(0));
  return {
    send: udpOptionsFromConfig(c.network, 'send'),
    receive: udpOptionsFromConfig(c.network, 'receive'),
    filter: receiveFilterFromConfig(c),
    emitter: [
      [1, 1],
      [1, 2],
      [3, 0],
    ].map(([kind, domain]) => [
      emitterOptionsFromConfig(c, kind!, domain!),
      emitterOptionsFromConfig(adaptive, kind!, domain!),
    ]),
    table: tableOptionsFromConfig(c),
    header: [header.protocolVersion, header.exerciseId, header.site, header.application],
    nats: natsOptionsFromConfig(c.nats, { exercise: c.dis.exercise }),
    // The limits count only with a stream named.
    stream: streamSettingsFromConfig({ ...c, nats: { ...c.nats, stream: c.nats.stream ?? 'S' } }),
  };
}

describe('configuration audit', () => {
  const defaults = loadConfig();
  const baseline = JSON.stringify(builtFrom(defaults));

  it('has a changed value for every setting', () => {
    expect(Object.keys(CHANGED).sort()).toEqual(CONFIG_LEAVES.map((l) => l.path).sort());
  });

  it.each(CONFIG_LEAVES.filter((l) => !READ_IN_PLACE.has(l.path)).map((l) => [l.path, l] as const))(
    '%s changes what is built',
    (_path, leaf) => {
      const c = loadConfig({ overrides: { [leaf.section]: { [leaf.key]: CHANGED[leaf.path] } } });
      expect(JSON.stringify(builtFrom(c))).not.toBe(baseline);
    },
  );

  it('network.mtu bounds the datagrams a publisher bundles: 10 PDUs of 144 bytes in 1 datagram of 1472, or 5 of 300', async () => {
    const datagrams = async (mtu?: number) => {
      const transport = new FakeTransport();
      const publisher = await createPublisher(mtu === undefined ? {} : { network: { mtu } }, { transport });
      const truth = createTruthState();
      for (let entity = 1; entity <= 10; entity++) publisher.update(entity, truth, 0);
      await publisher.close({ deactivate: false });
      return transport.sent.map((d) => d.length);
    };
    expect(await datagrams()).toEqual([1440]);
    expect(await datagrams(300)).toEqual([288, 288, 288, 288, 288]);
  });

  it('receiver.renderRate is the rate of frames() when none is given', () => {
    const times: number[] = [];
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold }) => {
      const subscriber = createSubscriber({ receiver: { renderRate: '20 Hz' } }, { transport: new FakeTransport() });
      const frames = subscriber.frames().subscribe((frame) => times.push(Math.round(frame.timeSeconds * 1000)));
      cold('210ms a').subscribe(() => frames.unsubscribe());
    });
    expect(times).toEqual([50, 100, 150, 200]);
  });
});
