/**
 * The `reckon demo` scenario: three simulated entities — a tank on a road course with turns and a halt, a ship in
 * slow turning circles, an aircraft orbiting while it climbs — each published by its own publisher (its own UDP
 * socket and application id) on 127.0.0.1, and one subscriber that dead-reckons and smooths what it receives.
 * The displayed error is measured at a render rate against the true trajectories, and the traffic against a
 * fixed 15 Hz update of every entity.
 */
import { firstValueFrom, type Subscription } from 'rxjs';
import type { Config } from '../../config/schema.js';
import { DR_ALGORITHM_NAMES } from '../../dr/models/algorithm.js';
import { EMIT_REASON_NAMES, emitReasonNames } from '../../dr/owner/emitter.js';
import { createTruthState } from '../../dr/owner/truth-state.js';
import { ENTITY_STATE_BYTES } from '../../pdu/wire/constants.js';
import { entityKey } from '../../pdu/wire/entity-state-record.js';
import { deadReckonEmit, sampleTrajectory } from '../../stream/operators.js';
import { createPublisher, type Publisher } from '../../stream/publisher.js';
import { isEntityEvent, type EntityEvent } from '../../stream/entity-events.js';
import type { EntityFrame } from '../../stream/frame.js';
import { createSubscriber } from '../../stream/subscriber.js';
import {
  totalRejected,
  type DatagramReceiver,
  type DatagramTransport,
  type TransportStats,
} from '../../transport/transport.js';
import { openUdpTransport } from '../../transport/udp.js';
import { ecefToGeodetic, headingPitchRollFromEuler } from '../../math/geodesy.js';
import type { TruthEntity } from '../../view/protocol.js';
import { demoActors } from './scenario.js';
import { setLongTimeout } from '../long-timer.js';

/** The fixed-rate update the demo compares against, Hz. */
export const BASELINE_RATE_HZ = 15;

export interface DemoOptions {
  /** Network (port 0 = a free one), dis, emitter, heartbeat and receiver settings. */
  readonly config: Config;
  readonly durationSeconds: number;
  /** Truth samples per second fed to each emitter. */
  readonly rateHz: number;
  readonly algorithm: number | 'auto';
  /** Error measurements per second. */
  readonly frameRateHz: number;
  readonly signal: AbortSignal;
  /** Called about 4 times a second with the figures so far. */
  readonly onProgress?: (report: DemoReport) => void;
  /** Also gets every datagram the subscriber receives (the live map's gateway). Defaults to none. */
  readonly tap?: DatagramReceiver;
  /** Called 10 times a second with where each entity truly is (the live map's truth layer). Defaults to none. */
  readonly onTruth?: (entities: TruthEntity[]) => void;
}

export interface DemoEntityReport {
  readonly name: string;
  /** "site:application:entity" */
  readonly entityId: string;
  readonly marking: string;
  /** DR algorithm of the last PDU. */
  algorithm: string;
  pdusSent: number;
  bytesSent: number;
  /** Count of PDUs by reason (a PDU may have several). */
  readonly reasons: Record<string, number>;
  lastReasons: string[];
  /** What the subscriber saw. */
  readonly received: { appeared: boolean; updates: number; removed: boolean; marking: string; algorithm: string };
  /** Displayed (subscriber) position against the truth, metres. */
  readonly error: {
    nowMeters: number;
    meanMeters: number;
    rmsMeters: number;
    p95Meters: number;
    maxMeters: number;
    samples: number;
  };
  /** PDUs and bytes a fixed 15 Hz update would have sent over the same time. */
  baselinePdus: number;
  pdusSaved: number;
  savedFraction: number;
  pduRatePerSecond: number;
  bytesPerSecond: number;
  baselineBytesPerSecond: number;
}

export interface DemoReport {
  elapsedSeconds: number;
  readonly durationSeconds: number;
  readonly address: string;
  port: number;
  readonly exercise: number;
  readonly positionThresholdMeters: number;
  readonly orientationThresholdDeg: number;
  stoppedBy: 'running' | 'duration' | 'interrupted';
  readonly entities: DemoEntityReport[];
  readonly totals: {
    pdusSent: number;
    baselinePdus: number;
    pdusSaved: number;
    savedFraction: number;
    bytesSent: number;
    baselineBytes: number;
  };
  readonly receiver: { datagrams: number; pdus: number; rejected: number; entities: number };
}

