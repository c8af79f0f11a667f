// Label placement without overlaps (src/view/page/map/declutter.ts) among the entities in view (src/view/page/map/in-view.ts),
// with the page's own entities and a plain equirectangular projection standing in for the map's.
import { describe, expect, it } from 'vitest';
import { LabelChooser, LabelPlacer, type LabelView } from '../../src/view/page/map/declutter.js';
import { InView, READABLE_PX } from '../../src/view/page/map/in-view.js';
import { PageEntities } from '../../src/view/page/entities.js';
import { FeedWriter } from '../../src/view/protocol.js';
import { entityStatePdu, type TestEntity } from './support/page-server.js';

/** 1 px per 1e-4° (≈ 11 m) around (50° N, 8° E), y down. */
const project = (lon: number, lat: number, out: Float64Array) => {
  out[0] = (lon - 8) * 1e4 + 500;
  out[1] = (50 - lat) * 1e4 + 400;
};
const VIEW: LabelView = {
  widthPx: 1000,
  heightPx: 800,
  westDeg: 7.95,
  southDeg: 49.96,
  eastDeg: 8.05,
  northDeg: 50.04,
};

function overlapping(boxes: number[]): boolean {
  for (let a = 0; a < boxes.length; a += 4) {
    for (let b = a + 4; b < boxes.length; b += 4) {
      if (
        boxes[a]! < boxes[b + 2]! &&
        boxes[a + 2]! > boxes[b]! &&
        boxes[a + 1]! < boxes[b + 3]! &&
        boxes[a + 3]! > boxes[b + 1]!
      )
        return true;
    }
  }
  return false;
}

/** Entities at (lat, lon) each, markings M1, M2, …, applied and framed at t = 100 s. */
function entitiesAt(points: Array<[number, number]>): PageEntities {
  const e = new PageEntities({ capacity: Math.max(16, points.length) });
  const writer = new FeedWriter();
  points.forEach(([lat, lon], i) => {
    const spec: TestEntity = {
      site: 1,
      application: 1,
      entity: i + 1,
      marking: `M${i + 1}`,
      force: 1,
      kind: 1,
      domain: 1,
      lat,
      lon,
      altM: 0,
      eastMps: 0,
      northMps: 0,
    };
    const pdu = entityStatePdu(spec, 100_000);
    if (!writer.add(100_000, pdu, 0, pdu.length)) {
      e.applyMessage(writer.bytes().slice());
      writer.reset();
      writer.add(100_000, pdu, 0, pdu.length);
    }
  });
  e.applyMessage(writer.bytes().slice());
  e.frame(100);
  return e;
}

const text = (e: PageEntities) => (slot: number) => e.markings[slot]!;

/** The labels chosen among the entities in `view`, as the page chooses them. */
function choose(
  chooser: LabelChooser,
  e: PageEntities,
  view: LabelView,
  selected: number,
  projector = project,
): number[] {
  const inView = new InView();
  inView.scan(e, view);
  return chooser.choose(e, inView.slots, inView.count, text(e), projector, view, selected);
}

describe('label placement', () => {
  it('places a box only where it overlaps none placed before, unless forced', () => {
    const placer = new LabelPlacer();
    placer.reset(200);
    expect(placer.tryPlace(0, 0, 50, 18)).toBe(true);
    expect(placer.tryPlace(49, 17, 90, 30)).toBe(false);
    expect(placer.tryPlace(50, 0, 90, 18)).toBe(true); // touching edges do not overlap
    expect(placer.tryPlace(-40, -10, 10, 5)).toBe(false); // partly off screen, still collides
    expect(placer.tryPlace(10, 5, 20, 10, true)).toBe(true);
    expect(placer.count).toBe(3);
    placer.reset(200);
    expect(placer.tryPlace(49, 17, 90, 30)).toBe(true);
  });

  it('labels entities far apart, and of a tight cluster only as many as fit, without overlaps', () => {
    // Four entities 0.01° apart (100 px) and eight within 2 px of one spot.
    const far: Array<[number, number]> = [0, 1, 2, 3].map((k) => [50 + 0.01 * k, 8]);
    const cluster: Array<[number, number]> = Array.from({ length: 8 }, (_, k) => [49.98 + 1e-5 * k, 8.01]);
    const e = entitiesAt([...far, ...cluster]);
    const chooser = new LabelChooser();
    const chosen = choose(chooser, e, VIEW, -1);
    const marks = chosen.map((slot) => e.markings[slot]);
    expect(marks.filter((m) => ['M1', 'M2', 'M3', 'M4'].includes(m!))).toHaveLength(4);
    expect(chosen.length).toBe(5); // one of the cluster
    expect(overlapping(chooser.boxes)).toBe(false);
  });

  it("always labels the selected entity, and keeps yesterday's labels where they still fit", () => {
    const e = entitiesAt(Array.from({ length: 6 }, (_, k) => [50 + 1e-5 * k, 8]));
    const chooser = new LabelChooser();
    const first = choose(chooser, e, VIEW, -1);
    expect(first).toHaveLength(1);
    // Selecting another puts its label in; the one shown before gives way where they collide.
    const selected = (first[0]! + 3) % 6;
    const second = choose(chooser, e, VIEW, selected);
    expect(second).toEqual([selected]);
    // Without a selection the last label stays (no jumping between neighbours).
    expect(choose(chooser, e, VIEW, -1)).toEqual([selected]);
  });

  it('considers only entities in view, and none but the selected when too many are in view to read', () => {
    const e = entitiesAt([
      [50, 8],
      [10, 8], // south of the view
      [50, 120], // east of it
    ]);
    const chooser = new LabelChooser();
    expect(choose(chooser, e, VIEW, -1).map((slot) => e.markings[slot])).toEqual(['M1']);
    // A view across the antimeridian (west > east after wrapping) holds longitudes on both sides.
    const pacific = entitiesAt([
      [0, 179.99],
      [0, -179.99],
    ]);
    const wrapped = (lon: number, lat: number, out: Float64Array) => {
      out[0] = ((((lon - 179) % 360) + 360) % 360) * 10_000;
      out[1] = (1 - lat) * 100;
    };
    const view = { widthPx: 20_000, heightPx: 800, westDeg: 179, southDeg: -1, eastDeg: 181, northDeg: 1 };
    expect(choose(chooser, pacific, view, -1, wrapped)).toHaveLength(2);
    // More than one entity per READABLE_PX square of a 100 × 100 px view: none listed, not readable.
    const small: LabelView = { ...VIEW, widthPx: 100, heightPx: 100 };
    const crowd = entitiesAt(Array.from({ length: 20 }, (_, k) => [50 + 1e-3 * k, 8]));
    const inView = new InView();
    inView.scan(crowd, small);
    expect(Math.floor((100 * 100) / (READABLE_PX * READABLE_PX))).toBeLessThan(20);
    expect([inView.readable, inView.count]).toEqual([false, 0]);
    expect(chooser.choose(crowd, inView.slots, inView.count, text(crowd), project, small, 3)).toEqual([3]);
    inView.scan(crowd, VIEW);
    expect([inView.readable, inView.count]).toEqual([true, 20]);
  });
});
