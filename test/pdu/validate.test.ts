/**
 * validateEntityState: each value no entity can have gets its own status code, written into the bytes of a PDU
 * taken from the standard's layout (test/fixtures/pdu) at the field's wire offset; values inside the bounds pass;
 * and the bounds left off (orientation size, acceleration, angular velocity) cannot make dead reckoning non-finite.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_STATE_FIXTURES, ENTITY_STATE_UPDATE_HEX } from '../fixtures/pdu/entity-state.js';
import { deadReckon } from '../../src/dr/models/model.js';
import { EntityStateOffset as ES, EntityStateUpdateOffset as ESU } from '../../src/pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { CodecStatus, codecStatusName, isValidationStatus, type CodecStatusName } from '../../src/pdu/wire/status.js';
import {
  MAX_LOCATION_METERS,
  MAX_SPEED_METERS_PER_SECOND,
  validateEntityState,
} from '../../src/pdu/checks/validate.js';

const fullPdu = () => Uint8Array.from(Buffer.from(ENTITY_STATE_FIXTURES[0]!.hex, 'hex')); // 1:3001:15, v5
const updatePdu = () => Uint8Array.from(Buffer.from(ENTITY_STATE_UPDATE_HEX, 'hex'));

type Edit = (view: DataView, motion: number) => void;

/** Decodes `bytes` after `edit` (`motion` is the offset of the linear velocity: the layout shifts in type 67). */
function statusAfter(bytes: Uint8Array, edit: Edit): number {
  const view = new DataView(bytes.buffer);
  const motion = bytes[2] === 1 ? ES.LINEAR_VELOCITY : ESU.LINEAR_VELOCITY;
  edit(view, motion);
  const record = new EntityStateRecord();
  expect(decodeEntityStateOrUpdateInto(record, bytes)).toBe(CodecStatus.OK);
  return validateEntityState(record);
}

// Linear velocity at +0, location at +12 (float64), orientation at +36: the same in both PDU types.
const MOTION_CASES: ReadonlyArray<[string, Edit, CodecStatusName]> = [
  ['site 0', (v) => v.setUint16(12, 0), 'ENTITY_ID_NONE'],
  ['application 0', (v) => v.setUint16(14, 0), 'ENTITY_ID_NONE'],
  ['entity 0', (v) => v.setUint16(16, 0), 'ENTITY_ID_NONE'],
  ['site 65535', (v) => v.setUint16(12, 0xffff), 'ENTITY_ID_ALL'],
  ['application 65535', (v) => v.setUint16(14, 0xffff), 'ENTITY_ID_ALL'],
  ['entity 65535', (v) => v.setUint16(16, 0xffff), 'ENTITY_ID_ALL'],
  ['location x NaN', (v, m) => v.setFloat64(m + 12, NaN), 'LOCATION_NOT_FINITE'],
  ['location y +Infinity', (v, m) => v.setFloat64(m + 20, Infinity), 'LOCATION_NOT_FINITE'],
  ['location z -Infinity', (v, m) => v.setFloat64(m + 28, -Infinity), 'LOCATION_NOT_FINITE'],
  ['location x 1.000001e9 m', (v, m) => v.setFloat64(m + 12, 1.000001e9), 'LOCATION_OUT_OF_RANGE'],
  ['location z -1e300 m', (v, m) => v.setFloat64(m + 28, -1e300), 'LOCATION_OUT_OF_RANGE'],
  ['velocity x NaN', (v, m) => v.setFloat32(m, NaN), 'VELOCITY_NOT_FINITE'],
  ['velocity z -Infinity', (v, m) => v.setFloat32(m + 8, -Infinity), 'VELOCITY_NOT_FINITE'],
  ['speed 1.1e5 m/s', (v, m) => v.setFloat32(m + 4, 1.1e5), 'VELOCITY_OUT_OF_RANGE'],
  [
    'speed 8e4 m/s on two axes (1.13e5 m/s)',
    (v, m) => {
      v.setFloat32(m, 8e4);
      v.setFloat32(m + 4, 8e4);
    },
    'VELOCITY_OUT_OF_RANGE',
  ],
  ['psi NaN', (v, m) => v.setFloat32(m + 36, NaN), 'ORIENTATION_NOT_FINITE'],
  ['phi +Infinity', (v, m) => v.setFloat32(m + 44, Infinity), 'ORIENTATION_NOT_FINITE'],
];

const DR_CASES: ReadonlyArray<[string, Edit, CodecStatusName]> = [
  ['DR algorithm 10', (v) => v.setUint8(ES.DR_ALGORITHM, 10), 'DR_ALGORITHM_INVALID'],
  ['DR algorithm 255', (v) => v.setUint8(ES.DR_ALGORITHM, 255), 'DR_ALGORITHM_INVALID'],
  ['acceleration x NaN', (v) => v.setFloat32(ES.DR_LINEAR_ACCELERATION, NaN), 'ACCELERATION_NOT_FINITE'],
  ['acceleration z +Infinity', (v) => v.setFloat32(ES.DR_LINEAR_ACCELERATION + 8, Infinity), 'ACCELERATION_NOT_FINITE'],
  [
    'angular velocity y -Infinity',
    (v) => v.setFloat32(ES.DR_ANGULAR_VELOCITY + 4, -Infinity),
    'ANGULAR_VELOCITY_NOT_FINITE',
  ],
  ['angular velocity z NaN', (v) => v.setFloat32(ES.DR_ANGULAR_VELOCITY + 8, NaN), 'ANGULAR_VELOCITY_NOT_FINITE'],
];

