// Fitting tables and lines to a width.
import { describe, expect, it } from 'vitest';
import { clipLine, formatFittedTable, visibleWidth } from '../../../src/cli/terminal/fit.js';
import { formatTable } from '../../../src/cli/terminal/format.js';

const COLUMNS = [
  { title: 'id' },
  { title: 'name', minWidth: 5 },
  { title: 'low', dropRank: 1 },
  { title: 'n', align: 'right' as const, dropRank: 2 },
];
const ROWS = [
  ['1', 'a long name here', 'xxxxxxxx', '12'],
  ['22', 'short', 'y', '3'],
];

describe('formatFittedTable', () => {
  it('is formatTable where everything fits', () => {
    expect(formatFittedTable(COLUMNS, ROWS, 1000)).toEqual(formatTable(COLUMNS, ROWS));
  });

  it.each([
    [30, ['id  name               n', '1   a long name here  12', '22  short              3']],
    [24, ['id  name               n', '1   a long name here  12', '22  short              3']],
    [23, ['id  name', '1   a long name here', '22  short']],
    [12, ['id  name', '1   a long…', '22  short']],
    [3, ['id  name', '1   a lo…', '22  short']],
  ])('at %i cells: drops the lowest rank first, then shortens', (width, lines) => {
    expect(formatFittedTable(COLUMNS, ROWS, width)).toEqual(lines);
  });

  it('styles cells after padding', () => {
    const [, first] = formatFittedTable([{ title: 'a', style: (t) => `<${t}>` }, { title: 'b' }], [['x', 'y']], 100);
    expect(first).toBe('<x>  y');
  });
});

describe('clipLine', () => {
  it.each([
    ['hello', 10, 'hello'],
    ['hello world', 5, 'hell…'],
    ['\x1b[1mbold text\x1b[0m', 4, '\x1b[1mbol…\x1b[0m'],
    ['\x1b[2mab\x1b[0m', 2, '\x1b[2mab\x1b[0m'],
    ['abc', 0, ''],
  ])('%j in %i cells → %j', (text, width, clipped) => {
    expect(clipLine(text, width)).toBe(clipped);
    expect(visibleWidth(clipLine(text, width))).toBeLessThanOrEqual(width);
  });
});
