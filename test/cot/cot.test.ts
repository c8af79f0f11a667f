// DIS → CoT: the mapping (force and kind/domain → type, uid, callsign, course/speed), the frames → events operator
// in virtual time (rate, appearance, type change, departure, timeout, stale times, dead-reckoned positions), events
// read back with the same XML library, hostile markings, and a real capture replayed through it.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { encodeCotEvent, parseCotEvent, type CotEventFields } from '../../src/cot/event.js';
import {
  affiliationForForce,
  cotTypeFor,
  cotUid,
  courseAndSpeed,
  stripControlCharacters,
} from '../../src/cot/mapping.js';
import { cotEvents, type CotEvent } from '../../src/cot/operator.js';
import { DR_FPW, DR_RVB } from '../../src/dr/models/algorithm.js';
import { ecefToGeodeticDegrees, eulerFromHeadingPitchRoll, geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import type { StreamConfig } from '../../src/stream/settings.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import { FakeTransport } from '../support/fake-transport.js';

/** Characters XML 1.0 allows (§2.2 Char), as a test of the output independent of the sanitiser's own list. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

// A point near Monterey, 0 m above the ellipsoid, and ECEF velocities of 10 m/s due north and due east there,
// from finite differences of the geodetic → ECEF conversion (independent of the ENU matrix).
const LAT = 36.6,
  LON = -121.9;
const ORIGIN = geodeticDegreesToEcef(new Float64Array(3), LAT, LON, 0);
function velocityToward(dLatDeg: number, dLonDeg: number, speedMps: number): number[] {
  const p = geodeticDegreesToEcef(new Float64Array(3), LAT + dLatDeg, LON + dLonDeg, 0);
  const d = [p[0]! - ORIGIN[0]!, p[1]! - ORIGIN[1]!, p[2]! - ORIGIN[2]!];
  const n = Math.hypot(d[0]!, d[1]!, d[2]!);
  return d.map((c) => (c / n) * speedMps);
}
const NORTH_10 = velocityToward(1e-6, 0, 10);
const EAST_10 = velocityToward(0, 1e-6, 10);

interface Pdu {
  readonly entity?: number;
  readonly force?: number;
  readonly kind?: number;
  readonly domain?: number;
  readonly marking?: Uint8Array | string;
  readonly velocity?: readonly number[];
  readonly algorithm?: number;
  readonly appearance?: number;
  readonly orientation?: readonly number[];
  readonly angularVelocity?: readonly number[];
  readonly tSeconds: number;
}

function pdu(p: Pdu): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 3001;
  r.entity = p.entity ?? 54;
  r.forceId = p.force ?? 1;
  r.entityType.set([p.kind ?? 1, p.domain ?? 1, 225, 1, 1, 3, 0]);
  const marking =
    typeof p.marking === 'string'
      ? new TextEncoder().encode(p.marking)
      : (p.marking ?? new TextEncoder().encode('TANK 1'));
  r.markingCharacterSet = 1;
  r.markingBytes.fill(0);
  r.markingBytes.set(marking.subarray(0, 11));
  r.location.set(ORIGIN);
  r.linearVelocity.set(p.velocity ?? [0, 0, 0]);
  r.orientation.set(p.orientation ?? [0, 0, 0]);
  r.angularVelocity.set(p.angularVelocity ?? [0, 0, 0]);
  r.drAlgorithm = p.algorithm ?? DR_FPW;
  r.appearance = p.appearance ?? 0;
  r.timestampRaw = timestampFromSeconds(p.tSeconds, false);
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

/**
 * Delivers datagrams at scheduler times (ms) to a subscriber on a fake transport and collects the CoT events of
 * its frames (10 Hz) until `untilMs`.
 */
function eventsOf(
  deliveries: ReadonlyArray<readonly [number, Uint8Array]>,
  untilMs: number,
  options: { rateHz?: number; uidPrefix?: string; config?: StreamConfig; withoutDepartures?: boolean } = {},
): Array<CotEvent & { atMs: number }> {
  const events: Array<CotEvent & { atMs: number }> = [];
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ cold }) => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({ receiver: { smoothing: 'snap' }, ...options.config }, { transport });
    const sub = subscriber
      .frames({ rateHz: 10 })
      .pipe(
        cotEvents({
          rateHz: options.rateHz ?? 1,
          uidPrefix: options.uidPrefix ?? 'DIS',
          ...(options.withoutDepartures ? {} : { departures: subscriber.departures$ }),
        }),
      )
      .subscribe((e) => events.push({ ...e, atMs: scheduler.now() }));
    for (const [atMs, bytes] of deliveries) cold(`${atMs}ms a`).subscribe(() => transport.deliver(bytes));
    cold(`${untilMs}ms a`).subscribe(() => sub.unsubscribe());
  });
  return events;
}

