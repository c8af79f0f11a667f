// The publish path of NatsTransport without a server: a stand-in connection records what the transport publishes,
// and keeps every payload as the NATS client does until it writes it out. Checked against a model written plainly
// (a fresh router per PDU, one Map of bundles per tick): the same messages, subjects, bytes and left-cell copies,
// for random entities, movements across cells, PDU sizes, buffer alignments and message limits; payloads handed
// out earlier never change afterwards, also past the last 32-bit tick. Also the router's per-entity memory: left
// cells, Deactivated, interning, sites beyond 32 767, its bound (forgetting, reuse of places and growth against a
// plain model), and its bound on cells and subjects.
import type { NatsConnection } from '@nats-io/transport-node';
import fc from 'fast-check';
import { latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { APPEARANCE_DEACTIVATED } from '../../src/dr/models/algorithm.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { destination } from '../../src/nats/area.js';
import { createRoute } from '../../src/nats/route.js';
import { LEFT_CELL_HEADER, NEW_CELL_HEADER } from '../../src/nats/subject-names.js';
import { SubjectRouter } from '../../src/nats/subjects.js';
import { NatsTransport } from '../../src/nats/transport.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';

interface Published {
  subject: string;
  payload: Uint8Array;
  /** A copy taken when it was published. */
  bytes: Uint8Array;
  left: string | undefined;
  newCell: string | undefined;
}

/** A connection that records what is published and never closes by itself. */
function recordingConnection(): { connection: NatsConnection; published: Published[] } {
  const published: Published[] = [];
  const connection = {
    closed: () => new Promise(() => {}),
    status: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }),
    publish: (subject: string, payload: Uint8Array, options?: { headers?: { get(k: string): string } }) => {
      published.push({
        subject,
        payload,
        bytes: new Uint8Array(payload),
        left: options?.headers?.get(LEFT_CELL_HEADER),
        newCell: options?.headers?.get(NEW_CELL_HEADER),
      });
    },
    isClosed: () => true,
  };
  return { connection: connection as unknown as NatsConnection, published };
}

interface EntityPdu {
  site: number;
  application: number;
  entity: number;
  lat: number;
  lon: number;
  kind: number;
  domain: number;
  deactivated: boolean;
}

function entityStatePdu(p: EntityPdu, exercise = 1): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = exercise;
  r.site = p.site;
  r.application = p.application;
  r.entity = p.entity;
  r.entityType.set([p.kind, p.domain, 225, 1, 0, 0, 0]);
  r.appearance = p.deactivated ? APPEARANCE_DEACTIVATED : 0;
  geodeticDegreesToEcef(r.location, p.lat, p.lon, 200);
  const bytes = new Uint8Array(144);
  encodeEntityStateInto(bytes, r);
  return bytes;
}

/** A PDU of another type (Fire, Signal, …): `length` bytes of `fill`, a valid header. */
function otherPdu(type: number, length: number, fill: number): Uint8Array {
  const bytes = new Uint8Array(length).fill(fill);
  bytes[0] = 7;
  bytes[1] = 1;
  bytes[2] = type;
  bytes[8] = length >> 8;
  bytes[9] = length & 0xff;
  return bytes;
}

const RESOLUTION = 6;

/** Bytes as hex: vitest compares strings at once, where it walks byte arrays key by key. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** A published or modelled message as compared: its bytes in hex, the payload left out. */
function comparable(messages: ReadonlyArray<Omit<Published, 'payload'>>) {
  return messages.map(({ subject, bytes, left, newCell }) => ({ subject, bytes: hex(bytes), left, newCell }));
}

/** The payloads as the client holds them now, and as they were when published (equal when nothing wrote over). */
function payloadsAsPublished(published: readonly Published[]) {
  return { now: published.map((p) => hex(p.payload)), published: published.map((p) => hex(p.bytes)) };
}

/** Each PDU's route by a router of its own, remembered per PDU (the same arrays are modelled again). */
const plainRoutes = new WeakMap<Uint8Array, ReturnType<typeof createRoute>>();

