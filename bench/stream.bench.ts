/**
 * The subscriber's receive path, datagram in → split, filter, decode → table update (→ entity event): reckon's
 * `createSubscriber` against what a straightforward rxjs receiver does (decode each datagram to a plain object with
 * `decodeEntityState`, keep the latest in a `Map` keyed by an id string, emit it). 1000 entities, one Entity State
 * PDU per datagram, fed through a transport double so the figures are the library's work, not the kernel's.
 * Also the render-rate frame over those entities, and the receive path with display 'interpolate'.
 */
import { Subject } from 'rxjs';
import { EntityStateRecord, setMarkingText } from '../src/pdu/wire/entity-state-record.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { decodeEntityState } from '../src/pdu/json/entity-state-json.js';
import type { EntityStatePdu } from '../src/pdu/schema/schema.js';
import { createSubscriber } from '../src/stream/subscriber.js';
import { createTransportStats, type DatagramReceiver, type DatagramTransport } from '../src/transport/transport.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const N = 1000;
const SOURCE = { address: '127.0.0.1', port: 3000, family: 'IPv4' };

/** One datagram per entity; `stamp` advances the timestamp so that the table never sees a duplicate. */
function datagrams(): { buffers: Buffer[]; views: DataView[] } {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.drAlgorithm = 4;
  const buffers: Buffer[] = [];
  for (let i = 0; i < N; i++) {
    r.site = 1;
    r.application = 1;
    r.entity = i + 1;
    r.location.set([-2_700_000 + i, -4_300_000, 3_800_000]);
    r.linearVelocity.set([10, 1, 0]);
    r.angularVelocity.set([0, 0, 0.1]);
    setMarkingText(r, `E${i}`);
    const b = Buffer.alloc(144);
    encodeEntityStateInto(b, r);
    buffers.push(b);
  }
  return { buffers, views: buffers.map((b) => new DataView(b.buffer, b.byteOffset, b.length)) };
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

const suite: BenchSuite = async ({ quick }) => {
  const minMillis = quick ? 100 : 300;
  const { buffers, views } = datagrams();
  let tick = 0;
  /** Delivers datagram i with a timestamp newer than the last one of its entity. */
  const feed = (deliver: (b: Buffer) => void) => (i: number) => {
    const k = i % N;
    if (k === 0) tick += 2;
    views[k]!.setUint32(4, tick);
    deliver(buffers[k]!);
  };

  const results: BenchResult[] = [];
  for (const withEvents of [false, true]) {
    const transport = new Loopback();
    const subscriber = createSubscriber({ receiver: { maxEntities: N } }, { transport });
    const frames = subscriber.frames({ rateHz: 1 }).subscribe(); // holds the connection: table updates only
    const events = withEvents ? subscriber.events$.subscribe((e) => consume(e.timeSeconds)) : undefined;
    const op = feed((b) => transport.receiver!(b, SOURCE));
    const rate = opsPerSecond(
      () => {
        for (let i = 0; i < N; i++) op(i);
      },
      N,
      { minMillis },
    );
    const heap = heapBytesPerOp(op, 20 * N);
    if (!withEvents) {
      const table = subscriber.table!;
      let t = 0;
      const frameRate = opsPerSecond(() => table.render((t += 0.016)), 1, { minMillis });
      results.push({
        name: 'stream.frame.reckon',
        opsPerSec: round(frameRate),
        entitiesPerSec: round(frameRate * N),
        entities: N,
      });
    }
    events?.unsubscribe();
    frames.unsubscribe();
    results.unshift({
      name: withEvents ? 'stream.receive+events.reckon' : 'stream.receive.reckon',
      opsPerSec: round(rate),
      heapBytesPerOp: round(heap),
      entities: N,
    });
  }

  // Display 'interpolate': the same receive path with the interpolated view recording each PDU's state.
  {
    const transport = new Loopback();
    const subscriber = createSubscriber({ receiver: { maxEntities: N, display: 'interpolate' } }, { transport });
    const frames = subscriber.frames({ rateHz: 1 }).subscribe();
    const op = feed((b) => transport.receiver!(b, SOURCE));
    const rate = opsPerSecond(
      () => {
        for (let i = 0; i < N; i++) op(i);
      },
      N,
      { minMillis },
    );
    const heap = heapBytesPerOp(op, 20 * N);
    frames.unsubscribe();
    const name = 'stream.receive.interpolate.reckon';
    results.push({ name, opsPerSec: round(rate), heapBytesPerOp: round(heap), entities: N });
  }

  // The baseline: decode to an object, keep the latest per id string, emit it.
  const latest = new Map<string, EntityStatePdu>();
  const subject = new Subject<EntityStatePdu>();
  subject.subscribe((pdu) => consume(pdu.entityId.entity));
  const baseline = feed((b) => {
    const pdu = decodeEntityState(b);
    latest.set(`${pdu.entityId.site}:${pdu.entityId.application}:${pdu.entityId.entity}`, pdu);
    subject.next(pdu);
  });
  const baselineRate = opsPerSecond(
    () => {
      for (let i = 0; i < N; i++) baseline(i);
    },
    N,
    { minMillis },
  );
  const baselineHeap = heapBytesPerOp(baseline, 20 * N);
  results.push({
    name: 'stream.receive.baseline-objects',
    opsPerSec: round(baselineRate),
    heapBytesPerOp: round(baselineHeap),
    entities: N,
  });
  const reckon = results.find((r) => r.name === 'stream.receive.reckon')!;
  results[results.indexOf(reckon)] = { ...reckon, ratioVsBaseline: round((reckon.opsPerSec as number) / baselineRate) };
  return results;
};

export default suite;
