// The owner's table: PDUs written from struct-of-arrays into a datagram decode to each entity's identity, header
// and the bank's kinematics; the budget stops a pass at a sender; leave notices; growing keeps the entities.
import { describe, expect, it } from 'vitest';
import { isDeactivated } from '../../src/dr/models/algorithm.js';
import { EMIT_FIRST } from '../../src/dr/owner/emitter.js';
import { OwnedEntityTable, type PduSink } from '../../src/dr/owner/owned-entity-table.js';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { isNewerTimestamp, timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { accelerating } from './trajectories.js';

/** A sink that keeps every datagram byte; `pdus()` decodes them. */
function capture(): PduSink & { pdus(): EntityStateRecord[] } {
  const buffer = new Uint8Array(1 << 16);
  let used = 0;
  return {
    buffer,
    claim(length) {
      const at = used;
      used += length;
      return at;
    },
    pdus() {
      const out: EntityStateRecord[] = [];
      const status = forEachPdu(
        buffer,
        (bytes, offset, length) => {
          const r = new EntityStateRecord();
          expect(decodeEntityStateInto(r, bytes, offset, offset + length)).toBe(CodecStatus.OK);
          out.push(r);
        },
        0,
        used,
      );
      expect(status).toBe(CodecStatus.OK);
      return out;
    },
  };
}

function table(n: number): OwnedEntityTable {
  const t = new OwnedEntityTable({ capacity: n, exercise: 3, protocolVersion: 6 });
  const profile = t.bank.addProfile({ algorithm: 2, heartbeatSeconds: 1 });
  const truth = createTruthState();
  for (let i = 0; i < n; i++) {
    t.define(
      i,
      { site: 5, application: 6, entity: 100 + i, forceId: 2, entityType: [1, 3, 225, 4], marking: `SHIP ${i}` },
      profile,
    );
    accelerating(truth, 0, [i, 0, 0], [0, 0, 0]);
    t.bank.setTruth(i, truth);
  }
  return t;
}

describe('OwnedEntityTable', () => {
  it('writes each entity its identity, the header and the kinematics of its decision', () => {
    const t = table(4);
    const sink = capture();
    expect(t.tick(2.5, sink)).toBe(4);
    const pdus = sink.pdus();
    expect(pdus.map((p) => [p.site, p.application, p.entity, p.forceId, markingText(p)])).toEqual(
      [0, 1, 2, 3].map((i) => [5, 6, 100 + i, 2, `SHIP ${i}`]),
    );
    for (const [i, p] of pdus.entries()) {
      expect([...p.entityType]).toEqual([1, 3, 225, 4, 0, 0, 0]);
      expect(p.exerciseId).toBe(3);
      expect(p.protocolVersion).toBe(6);
      expect(p.drAlgorithm).toBe(2);
      expect(p.linearVelocity[0]).toBe(i);
      expect(p.timestampRaw).toBe(timestampFromSeconds(2.5, false));
    }
    expect(t.stats.pdus).toBe(4);
    expect(t.stats.reasons[0]).toBe(4); // first PDUs
    expect(t.writeRecord(2, new EntityStateRecord(0)).entity).toBe(102);
  });

  it('stops at the budget: the entities from the first sender it could not send wait, undecided', () => {
    const t = table(10);
    const sink = capture();
    expect(t.tick(0, sink, 0, 10, 3)).toBe(3);
    expect(t.bank.sentCount.slice(0, 4)).toEqual(Uint32Array.of(1, 1, 1, 0));
    expect(t.tick(0, sink, 3, 10)).toBe(7);
    expect(sink.pdus().map((p) => p.entity)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    expect(t.bank.reasons[9]).toBe(EMIT_FIRST);
  });

  it('writes one leave notice per entity that sent, newer than its last PDU, with the appearance Deactivated', () => {
    const t = table(3);
    const sink = capture();
    t.tick(10, sink, 0, 2);
    expect(t.writeLeaveNotice(2, 10, sink)).toBe(0); // never sent
    expect(t.writeLeaveNotice(0, 10, sink)).toBe(144);
    expect(t.writeLeaveNotice(0, 10, sink)).toBe(0); // already left
    expect(t.writeLeaveNotice(1, 12, sink)).toBe(144);
    const [first0, , notice0, notice1] = sink.pdus();
    expect(isDeactivated(notice0!.appearance)).toBe(true);
    expect(notice0!.entity).toBe(100);
    expect(isNewerTimestamp(notice0!.timestampRaw, first0!.timestampRaw)).toBe(true);
    expect(notice0!.location).toEqual(first0!.location);
    expect(notice1!.timestampRaw).toBe(timestampFromSeconds(12, false));
  });

  it('decides one entity on its own, stamps its PDU and leaves the encoding to the caller', () => {
    const t = table(3);
    const sink = capture();
    expect(t.update(1, 4)).toBe(EMIT_FIRST);
    expect(t.update(1, 4.1)).toBe(0);
    expect(t.bank.sentCount).toEqual(Uint32Array.of(0, 1, 0));
    expect(t.writeRecord(1, new EntityStateRecord(0)).timestampRaw).toBe(timestampFromSeconds(4, false));
    expect(t.encodeLast(1, sink)).toBe(144);
    expect(sink.pdus().map((p) => p.entity)).toEqual([101]);
    expect(t.stats.reasons[0]).toBe(1);
  });

  it('keeps identities and emitters when it grows', () => {
    const t = table(2);
    const sink = capture();
    t.tick(0, sink);
    t.grow(100);
    expect(t.capacity).toBe(100);
    expect(t.writeRecord(1, new EntityStateRecord(0)).entity).toBe(101);
    expect(t.bank.sentCount[1]).toBe(1);
    const truth = createTruthState();
    accelerating(truth, 0, [1, 0, 0], [0, 0, 0]);
    t.bank.setTruth(1, truth);
    expect(t.tick(0.5, sink, 0, 2)).toBe(2);
    expect(t.bank.reasons[1]).toBe(0); // nothing new to send: the model came along
  });
});
