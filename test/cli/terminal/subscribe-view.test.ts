// `reckon subscribe`'s live table and plain lines over a real remote-entity table: hostile markings shown escaped,
// the table fitted to 80×24 and 120×40 and redrawn after a resize without stacked copies (on a terminal model),
// leaves and timeouts counted and listed, force, heading and rate shown.
import { describe, expect, it } from 'vitest';
import { visibleWidth } from '../../../src/cli/terminal/fit.js';
import { LiveView } from '../../../src/cli/terminal/live-view.js';
import { EntityList, subscribeLiveLines, subscribePlainLines } from '../../../src/cli/terminal/subscribe-view.js';
import { createFrame, renderFrame } from '../../../src/stream/frame.js';
import type { SubscriberStats } from '../../../src/stream/subscriber.js';
import { createTransportStats } from '../../../src/transport/transport.js';
import { event, world, type Spec } from './entities.js';
import { Screen } from './screen.js';

const HOSTILE = '\x1b]0;PW\x07\x1b[2J'; // sets the window title, clears the screen
const stats = { transport: createTransportStats(), decodeErrors: {} } as unknown as SubscriberStats;
const specs = (n: number): Spec[] =>
  Array.from({ length: n }, (_, i) => ({ marking: i === 0 ? HOSTILE : `TANK ${i + 1}`, forceId: 1 + (i % 3) }));
// eslint-disable-next-line no-control-regex
const OWN_CSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