/** What the transport must publish, computed plainly. */
function model(ticks: Uint8Array[][][], maxMessageBytes: number): Array<Omit<Published, 'payload'>> {
  const out: Array<Omit<Published, 'payload'>> = [];
  const tracked = new Map<number, string>();
  for (const tick of ticks) {
    const bundles = new Map<string, Uint8Array[]>();
    const left: Array<Omit<Published, 'payload'>> = [];
    const emit = (subject: string, parts: Uint8Array[]) => {
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
      out.push({ subject, bytes, left: undefined, newCell: undefined });
    };
    for (const datagram of tick) {
      for (const pdu of datagram) {
        let route = plainRoutes.get(pdu);
        if (route === undefined) {
          route = new SubjectRouter('dis', RESOLUTION).route(pdu, 0, pdu.length, createRoute());
          plainRoutes.set(pdu, route);
        }
        if (route.cell !== undefined) {
          const previous = tracked.get(route.entityKey);
          if (previous !== undefined && previous !== route.cell) {
            const [prefix, exercise, , ...rest] = route.subject.split('.');
            const subject = [prefix, exercise, previous, ...rest].join('.');
            left.push({ subject, bytes: pdu, left: '1', newCell: route.cell });
          }
          if ((pdu[85]! & (APPEARANCE_DEACTIVATED >>> 16)) !== 0) tracked.delete(route.entityKey);
          else tracked.set(route.entityKey, route.cell);
        }
        let parts = bundles.get(route.subject);
        if (parts === undefined) bundles.set(route.subject, (parts = []));
        const used = parts.reduce((n, p) => n + p.length, 0);
        if (used > 0 && used + pdu.length > maxMessageBytes) {
          emit(route.subject, parts);
          parts.length = 0;
        }
        parts.push(pdu);
      }
    }
    for (const [subject, parts] of bundles) if (parts.length > 0) emit(subject, parts);
    out.push(...left);
  }
  return out;
}

const arbitraryEntity = fc.record({
  site: fc.constantFrom(1, 2, 40_000, 65_535),
  application: fc.constantFrom(1, 3),
  entity: fc.integer({ min: 1, max: 4 }),
});
/** A step of the walk: an entity moves (up to 40 km: it crosses resolution-6 cells, 3.7 km across, often). */
const arbitraryPdu = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      who: arbitraryEntity,
      bearing: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      metres: fc.oneof(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 40_000, noNaN: true })),
      kind: fc.constantFrom(1, 3),
      domain: fc.constantFrom(1, 2),
      deactivated: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constantFrom(2, 3, 26),
      length: fc.integer({ min: 12, max: 301 }),
      fill: fc.integer({ min: 0, max: 255 }),
    }),
  },
);

