/**
 * Render-rate frames: every remote entity dead-reckoned and smoothed to the frame time, read from the table's
 * typed arrays (no allocation per entity). Prints each entity's displayed position a few times a second. With
 * `interpolate`, entities are shown 100 ms in the past, between received states, and each line says how.
 *
 *   npx tsx examples/render-frames.ts [seconds=30] [port=3000] [rateHz=5] [extrapolate|interpolate]
 */
import { take } from 'rxjs';
import { entityFrames, markingAt } from '../src/index.js';
import { ecefToGeodeticDegrees } from '../src/math/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);
const rateHz = Number(process.argv[4] ?? 5);
const display = process.argv[5] === 'interpolate' ? 'interpolate' : 'extrapolate';
const HOW = ['', 'interpolated', 'dead-reckoned', 'held'];

const geo = new Float64Array(3);
let frames = 0;

entityFrames({ network: { address: '127.0.0.1', port }, receiver: { display } }, { rateHz })
  .pipe(take(Math.round(seconds * rateHz)))
  .subscribe({
    next(frame) {
      frames++;
      // The frame and its arrays are reused: read them now, copy what you keep.
      for (let slot = 0; slot < frame.slotCount; slot++) {
        if (frame.active[slot] !== 1) continue;
        const j = 3 * slot;
        ecefToGeodeticDegrees(geo, frame.location[j]!, frame.location[j + 1]!, frame.location[j + 2]!);
        const heading = (frame.orientation[j]! * 180) / Math.PI;
        console.log(
          `frame ${frames} t=${frame.timeSeconds.toFixed(2)} ${markingAt(frame, slot).padEnd(11)} ` +
            `${geo[0]!.toFixed(6)} ${geo[1]!.toFixed(6)} ${geo[2]!.toFixed(1)} m  psi ${heading.toFixed(1)}°` +
            (display === 'interpolate' ? `  ${HOW[frame.interpolation[slot]!]}` : ''),
        );
      }
    },
    complete: () => console.log(`${frames} frames rendered`),
  });
