// Shots, detonations, collisions, entity control and radios for the map, without a browser: the gateway's
// EngagementFeed (PDUs → text messages, what a late page must know, radios going quiet) and the page's model
// PageEngagements (lines from shooter to target, bursts, fading, the page table frozen and emptied, radios and
// engagements of an entity for its detail panel).
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/math/random.js';
import { encodeAnyPduInto, type AnyPduRecord } from '../../src/pdu/wire/any-pdu.js';
import { entityKey } from '../../src/pdu/wire/entity-state-record.js';
import { decodePdu, encodePdu } from '../../src/pdu/json/pdu-json.js';
import type { SignalPdu, TransmitterPdu } from '../../src/pdu/schema/pdu-schemas.js';
import {
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
} from '../../src/pdu/wire/simulation-management.js';
import { DetonationRecord, FireRecord } from '../../src/pdu/wire/warfare.js';
import { CollisionRecord } from '../../src/pdu/wire/collision.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { FeedWriter } from '../../src/view/protocol.js';
import { EngagementFeed, MAX_RADIOS } from '../../src/view/engagement-feed.js';
import type { EngagementMessage, FireMessage, RadioMessage } from '../../src/view/engagement-messages.js';
import { PageEntities } from '../../src/view/page/entities.js';
import { FADE_SECONDS, PageEngagements, radioText } from '../../src/view/page/engagements/engagements.js';
import { randomPdu } from '../fixtures/pdu/random-pdus.js';
import { formatMapPdus } from '../../src/cli/terminal/other-pdus.js';
import { entityStatePdu, type TestEntity } from './support/page-server.js';

const bytes = (record: AnyPduRecord): Uint8Array => {
  const out = new Uint8Array(2000);
  return out.slice(0, encodeAnyPduInto(out, record));
};

const ecef = (lat: number, lon: number) => geodeticDegreesToEcef(new Float64Array(3), lat, lon, 0);

function shot(): FireRecord {
  const r = new FireRecord();
  r.exerciseId = 1;
  Object.assign(r.firingEntityId, { site: 1, application: 2, entity: 3 });
  Object.assign(r.targetEntityId, { site: 1, application: 2, entity: 4 });
  Object.assign(r.eventId, { site: 1, application: 2, eventNumber: 9 });
  r.location.set(ecef(48.1, 11.5));
  r.descriptor.munitionType.set([2, 2, 222, 1, 8, 0, 0]);
  r.range = 2000;
  return r;
}

function hit(): DetonationRecord {
  const r = new DetonationRecord();
  const f = shot();
  r.exerciseId = 1;
  for (const k of ['firingEntityId', 'targetEntityId', 'eventId'] as const) Object.assign(r[k], f[k]);
  r.descriptor.munitionType.set(f.descriptor.munitionType);
  r.location.set(ecef(48.1, 11.52));
  r.result = 1;
  return r;
}

/** A Transmitter PDU of radio 1 of entity 1:2:3 at 72.275 MHz, in the state given. */
function transmitter(state: number): Uint8Array {
  const json = decodePdu(randomPdu(createRandom(1), 25, { version: 7, maxRecords: 0 })) as TransmitterPdu;
  return encodePdu({
    ...json,
    exerciseId: 1,
    entityId: { site: 1, application: 2, entity: 3 },
    radioId: 1,
    transmitState: state,
    frequencyHz: 72_275_000,
    powerDbm: 37,
    antennaLocation: [...ecef(48.1, 11.5)] as [number, number, number],
    modulationParameters: '',
    antennaPattern: '',
  });
}

function signal(): Uint8Array {
  const json = decodePdu(randomPdu(createRandom(2), 26, { version: 7 })) as SignalPdu;
  return encodePdu({ ...json, exerciseId: 1, entityId: { site: 1, application: 2, entity: 3 }, radioId: 1 });
}

function feed() {
  const engagement = new EngagementFeed();
  const sent: EngagementMessage[] = [];
  const take = (pdu: Uint8Array, nowMs: number) => engagement.consume(pdu, 0, pdu.length, nowMs, (m) => sent.push(m));
  return { engagement, sent, take };
}

