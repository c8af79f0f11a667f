// Display mode 'interpolate' in virtual time: frames show entities interpolationDelay in the past, interpolated
// between the two received states around that time, held at the first state of a new entity, and dead-reckoned by
// the table's own model beyond the newest state; 'extrapolate' (the default) is unchanged.
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { DR_FPW, DR_RVW } from '../../src/dr/models/algorithm.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import type { TableEvent } from '../../src/dr/receiver/table-results.js';
import { InterpolationStatus } from '../../src/dr/receiver/snapshot-interpolation.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import type { StreamConfig } from '../../src/stream/settings.js';
import { InterpolatedView } from '../../src/stream/interpolated-view.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import { FakeTransport } from '../support/fake-transport.js';

const LOCATION = [-2_700_000, -4_300_000, 3_800_000];

interface State {
  readonly x: number;
  readonly psi: number;
  readonly algorithm: number;
  readonly yawRate?: number;
}

function pdu(tSeconds: number, s: State): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 2;
  r.entity = 3;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.location.set([LOCATION[0]! + s.x, LOCATION[1]!, LOCATION[2]!]);
  r.linearVelocity.set([10, 0, 0]);
  r.orientation.set([s.psi, 0, 0]);
  r.angularVelocity.set([0, 0, s.yawRate ?? 0]);
  r.drAlgorithm = s.algorithm;
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

interface Shown {
  /** Scheduler time of the frame, ms. */
  readonly atMs: number;
  readonly timeSeconds: number;
  readonly dx: number;
  readonly psi: number;
  readonly status: number | undefined;
}

/**
 * Delivers `deliveries` (scheduler ms → PDU) to a subscriber and records its frames at 10 Hz until `untilMs`:
 * the displayed x offset from LOCATION, ψ and the interpolation status of the one entity.
 */
function framesOf(
  config: StreamConfig,
  deliveries: ReadonlyArray<readonly [number, Uint8Array]>,
  untilMs: number,
): Shown[] {
  const shown: Shown[] = [];
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ cold }) => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber(config, { transport });
    const frames = subscriber.frames({ rateHz: 10 }).subscribe((frame) => {
      for (let slot = 0; slot < frame.slotCount; slot++) {
        if (frame.active[slot] !== 1) continue;
        shown.push({
          atMs: scheduler.now(),
          timeSeconds: frame.timeSeconds,
          dx: frame.location[3 * slot]! - LOCATION[0]!,
          psi: frame.orientation[3 * slot]!,
          status: frame.interpolation[slot],
        });
      }
    });
    for (const [atMs, bytes] of deliveries) cold(`${atMs}ms a`).subscribe(() => transport.deliver(bytes));
    cold(`${untilMs}ms a`).subscribe(() => frames.unsubscribe());
  });
  return shown;
}

const INTERPOLATE = { receiver: { display: 'interpolate', interpolationDelay: '200 ms', smoothing: 'snap' } } as const;

/** The frame that shows render time `renderMs`. */
function shownAt(shown: readonly Shown[], renderMs: number): Shown {
  return shown.find((s) => Math.round(s.timeSeconds * 1000) === renderMs)!;
}

