// CSV tracks whose columns have names of their own: a height, heading, speed or course found under the names loggers
// give them, units read from the name (feet, km/h, knots, ft/min) and said, and a column that looks like a
// measurement but was not used named with the flag that would use it.
import { describe, expect, it } from 'vitest';
import { readCsvTrack } from '../../src/truth/index.js';

const HINT = (key: string) => `--${key}-column NAME`;

describe('the columns of a CSV track', () => {
  it('finds a height, heading, speed and course under the names loggers give them', () => {
    const { points, notes } = readCsvTrack(
      'gps_time,gps_lat,gps_long,gps_elevation,gps_heading_raw,gps_speed,cog\n100,47,8,512.5,91.5,13.2,90.2\n',
    );
    expect(points).toEqual([
      {
        timeSeconds: 100,
        latitudeDeg: 47,
        longitudeDeg: 8,
        heightM: 512.5,
        headingDeg: 91.5,
        groundSpeedMps: 13.2,
        trackDeg: 90.2,
        row: 2,
      },
    ]);
    expect(notes).toEqual([]);
  });

  it('reads units from the names and says so', () => {
    const { points, notes } = readCsvTrack('t,lat,lon,alt_ft,speed_kmh,vs_fpm\n0,47,8,1000,36,600\n');
    expect(points[0]).toMatchObject({ heightM: 304.8, groundSpeedMps: 10, verticalRateMps: 3.048 });
    expect(notes).toEqual([
      'column "alt_ft" read as the height in feet',
      'column "speed_kmh" read as the speed over ground in km/h',
      'column "vs_fpm" read as the vertical rate in feet per minute',
    ]);
  });

  it('names a column that looks like a measurement but was not used, and the flag that would use it', () => {
    const { notes } = readCsvTrack(
      'time,lat,lon,alt,alt_baro,bank_angle,roll_rate\n0,47,8,500,480,5,0.1\n',
      {},
      'car.csv',
      HINT,
    );
    expect(notes).toEqual([
      'column "alt_baro" looks like the height but was not used ("alt" was); to use it: --height-column alt_baro',
      'column "bank_angle" looks like the roll but was not used; to use it: --roll-column bank_angle',
    ]);
  });

  it('uses the column named for it over the one found by name', () => {
    const { points, notes } = readCsvTrack('time,lat,lon,alt,alt_baro\n0,47,8,500,480\n', { height: 'alt_baro' });
    expect(points[0]!.heightM).toBe(480);
    expect(notes).toEqual([
      'column "alt" looks like the height but was not used ("alt_baro" was); to use it: columns.height: "alt"',
    ]);
  });
});