describe('validateEntityState', () => {
  it('accepts the fixtures as the standard lays them out', () => {
    expect(statusAfter(fullPdu(), () => {})).toBe(CodecStatus.OK);
    expect(statusAfter(updatePdu(), () => {})).toBe(CodecStatus.OK);
  });

  it.each(MOTION_CASES)('Entity State PDU with %s: %s', (_, edit, code) => {
    expect(codecStatusName(statusAfter(fullPdu(), edit))).toBe(code);
  });

  it.each(MOTION_CASES)('Entity State Update PDU with %s: %s', (_, edit, code) => {
    expect(codecStatusName(statusAfter(updatePdu(), edit))).toBe(code);
  });

  it.each(DR_CASES)('Entity State PDU with %s: %s', (_, edit, code) => {
    expect(codecStatusName(statusAfter(fullPdu(), edit))).toBe(code);
  });

  it('gives every validation failure its own code, distinct from the codec codes', () => {
    const codes = new Set([...MOTION_CASES, ...DR_CASES].map(([, , code]) => CodecStatus[code]));
    expect(codes.size).toBe(10);
    for (const code of codes) expect(isValidationStatus(code)).toBe(true);
    for (const code of [CodecStatus.OK, CodecStatus.TRUNCATED, CodecStatus.BUFFER_TOO_SMALL])
      expect(isValidationStatus(code)).toBe(false);
  });

  it('accepts the edges: ids 1 and 65534, |coordinate| = 1e9 m, speed = 1e5 m/s, DR algorithms 0–9', () => {
    const edges: Edit[] = [
      (v) => {
        v.setUint16(12, 1);
        v.setUint16(14, 65534);
        v.setUint16(16, 65534);
      },
      (v, m) => {
        v.setFloat64(m + 12, MAX_LOCATION_METERS);
        v.setFloat64(m + 20, -MAX_LOCATION_METERS);
      },
      (v, m) => {
        v.setFloat32(m, 0);
        v.setFloat32(m + 4, -MAX_SPEED_METERS_PER_SECOND);
        v.setFloat32(m + 8, 0);
      },
      ...Array.from(
        { length: 10 },
        (_, a): Edit =>
          (v) =>
            v.setUint8(ES.DR_ALGORITHM, a),
      ),
      (v) => v.setFloat32(ES.DR_ANGULAR_VELOCITY, 3.4e38), // finite: no bound (see the dead-reckoning property below)
    ];
    for (const edit of edges) expect(statusAfter(fullPdu(), edit)).toBe(CodecStatus.OK);
  });

  it('the record is left as decoded: the values on the wire stay readable for diagnostics', () => {
    const record = new EntityStateRecord();
    const bytes = fullPdu();
    new DataView(bytes.buffer).setFloat64(ES.LOCATION, NaN);
    decodeEntityStateOrUpdateInto(record, bytes);
    expect(validateEntityState(record)).toBe(CodecStatus.LOCATION_NOT_FINITE);
    expect(record.location[0]).toBeNaN();
    expect(record.entity).toBe(15);
  });

  it('what it accepts dead-reckons to finite values for an hour, whatever the float32 acceleration and rates (property)', () => {
    const float32 = fc.float({ noNaN: true, noDefaultInfinity: true });
    const coordinate = fc.double({ min: -MAX_LOCATION_METERS, max: MAX_LOCATION_METERS, noNaN: true });
    const speedComponent = fc.float({ min: -5.7e4, max: 5.7e4, noNaN: true }); // |v| ≤ √3 · 5.7e4 < 1e5
    const vec = <T>(a: fc.Arbitrary<T>) => fc.tuple(a, a, a);
    const record = new EntityStateRecord(0);
    fc.assert(
      fc.property(
        vec(coordinate),
        vec(speedComponent),
        vec(float32),
        fc.integer({ min: 0, max: 9 }),
        vec(float32),
        vec(float32),
        fc.double({ min: 0, max: 3600, noNaN: true }),
        (location, velocity, orientation, algorithm, acceleration, angularVelocity, dtSeconds) => {
          record.site = record.application = record.entity = 1;
          record.location.set(location);
          record.linearVelocity.set(velocity);
          record.orientation.set(orientation);
          record.drAlgorithm = algorithm;
          record.linearAcceleration.set(acceleration);
          record.angularVelocity.set(angularVelocity);
          if (validateEntityState(record) !== CodecStatus.OK) return false;
          const deadReckoning = { algorithm, linearAcceleration: acceleration, angularVelocity };
          const result = deadReckon({ location, linearVelocity: velocity, orientation, deadReckoning }, dtSeconds);
          return [...result.location, ...result.orientation].every(Number.isFinite);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