describe('EngagementFeed (gateway)', () => {
  it('turns a Fire and a Detonation PDU into messages naming the munition and the result', () => {
    const { sent, take } = feed();
    take(bytes(shot()), 1000);
    take(bytes(hit()), 3000);
    const [fire, detonation] = sent;
    expect(fire).toMatchObject({
      type: 'fire',
      shooter: '1:2:3',
      target: '1:2:4',
      munition: 'AT-6 Spiral · Guided · RUS',
      event: '1:2:9',
      rangeM: 2000,
      serverTimeMs: 1000,
    });
    expect((fire as FireMessage).from[0]).toBeCloseTo(11.5, 9);
    expect((fire as FireMessage).from[1]).toBeCloseTo(48.1, 9);
    expect(detonation).toMatchObject({ type: 'detonation', result: 1, resultName: 'Entity Impact', event: '1:2:9' });
  });

  it('sends a radio when it changes or starts sending, says when its signals stop, and tells a late page', () => {
    const { engagement, sent, take } = feed();
    take(transmitter(1), 0);
    take(transmitter(1), 1000); // nothing new: not sent again before 5 s
    take(signal(), 1500);
    take(signal(), 1520); // still sending: not sent again
    engagement.everySecond(2000, (m) => sent.push(m));
    engagement.everySecond(3000, (m) => sent.push(m));
    const radios = sent as RadioMessage[];
    expect(radios.map((r) => [r.serverTimeMs, r.transmitState, r.transmitting, r.signals])).toEqual([
      [0, 1, false, 0],
      [1500, 1, true, 1],
      [3000, 1, false, 2],
    ]);
    expect(radios[0]!.frequencyHz).toBe(72_275_000);
    expect(radioText(radios[0]!)).toBe('Radio 1: 72.275 MHz, 37.0 dBm, on');
    expect(radioText(radios[1]!)).toBe('Radio 1: 72.275 MHz, 37.0 dBm, transmitting (1 signal)');
    expect(formatMapPdus(engagement.stats)).toBe(
      ', 4 PDUs of shots, entity control and radios (Transmitter 2, Signal 2)',
    );
    take(transmitter(2), 4000);
    expect(engagement.state(5000)).toMatchObject([
      { type: 'radio', entity: '1:2:3', transmitState: 2, transmitting: true },
    ]);
  });

  it('keeps the freezes in force, lifted by a resume that addresses them, and tells a late page', () => {
    const { engagement, sent, take } = feed();
    const stop = new StopFreezeRecord();
    stop.exerciseId = 1;
    Object.assign(stop.receivingId, { site: 1, application: 2, entity: 0 });
    // A real-world time of 0 (1970) is no time near now: the freeze takes effect on arrival.
    take(bytes(stop), 100_000);
    expect(sent[0]).toMatchObject({ type: 'entity-control', action: 'freeze', atMs: 100_000, exercise: 1 });
    expect([engagement.holds(1, 1, 2, 3), engagement.holds(1, 1, 3, 3), engagement.holds(2, 1, 2, 3)]).toEqual([
      true,
      false,
      false,
    ]);
    expect(engagement.state(2000)).toMatchObject([
      { action: 'freeze', receiving: { site: 1, application: 2, entity: 0 } },
    ]);
    const start = new StartResumeRecord();
    start.exerciseId = 1;
    Object.assign(start.receivingId, { site: 0xffff, application: 0xffff, entity: 0xffff });
    take(bytes(start), 300_000);
    expect(engagement.holds(1, 1, 2, 3)).toBe(false);
    expect(engagement.state(4000)).toEqual([]);
  });

  it('sends no message for a PDU it cannot read or whose numbers are not finite', () => {
    const { engagement, sent, take } = feed();
    const bad = shot();
    bad.velocity[0] = Number.NaN;
    take(bytes(bad), 0);
    take(bytes(shot()).subarray(0, 50), 0);
    expect(sent).toEqual([]);
    expect(engagement.stats.rejected).toEqual({ 2: 2 });
  });

  it('refuses radios of no entity (0:0:0) or with their antenna nowhere, and counts them by PDU type', () => {
    const { engagement, sent, take } = feed();
    const of = (pdu: Uint8Array, site: number, application: number, entity: number) => {
      const copy = pdu.slice();
      const v = new DataView(copy.buffer);
      v.setUint16(12, site);
      v.setUint16(14, application);
      v.setUint16(16, entity);
      return copy;
    };
    take(of(transmitter(2), 0, 0, 0), 0);
    take(of(signal(), 0, 0, 0), 0);
    take(of(transmitter(2), 0xffff, 0xffff, 0xffff), 0);
    const nowhere = transmitter(2);
    new DataView(nowhere.buffer).setFloat64(32, Number.NaN); // antenna location x (§7.7.2)
    take(nowhere, 0);
    expect(sent).toEqual([]);
    expect(engagement.stats.rejected).toEqual({ 25: 3, 26: 1 });
    expect(formatMapPdus(engagement.stats)).toBe(
      ', 4 PDUs of shots, entity control and radios (Transmitter 3, Signal 1), 4 of them invalid (Transmitter 3, Signal 1)',
    );
    take(transmitter(2), 0);
    expect(JSON.stringify(sent)).not.toContain('null,');
    expect((sent[0] as RadioMessage).antenna![1]).toBeCloseTo(48.1, 9);
  });

  it('evicts the least recently heard radio when full, one of an entity not held first; a late page gets those held', () => {
    const engagement = new EngagementFeed((exercise, site) => exercise === 1 && site === 1);
    const sent: EngagementMessage[] = [];
    const take = (pdu: Uint8Array) => engagement.consume(pdu, 0, pdu.length, 0, (m) => sent.push(m));
    const base = transmitter(2);
    const radioOf = (site: number, entity: number) => {
      const pdu = base.slice();
      const v = new DataView(pdu.buffer);
      v.setUint16(12, site);
      v.setUint16(16, entity);
      return pdu;
    };
    take(radioOf(1, 3)); // a real radio, heard first
    for (let entity = 1; entity < MAX_RADIOS; entity++) take(radioOf(9, entity)); // spoofed: entities never seen
    expect(engagement.stats.radiosEvicted).toBe(0);
    take(radioOf(9, 50_000)); // the table is full: the oldest spoofed radio goes, not the older real one
    take(radioOf(1, 4)); // a real transmitter still gets through
    expect(sent.at(-1)).toMatchObject({ type: 'radio', entity: '1:2:4' });
    expect(engagement.stats.radiosEvicted).toBe(2);
    expect(engagement.state(0).map((m) => (m as RadioMessage).entity)).toEqual(['1:2:3', '1:2:4']);
    take(radioOf(9, 1)); // the first spoofed radio was evicted: it comes back as new
    expect(engagement.stats.radiosEvicted).toBe(3);
    expect(formatMapPdus(engagement.stats)).toMatch(/, 3 radios evicted from the full radio table \(4096\)$/);
  });
});