/** Runs the demo until the duration elapses or the signal aborts. @throws Error when a socket cannot be opened. */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const { config } = options;
  const cast = demoActors();
  const address = config.network.address ?? '127.0.0.1';
  const network = { ...config.network, address };
  // With a tap, the demo opens the socket itself and shares each datagram between the subscriber and the tap.
  const tapped = options.tap ? tapTransport(await openUdpTransport(network, 'receive'), options.tap) : undefined;
  const subscriber = createSubscriber({ ...config, network }, tapped ? { transport: tapped } : {});
  const report: DemoReport = {
    elapsedSeconds: 0,
    durationSeconds: options.durationSeconds,
    address,
    port: 0,
    exercise: config.dis.exercise,
    positionThresholdMeters: config.emitter.positionThreshold,
    orientationThresholdDeg: (config.emitter.orientationThreshold * 180) / Math.PI,
    stoppedBy: 'running',
    entities: [],
    totals: { pdusSent: 0, baselinePdus: 0, pdusSaved: 0, savedFraction: 0, bytesSent: 0, baselineBytes: 0 },
    receiver: { datagrams: 0, pdus: 0, rejected: 0, entities: 0 },
  };
  const errors: number[][] = cast.map(() => []);
  const keys = cast.map((_, i) => entityKey(config.dis.site, applicationId(config, i), 1));
  for (const [i, actor] of cast.entries()) {
    report.entities.push({
      name: actor.name,
      entityId: `${config.dis.site}:${applicationId(config, i)}:1`,
      marking: actor.marking,
      algorithm: '–',
      pdusSent: 0,
      bytesSent: 0,
      reasons: Object.fromEntries(EMIT_REASON_NAMES.map((n) => [n, 0])),
      lastReasons: [],
      received: { appeared: false, updates: 0, removed: false, marking: '', algorithm: '–' },
      error: { nowMeters: NaN, meanMeters: NaN, rmsMeters: NaN, p95Meters: NaN, maxMeters: NaN, samples: 0 },
      baselinePdus: 0,
      pdusSaved: 0,
      savedFraction: 0,
      pduRatePerSecond: NaN,
      bytesPerSecond: NaN,
      baselineBytesPerSecond: BASELINE_RATE_HZ * ENTITY_STATE_BYTES,
    });
  }

  let allRemoved: () => void = () => {};
  const removed = new Promise<void>((resolve) => (allRemoved = resolve));
  const subscriptions: Subscription[] = [];
  const publishers: Publisher[] = [];
  // A socket failure reaches every stream of the subscriber; the first one ends the demo with it.
  let fail: (error: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {}); // observed through the race below
  try {
    const onEvent = (event: EntityEvent): void => {
      const i = keys.indexOf(event.key);
      if (i < 0) return;
      const seen = report.entities[i]!.received;
      seen.marking = event.marking;
      seen.algorithm =
        DR_ALGORITHM_NAMES[event.state.deadReckoning.algorithm] ?? String(event.state.deadReckoning.algorithm);
      if (event.type === 'appeared') seen.appeared = true;
      else if (event.type === 'updated') seen.updates++;
      else if (event.type === 'removed') seen.removed = true;
      if (report.entities.every((e) => e.received.removed)) allRemoved();
    };
    subscriptions.push(
      subscriber.events$.subscribe({ next: (event) => void (isEntityEvent(event) && onEvent(event)), error: fail }),
    );
    const bound = await Promise.race([firstValueFrom(subscriber.listening$), failed]);
    report.port = bound.port;
    const t0Ms = Date.now();
    const truth = createTruthState();
    const onFrame = (frame: EntityFrame): void => {
      for (const [i, actor] of cast.entries()) {
        const slot = frame.table.slotOf(keys[i]!);
        if (slot < 0) continue;
        actor.trajectory.sample(actor.startSeconds + (frame.timeSeconds * 1000 - t0Ms) / 1000, truth);
        const p = truth.location,
          j = 3 * slot,
          q = frame.location;
        const error = Math.hypot(p[0]! - q[j]!, p[1]! - q[j + 1]!, p[2]! - q[j + 2]!);
        errors[i]!.push(error);
        report.entities[i]!.error.nowMeters = error;
      }
    };
    subscriptions.push(subscriber.frames({ rateHz: options.frameRateHz }).subscribe({ next: onFrame, error: fail }));
    for (const [i, actor] of cast.entries()) {
      const publisherConfig = {
        ...config,
        network: { ...config.network, address, port: bound.port },
        dis: { ...config.dis, application: applicationId(config, i) },
      };
      const publisher = await createPublisher(publisherConfig);
      publishers.push(publisher);
      const entity = { entity: 1, marking: actor.marking, entityType: actor.entityType, algorithm: options.algorithm };
      const stats = report.entities[i]!;
      subscriptions.push(
        sampleTrajectory(actor.trajectory, {
          entity,
          rateHz: options.rateHz,
          startSeconds: actor.startSeconds,
          originMs: t0Ms,
          durationSeconds: options.durationSeconds + 5,
        })
          .pipe(deadReckonEmit({ config: publisherConfig, absoluteTimestamps: true }), publisher.transmit())
          .subscribe((pdu) => {
            stats.pdusSent++;
            stats.bytesSent += pdu.record.length;
            stats.algorithm = DR_ALGORITHM_NAMES[pdu.record.drAlgorithm] ?? String(pdu.record.drAlgorithm);
            stats.lastReasons = emitReasonNames(pdu.reasons);
            for (const name of stats.lastReasons) stats.reasons[name]!++;
          }),
      );
    }

    const progress = setInterval(() => {
      update(report, errors, subscriber.stats.transport, (Date.now() - t0Ms) / 1000);
      options.onProgress?.(report);
    }, 250);
    const onTruth = options.onTruth;
    const truthTimer = onTruth && setInterval(() => onTruth(truthNow(cast, report, t0Ms)), 100);
    try {
      report.stoppedBy = await Promise.race([untilDone(options.durationSeconds, options.signal), failed]);
    } finally {
      clearInterval(progress);
      clearInterval(truthTimer);
    }
    for (const s of subscriptions.splice(1)) s.unsubscribe(); // truth, frames: stop sampling and measuring
    update(report, errors, subscriber.stats.transport, (Date.now() - t0Ms) / 1000);
    // Leave notices: the subscriber should see every entity removed at once rather than after a timeout.
    await Promise.all(publishers.splice(0).map((p) => p.close()));
    await Promise.race([removed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    update(report, errors, subscriber.stats.transport, report.elapsedSeconds);
    return report;
  } finally {
    for (const s of subscriptions) s.unsubscribe();
    await Promise.all(publishers.map((p) => p.close({ deactivate: false })));
    await tapped?.close();
  }
}

/** A transport that hands each datagram of `inner` to its receiver and to `tap`; closing it closes `inner`. */
function tapTransport(
  inner: DatagramTransport & { readonly local: { address: string; port: number } },
  tap: DatagramReceiver,
): DatagramTransport & { readonly local: { address: string; port: number } } {
  let receiver: DatagramReceiver | undefined;
  inner.onDatagram((datagram, source) => {
    receiver?.(datagram, source);
    tap(datagram, source);
  });
  return {
    stats: inner.stats,
    local: inner.local,
    send: (datagram, length) => inner.send(datagram, length),
    onDatagram: (r) => void (receiver = r),
    onClose: (listener) => inner.onClose(listener),
    close: () => inner.close(),
  };
}

const truthScratch = createTruthState();
const geodeticScratch = new Float64Array(3);
const attitudeScratch = new Float64Array(3);

/** Where each entity truly is now: WGS-84 latitude, longitude, height and heading from its trajectory. */
function truthNow(cast: ReturnType<typeof demoActors>, report: DemoReport, t0Ms: number): TruthEntity[] {
  const elapsedSeconds = (Date.now() - t0Ms) / 1000;
  return cast.map((actor, i) => {
    actor.trajectory.sample(actor.startSeconds + elapsedSeconds, truthScratch);
    const [x, y, z] = truthScratch.location as unknown as [number, number, number];
    const [latRad, lonRad, altM] = ecefToGeodetic(geodeticScratch, x, y, z) as unknown as [number, number, number];
    const [psi, theta, phi] = truthScratch.orientation as unknown as [number, number, number];
    const headingRad = headingPitchRollFromEuler(attitudeScratch, latRad, lonRad, psi, theta, phi)[0]!;
    const headingDeg = ((((headingRad * 180) / Math.PI) % 360) + 360) % 360;
    const id = report.entities[i]!.entityId;
    return { id, lat: (latRad * 180) / Math.PI, lon: (lonRad * 180) / Math.PI, altM, headingDeg };
  });
}

function applicationId(config: Config, index: number): number {
  return ((config.dis.application - 1 + index) % 0xfffe) + 1;
}

function untilDone(durationSeconds: number, signal: AbortSignal): Promise<'duration' | 'interrupted'> {
  if (signal.aborted) return Promise.resolve('interrupted');
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.clear();
      resolve('interrupted');
    };
    const timer = setLongTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('duration');
    }, durationSeconds * 1000);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Shortest run over which rates (PDUs/s, bytes/s) are given. */