describe('NatsTransport publishing', () => {
  it('publishes what the plain model does: subjects, bundles, bytes, left-cell copies; payloads never change later', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.array(arbitraryPdu, { minLength: 1, maxLength: 6 }), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 150, max: 1500 }),
        fc.integer({ min: 0, max: 3 }),
        (steps, maxMessageBytes, misalign) => {
          const where = new Map<string, [number, number]>();
          const ticks = steps.map((tick) =>
            tick.map((datagram) =>
              datagram.map((step) => {
                if ('type' in step) return otherPdu(step.type, step.length, step.fill);
                const key = `${step.who.site}:${step.who.application}:${step.who.entity}`;
                const [lat, lon] = where.get(key) ?? [48, 11];
                const [lat2, lon2] = destination(lat, lon, step.bearing, step.metres);
                where.set(key, [lat2, lon2]);
                return entityStatePdu({ ...step.who, lat: lat2, lon: lon2, ...step });
              }),
            ),
          );
          const { connection, published } = recordingConnection();
          const transport = NatsTransport.over(connection, { h3Resolution: RESOLUTION, maxMessageBytes });
          // One buffer for every datagram, the datagram at an offset that changes its alignment, written over
          // by the next: the transport must have copied what it keeps.
          const buffer = new Uint8Array(8192);
          for (const tick of ticks) {
            for (const datagram of tick) {
              let at = misalign;
              for (const pdu of datagram) {
                buffer.set(pdu, at);
                at += pdu.length;
              }
              transport.send(buffer.subarray(misalign, at));
              buffer.fill(0xee);
            }
            transport.flush();
          }
          const expected = model(ticks, maxMessageBytes);
          expect(comparable(published)).toEqual(comparable(expected));
          const payloads = payloadsAsPublished(published);
          expect(payloads.now).toEqual(payloads.published);
          expect(transport.stats.sendErrors).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);

  it('ticks larger than a chunk: bundles that outgrow their room move to a larger one, PDUs in the order sent', () => {
    // 64 KiB chunks (src/nats/transport.ts): 1 200 PDUs of 144 bytes a tick fill more than two, so a bundle's room
    // runs out in one chunk and its PDUs move to the next; forty entities in eight cells, 120 km apart.
    const entities = Array.from({ length: 40 }, (_, i) => ({
      site: 1,
      application: 1,
      entity: 1 + i,
      lat: 48 + (i % 8) * 0.9,
      lon: 11 + (i % 3) * 0.01,
      kind: 1 + (i % 2),
      domain: 1,
      deactivated: false,
    }));
    const ticks = [0, 1, 2].map((t) =>
      Array.from({ length: 120 }, (_, d) =>
        Array.from({ length: 10 }, (_, k) => {
          const e = entities[(d * 10 + k + t) % entities.length]!;
          return entityStatePdu({ ...e, lat: e.lat + 0.0001 * (d + t) });
        }),
      ),
    );
    for (const maxMessageBytes of [1500, 16384, 1 << 20]) {
      const { connection, published } = recordingConnection();
      const transport = NatsTransport.over(connection, { h3Resolution: RESOLUTION, maxMessageBytes });
      const buffer = new Uint8Array(1440);
      for (const tick of ticks) {
        for (const datagram of tick) {
          datagram.forEach((pdu, k) => buffer.set(pdu, k * 144));
          transport.send(buffer);
          buffer.fill(0xee);
        }
        transport.flush();
      }
      expect(comparable(published)).toEqual(comparable(model(ticks, maxMessageBytes)));
      const payloads = payloadsAsPublished(published);
      expect(payloads.now).toEqual(payloads.published);
      // Messages larger than a chunk's share prove the bundles outgrew their first room, across chunks.
      if (maxMessageBytes === 1 << 20)
        expect(Math.max(...published.map((p) => p.bytes.length))).toBeGreaterThan(65_536 / 8);
    }
  });

  it('publishes as the plain model across the last tick, when the ticks start again from 1', () => {
    const { connection, published } = recordingConnection();
    const transport = NatsTransport.over(connection, { h3Resolution: RESOLUTION });
    // Three ticks before the last one (src/nats/transport.ts, `nextTick`).
    (transport as unknown as { tick: number }).tick = 0x7fffffff - 3;
    const ticks = Array.from({ length: 8 }, (_, t) =>
      [0, 1].map((d) =>
        Array.from({ length: 6 }, (_, k) =>
          entityStatePdu({
            site: 1,
            application: 1,
            entity: 1 + ((d * 6 + k + t) % 5),
            lat: 48 + (k % 3) * 0.3,
            lon: 11,
            kind: 1,
            domain: 1,
            deactivated: false,
          }),
        ),
      ),
    );
    for (const tick of ticks) {
      for (const datagram of tick) {
        const bytes = new Uint8Array(datagram.length * 144);
        datagram.forEach((pdu, k) => bytes.set(pdu, k * 144));
        transport.send(bytes);
      }
      transport.flush();
    }
    expect(comparable(published)).toEqual(comparable(model(ticks, 16384)));
  });

  it('reuses a chunk only after the server answered a flush asked after its payloads were handed over', async () => {
    // A client that writes a payload out only when a flush asked after it is answered (the order a real client
    // keeps): at that moment every such payload must still hold the bytes it was published with.
    const held: Array<{ payload: Uint8Array; bytes: Uint8Array }> = [];
    const flushes: Array<{ upTo: number; answer: () => void }> = [];
    let written = 0;
    const buffers = new Set<ArrayBufferLike>();
    let reused = 0;
    const connection = {
      closed: () => new Promise(() => {}),
      status: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }),
      publish: (_: string, payload: Uint8Array) => {
        if (buffers.has(payload.buffer) && payload.length > 0) reused++;
        held.push({ payload, bytes: new Uint8Array(payload) });
      },
      flush: () => new Promise<void>((resolve) => flushes.push({ upTo: held.length, answer: resolve })),
      isClosed: () => true,
    };
    const transport = NatsTransport.over(connection as unknown as NatsConnection, { h3Resolution: RESOLUTION });
    const answerFlushes = async () => {
      for (const flush of flushes.splice(0)) {
        const upTo = held.slice(written, flush.upTo);
        expect(upTo.map((h) => hex(h.payload))).toEqual(upTo.map((h) => hex(h.bytes)));
        for (let i = written; i < flush.upTo; i++) buffers.add(held[i]!.payload.buffer);
        written = Math.max(written, flush.upTo);
        flush.answer();
      }
      await new Promise((resolve) => setImmediate(resolve));
    };
    const datagram = new Uint8Array(1440);
    for (let tick = 0; tick < 90; tick++) {
      for (let d = 0; d < 20; d++) {
        for (let k = 0; k < 10; k++) {
          const pdu = entityStatePdu({
            site: 1,
            application: 1,
            entity: 1 + ((d * 10 + k) % 50),
            lat: 48 + (k % 5) * 0.3,
            lon: 11 + tick * 1e-5,
            kind: 1,
            domain: 1,
            deactivated: false,
          });
          datagram.set(pdu, k * 144);
        }
        transport.send(datagram);
      }
      transport.flush();
      // Other work runs between ticks; the flushes are answered late, twice (payloads handed over after a flush
      // was asked are not yet written when it is answered).
      await new Promise((resolve) => setImmediate(resolve));
      if (tick === 30 || tick === 60) await answerFlushes();
    }
    await answerFlushes();
    const rest = held.slice(written);
    expect(rest.map((h) => hex(h.payload))).toEqual(rest.map((h) => hex(h.bytes)));
    // Not vacuous: chunks were reused.
    expect(reused).toBeGreaterThan(100);
  });

  it('an entity crossing into the next cell publishes there and sends its left-cell copy to the cell it left', () => {
    const { connection, published } = recordingConnection();
    const transport = NatsTransport.over(connection, { h3Resolution: RESOLUTION });
    const from = latLngToCell(48, 11, RESOLUTION);
    // Walk north in 100 m steps until the cell changes.
    let lat = 48;
    const entity = { site: 1, application: 1, entity: 9, lon: 11, kind: 1, domain: 1, deactivated: false };
    for (let i = 0; i < 200 && latLngToCell(lat, 11, RESOLUTION) === from; i++) {
      lat += 0.0009;
      transport.send(entityStatePdu({ ...entity, lat }));
      transport.flush();
    }
    const to = latLngToCell(lat, 11, RESOLUTION);
    expect(to).not.toBe(from);
    const last = published.slice(-2);
    expect(last[0]).toMatchObject({ subject: `dis.1.${to}.1.1`, left: undefined });
    expect(last[1]).toMatchObject({ subject: `dis.1.${from}.1.1`, left: '1', newCell: to });
    expect(last[1]!.bytes).toEqual(last[0]!.bytes);
    expect(transport.natsStats.leftCellCopiesOut).toBe(1);
  });
});

