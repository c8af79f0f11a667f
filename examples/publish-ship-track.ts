/**
 * Publishes a ship from a recorded track (1 Hz positions and gyro heading from a real vessel, joined by splines)
 * as the truth. The emitter decides when a PDU is needed; every one is printed with its reasons.
 *
 *   npx tsx examples/publish-ship-track.ts [seconds=30] [port=3000] [track.csv]
 */
import { createPublisher, deadReckonEmit, emitReasonNames, sampleTrajectory } from '../src/index.js';
import { loadTrack } from '../src/truth/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);
const file =
  process.argv[4] ??
  new URL('../test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv', import.meta.url).pathname;

const track = await loadTrack(file);
console.log(
  `${track.name}: ${track.durationSeconds.toFixed(0)} s of track; publishing ${seconds} s of it to 127.0.0.1:${port}`,
);

const publisher = await createPublisher({
  network: { address: '127.0.0.1', port },
  emitter: { positionThreshold: 0.5 },
}); // metres; "50 cm" works too (units load mathjs)
const ship = { entity: 1, marking: 'AAVA', entityType: { kind: 1, domain: 3 }, algorithm: 'auto' as const };

// The ship sails the track in real time; ECEF velocity and turn rate come from the spline through the fixes.
sampleTrajectory(track, { entity: ship, rateHz: 20, durationSeconds: seconds, startSeconds: 60 })
  .pipe(deadReckonEmit({ config: publisher.config }), publisher.transmit())
  .subscribe({
    next: (pdu) => {
      const [vx, vy, vz] = pdu.record.linearVelocity;
      console.log(
        `PDU ${publisher.sent.pdus}: ${emitReasonNames(pdu.reasons).join(', ')}, speed ${Math.hypot(vx!, vy!, vz!).toFixed(2)} m/s`,
      );
    },
    complete: async () => {
      await publisher.close();
      console.log(`${publisher.sent.pdus} PDUs (${publisher.sent.bytes} bytes) for ${seconds} s of the track`);
    },
  });