const shooter: TestEntity = {
  site: 1,
  application: 2,
  entity: 3,
  marking: 'HIND',
  force: 2,
  kind: 1,
  domain: 2,
  lat: 48.1,
  lon: 11.5,
  altM: 500,
  eastMps: 0,
  northMps: 0,
};
const target: TestEntity = { ...shooter, entity: 4, marking: 'TANK', domain: 1, lon: 11.52, altM: 0 };

/** A page holding the shooter and the target at 0 s, and its engagements. */
function page() {
  const entities = new PageEntities({ capacity: 16 });
  const writer = new FeedWriter();
  for (const e of [shooter, target]) writer.add(0, entityStatePdu(e, 0), 0, entityStatePdu(e, 0).length);
  entities.applyMessage(writer.bytes());
  entities.frame(0.5);
  return { entities, engagements: new PageEngagements() };
}

function messageOf(pdu: Uint8Array, nowMs: number): EngagementMessage {
  const { sent, take } = feed();
  take(pdu, nowMs);
  return sent[0]!;
}

describe('PageEngagements (page)', () => {
  it('draws a shot from the shooter to its target and a burst coloured by result, fading out', () => {
    const { entities, engagements } = page();
    engagements.onMessage(messageOf(bytes(shot()), 1000), entities, 1);
    engagements.onMessage(messageOf(bytes(hit()), 2000), entities, 2);
    const now = engagements.picture(entities, 2, '1:2:4');
    expect(now.shots).toHaveLength(1);
    const [fromLon, fromLat, toLon, toLat, alpha, highlighted] = now.shots[0]!;
    expect([fromLon, fromLat, toLon, toLat].map((v) => +v!.toFixed(6))).toEqual([11.5, 48.1, 11.52, 48.1]);
    expect(alpha).toBeCloseTo(1 - 1 / FADE_SECONDS, 9);
    expect(highlighted).toBe(1);
    expect(now.bursts).toHaveLength(1);
    expect(now.bursts[0]![3]).toBe(1);
    expect(engagements.picture(entities, 2, null).shots[0]![5]).toBe(0);
    const later = engagements.picture(entities, 1 + FADE_SECONDS + 0.01, null);
    expect([later.shots.length, later.bursts.length]).toEqual([0, 1]);
    expect(engagements.picture(entities, 2 + FADE_SECONDS, null).bursts).toHaveLength(0);
  });

  it('marks a collision where the issuing entity is shown, moved by the offset, named, fading out', () => {
    const { entities, engagements } = page();
    const crash = new CollisionRecord();
    crash.exerciseId = 1;
    Object.assign(crash.issuingEntityId, { site: 1, application: 2, entity: 4 });
    Object.assign(crash.collidingEntityId, { site: 1, application: 2, entity: 3 });
    crash.collisionType = 1;
    crash.location.set([111.32, 0, 0]); // 111 m ahead of a tank heading north: 0.001° north
    const message = messageOf(bytes(crash), 1000);
    expect(message).toMatchObject({
      type: 'collision',
      issuing: '1:2:4',
      colliding: '1:2:3',
      collisionType: 'Elastic',
    });
    engagements.onMessage(message, entities, 1);
    const [lon, lat, alpha] = engagements.picture(entities, 2, null).collisions[0]!;
    expect([+lon!.toFixed(6), +lat!.toFixed(6)]).toEqual([11.52, 48.101]);
    expect(alpha).toBeCloseTo(1 - 1 / FADE_SECONDS, 9);
    expect(engagements.historyOf('1:2:4')).toEqual(['collided with 1:2:3']);
    expect(engagements.picture(entities, 1 + FADE_SECONDS, null).collisions).toHaveLength(0);
  });

  it('lists an entity’s engagements, newest first, for its detail panel', () => {
    const { entities, engagements } = page();
    engagements.onMessage(messageOf(bytes(shot()), 1000), entities, 1);
    engagements.onMessage(messageOf(bytes(hit()), 2000), entities, 2);
    expect(engagements.historyOf('1:2:3')).toEqual([
      'AT-6 Spiral · Guided · RUS: Entity Impact',
      'fired AT-6 Spiral · Guided · RUS at 1:2:4',
    ]);
    expect(engagements.historyOf('1:2:4')).toEqual([
      'hit by 1:2:3: Entity Impact',
      'fired at by 1:2:3: AT-6 Spiral · Guided · RUS',
    ]);
  });

  it('freezes, resumes and removes the entities of the page’s table that entity control addresses', () => {
    const { entities, engagements } = page();
    const t = entities.table;
    const slot = t.slotOf(entityKey(1, 2, 3));
    const stop = new StopFreezeRecord();
    stop.exerciseId = 1;
    Object.assign(stop.receivingId, { site: 1, application: 2, entity: 3 });
    engagements.onMessage(messageOf(bytes(stop), 1000), entities, 1);
    expect(t.frozen[slot]).toBe(1);
    const remove = new EntityManagementRecord(12);
    remove.exerciseId = 1;
    Object.assign(remove.receivingId, { site: 1, application: 2, entity: 4 });
    engagements.onMessage(messageOf(bytes(remove), 1500), entities, 1.5);
    expect(t.slotOf(entityKey(1, 2, 4))).toBe(-1);
    const start = new StartResumeRecord();
    start.exerciseId = 1;
    Object.assign(start.receivingId, { site: 0xffff, application: 0xffff, entity: 0xffff });
    engagements.onMessage(messageOf(bytes(start), 2000), entities, 2);
    expect(t.frozen[slot]).toBe(0);
  });

  it('holds entities that arrive while a freeze is in force (a late page), from their arrival, until resumed', () => {
    const entities = new PageEntities({ capacity: 16 });
    const engagements = new PageEngagements();
    const stop = new StopFreezeRecord();
    stop.exerciseId = 1;
    Object.assign(stop.receivingId, { site: 1, application: 2, entity: 0 });
    engagements.onMessage(messageOf(bytes(stop), 1000), entities, 1);
    const writer = new FeedWriter();
    for (const e of [shooter, { ...target, site: 7 }]) {
      const pdu = entityStatePdu({ ...e, eastMps: 50 }, 2000);
      writer.add(2000, pdu, 0, pdu.length);
    }
    entities.applyMessage(writer.bytes());
    const t = entities.table;
    const held = t.slotOf(entityKey(1, 2, 3)),
      other = t.slotOf(entityKey(7, 2, 4));
    engagements.holdArrivals(entities);
    expect([t.frozen[held], t.frozen[other]]).toEqual([1, 0]);
    // Held where its PDU put it (at its arrival), not where the freeze time would put it.
    entities.frame(10);
    const at = (slot: number) => entities.placeOf(slot, new Float64Array(4))[0]!;
    expect(at(held)).toBeCloseTo(11.5, 9);
    expect(at(other)).toBeGreaterThan(11.52 + 0.004);
    const start = new StartResumeRecord();
    start.exerciseId = 1;
    Object.assign(start.receivingId, { site: 0xffff, application: 0xffff, entity: 0xffff });
    engagements.onMessage(messageOf(bytes(start), 11_000), entities, 11);
    expect(t.frozen[held]).toBe(0);
    engagements.holdArrivals(entities);
    expect(t.frozen[held]).toBe(0);
  });

  it('keeps an entity’s radios and ignores a message with fields of the wrong type', () => {
    const { entities, engagements } = page();
    engagements.onMessage(messageOf(transmitter(2), 1000), entities, 1);
    expect(engagements.radiosOf('1:2:3').map(radioText)).toEqual(['Radio 1: 72.275 MHz, 37.0 dBm, transmitting']);
    engagements.onMessage(
      { type: 'fire', serverTimeMs: 1, shooter: '<b>' } as unknown as EngagementMessage,
      entities,
      1,
    );
    expect(engagements.invalid).toBe(1);
  });
});