describe('SubjectRouter per-entity memory', () => {
  const at = (lat: number, entity = 9, site = 1, deactivated = false) =>
    entityStatePdu({ site, application: 5, entity, lat, lon: 11, kind: 1, domain: 2, deactivated });

  it('reports the cell an entity left, once; a Deactivated PDU ends its track', () => {
    const router = new SubjectRouter('dis', 5);
    const route = createRoute();
    const a = latLngToCell(48, 11, 5),
      b = latLngToCell(49, 11, 5);
    expect(router.route(at(48), 0, 144, route).leftCell).toBeUndefined();
    expect(router.route(at(48.0001), 0, 144, route).leftCell).toBeUndefined();
    expect(router.route(at(49), 0, 144, route)).toMatchObject({ cell: b, leftCell: a });
    expect(router.route(at(49), 0, 144, route).leftCell).toBeUndefined();
    // Deactivated in the new cell: reported as having left the old one, then forgotten.
    expect(router.route(at(48, 9, 1, true), 0, 144, route)).toMatchObject({ cell: a, leftCell: b });
    expect(router.route(at(49), 0, 144, route).leftCell).toBeUndefined();
  });

  it('interns subjects: one slot per subject across entities, another for another kind or cell', () => {
    const router = new SubjectRouter('dis', 5);
    const one = router.route(at(48, 1), 0, 144, createRoute()).slot;
    const two = router.route(at(48.0001, 2), 0, 144, createRoute()).slot;
    expect(two).toBe(one);
    expect(one.subject).toBe(`dis.1.${latLngToCell(48, 11, 5)}.1.2`);
    const far = router.route(at(49, 3), 0, 144, createRoute()).slot;
    expect(far).not.toBe(one);
    const fire = otherPdu(2, 96, 0);
    expect(router.route(fire, 0, 96, createRoute()).slot).toBe(router.route(fire, 0, 96, createRoute()).slot);
  });

  it('remembers each entity apart, whether its number is small, large or sparse (property)', () => {
    const cells = [48, 49, 50].map((lat) => latLngToCell(lat, 11, 5));
    fc.assert(
      fc.property(
        // A few entity numbers of each kind, each entity coming back many times, moving between three cells.
        fc.uniqueArray(
          fc.oneof(
            fc.integer({ min: 1, max: 40 }),
            fc.integer({ min: 1, max: 700 }),
            fc.integer({ min: 1, max: 65_535 }),
          ),
          { minLength: 1, maxLength: 60 },
        ),
        fc.array(fc.record({ site: fc.constantFrom(1, 7), pick: fc.nat(), place: fc.integer({ min: 0, max: 2 }) }), {
          maxLength: 400,
        }),
        (numbers, steps) => {
          const router = new SubjectRouter('dis', 5);
          const route = createRoute();
          const tracked = new Map<string, string>();
          for (const { site, pick, place } of steps) {
            const entity = numbers[pick % numbers.length]!;
            router.route(at(48 + place, entity, site), 0, 144, route);
            const key = `${site}:${entity}`;
            const previous = tracked.get(key);
            const expected = previous !== undefined && previous !== cells[place] ? previous : undefined;
            if (route.cell !== cells[place] || route.leftCell !== expected) return false;
            tracked.set(key, cells[place]!);
          }
          return router.entities === tracked.size;
        },
      ),
      { numRuns: 200 },
    );
  });

  it('forgets the entity seen first of the application seen first, reuses its place, and grows (property)', () => {
    const cells = [48, 49, 50].map((lat) => latLngToCell(lat, 11, 5));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.record({
            site: fc.constantFrom(1, 2, 40_000),
            application: fc.constantFrom(1, 7),
            entity: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 65_535 })),
            place: fc.integer({ min: 0, max: 2 }),
            deactivated: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
          }),
          { maxLength: 300 },
        ),
        (maxEntities, steps) => {
          const router = new SubjectRouter('dis', 5, maxEntities);
          const route = createRoute();
          // The plain model: applications in the order first seen, their entities in the order first seen.
          const model = new Map<string, Map<number, string | undefined>>();
          let count = 0;
          for (const { site, application, entity, place, deactivated } of steps) {
            router.route(
              entityStatePdu({ site, application, entity, lat: 48 + place, lon: 11, kind: 1, domain: 1, deactivated }),
              0,
              144,
              route,
            );
            const key = `${site}:${application}`;
            let app = model.get(key);
            if (!app?.has(entity)) {
              if (count >= maxEntities) {
                const [firstKey, first] = model.entries().next().value!;
                first.delete(first.keys().next().value!);
                count--;
                if (first.size === 0) model.delete(firstKey);
              }
              app = model.get(key);
              if (app === undefined) model.set(key, (app = new Map()));
              app.set(entity, undefined);
              count++;
            }
            const previous = app.get(entity);
            const expected = previous !== undefined && previous !== cells[place] ? previous : undefined;
            if (route.cell !== cells[place] || route.leftCell !== expected) return false;
            app.set(entity, deactivated ? undefined : cells[place]);
          }
          return router.entities === count;
        },
      ),
      { numRuns: 300 },
    );
    // Past its first 1 024 places the table grows: 5 000 entities, each remembered apart.
    const router = new SubjectRouter('dis', 5);
    const route = createRoute();
    const pdus = [48, 49].map((lat) =>
      Array.from({ length: 5000 }, (_, i) =>
        entityStatePdu({
          site: 1 + (i % 3),
          application: 1,
          entity: 1 + i,
          lat,
          lon: 11,
          kind: 1,
          domain: 1,
          deactivated: false,
        }),
      ),
    );
    for (const pdu of pdus[0]!) expect(router.route(pdu, 0, 144, route).leftCell).toBeUndefined();
    for (const pdu of pdus[1]!) expect(router.route(pdu, 0, 144, route).leftCell).toBe(cells[0]);
    expect(router.entities).toBe(5000);
  });

  it('past maxSubjects keeps only the cells and subjects entities hold, and routes as a router without the bound', () => {
    // Ten cells 60 km apart, more than the bound of 3; entities hop between them with two kinds.
    const lats = Array.from({ length: 10 }, (_, i) => 48 + i * 0.55);
    let dropped = false;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            entity: fc.integer({ min: 1, max: 5 }),
            place: fc.integer({ min: 0, max: 9 }),
            kind: fc.constantFrom(1, 2),
            other: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
          }),
          { maxLength: 200 },
        ),
        (steps) => {
          const bounded = new SubjectRouter('dis', 5, 1 << 20, 3);
          const free = new SubjectRouter('dis', 5);
          const a = createRoute(),
            b = createRoute();
          const seen = new Set<string>();
          for (const { entity, place, kind, other } of steps) {
            const bytes = other
              ? otherPdu(2 + place, 40, place)
              : entityStatePdu({
                  site: 1,
                  application: 1,
                  entity,
                  lat: lats[place]!,
                  lon: 11,
                  kind,
                  domain: 1,
                  deactivated: false,
                });
            bounded.route(bytes, 0, bytes.length, a);
            free.route(bytes, 0, bytes.length, b);
            if (a.subject !== b.subject || a.cell !== b.cell || a.leftCell !== b.leftCell) return false;
            if (a.slot.subject !== a.subject) return false;
            if (a.cell !== undefined) seen.add(a.cell);
            // Cells: at most those 5 entities hold (in and tracked) and as many again, or the bound; subjects: those
            // 5 entities hold and the per-exercise ones (10 PDU types), and as many again, or the bound.
            const held = bounded.held;
            if (held.cells > 2 * 2 * 5 + 3 || held.subjects > 2 * (5 + 10) + 3) return false;
            if (held.cells < seen.size) dropped = true;
          }
          return true;
        },
      ),
      { numRuns: 200 },
    );
    // Not vacuous: cells were dropped.
    expect(dropped).toBe(true);
  });

  it('keeps entities of sites past 32 767 apart, and forgets the entity seen first beyond its bound', () => {
    const router = new SubjectRouter('dis', 5, 4);
    const route = createRoute();
    // Same entity number and application, sites 1 and 65 535: two entities.
    router.route(at(48, 9, 1), 0, 144, route);
    router.route(at(49, 9, 65_535), 0, 144, route);
    expect(router.route(at(49, 9, 65_535), 0, 144, route).leftCell).toBeUndefined();
    expect(router.route(at(48, 9, 1), 0, 144, route).leftCell).toBeUndefined();
    expect(route.entityKey).toBe(2 ** 32 + 5 * 2 ** 16 + 9);
    for (let entity = 10; entity < 13; entity++) router.route(at(48, entity), 0, 144, route);
    expect(router.entities).toBe(4);
    // Site 1 entity 9 was seen first and is forgotten: in another cell it is a newcomer (no left cell).
    expect(router.route(at(49, 9, 1), 0, 144, route).leftCell).toBeUndefined();
    // Site 65 535 entity 9 is still known.
    expect(router.route(at(48, 9, 65_535), 0, 144, route).leftCell).toBe(latLngToCell(49, 11, 5));
    expect(router.entities).toBe(4);
  });
});