describe('mapping', () => {
  it('affiliation from the force: Friendly/Opposing/Neutral 1–10 in threes; Other and unknown values are unknown', () => {
    const triples = Array.from({ length: 10 }, (_, i) => [
      `Friendly ${i + 1}`,
      `Opposing ${i + 1}`,
      `Neutral ${i + 1}`,
    ]);
    const names = ['Other', ...triples.flat()];
    for (let force = 0; force <= 255; force++) {
      const name = names[force] ?? 'none';
      const expected = name.startsWith('Friendly')
        ? 'f'
        : name.startsWith('Opposing')
          ? 'h'
          : name.startsWith('Neutral')
            ? 'n'
            : 'u';
      expect(affiliationForForce(force), `force ${force} (${name})`).toBe(expected);
    }
  });

  it('type from force, kind, domain and category: as specific as the category allows (docs/cot.md)', () => {
    expect(cotTypeFor(1, 1, 1, 1)).toBe('a-f-G-E-V-A-T'); // tank
    expect(cotTypeFor(1, 1, 1, 3)).toBe('a-f-G-E-V-A-A'); // armoured utility vehicle: APC
    expect(cotTypeFor(1, 1, 1, 4)).toBe('a-f-G-E-W-H-M-S'); // self-propelled artillery
    expect(cotTypeFor(2, 1, 2, 20)).toBe('a-h-A-M-H-A'); // attack helicopter
    expect(cotTypeFor(2, 1, 2, 1)).toBe('a-h-A-M-F-F'); // fighter
    expect(cotTypeFor(3, 1, 3, 5)).toBe('a-n-S-C-L-D-D'); // destroyer
    expect(cotTypeFor(2, 1, 3, 80)).toBe('a-h-S-X-M-P'); // passenger vessel
    expect(cotTypeFor(2, 1, 4, 3)).toBe('a-h-U-S-N'); // SSN (U-S-N-A is not in CoTtypes.xml)
    expect(cotTypeFor(1, 1, 5, 12)).toBe('a-f-A'); // communication satellite
    expect(cotTypeFor(2, 2, 7, 1)).toBe('a-h-U-W-T'); // guided anti-submarine munition: torpedo
    expect(cotTypeFor(2, 2, 1, 1)).toBe('a-h-A-W-M'); // guided anti-air munition: missile in flight
    expect(cotTypeFor(1, 3, 1, 11)).toBe('a-f-G-U-C-I'); // a soldier
    expect(cotTypeFor(1, 1, 1, 199)).toBe('a-f-G-E-V'); // a land category the table lacks: a ground vehicle
  });

  it('type from force and kind/domain', () => {
    expect(cotTypeFor(1, 1, 1)).toBe('a-f-G-E-V'); // friendly land platform
    expect(cotTypeFor(2, 1, 2)).toBe('a-h-A'); // opposing air platform
    expect(cotTypeFor(3, 1, 3)).toBe('a-n-S'); // neutral surface platform
    expect(cotTypeFor(5, 1, 4)).toBe('a-h-U'); // Opposing 2, subsurface
    expect(cotTypeFor(1, 1, 5)).toBe('a-f-A'); // CoTtypes.xml has no space dimension
    expect(cotTypeFor(0, 1, 1)).toBe('a-u-G-E-V');
    expect(cotTypeFor(2, 2, 1)).toBe('a-h-A-W'); // a munition, whatever its target domain
    expect(cotTypeFor(1, 3, 1)).toBe('a-f-G-U-C-I'); // a life form on land: infantry
    expect(cotTypeFor(1, 1, 0)).toBe('a-f-X');
    expect(cotTypeFor(99, 0, 0)).toBe('a-u-X');
  });

  it('uid from exercise and entity id', () => {
    expect(cotUid('DIS', 1, 1, 3001, 54)).toBe('DIS.1.1.3001.54');
    expect(cotUid('range7', 12, 65534, 2, 0)).toBe('range7.12.65534.2.0');
  });

  it('course and speed from an ECEF velocity: north 0°, east 90°, south-west 225°', () => {
    const out = new Float64Array(2);
    const lat = (LAT * Math.PI) / 180,
      lon = (LON * Math.PI) / 180;
    courseAndSpeed(out, lat, lon, NORTH_10[0]!, NORTH_10[1]!, NORTH_10[2]!);
    expect(out[0]! < 0.01 || out[0]! > 359.99).toBe(true);
    expect(out[1]).toBeCloseTo(10, 4);
    courseAndSpeed(out, lat, lon, EAST_10[0]!, EAST_10[1]!, EAST_10[2]!);
    expect(out[0]).toBeCloseTo(90, 2);
    // Equal distances south and west: a latitude step over the meridian radius M, a longitude step over N·cos φ.
    const e2 = 0.00669437999014,
      w = 1 - e2 * Math.sin(lat) ** 2;
    const m = (6378137 * (1 - e2)) / w ** 1.5,
      n = 6378137 / Math.sqrt(w);
    const sw = velocityToward(-1e-6, (-1e-6 * m) / (n * Math.cos(lat)), 7);
    courseAndSpeed(out, lat, lon, sw[0]!, sw[1]!, sw[2]!);
    expect(out[0]).toBeCloseTo(225, 3);
    expect(out[1]).toBeCloseTo(7, 4);
    // Straight up: no horizontal speed, course 0.
    const up = [ORIGIN[0]! / 1e6, ORIGIN[1]! / 1e6, ORIGIN[2]! / 1e6];
    courseAndSpeed(out, lat, lon, up[0]! * 1e-6, up[1]! * 1e-6, up[2]! * 1e-6);
    expect([out[0], out[1]! < 1e-3]).toEqual([0, true]);
  });

  it('stripControlCharacters leaves only XML characters and no controls or bidi overrides, keeping printable text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const out = stripControlCharacters(text);
        expect(out).not.toMatch(NOT_XML_CHAR);
        expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ABC xyz-09<>&"\'#/:'.split('')) }), (text) => {
        expect(stripControlCharacters(text)).toBe(text.trim());
      }),
    );
    expect(stripControlCharacters('\u001b[31mRED\u001b[0m\u0000\u007f\u0085 \u202eevil\u202c')).toBe('[31mRED[0m evil');
  });
});

