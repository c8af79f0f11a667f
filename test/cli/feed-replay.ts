// Recorded feeds served again as receivers serve them, on 127.0.0.1: a TCP server (dump1090's 30003 and 30005,
// AIS-catcher's TCP), UDP datagrams (AIS-catcher, rtl-ais), an HTTP server of aircraft.json (readsb), each paced
// by the recording's own times, faster by `speed`. For test/cli/publish-feeds.test.ts and publish-hostile.
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { BeastDeframer } from '../../src/fixes/index.js';

/** Bytes to send at a time (seconds from the start). */
export interface Timed {
  readonly atSeconds: number;
  readonly bytes: Uint8Array;
}

export function fixture(name: string): Buffer {
  const bytes = readFileSync(new URL(`../fixtures/feeds/${name}`, import.meta.url));
  return name.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

/** The Beast capture's frames, each at its 12 MHz timestamp, as the raw (escaped) bytes of the stream. */
export function beastFrames(): Timed[] {
  const raw = fixture('adsb_beast_dump1090_sample.bin');
  const out: Timed[] = [];
  let t0 = -1;
  let start = 0;
  let consumed = 0;
  // Cut the stream at each frame's end: feed byte by byte and note where a frame completes.
  const deframer = new BeastDeframer((_type, timestamp) => {
    if (t0 < 0) t0 = timestamp;
    out.push({ atSeconds: (timestamp - t0) / 12e6, bytes: raw.subarray(start, consumed) });
    start = consumed;
  });
  for (let i = 0; i < raw.length; i++) {
    consumed = i + 1;
    deframer.push(raw.subarray(i, i + 1));
  }
  return out;
}

/** Lines of a text recording, one every `everySeconds`. */
export function evenLines(text: string, everySeconds: number): Timed[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((line, i) => ({ atSeconds: i * everySeconds, bytes: Buffer.from(`${line}\r\n`) }));
}

/** The DMA AIS stream's sentences, each at the time of the `$PGHP` line before it (that line sent too). */
export function pghpLines(): Timed[] {
  const lines = fixture('ais_dma_aislib_stream_example.txt.gz').toString().split('\n');
  let t0 = Number.NaN;
  let at = 0;
  return lines
    .filter((l) => l !== '')
    .map((line) => {
      const m = /^\$PGHP,1,(\d+),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)/.exec(line);
      if (m) {
        const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) / 1000;
        if (Number.isNaN(t0)) t0 = t;
        at = Math.max(at, t - t0);
      }
      return { atSeconds: at, bytes: Buffer.from(`${line}\r\n`) };
    });
}

/** Calls `send` with each piece at its time divided by `speed`; resolves when all are sent (or `stop` says so). */
export function paced(
  items: readonly Timed[],
  speed: number,
  send: (bytes: Uint8Array) => void,
  stop = () => false,
): Promise<void> {
  const startMs = Date.now();
  let i = 0;
  return new Promise((resolve) => {
    const step = (): void => {
      const elapsed = ((Date.now() - startMs) / 1000) * speed;
      while (i < items.length && items[i]!.atSeconds <= elapsed) send(items[i++]!.bytes);
      if (i >= items.length || stop()) resolve();
      else setTimeout(step, 10);
    };
    step();
  });
}

/** A TCP server that replays `items` to each client; `port` once listening. */
export async function replayServer(
  items: readonly Timed[],
  speed: number,
): Promise<{ port: number; sent: Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let allSent!: () => void;
  const sent = new Promise<void>((resolve) => {
    allSent = resolve;
  });
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    void paced(
      items,
      speed,
      (bytes) => socket.write(bytes),
      () => socket.destroyed,
    ).then(allSent);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** The first client has been sent everything. */
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends `items` as UDP datagrams to 127.0.0.1:port, a few lines per datagram, as AIS-catcher does. */
export async function udpReplay(items: readonly Timed[], speed: number, port: number): Promise<void> {
  const socket = createSocket('udp4');
  await paced(items, speed, (bytes) => socket.send(bytes, port, '127.0.0.1'));
  await new Promise<void>((resolve) => socket.close(() => resolve()));
}

/**
 * readsb's aircraft.json of the trace's aircraft (N899DN, a B739), as it stood `speed` × the time since the first
 * request into the trace; `requests` counts the polls.
 */
export async function aircraftJsonServer(
  speed: number,
): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  const trace = JSON.parse(fixture('adsb_readsb_trace_full_ac671b.json.gz').toString()) as {
    icao: string;
    r: string;
    t: string;
    timestamp: number;
    trace: Array<
      [
        number,
        number,
        number,
        number | 'ground',
        number | null,
        number | null,
        number,
        number | null,
        unknown,
        string,
        number | null,
      ]
    >;
  };
  let startMs = Number.NaN;
  let requests = 0;
  const server = createHttpServer((_request, response) => {
    requests++;
    if (Number.isNaN(startMs)) startMs = Date.now();
    const into = ((Date.now() - startMs) / 1000) * speed;
    const rows = trace.trace;
    let k = 0;
    while (k + 1 < rows.length && rows[k + 1]![0] <= into) k++;
    const [dt, lat, lon, alt, gs, track, , rate, , type, geom] = rows[k]!;
    const now = trace.timestamp + into;
    const body = {
      now,
      messages: requests,
      aircraft: [
        {
          hex: trace.icao,
          r: trace.r,
          t: trace.t,
          category: 'A3',
          type,
          lat,
          lon,
          seen_pos: Math.max(0, into - dt),
          alt_baro: alt,
          alt_geom: geom,
          gs,
          track,
          baro_rate: rate,
        },
      ],
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/data/aircraft.json`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
