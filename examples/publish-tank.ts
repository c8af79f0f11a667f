/**
 * Publishes a tank driving a road course as Entity State PDUs over UDP, sent only when receivers' dead reckoning
 * drifts past the threshold (or on the heartbeat). Watch it with `reckon subscribe`.
 *
 *   npx tsx examples/publish-tank.ts [seconds=30] [port=3000]
 */
import { createPublisher, deadReckonEmit, emitReasonNames, sampleTrajectory } from '../src/index.js';
import { tankRoadCourse } from '../src/truth/index.js';

const seconds = Number(process.argv[2] ?? 30);
const port = Number(process.argv[3] ?? 3000);

const publisher = await createPublisher({ network: { address: '127.0.0.1', port } });
const tank = {
  entity: 1,
  marking: 'TANK 1',
  entityType: { kind: 1, domain: 1, country: 225 },
  algorithm: 'auto' as const,
};

sampleTrajectory(tankRoadCourse(), { entity: tank, rateHz: 30, durationSeconds: seconds })
  .pipe(deadReckonEmit({ config: publisher.config }), publisher.transmit())
  .subscribe({
    next: (pdu) =>
      console.log(
        `t=${pdu.timeSeconds.toFixed(2)} sent PDU ${publisher.sent.pdus}: ${emitReasonNames(pdu.reasons).join(', ')}`,
      ),
    complete: async () => {
      await publisher.close(); // sends the tank's leave notice
      const at15Hz = Math.floor(15 * seconds);
      console.log(`${publisher.sent.pdus} PDUs sent in ${seconds} s, instead of ${at15Hz} at 15 Hz`);
    },
  });