describe('subscribe view', () => {
  it('shows a hostile marking escaped, in the live table and the plain lines', () => {
    const { frame, entities } = world([{ marking: HOSTILE }, { marking: 'A\u009b2J\x7f' }]);
    const lines = [...subscribeLiveLines(frame, entities, stats, true), ...subscribePlainLines(frame, entities)];
    const text = lines.join('\n').replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
    expect(text).toContain('\\x1b]0;PW\\x07\\x1b[2J');
    expect(text).toContain('A\\x9b2J\\x7f');
  });

  it.each([
    [80, 24],
    [120, 40],
    [60, 12],
  ])('at %i×%i every line fits, and the entities that do not are counted', (columns, rows) => {
    const { frame, entities } = world(specs(50));
    const live = new LiveView(new Screen(columns, rows), { env: {} });
    const lines = subscribeLiveLines(frame, entities, stats, true, live.size, true);
    expect(lines.length).toBeLessThanOrEqual(rows - 1);
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(columns - 1);
    const shown = lines.filter((l) => /^1:77:\d+ /.test(l.replace(OWN_CSI, ''))).length;
    const more = Number(/… and (\d+) more/.exec(lines.join('\n'))?.[1]);
    expect(shown + more).toBe(50);
    expect(shown).toBeGreaterThanOrEqual(rows - 8);
    // The columns that matter most stay: entity, marking, position.
    expect(lines.join('\n')).toMatch(/47\.39712° N 8\.54803° E 408 m/);
  });

  it('shows everything where it fits: type, force, state, heading, speed, rate, PDUs', () => {
    const { frame, entities } = world([{ marking: 'TANK 1', forceId: 2, headingDeg: 135, appearance: 1 << 3 }]);
    const lines = subscribeLiveLines(frame, entities, stats, false, { columns: 200, rows: 40 });
    expect(lines[1]!.split(/\s{2,}/)).toEqual(
      ['entity', 'marking', 'type', 'force', 'state', 'DR', 'position (displayed)'].concat([
        'heading',
        'speed',
        'rate',
        'PDUs',
        'last PDU',
      ]),
    );
    const position = '47.39712° N 8.54803° E 408 m';
    expect(lines[2]!.split(/\s{2,}/)).toEqual([
      '1:77:1',
      'TANK 1',
      'M1A2 · Tank · USA',
      'opposing',
      'slight damage',
      'FPW',
      position,
      '135°',
      '0.0 m/s',
      '0.67/s',
      '2',
      '0.5 s ago',
    ]);
    expect(subscribePlainLines(frame, entities)[0]).toMatch(
      /opposing type="M1A2 · Tank · USA" state="slight damage" .* heading=135° .* rate=0\.67\/s pdus=2/,
    );
  });

  it('says "frozen" in the state column of an entity a Stop/Freeze PDU holds, and in its plain line', () => {
    const { table, entities } = world([{ marking: 'HELD' }, { marking: 'FREE' }]);
    table.freeze(table.slotOf(table.key[0]!), 1.2);
    const frame = renderFrame(createFrame(), table, 1.5);
    const lines = subscribeLiveLines(frame, entities, stats, false, { columns: 200, rows: 40 });
    expect(lines[2]!.split(/\s{2,}/).slice(0, 6)).toEqual([
      '1:77:1',
      'HELD',
      'M1A2 · Tank · USA',
      'friendly',
      'frozen',
      'FPW',
    ]);
    expect(lines[3]!.split(/\s{2,}/).slice(0, 5)).toEqual(['1:77:2', 'FREE', 'M1A2 · Tank · USA', 'friendly', 'FPW']);
    const plain = subscribePlainLines(frame, entities);
    expect(plain[0]).toMatch(/ state="frozen" DR=FPW /);
    expect(plain[1]).not.toMatch(/frozen/);
  });

  it('names each type from SISO-REF-010, shows the destroyed, and keeps the type at 80 columns', () => {
    const { frame, entities } = world([
      { marking: 'HIND', entityType: [1, 2, 222, 20, 2, 0, 0], appearance: 3 << 3 },
      { marking: 'SOLDIER', entityType: [3, 1, 225, 11, 5, 40, 0], appearance: 3 << 3 },
      { marking: 'ODD', entityType: [12, 40, 999, 1, 1, 1, 1] },
    ]);
    const wide = subscribeLiveLines(frame, entities, stats, false, { columns: 200, rows: 40 });
    expect(wide[2]).toMatch(/^1:77:1\s+HIND\s+Mi-24\/25\/35 Hind · Attack helicopter · RUS\s+friendly\s+destroyed\s/);
    expect(wide[3]).toMatch(
      /^1:77:2\s+SOLDIER\s+5\.56mm M16A1 · U\.S\. Army \(USA\) · USA\s+friendly\s+fatal injury\s/,
    );
    expect(wide[4]).toMatch(/^1:77:3\s+ODD\s+unknown \(12\) · unknown \(40\) · unknown \(999\)\s+friendly\s+FPW/);
    const narrow = subscribeLiveLines(frame, entities, stats, false, { columns: 80, rows: 24 });
    for (const line of narrow) expect(visibleWidth(line), line).toBeLessThanOrEqual(80);
    expect(narrow[2]).toMatch(/^1:77:1\s+HIND\s+Mi-24\S*/);
    expect(narrow[1]).toMatch(/^entity\s+marking\s+type\s/);
  });

  it('rates PDUs per second since the first, that one not counted: steady, silent, burst, new', () => {
    const { records } = world([{ marking: 'A' }]);
    const list = new EntityList();
    const r = records[0]!;
    const key = event('appeared', r, 0).key;
    list.apply(event('appeared', r, 0));
    expect(list.pduRatePerSecond(key, 0.5)).toBeNaN(); // too early to say
    for (let t = 5; t <= 20; t += 5) list.apply(event('updated', r, t)); // a heartbeat every 5 s
    expect(list.pduRatePerSecond(key, 20.1)).toBeCloseTo(4 / 20.1, 6);
    expect(list.pduRatePerSecond(key, 60)).toBeCloseTo(4 / 60, 6); // silent since: falling
    const burst = new EntityList();
    burst.apply(event('appeared', r, 0));
    burst.apply(event('updated', r, 0.008));
    expect(burst.pduRatePerSecond(key, 1)).toBe(1);
  });

  it.each([
    [359.7, '0°'],
    [0.2, '0°'],
    [270, '270°'],
  ])('shows heading %f as %s', (headingDeg, shown) => {
    const { frame, entities } = world([{ marking: 'T', headingDeg }]);
    expect(subscribePlainLines(frame, entities)[0]).toContain(` heading=${shown} `);
  });

  it.each([
    [0, 'other'],
    [1, 'friendly'],
    [3, 'neutral'],
    [5, 'opposing 2'],
    [12, 'neutral 4'],
  ])('names force ID %i %s', (forceId, name) => {
    const { frame, entities } = world([{ marking: 'X', forceId }]);
    expect(subscribePlainLines(frame, entities)[0]).toMatch(
      new RegExp(`^subscribe: 1:77:1 X ${name} type="[^"]+" DR=`),
    );
  });

  it('colours the force on a terminal only when colour is wanted', () => {
    const { frame, entities } = world([
      { marking: 'RED', forceId: 2 },
      { marking: 'BLUE', forceId: 1 },
    ]);
    const coloured = subscribeLiveLines(frame, entities, stats, true, { columns: 200, rows: 40 }, true).join('\n');
    expect(coloured).toContain('\x1b[31mopposing');
    expect(coloured).toContain('\x1b[34mfriendly');
    const plain = subscribeLiveLines(frame, entities, stats, true, { columns: 200, rows: 40 }, false).join('\n');
    expect(plain).not.toMatch(/\x1b\[3[0-9]m/); // eslint-disable-line no-control-regex
    expect(new LiveView(new Screen(80, 24), { env: { NO_COLOR: '1' } }).color).toBe(false);
    expect(new LiveView(new Screen(80, 24), { env: {} }).color).toBe(true);
    expect(new LiveView(new Screen(80, 24), { env: {}, tty: false }).color).toBe(false);
  });

  it('counts and lists the entities that left or timed out', () => {
    const { frame, entities, records } = world(specs(4));
    entities.apply(event('removed', records[1]!, 2));
    entities.apply(event('timedOut', records[0]!, 3));
    entities.apply(event('removed', records[2]!, 4));
    const lines = subscribeLiveLines(frame, entities, stats, false, { columns: 200, rows: 40 });
    expect(lines[0]).toMatch(/remote entities · 2 left, 1 timed out$/);
    const text = lines.join('\n');
    expect(text).toMatch(/left 1:77:2 TANK 2/);
    expect(text).toMatch(/timed out 1:77:1 \\x1b\]0;PW\\x07\\x1b\[2J/);
    expect(text).toMatch(/left 1:77:3 TANK 3/);
    const plain = subscribePlainLines(frame, entities).at(-1);
    expect(plain).toMatch(/^subscribe: 2 left, 1 timed out; last left 1:77:2 TANK 2 /);
    expect(entities.size).toBe(4);
  });

  it('redraws in place at 80×24, and after resizes to 120×40 and back, without stacked copies', () => {
    const { frame, entities } = world(specs(50));
    const screen = new Screen(80, 24);
    const live = new LiveView(screen, { env: {} });
    const draw = () => live.update(subscribeLiveLines(frame, entities, stats, true, live.size, live.color));
    const check = () => {
      const visible = screen.lines();
      expect(
        visible.filter((l) => l.startsWith('50 remote entities')),
        visible.join('\n'),
      ).toHaveLength(1);
      expect(visible.filter((l) => l.startsWith('entity '))).toHaveLength(1);
      expect(visible.filter((l) => /Ctrl-C to stop/.test(l))).toHaveLength(1);
      for (const line of screen.written.split('\n')) expect(visibleWidth(line)).toBeLessThan(screen.columns);
    };
    screen.write('subscribe: listening on 127.0.0.1 port 3000\n');
    for (let i = 0; i < 3; i++) draw();
    check();
    screen.resize(120, 40);
    for (let i = 0; i < 3; i++) draw();
    check();
    screen.resize(80, 24);
    screen.written = '';
    for (let i = 0; i < 3; i++) draw();
    check();
  });

  it('keeps seven markings that differ only at their end whole at 80 columns, shortening the type first', () => {
    // VR-Forces names its units "O1:3001:NN"; a long type (28 characters and more) must not hide them.
    const t80 = [1, 1, 222, 1, 1, 5, 0]; // T-80BVK · Tank · RUS
    const hind = [1, 2, 222, 20, 2, 0, 0]; // Mi-24/25/35 Hind · Attack helicopter · RUS
    const { frame, entities } = world(
      Array.from({ length: 7 }, (_, i) => ({ marking: `O1:3001:5${i}`, entityType: i === 6 ? hind : t80 })),
    );
    const lines = subscribeLiveLines(frame, entities, stats, false, { columns: 79, rows: 23 });
    const rows = lines.filter((l) => l.startsWith('1:77:'));
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => r.split(/\s{2,}/)[1])).toEqual(Array.from({ length: 7 }, (_, i) => `O1:3001:5${i}`));
    expect(rows[0]).toMatch(/ T-80BVK · Tank · RUS /);
    expect(rows[6]).toMatch(/ Mi-24\/25\/35 Hind · [^·]+… {2}47/); // the type, cut
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(79);
  });

  it('lists the entities one Stop/Freeze holds on one line, and shows "frozen" at 80 columns', () => {
    const { table, entities, records } = world(specs(7).map((s) => ({ ...s, marking: 'T' })));
    for (const r of records) {
      table.freeze(table.slotOf(event('frozen', r, 3).key), 3);
      entities.apply(event('frozen', r, 3));
    }
    entities.apply(event('resumed', records[0]!, 5));
    const frame = renderFrame(createFrame(), table, 6);
    const lines = subscribeLiveLines(frame, entities, stats, false, { columns: 79, rows: 23 });
    expect(lines).toContain('frozen: 7 entities (Stop/Freeze) · 3 s ago');
    expect(lines).toContain('resumed: T (Start/Resume) · 1 s ago');
    expect(lines[1]).toMatch(/^entity\s+marking\s+type\s+state\s+position/);
    expect(lines[3]).toMatch(/^1:77:2\s+T\s+M1A2 · Tank · USA\s+frozen\s+47/);
    // Without a terminal, the lines as they come, each once.
    expect(entities.recent.takeNew().map((l) => l.text)).toEqual([
      'frozen: 7 entities (Stop/Freeze)',
      'resumed: T (Start/Resume)',
    ]);
    expect(entities.recent.takeNew()).toEqual([]);
  });
});
