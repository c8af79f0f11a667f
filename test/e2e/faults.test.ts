// Faults on real UDP on 127.0.0.1: the publisher is the built `reckon publish` in a child process, killed with
// SIGKILL (no leave notice) and started again; the subscriber is in-process, or `reckon subscribe` when it is the
// one killed; a socket dies under a running subscriber (fed by an in-process publisher). Heartbeats are 0.5 s (so
// timeouts are 1.2 s) through a config file. Every wait is for an event or an exit, bounded by a timeout.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, timeout } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { aircraftOrbit, tankRoadCourse } from '../../src/truth/index.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { createSubscriber, type EntitySubscriber } from '../../src/stream/subscriber.js';
import { reckon, within, type Running } from '../support/binary.js';

const HEARTBEAT_SECONDS = 0.5;
const TIMEOUT_SECONDS = 2.4 * HEARTBEAT_SECONDS;
const heartbeat = {
  heartbeatOverrides: { platformLand: `${HEARTBEAT_SECONDS} s`, platformAir: `${HEARTBEAT_SECONDS} s` },
  stationaryHeartbeat: 0,
};
const dir = mkdtempSync(join(tmpdir(), 'reckon-faults-'));
const CONFIG = join(dir, 'heartbeat.json');
writeFileSync(CONFIG, JSON.stringify({ heartbeat }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/** `reckon publish` of a tank (1:1:1) and an aircraft (1:1:2) to 127.0.0.1:`port`, killed after the test if still running. */
function publish(port: number): Running {
  const run = reckon([
    'publish',
    '--entity',
    'tank',
    '--entity',
    'aircraft',
    '--address',
    '127.0.0.1',
    '--port',
    String(port),
    '--config',
    CONFIG,
    '--duration',
    '120',
  ]);
  cleanup.push(() => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    return within(run.exited, 10_000, 'publish to exit');
  });
  return run;
}

/** A tank (1:1:1) published in process to 127.0.0.1:`port` every 50 ms until the test ends. */
async function publishInProcess(port: number): Promise<void> {
  const publisher = await createPublisher({ network: { address: '127.0.0.1', port } });
  const tank = { entity: 1, marking: 'TANK 1' };
  const truth = tankRoadCourse().sample(0, createTruthState());
  const timer = setInterval(() => {
    publisher.update(tank, truth, Date.now() / 1000);
    publisher.flush();
  }, 50);
  cleanup.push(() => {
    clearInterval(timer);
    return publisher.close();
  });
}

async function kill(run: Running): Promise<void> {
  run.child.kill('SIGKILL');
  await within(run.exited, 10_000, 'publish to die');
}

/** An in-process subscriber on an ephemeral port: its events, and `until`, which waits for a condition on them. */
async function listen(subscriber: EntitySubscriber) {
  const events: EntityEvent[] = [];
  let waiters: Array<{ done: () => boolean; resolve: () => void }> = [];
  let failed: (error: unknown) => void = () => {};
  const failure = new Promise<unknown>((resolve) => (failed = resolve));
  const subscription = subscriber.entityEvents$.subscribe({
    next(event) {
      events.push(event);
      waiters = waiters.filter((w) => {
        if (!w.done()) return true;
        w.resolve();
        return false;
      });
    },
    error: (error) => failed(error),
  });
  cleanup.push(() => subscription.unsubscribe());
  const { port } = await firstValueFrom(subscriber.listening$.pipe(timeout(5000)));
  const until = (what: string, done: () => boolean, ms = 30_000) =>
    done() ? Promise.resolve() : within(new Promise<void>((resolve) => waiters.push({ done, resolve })), ms, what);
  return { port, events, until, failure: (ms = 5000) => within(failure, ms, 'the events stream to error') };
}

const count = (events: readonly EntityEvent[], type: string, entity?: number) =>
  events.filter((e) => e.type === type && (entity === undefined || e.entityId.entity === entity)).length;

function subscriberOnLoopback(): EntitySubscriber {
  return createSubscriber({ network: { address: '127.0.0.1', port: 0 }, heartbeat }, { expireIntervalSeconds: 0.05 });
}

describe('publisher faults', () => {
  it('killed mid-stream: its entities time out after 2.4 × heartbeat and are removed from the table', async () => {
    const subscriber = subscriberOnLoopback();
    const { port, events, until } = await listen(subscriber);
    const publisher = publish(port);
    await until(
      'both entities to update twice',
      () => count(events, 'updated', 1) >= 2 && count(events, 'updated', 2) >= 2,
    );
    await kill(publisher);
    await until('both entities to time out', () => count(events, 'timedOut') === 2);
    expect(count(events, 'removed')).toBe(0); // SIGKILL: no leave notice was sent
    for (const entity of [1, 2]) {
      const mine = events.filter((e) => e.entityId.entity === entity);
      const out = mine.findIndex((e) => e.type === 'timedOut');
      expect(out).toBe(mine.length - 1);
      // Event times may be rounded by up to a DIS timestamp unit (3600 / 2³¹ s): that much slack.
      expect(mine[out]!.timeSeconds - mine[out - 1]!.timeSeconds).toBeGreaterThanOrEqual(
        TIMEOUT_SECONDS - 3600 / 2 ** 31,
      );
    }
    expect(subscriber.table!.size).toBe(0);
    expect(subscriber.stats.transport.timeouts).toBe(2);
  });

  it('restarted, its clock started again: the entities keep updating, with no time-out and no second entity', async () => {
    // In process: a restart far quicker than the 12 s timeout of the default 5 s heartbeat, with the timestamps
    // (relative, from the publisher's own clock) going back from 100 s to 0.5 s.
    const subscriber = createSubscriber(
      { network: { address: '127.0.0.1', port: 0 } },
      { expireIntervalSeconds: 0.05 },
    );
    const { port, events, until } = await listen(subscriber);
    const cast = [
      { entity: { entity: 1, marking: 'TANK 1' }, trajectory: tankRoadCourse() },
      { entity: { entity: 2, marking: 'AIRCRAFT 1' }, trajectory: aircraftOrbit() },
    ];
    const truth = createTruthState();
    const run = async (times: readonly number[]) => {
      const publisher = await createPublisher({ network: { address: '127.0.0.1', port } });
      for (const t of times) {
        for (const c of cast) {
          c.trajectory.sample(t, truth);
          publisher.update(c.entity, truth, t);
        }
        publisher.flush();
        await until(
          `the PDUs of ${t} s`,
          () => events.filter((e) => Math.abs(e.state.timestamp.secondsPastHour - t) < 1e-3).length >= 2,
        );
      }
      await publisher.close({ deactivate: false }); // gone without a leave notice, as a killed process
    };
    await run([100, 106]);
    const seen = events.length;
    await run([0.5, 6, 11.5]); // a heartbeat (5 s) apart: each is sent
    expect(events.slice(seen).map((e) => e.type)).toEqual(Array(6).fill('updated'));
    expect(subscriber.table!.size).toBe(2);
    expect(subscriber.table!.stats.restarts).toBe(2);
  });

  it('killed, timed out and started again: each entity reappears once, no duplicates', async () => {
    const subscriber = subscriberOnLoopback();
    const { port, events, until } = await listen(subscriber);
    const first = publish(port);
    await until('both entities to appear', () => count(events, 'appeared') === 2);
    await kill(first);
    await until('both entities to time out', () => count(events, 'timedOut') === 2);
    const second = publish(port);
    const back = () => count(events, 'appeared') === 4 && events.slice(-4).every((e) => e.type === 'updated');
    await until('both entities to reappear and update', back);
    await kill(second);
    for (const entity of [1, 2]) expect(count(events, 'appeared', entity)).toBe(2);
    expect(subscriber.table!.size).toBe(2);
    expect(new Set(events.map((e) => e.key)).size).toBe(2);
  });
});

describe('subscriber faults', () => {
  it('`reckon subscribe` killed and started again on the same port picks the entities up again', async () => {
    const args = ['subscribe', '--address', '127.0.0.1', '--json', '--config', CONFIG, '--duration', '60'];
    const first = reckon([...args, '--port', '0']);
    cleanup.push(() => {
      first.child.kill('SIGKILL');
      return within(first.exited, 10_000, 'subscribe to exit');
    });
    const [, port] = await first.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 30_000);
    publish(Number(port));
    await first.waitFor(/"type":"appeared".*"entity":2|"entity":2.*"type":"appeared"/, 30_000);
    first.child.kill('SIGKILL');
    await within(first.exited, 10_000, 'subscribe to die');
    const second = reckon([...args, '--port', port!]);
    cleanup.push(() => {
      second.child.kill('SIGKILL');
      return within(second.exited, 10_000, 'subscribe to exit');
    });
    await second.waitFor(/listening on 127\.0\.0\.1 port/, 30_000);
    // Both entities appear again in the new process, each once, then keep updating.
    await second.waitFor(/("type":"updated"[^\n]*\n[\s\S]*){6}/, 30_000);
    second.child.kill('SIGINT');
    expect(await within(second.exited, 10_000, 'subscribe to stop')).toBe(0);
    const lines = second
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EntityEvent);
    for (const entity of [1, 2]) {
      const mine = lines.filter((e) => e.entityId.entity === entity);
      expect(mine[0]?.type).toBe('appeared');
      expect(mine.filter((e) => e.type === 'appeared')).toHaveLength(1);
    }
    expect(second.stderr()).toMatch(/entities {2}2 seen/);
  });

  it('a socket that fails under a running subscriber ends its streams with the error, once; nothing is thrown', async () => {
    const subscriber = subscriberOnLoopback();
    const { port, events, until, failure } = await listen(subscriber);
    const frameErrors: unknown[] = [];
    const frames = subscriber.frames({ rateHz: 20 }).subscribe({ error: (e) => frameErrors.push(e) });
    cleanup.push(() => frames.unsubscribe());
    await publishInProcess(port);
    await until('an entity to appear', () => count(events, 'appeared') >= 1);
    // The operating system reports an error on the bound socket (as for ENOBUFS or a network interface going away).
    const socket = (subscriber as unknown as { transport: { socket: import('node:dgram').Socket } }).transport.socket;
    socket.emit('error', Object.assign(new Error('recvmsg ENOBUFS'), { code: 'ENOBUFS' }));
    expect(String(await failure())).toMatch(/UDP socket failed: recvmsg ENOBUFS/);
    expect(frameErrors).toHaveLength(1);
    expect(subscriber.local).toBeUndefined(); // the socket was released
  });

  it('a socket closed under a running subscriber is reported as an error, not a silent stop', async () => {
    const subscriber = subscriberOnLoopback();
    const { until, events, failure, port } = await listen(subscriber);
    await publishInProcess(port);
    await until('an entity to appear', () => count(events, 'appeared') >= 1);
    const socket = (subscriber as unknown as { transport: { socket: import('node:dgram').Socket } }).transport.socket;
    socket.close();
    expect(String(await failure())).toMatch(/UDP socket closed/);
    expect(subscriber.local).toBeUndefined();
    // The subscriber is not broken: a new subscription binds a new socket.
    const again = await listen(subscriber);
    expect(again.port).toBeGreaterThan(0);
  });
});