const MIN_RATE_SECONDS = 1;

/** Recomputes the derived figures at `elapsedSeconds`. */
function update(
  report: DemoReport,
  errors: readonly number[][],
  received: TransportStats,
  elapsedSeconds: number,
): void {
  report.elapsedSeconds = elapsedSeconds;
  const t = report.totals;
  t.pdusSent = t.baselinePdus = t.bytesSent = t.baselineBytes = 0;
  for (const [i, e] of report.entities.entries()) {
    // A fixed-rate sender sends at 0, 1/15 s, 2/15 s, …: its first PDU at once, like the owner's.
    e.baselinePdus = Math.floor(BASELINE_RATE_HZ * elapsedSeconds + 1e-9) + 1;
    e.pdusSaved = Math.max(0, e.baselinePdus - e.pdusSent);
    e.savedFraction = e.pdusSaved / e.baselinePdus;
    // A rate over less than a second says nothing yet (one PDU in 50 ms is not 2.9 kB/s): NaN, shown as "–".
    e.pduRatePerSecond = elapsedSeconds >= MIN_RATE_SECONDS ? e.pdusSent / elapsedSeconds : NaN;
    e.bytesPerSecond = elapsedSeconds >= MIN_RATE_SECONDS ? e.bytesSent / elapsedSeconds : NaN;
    Object.assign(e.error, errorFigures(errors[i]!), { nowMeters: e.error.nowMeters });
    t.pdusSent += e.pdusSent;
    t.baselinePdus += e.baselinePdus;
    t.bytesSent += e.bytesSent;
    t.baselineBytes += e.baselinePdus * ENTITY_STATE_BYTES;
  }
  t.pdusSaved = Math.max(0, t.baselinePdus - t.pdusSent);
  t.savedFraction = t.baselinePdus > 0 ? t.pdusSaved / t.baselinePdus : 0;
  report.receiver.datagrams = received.datagramsIn;
  report.receiver.pdus = received.pdusAccepted;
  report.receiver.rejected = totalRejected(received);
  report.receiver.entities = received.entities;
}

function errorFigures(samples: readonly number[]): {
  meanMeters: number;
  rmsMeters: number;
  p95Meters: number;
  maxMeters: number;
  samples: number;
} {
  const n = samples.length;
  if (n === 0) return { meanMeters: NaN, rmsMeters: NaN, p95Meters: NaN, maxMeters: NaN, samples: 0 };
  let sum = 0,
    squares = 0,
    max = 0;
  for (const e of samples) {
    sum += e;
    squares += e * e;
    if (e > max) max = e;
  }
  const sorted = Float64Array.from(samples).sort();
  return {
    meanMeters: sum / n,
    rmsMeters: Math.sqrt(squares / n),
    p95Meters: sorted[Math.min(n - 1, Math.floor(0.95 * n))]!,
    maxMeters: max,
    samples: n,
  };
}