describe('CoT events', () => {
  const fields: CotEventFields = {
    uid: 'DIS.1.1.3001.54',
    type: 'a-f-G-E-V',
    how: 'm-s',
    timeSeconds: 1_700_000_000.25,
    startSeconds: 1_700_000_000.25,
    staleSeconds: 1_700_000_012.25,
    latitudeDeg: 36.6,
    longitudeDeg: -121.9,
    haeM: 17.25,
    callsign: 'TANK 1',
    courseDeg: 359.97,
    speedMps: 3.456,
    dis: {
      exercise: 1,
      id: '1:3001:54',
      entityType: '1:1:225:1:1:3:0',
      force: 1,
      typeName: 'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2',
      label: 'M1A2 · Tank · USA',
    },
  };

  it('parse back with the same library to the same values', () => {
    const xml = encodeCotEvent(fields);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parseCotEvent(xml)!;
    expect(parsed.event).toEqual({
      version: '2.0',
      uid: 'DIS.1.1.3001.54',
      type: 'a-f-G-E-V',
      how: 'm-s',
      time: '2023-11-14T22:13:20.250Z',
      start: '2023-11-14T22:13:20.250Z',
      stale: '2023-11-14T22:13:32.250Z',
    });
    expect(parsed.point).toEqual({ lat: '36.6', lon: '-121.9', hae: '17.25', ce: '9999999.0', le: '9999999.0' });
    expect(parsed.contact).toEqual({ callsign: 'TANK 1' });
    // 359.97° rounds to 360.0 at one decimal, which is written 0.
    expect(parsed.track).toEqual({ course: '0', speed: '3.46' });
    expect(parsed.dis).toEqual({
      exercise: '1',
      id: '1:3001:54',
      entityType: '1:1:225:1:1:3:0',
      force: '1',
      typeName: 'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2',
      label: 'M1A2 · Tank · USA',
    });
    expect(parsed.remarks).toBe('M1A2 · Tank · USA');
  });

  it('a hostile callsign cannot break the XML: markup, quotes, CDATA ends, escapes and invalid characters', () => {
    const hostile = [
      '<b>&amp;"\'',
      ']]><![CDATA[x',
      '"/><event uid="evil"><point lat="0"/></event><x a="',
      '\u001b[2J\u001b]0;pwned\u0007',
      'A\u0000B\u0001C\u007fD\u0085E\ufffeF\ud800G\u202eH',
      '</detail></event>',
    ];
    for (const text of hostile) {
      // Raw text in every text field: the encoder removes what XML cannot hold, the builder escapes the rest.
      const callsign = stripControlCharacters(text);
      const xml = encodeCotEvent({ ...fields, callsign: text, dis: { ...fields.dis, id: text } });
      expect(XMLValidator.validate(xml), text).toBe(true);
      expect(xml).not.toMatch(NOT_XML_CHAR);
      expect(xml.match(/<event /g)).toHaveLength(1);
      const parsed = parseCotEvent(xml)!;
      expect(parsed.contact.callsign).toBe(callsign);
      expect(parsed.dis.id).toBe(callsign);
      expect(parsed.event.uid).toBe(fields.uid);
    }
  });

  it('no value becomes a bare attribute: the markings true, false, empty and blank stay attributes with values', () => {
    for (const text of ['true', 'false', 'TRUE', '', ' ', 'null', '0', 'undefined']) {
      const xml = encodeCotEvent({ ...fields, callsign: text, dis: { ...fields.dis, id: text } });
      expect(XMLValidator.validate(xml), JSON.stringify(text)).toBe(true);
      expect(xml).toContain(`callsign="${stripControlCharacters(text)}"`);
      expect(parseCotEvent(xml)!.contact.callsign).toBe(stripControlCharacters(text));
    }
  });

  it('any marking (property): an event that parses and round-trips the callsign', () => {
    // Words a writer might treat apart (booleans, empty), among any UTF-16 text.
    const text = (maxLength: number) =>
      fc.oneof(fc.constantFrom('true', 'false', '', ' ', 'null'), fc.string({ unit: 'binary', maxLength }));
    fc.assert(
      fc.property(text(11), text(40), (marking, id) => {
        const xml = encodeCotEvent({ ...fields, callsign: marking, dis: { ...fields.dis, id } });
        if (XMLValidator.validate(xml) !== true) return false;
        const parsed = parseCotEvent(xml)!;
        return (
          parsed.contact.callsign === stripControlCharacters(marking) && parsed.dis.id === stripControlCharacters(id)
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('cotEvents (frames → events, virtual time)', () => {
  it('one event at once for a new entity, then one per second, each with the dead-reckoned position', () => {
    // A tank moving north at 10 m/s, heartbeat PDUs every 5 s.
    const deliveries = [0, 5000, 10_000].map(
      (ms) => [ms + 50, pdu({ tSeconds: ms / 1000, velocity: NORTH_10 })] as const,
    );
    const events = eventsOf(deliveries, 12_000);
    expect(events[0]!.reason).toBe('appeared');
    expect(events[0]!.atMs).toBe(100); // the first frame after the PDU
    expect(events.slice(1).every((e) => e.reason === 'periodic')).toBe(true);
    // 1 Hz: one event per second from 0.1 s to 11.9 s.
    expect(events.map((e) => e.atMs)).toEqual(Array.from({ length: 12 }, (_, i) => 100 + 1000 * i));
    for (const e of events) {
      const p = parseCotEvent(e.xml)!;
      expect(p.event.uid).toBe('DIS.1.1.3001.54'); // stable across PDUs
      expect(p.event.type).toBe('a-f-G-E-V-A-T');
      expect(p.contact.callsign).toBe('TANK 1');
      expect(Number(p.track.speed)).toBeCloseTo(10, 2);
      expect(Number(p.track.course) < 0.1 || Number(p.track.course) > 359.9).toBe(true);
      // The point is where the tank is by now: 10 m/s north since the last PDU (arrival at ms ≡ 50 mod 5000).
      const sinceMs = e.atMs - (Math.floor((e.atMs - 50) / 5000) * 5000 + 50);
      const at = (k: number) => ORIGIN[k]! + (NORTH_10[k]! * sinceMs) / 1000;
      const expected = ecefToGeodeticDegrees(new Float64Array(3), at(0), at(1), at(2));
      expect(Number(p.point.lat)).toBeCloseTo(expected[0]!, 6);
      expect(Number(p.point.lon)).toBeCloseTo(expected[1]!, 6);
      expect(Number(p.point.hae)).toBeCloseTo(expected[2]!, 1);
      // Stale: when the receiver would time it out, 5 s heartbeat × 2.4 = 12 s after the last PDU's arrival.
      expect(Date.parse(p.event.stale!) - Date.parse(p.event.time!)).toBe(12_000 - sinceMs);
      expect(p.event.time).toBe(p.event.start);
      expect(Date.parse(p.event.time!)).toBe(e.atMs);
    }
  });

  it('body-frame velocity (RVB): 8 m/s forward on heading 60°, turning right at 0.1 rad/s: course 60° + 0.1 rad/s × t', () => {
    const lat = (LAT * Math.PI) / 180,
      lon = (LON * Math.PI) / 180;
    const orientation = [...eulerFromHeadingPitchRoll(new Float64Array(3), lat, lon, Math.PI / 3, 0, 0)];
    // Level, so the body z axis points down and a positive yaw rate turns the heading clockwise.
    const turning = pdu({
      tSeconds: 0,
      velocity: [8, 0, 0],
      orientation,
      angularVelocity: [0, 0, 0.1],
      algorithm: DR_RVB,
    });
    const events = eventsOf([[50, turning]], 2500);
    expect(events).toHaveLength(3);
    for (const e of events) {
      const p = parseCotEvent(e.xml)!;
      const turnedDeg = ((0.1 * (e.atMs - 50)) / 1000) * (180 / Math.PI);
      expect(Number(p.track.course)).toBeCloseTo(60 + turnedDeg, 0);
      expect(Math.abs(Number(p.track.course) - (60 + turnedDeg))).toBeLessThan(0.15);
      expect(Number(p.track.speed)).toBeCloseTo(8, 2);
    }
  });

  it('a configurable rate: 0.5 Hz sends every 2 s', () => {
    const events = eventsOf([[50, pdu({ tSeconds: 0 })]], 6000, { rateHz: 0.5 });
    expect(events.map((e) => e.atMs)).toEqual([100, 2100, 4100]);
    // At rest, so heartbeats may be 60 s apart (HBT_STATIONARY): stale 60 s × 2.4 after the PDU's arrival.
    const first = parseCotEvent(events[0]!.xml)!;
    expect(Date.parse(first.event.stale!) - Date.parse(first.event.time!)).toBe(144_000 - 50);
  });

  it('sends at once when the type changes, and a stale-now event when the entity leaves', () => {
    const DEACTIVATED = 1 << 23;
    const events = eventsOf(
      [
        [50, pdu({ tSeconds: 0, force: 1 })],
        [450, pdu({ tSeconds: 0.4, force: 2 })], // now opposing: a-h-…
        [650, pdu({ tSeconds: 0.6, force: 2, appearance: DEACTIVATED })],
      ],
      3000,
    );
    expect(events.map((e) => [e.atMs, e.reason, parseCotEvent(e.xml)!.event.type])).toEqual([
      [100, 'appeared', 'a-f-G-E-V-A-T'],
      [500, 'typeChanged', 'a-h-G-E-V-A-T'],
      [700, 'removed', 'a-h-G-E-V-A-T'],
    ]);
    const removed = parseCotEvent(events[2]!.xml)!;
    expect(removed.event.uid).toBe('DIS.1.1.3001.54');
    expect(removed.event.stale).toBe(removed.event.time);
  });

  it('one stale event when the entity falls silent, at the stale time it was advertised (heartbeat 5 s × 2.4)', () => {
    // Moving (a stationary entity would be given the 60 s stationary heartbeat).
    const events = eventsOf([[50, pdu({ tSeconds: 0, velocity: EAST_10 })]], 15_000, { rateHz: 1 });
    const parsed = events.map((e) => ({ ...e, p: parseCotEvent(e.xml)! }));
    const advertised = new Date(12_050).toISOString(); // arrival 0.05 s + 12 s
    // Every event before it promised that stale time; none was sent stale (no stale clamped to its own time).
    for (const e of parsed.filter((x) => x.reason !== 'removed')) {
      expect(e.p.event.stale).toBe(advertised);
      expect(Date.parse(e.p.event.stale!)).toBeGreaterThan(Date.parse(e.p.event.time!));
    }
    const removed = parsed.filter((e) => e.reason === 'removed');
    // The first frame at or after 12.05 s, though the table drops the entity only at its next look (13 s).
    expect(removed.map((e) => [e.atMs, e.p.event.time, e.p.event.stale])).toEqual([[12_100, advertised, advertised]]);
    expect(parsed.filter((e) => e.atMs > 12_100)).toEqual([]);
  });

  it('an entity silent past its stale time that speaks again before the table drops it appears again', () => {
    const events = eventsOf(
      [
        [50, pdu({ tSeconds: 0, velocity: EAST_10 })],
        [12_500, pdu({ tSeconds: 12.45, velocity: EAST_10 })],
      ],
      14_000,
      { rateHz: 0.1 },
    );
    expect(events.map((e) => [e.atMs, e.reason])).toEqual([
      [100, 'appeared'],
      [10_100, 'periodic'],
      [12_100, 'removed'],
      [12_500, 'appeared'],
    ]);
  });

  it('an entity that comes and goes between two frames still appears and leaves (its departure tells)', () => {
    const DEACTIVATED = 1 << 23;
    const deliveries: Array<readonly [number, Uint8Array]> = [
      [50, pdu({ tSeconds: 0, entity: 1 })],
      [120, pdu({ tSeconds: 0.1, entity: 84, marking: 'SHORT' })],
      [140, pdu({ tSeconds: 0.12, entity: 84, marking: 'SHORT', appearance: DEACTIVATED })],
    ];
    const events = eventsOf(deliveries, 1000);
    const short = events.filter((e) => e.fields.dis.id === '1:3001:84');
    expect(short.map((e) => [e.atMs, e.reason, e.fields.callsign])).toEqual([
      [140, 'appeared', 'SHORT'],
      [140, 'removed', 'SHORT'],
    ]);
    expect(parseCotEvent(short[0]!.xml)!.event.type).toBe('a-f-G-E-V-A-T');
    // Frames alone never see it.
    const framesOnly = eventsOf(deliveries, 1000, { withoutDepartures: true });
    expect(framesOnly.filter((e) => e.fields.dis.id === '1:3001:84')).toEqual([]);
  });

  it('hostile marking bytes: the callsign loses its controls, the XML stays well-formed, the uid is unchanged', () => {
    const marking = Uint8Array.from([0x3c, 0x26, 0x22, 0x5d, 0x5d, 0x3e, 0x1b, 0x5b, 0x32, 0x4a, 0x85]); // <&"]]>ESC[2J NEL
    const events = eventsOf([[50, pdu({ tSeconds: 0, marking })]], 500);
    expect(events).toHaveLength(1);
    expect(XMLValidator.validate(events[0]!.xml)).toBe(true);
    expect(events[0]!.xml).not.toMatch(NOT_XML_CHAR);
    const p = parseCotEvent(events[0]!.xml)!;
    expect(p.contact.callsign).toBe('<&"]]>[2J');
    expect(p.event.uid).toBe('DIS.1.1.3001.54');
  });

  it('an empty marking gets a callsign from the entity id; the uid prefix is configurable', () => {
    const events = eventsOf([[50, pdu({ tSeconds: 0, marking: '', entity: 7 })]], 500, { uidPrefix: 'range7' });
    const p = parseCotEvent(events[0]!.xml)!;
    expect([p.event.uid, p.contact.callsign]).toEqual(['range7.1.1.3001.7', 'DIS 1:3001:7']);
  });

  it('rejects invalid options when created', () => {
    expect(() => cotEvents({ rateHz: 0 })).toThrow(RangeError);
    expect(() => cotEvents({ uidPrefix: 'a b' })).toThrow(RangeError);
    expect(() => cotEvents({ uidPrefix: '\u001b' })).toThrow(RangeError);
  });

  it('a real capture (VR-Forces, DIS 7): uids stable across every PDU of each entity, one appearance each', () => {
    const file = new URL('../fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap', import.meta.url);
    const capture = readCapture(readFileSync(file));
    const t0 = capture.frames[0]!.timeSeconds;
    const deliveries: Array<readonly [number, Uint8Array]> = [];
    for (const frame of capture.frames) {
      const udp = udpFromFrame(frame.linkType, frame.data);
      if (udp.kind === 'udp') deliveries.push([Math.round((frame.timeSeconds - t0) * 1000) + 1, udp.payload.slice()]);
    }
    const lastMs = deliveries[deliveries.length - 1]![0];
    const events = eventsOf(deliveries, lastMs + 500);
    const byUid = new Map<string, CotEvent[]>();
    for (const e of events) byUid.set(e.fields.uid, [...(byUid.get(e.fields.uid) ?? []), e]);
    // The two entities of the capture (SOURCES.md): 1:3001:54 and 1:3001:59, exercise 1.
    expect([...byUid.keys()].sort()).toEqual(['DIS.1.1.3001.54', 'DIS.1.1.3001.59']);
    for (const [uid, list] of byUid) {
      expect(
        list.filter((e) => e.reason === 'appeared'),
        uid,
      ).toHaveLength(1);
      for (const e of list) expect(parseCotEvent(e.xml)!.event.uid).toBe(uid);
    }
    expect(parseCotEvent(byUid.get('DIS.1.1.3001.54')![0]!.xml)!.contact.callsign).toBe('UtilVeh 1');
  });
});
