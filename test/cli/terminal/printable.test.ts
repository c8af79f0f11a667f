// printable(): every character that could steer a terminal becomes a visible escape; everything else is kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLine, printable } from '../../../src/cli/terminal/printable.js';

/** Characters a terminal acts on: C0, DEL, C1, and the bidi controls and separators. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('printable', () => {
  it.each([
    ['TANK 1', 'TANK 1'],
    ['\x1b]0;PW\x07\x1b[2J', '\\x1b]0;PW\\x07\\x1b[2J'],
    ['A\x00B\x7fC\x9bD', 'A\\x00B\\x7fC\\x9bD'],
    ['\r\n\t', '\\x0d\\x0a\\x09'],
    ['abc\u202edcba', 'abc\\u202edcba'],
    ['\u2066x\u2069\u202a\u202b\u202c\u202d', '\\u2066x\\u2069\\u202a\\u202b\\u202c\\u202d'],
    ['a\\x1b', 'a\\\\x1b'],
    ['Zürich °', 'Zürich °'],
  ])('%j → %j', (text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it('leaves no character a terminal acts on, and loses nothing (the escapes read back to the text)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const shown = printable(text);
        expect(shown).not.toMatch(UNSAFE);
        const back = shown.replace(/\\(\\|x([0-9a-f]{2})|u([0-9a-f]{4}))/g, (_, e: string, x?: string, u?: string) =>
          e === '\\' ? '\\' : String.fromCharCode(parseInt((x ?? u)!, 16)),
        );
        expect(back).toBe(text);
      }),
    );
  });
});

describe('jsonLine', () => {
  it('is JSON.stringify with DEL, C1 and bidi controls escaped too: the same value, nothing raw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const line = jsonLine({ marking: text });
        expect(line).not.toMatch(UNSAFE);
        expect(JSON.parse(line)).toEqual({ marking: text });
      }),
    );
    expect(jsonLine({ m: 'A\x7f\x9b\u202e' })).toBe('{"m":"A\\u007f\\u009b\\u202e"}');
  });
});
