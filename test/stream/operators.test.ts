// deadReckonEmit and sampleTrajectory in virtual time: PDUs leave exactly when a reference emitter, fed the same
// samples, decides to send; heartbeats fall on the heartbeat; the stream completes on time.
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { DeadReckoningEmitter, EMIT_FIRST, EMIT_HEARTBEAT } from '../../src/dr/owner/emitter.js';
import { createTruthState, type TruthState } from '../../src/dr/owner/truth-state.js';
import { aircraftOrbit, tankRoadCourse } from '../../src/truth/index.js';
import type { Trajectory } from '../../src/truth/trajectory.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { deadReckonEmit, sampleTrajectory } from '../../src/stream/operators.js';

function testScheduler(): TestScheduler {
  const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  scheduler.maxFrames = Number.POSITIVE_INFINITY; // flush() outside run() stops at 750 virtual ms otherwise
  return scheduler;
}

/** An entity that never moves. */
const parked: Trajectory = {
  name: 'parked',
  durationSeconds: 60,
  sample(_t: number, out: TruthState) {
    out.location.set([-2_700_000, -4_300_000, 3_800_000]);
    return out;
  },
};

describe('deadReckonEmit', () => {
  it('sends a parked entity on first sight and then on the stationary heartbeat (HBT_STATIONARY, 60 s)', () => {
    testScheduler().run(({ expectObservable }) => {
      const emitted$ = sampleTrajectory(parked, { entity: 7, rateHz: 10, durationSeconds: 130 }).pipe(
        deadReckonEmit(),
        map((pdu) => pdu.reasons),
      );
      expectObservable(emitted$).toBe('a 59999ms b 59999ms b 9999ms |', { a: EMIT_FIRST, b: EMIT_HEARTBEAT });
    });
  });

  it('sends a parked entity on the 5 s heartbeat when the stationary heartbeat is off', () => {
    testScheduler().run(({ expectObservable }) => {
      const emitted$ = sampleTrajectory(parked, { entity: 7, rateHz: 10, durationSeconds: 12 }).pipe(
        deadReckonEmit({ config: { heartbeat: { stationaryHeartbeat: 0 } } }),
        map((pdu) => pdu.reasons),
      );
      expectObservable(emitted$).toBe('a 4999ms b 4999ms b 1999ms |', { a: EMIT_FIRST, b: EMIT_HEARTBEAT });
    });
  });

  it.each([
    ['tank road course (auto)', tankRoadCourse(), 'auto' as const, 0],
    ['aircraft orbit (RVW)', aircraftOrbit(), 4, 0],
  ])('emits exactly when a reference emitter does: %s', (_name, trajectory, algorithm, startSeconds) => {
    const scheduler = testScheduler();
    const rateHz = 20;
    const durationSeconds = 60;
    const actual: Array<[number, number, number[]]> = [];
    let completed = false;
    sampleTrajectory(trajectory, {
      entity: { entity: 3, marking: 'UNDER TEST', algorithm },
      rateHz,
      startSeconds,
      durationSeconds,
      scheduler,
    })
      .pipe(deadReckonEmit({ config: { dis: { site: 5, application: 6, exercise: 9 } } }))
      .subscribe({
        next: (pdu) => {
          expect(pdu.entity).toBe(3);
          expect([pdu.record.site, pdu.record.application, pdu.record.entity, pdu.record.exerciseId]).toEqual([
            5, 6, 3, 9,
          ]);
          expect(markingText(pdu.record)).toBe('UNDER TEST');
          expect(pdu.record.timestampRaw).toBe(timestampFromSeconds(pdu.timeSeconds, false));
          actual.push([pdu.timeSeconds, pdu.reasons, [...pdu.record.location, pdu.record.drAlgorithm]]);
        },
        complete: () => (completed = true),
      });
    scheduler.flush();
    expect(completed).toBe(true);

    // The reference: the same emitter fed the same samples, by hand.
    const emitter = new DeadReckoningEmitter({ algorithm });
    const truth = createTruthState();
    const record = new EntityStateRecord(0);
    const expected: Array<[number, number, number[]]> = [];
    const periodMs = 1000 / rateHz;
    for (let k = 0; k * periodMs <= durationSeconds * 1000 + 1e-9; k++) {
      const tMs = Math.round(k * periodMs); // the virtual scheduler's integer-millisecond clock
      const tSeconds = Math.min(tMs / 1000, durationSeconds);
      trajectory.sample(startSeconds + tSeconds, truth);
      const reasons = emitter.update(truth, tMs / 1000, record);
      if (reasons !== 0) expected.push([tMs / 1000, reasons, [...record.location, record.drAlgorithm]]);
    }
    expect(actual.length).toBeGreaterThan(3);
    expect(actual).toEqual(expected);
  });

  it('keeps one emitter per entity and per subscription', () => {
    const scheduler = testScheduler();
    const operator = deadReckonEmit();
    const counts = [0, 0];
    for (const i of [0, 1]) {
      sampleTrajectory(parked, { entity: 1, rateHz: 10, durationSeconds: 1, scheduler })
        .pipe(operator)
        .subscribe(() => counts[i]!++);
    }
    scheduler.flush();
    expect(counts).toEqual([1, 1]); // each subscription saw its own first sight
  });

  it('reports an entity number out of range on the error channel', () => {
    const scheduler = testScheduler();
    let error: unknown;
    sampleTrajectory(parked, { entity: 70_000, durationSeconds: 1, scheduler })
      .pipe(deadReckonEmit())
      .subscribe({ error: (e) => (error = e) });
    scheduler.flush();
    expect(String(error)).toMatch(/entity number must be a whole number from 1 to 65534/);
  });
});
