/** Plain-text tables and number formats for the live views and summaries of the CLI. */
import { columnWidths } from './column-widths.js';

export interface Column {
  readonly title: string;
  /** Defaults to 'left'. */
  readonly align?: 'left' | 'right';
}

/** Lays rows out under their titles, columns two spaces apart; widths fit the widest cell. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columnWidths(
    columns.map((c) => c.title),
    rows,
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((c, i) =>
        c.align === 'right' ? (cells[i] ?? '').padStart(widths[i]!) : (cells[i] ?? '').padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...rows.map(line)];
}

/** `1 datagram`, `3 datagrams`, `1 hitch`, `2 hitches` (pass the plural when it is not the noun + s). */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** `512 bytes`, `4 KiB`, `1.5 MiB`, `1 GiB`: sizes and limits, in powers of 1024 with three significant digits. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '–';
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (Math.abs(bytes) < 1024) return formatCount(bytes, 'byte');
  let value = bytes / 1024;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.abs(value) >= 1000 ? Math.round(value) : Number(value.toPrecision(3))} ${units[unit]}`;
}

/** `x.toFixed(digits)`, but never `-0` or `-0.00`: a value that rounds to zero prints without a sign. */
export function toFixedUnsigned(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** `0.42 m`, `12.3 m`, `1.25 km`. */
export function formatMeters(meters: number): string {
  if (!Number.isFinite(meters)) return '–';
  if (Math.abs(meters) >= 1000) return `${toFixedUnsigned(meters / 1000, 2)} km`;
  return `${toFixedUnsigned(meters, Math.abs(meters) < 10 ? 2 : 1)} m`;
}

/** `512 B/s`, `2.2 kB/s`. */
export function formatByteRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond)) return '–';
  return bytesPerSecond >= 1000 ? `${(bytesPerSecond / 1000).toFixed(1)} kB/s` : `${Math.round(bytesPerSecond)} B/s`;
}

/** `91.4 %`. */
export function formatPercent(fraction: number): string {
  return Number.isFinite(fraction) ? `${(100 * fraction).toFixed(1)} %` : '–';
}

/**
 * Geodetic position in degrees and metres: `36.59731° N 121.87310° W 12 m` (five decimals: ~1 m). The one position
 * format of the CLI (`subscribe`, `decode`). `–` when a value is not finite.
 */
export function formatLatLonAlt(latitudeDeg: number, longitudeDeg: number, heightM: number): string {
  if (!Number.isFinite(latitudeDeg) || !Number.isFinite(longitudeDeg) || !Number.isFinite(heightM)) return '–';
  const lat = `${Math.abs(latitudeDeg).toFixed(5)}° ${latitudeDeg >= 0 ? 'N' : 'S'}`;
  const lon = `${Math.abs(longitudeDeg).toFixed(5)}° ${longitudeDeg >= 0 ? 'E' : 'W'}`;
  return `${lat} ${lon} ${toFixedUnsigned(heightM, 0)} m`;
}
