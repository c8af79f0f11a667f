// The page against the truth the gateway forwards (src/view/page/truth-error.ts), without a browser.
import { describe, expect, it } from 'vitest';
import { FeedWriter } from '../../src/view/protocol.js';
import { PageEntities } from '../../src/view/page/entities.js';
import { TruthComparison } from '../../src/view/page/truth-error.js';
import { entityStatePdu, positionAfter, type TestEntity } from './support/page-server.js';

const tank: TestEntity = {
  site: 1,
  application: 2,
  entity: 3,
  marking: 'TANK 1',
  force: 2,
  kind: 1,
  domain: 1,
  lat: 48.1,
  lon: 11.5,
  altM: 500,
  eastMps: 10,
  northMps: 0,
};

describe('truth comparison', () => {
  it("measures the display at the truth's time, keeps each true place, skips what it cannot read", () => {
    const e = new PageEntities({ capacity: 16 });
    const t0Ms = 1_800_000_000_000;
    const writer = new FeedWriter();
    const pdu = entityStatePdu(tank, t0Ms);
    writer.add(t0Ms, pdu, 0, pdu.length);
    e.applyMessage(writer.bytes());
    const truth = new TruthComparison();
    expect(truth.summary()).toBeNull();
    // 10 s on, 100 m above where the tank is shown: the display is 100 m off (the frame's own time does not count).
    e.frame(t0Ms / 1000 + 3);
    const at = positionAfter(tank, 10);
    truth.compare(e, t0Ms + 10_000, [
      { id: '1:2:3', lat: at.lat, lon: at.lon, altM: 600, headingDeg: 90 },
      { id: '7:7:7', lat: 1, lon: 2, altM: 0, headingDeg: 0 },
      { id: 5, lat: 1, lon: 2 } as never,
      { id: '1:2:4', lat: Number.NaN, lon: 2, altM: 0, headingDeg: 0 },
    ]);
    const slot = e.instanceSlot[0]!;
    expect(truth.errorOf(slot)).toBeCloseTo(100, 1);
    expect(truth.points).toEqual([
      { id: '1:2:3', lat: at.lat, lon: at.lon, slot },
      { id: '7:7:7', lat: 1, lon: 2, slot: -1 },
    ]);
    expect(truth.summary()).toBe('display − truth: mean 100.00 m, max 100.00 m (1 entities)');
    // The next message replaces the last.
    truth.compare(e, t0Ms + 10_000, []);
    expect(truth.errorOf(slot)).toBeUndefined();
    expect(truth.summary()).toBeNull();
  });
});
