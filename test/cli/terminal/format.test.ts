import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatLatLonAlt,
  formatMeters,
  toFixedUnsigned,
} from '../../../src/cli/terminal/format.js';

describe('formatCount', () => {
  it.each([
    [0, 'datagram', undefined, '0 datagrams'],
    [1, 'datagram', undefined, '1 datagram'],
    [2, 'datagram', undefined, '2 datagrams'],
    [1, 'hitch', 'hitches', '1 hitch'],
    [3, 'hitch', 'hitches', '3 hitches'],
    [1, 'pass', 'passes', '1 pass'],
  ])('%i %s', (count, singular, plural, text) => {
    expect(formatCount(count, singular, plural)).toBe(text);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [796 * 1024, '796 KiB'],
    [16 * 1024 * 1024, '16 MiB'],
    [1073741824, '1 GiB'],
    [5 * 2 ** 40, '5 TiB'],
    [2 ** 52, '4096 TiB'],
  ])('%d bytes', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('no negative zero', () => {
  it.each([
    [-0.001, 2, '0.00'],
    [-0, 0, '0'],
    [-0.4, 0, '0'],
    [-0.6, 0, '-1'],
    [-0.004, 1, '0.0'],
    [0.004, 2, '0.00'],
    [-1.5, 1, '-1.5'],
  ])('toFixedUnsigned(%f, %i) = %s', (value, digits, text) => {
    expect(toFixedUnsigned(value, digits)).toBe(text);
  });

  it('formatMeters and formatLatLonAlt', () => {
    expect(formatMeters(-0.001)).toBe('0.00 m');
    expect(formatMeters(-12.34)).toBe('-12.3 m'); // one decimal from 10 m up, whatever the sign
    expect(formatMeters(-1234)).toBe('-1.23 km');
    expect(formatLatLonAlt(36.5, -121.9, -0.3)).toBe('36.50000° N 121.90000° W 0 m');
  });
});