describe("receiver.display 'interpolate'", () => {
  // States at 0.05 s (x 0, ψ 0) and 1.05 s (x 12, ψ 0.2), both moving at 10 m/s with FPW.
  const deliveries = [
    [50, pdu(0, { x: 0, psi: 0, algorithm: DR_FPW })],
    [1050, pdu(1, { x: 12, psi: 0.2, algorithm: DR_FPW })],
  ] as const;

  it('shows entities a delay in the past: held, dead-reckoned from the newest state, then interpolated', () => {
    const shown = framesOf(INTERPOLATE, deliveries, 1350);
    for (const s of shown) expect(s.timeSeconds).toBeCloseTo(s.atMs / 1000 - 0.2, 12);
    const at = (renderMs: number) => shownAt(shown, renderMs);
    // Render time 0 s, before the first state (0.05 s): held there.
    expect(at(0).status).toBe(InterpolationStatus.BEFORE_OLDEST);
    expect([at(0).dx, at(0).psi]).toEqual([0, expect.closeTo(0, 12)]);
    // Render time 0.8 s (at 1.0 s, before the second PDU): beyond the only state, its own DR, 10 m/s × 0.75 s.
    expect(at(800).status).toBe(InterpolationStatus.BEYOND_NEWEST);
    expect(at(800).dx).toBeCloseTo(7.5, 6);
    // Render time 1.0 s, 95 % of the way from the state at 0.05 s to the one at 1.05 s.
    expect(at(1000).status).toBe(InterpolationStatus.INTERPOLATED);
    expect(at(1000).dx).toBeCloseTo(0.95 * 12, 6);
    expect(at(1000).psi).toBeCloseTo(0.95 * 0.2, 6);
    // Render time 1.1 s, 50 ms beyond the newest state: its DR, 12 m + 10 m/s × 0.05 s, ψ held (FPW).
    expect(at(1100).status).toBe(InterpolationStatus.BEYOND_NEWEST);
    expect(at(1100).dx).toBeCloseTo(12.5, 6);
    expect(at(1100).psi).toBeCloseTo(0.2, 6);
  });

  it("is opt-in: 'extrapolate' frames show the present, dead-reckoned, and no interpolation status", () => {
    const shown = framesOf({ receiver: { smoothing: 'snap' } }, deliveries, 1250);
    for (const s of shown) expect(s.timeSeconds).toBeCloseTo(s.atMs / 1000, 12);
    const at = (ms: number) => shownAt(shown, ms);
    expect(at(1000).dx).toBeCloseTo(9.5, 6); // 10 m/s × 0.95 s from the first state
    expect(at(1100).dx).toBeCloseTo(12.5, 6); // the second state's DR, 50 ms on
    expect(at(1100).status).toBeUndefined();
  });

  it("beyond the newest state, follows the table's own dead reckoning, rotation included (RVW)", () => {
    const turning = pdu(0, { x: 0, psi: 0.1, algorithm: DR_RVW, yawRate: 0.5 });
    const shown = framesOf(INTERPOLATE, [[50, turning]], 1350);
    // A table of its own, given the same PDU at the same arrival time, dead-reckoned to each render time.
    const table = new RemoteEntityTable({ capacity: 1 });
    const record = new EntityStateRecord();
    decodeEntityStateInto(record, turning);
    table.apply(record, 0.05);
    const beyond = shown.filter((s) => s.status === InterpolationStatus.BEYOND_NEWEST);
    expect(beyond.length).toBeGreaterThan(5);
    for (const s of beyond) {
      table.extrapolate(s.timeSeconds);
      expect(s.dx, `x at ${s.timeSeconds} s`).toBeCloseTo(table.location[0]! - LOCATION[0]!, 9);
      expect(s.psi, `ψ at ${s.timeSeconds} s`).toBeCloseTo(table.orientation[0]!, 9);
    }
    expect(beyond.at(-1)!.psi).toBeCloseTo(0.1 + 0.5 * (1.1 - 0.05), 3); // it really turns
  });

  it('records each PDU as it arrives without loading it into the models: the table resolves once per frame', () => {
    const view = new InterpolatedView(2, 0.1);
    const onEvent = (kind: TableEvent, slot: number) => view.onTableEvent(kind, slot, table);
    const table: RemoteEntityTable = new RemoteEntityTable({ capacity: 2, onEvent });
    const resolve = vi.spyOn(table, 'resolve');
    const record = new EntityStateRecord();
    // Five PDUs 50 ms apart, x 0…4 m and ψ 0…0.4 rad, arriving at their timestamps.
    for (let i = 0; i < 5; i++) {
      decodeEntityStateInto(record, pdu(0.05 * i, { x: i, psi: 0.1 * i, algorithm: DR_FPW }));
      table.apply(record, 0.05 * i);
    }
    expect(resolve).not.toHaveBeenCalled();
    // Render time 0.125 s: halfway between the states received at 0.1 s and 0.15 s.
    view.render(table, 0.225);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(view.status[0]).toBe(InterpolationStatus.INTERPOLATED);
    expect(view.location[0]! - LOCATION[0]!).toBeCloseTo(2.5, 6);
    expect(view.orientation[0]).toBeCloseTo(0.25, 6);
  });
});
