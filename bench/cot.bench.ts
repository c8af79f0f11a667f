/**
 * DIS → CoT. `cot.encode`: CoT events per second from entity frames through the `cotEvents` operator (geodetic
 * position, course and speed, XML document) with every one of 1000 entities due in every frame; `cot.encode.xml`:
 * the XML document alone. `cot.bandwidth.*`: bytes per entity per second, CoT at the default 1 Hz against the
 * DIS Entity State input, for the real recorded exercises in test/fixtures/dis replayed in virtual time; and, for
 * scale, what a 15 Hz fixed-rate DIS sender would use.
 */
import { readFileSync } from 'node:fs';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { encodeCotEvent } from '../src/cot/event.js';
import { cotEvents, type CotEvent } from '../src/cot/operator.js';
import { udpFromFrame } from '../src/pcap/packet.js';
import { readCapture } from '../src/pcap/reader.js';
import { PduType } from '../src/pdu/wire/constants.js';
import { EntityStateRecord, setMarkingText } from '../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../src/pdu/wire/header.js';
import { timestampFromSeconds } from '../src/pdu/wire/timestamp.js';
import { RemoteEntityTable } from '../src/dr/receiver/remote-entity-table.js';
import { createFrame, renderFrame, type EntityFrame } from '../src/stream/frame.js';
import { createSubscriber } from '../src/stream/subscriber.js';
import { createTransportStats, type DatagramReceiver, type DatagramTransport } from '../src/transport/transport.js';
import { consume, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';
import { TANK_EVENT_FIELDS } from '../test/fixtures/cot/tank-event.js';

const N = 1000;

/** A table of N moving entities (mixed forces and domains), all loaded. */
function tableOfEntities(): RemoteEntityTable {
  const table = new RemoteEntityTable({ capacity: N });
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.drAlgorithm = 4;
  for (let i = 0; i < N; i++) {
    r.site = 1;
    r.application = 3001;
    r.entity = i + 1;
    r.forceId = 1 + (i % 3);
    r.entityType.set([1, 1 + (i % 3), 225, 1, 1, 3, 0]);
    r.location.set([-2_700_000 + i * 10, -4_300_000, 3_800_000]);
    r.linearVelocity.set([10, 1, 0]);
    r.angularVelocity.set([0, 0, 0.1]);
    r.timestampRaw = timestampFromSeconds(0, false);
    setMarkingText(r, `UNIT ${i}`);
    table.apply(r, 1_700_000_000);
  }
  return table;
}

class Loopback implements DatagramTransport {
  readonly stats = createTransportStats();
  receiver: DatagramReceiver | undefined;
  send(): void {}
  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }
  onClose(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface Bandwidth {
  readonly seconds: number;
  readonly entitySeconds: number;
  readonly disBytes: number;
  readonly cotBytes: number;
  readonly cotEvents: number;
}

/**
 * Replays a capture's datagrams at their recorded times into a subscriber (virtual time) with 10 Hz frames piped
 * through `cotEvents` at 1 Hz; counts Entity State PDU bytes in, CoT bytes out and entity-seconds held.
 */
function replayBandwidth(path: string): Bandwidth {
  const capture = readCapture(readFileSync(new URL(path, import.meta.url)));
  const t0 = capture.frames[0]!.timeSeconds;
  const datagrams: Array<{ atMs: number; payload: Uint8Array }> = [];
  let disBytes = 0;
  for (const frame of capture.frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp') continue;
    datagrams.push({ atMs: Math.round((frame.timeSeconds - t0) * 1000), payload: udp.payload.slice() });
    forEachPdu(udp.payload, (_bytes, _offset, length, type) => {
      if (type === PduType.ENTITY_STATE || type === PduType.ENTITY_STATE_UPDATE) disBytes += length;
    });
  }
  const endMs = datagrams[datagrams.length - 1]!.atMs + 1000;
  let cotBytes = 0,
    cotCount = 0,
    entitySeconds = 0;
  const scheduler = new TestScheduler(() => {});
  scheduler.run(({ cold }) => {
    const transport = new Loopback();
    const subscriber = createSubscriber({}, { transport });
    const frames = subscriber.frames({ rateHz: 10 });
    const sub = frames.subscribe((frame) => (entitySeconds += frame.entityCount * 0.1));
    const cot = frames.pipe(cotEvents()).subscribe((e: CotEvent) => {
      cotBytes += Buffer.byteLength(e.xml);
      cotCount++;
    });
    const source = { address: '127.0.0.1', port: 3000, family: 'IPv4' };
    for (const d of datagrams) cold(`${d.atMs + 1}ms a`).subscribe(() => transport.receiver?.(d.payload, source));
    cold(`${endMs}ms a`).subscribe(() => {
      sub.unsubscribe();
      cot.unsubscribe();
    });
  });
  return { seconds: endMs / 1000, entitySeconds, disBytes, cotBytes, cotEvents: cotCount };
}

const suite: BenchSuite = async ({ quick }) => {
  const minMillis = quick ? 100 : 300;
  const results: BenchResult[] = [];

  // Every entity due in every frame: the rate is far above the frame rate, and frames advance 1 s each.
  const table = tableOfEntities();
  const frame: EntityFrame = createFrame();
  let t = 1_700_000_000;
  const frames = new Subject<EntityFrame>();
  let bytes = 0,
    events = 0;
  frames.pipe(cotEvents({ rateHz: 100 })).subscribe((e) => {
    bytes += e.xml.length;
    events++;
  });
  const rate = opsPerSecond(
    () => {
      t += 1;
      frames.next(renderFrame(frame, table, t));
    },
    N,
    { minMillis },
  );
  consume(bytes);
  results.push({ name: 'cot.encode', eventsPerSec: round(rate), entities: N, bytesPerEvent: round(bytes / events) });

  const fields = TANK_EVENT_FIELDS;
  let length = 0;
  const xmlRate = opsPerSecond(
    () => {
      for (let i = 0; i < 100; i++) length += encodeCotEvent({ ...fields, timeSeconds: fields.timeSeconds + i }).length;
    },
    100,
    { minMillis },
  );
  consume(length);
  results.push({
    name: 'cot.encode.xml',
    eventsPerSec: round(xmlRate),
    bytesPerEvent: encodeCotEvent(fields).length,
  });

  for (const [name, path] of [
    ['vrforces-dis7', '../test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap'],
    ['vrforces-dis5', '../test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap'],
  ] as const) {
    const b = replayBandwidth(path);
    const disPerEntity = b.disBytes / b.entitySeconds;
    const cotPerEntity = b.cotBytes / b.entitySeconds;
    results.push({
      name: `cot.bandwidth.${name}`,
      seconds: round(b.seconds),
      meanEntities: round(b.entitySeconds / b.seconds),
      disEntityStateBytesPerEntityPerSec: round(disPerEntity),
      cotBytesPerEntityPerSec: round(cotPerEntity),
      cotEvents: b.cotEvents,
      ratio: round(cotPerEntity / disPerEntity),
      // For scale: a fixed-rate 15 Hz sender of 144-byte Entity State PDUs.
      dis15HzBytesPerEntityPerSec: 15 * 144,
    });
  }
  return results;
};

export default suite;
