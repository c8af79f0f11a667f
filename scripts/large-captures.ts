/**
 * Large DIS captures for the scale runs of `reckon decode` (scripts/decode-scale.ts) and, at bounded sizes, for its
 * tests: many entities spread over the globe (one Entity State PDU each, or more), many radios (a Transmitter PDU
 * each, a Signal PDU for some), and shots (a Fire and a Detonation PDU each). Deterministic: the same options give
 * the same bytes. Written as classic libpcap (src/pcap/writer.ts), one PDU per datagram.
 */
import { open } from 'node:fs/promises';
import { geodeticDegreesToEcef } from '../src/math/geodesy.js';
import { pcapFileHeader, pcapUdpRecord } from '../src/pcap/writer.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, setMarkingText } from '../src/pdu/wire/entity-state-record.js';
import { encodeSignalInto, encodeTransmitterInto, SignalRecord, TransmitterRecord } from '../src/pdu/wire/radio.js';
import { DetonationRecord, encodeDetonationInto, encodeFireInto, FireRecord } from '../src/pdu/wire/warfare.js';

export interface LargeCaptureOptions {
  /** Entities, each with `pdusPerEntity` Entity State PDUs. */
  readonly entities: number;
  /** Entity State PDUs per entity, 1 s apart. Defaults to 1. */
  readonly pdusPerEntity?: number;
  /** Radios, each with one Transmitter PDU (every fourth on but not transmitting); every tenth also sends a Signal
   * PDU. Defaults to 0. */
  readonly radios?: number;
  /** Shots, each a Fire and a Detonation PDU between two of the entities. Defaults to 0. */
  readonly shots?: number;
  /** Capture time of the first frame, seconds since the epoch. Defaults to 2024-01-01. */
  readonly startSeconds?: number;
}

/** Entity types cycled through (SISO-REF-010): tanks, helicopters, a jeep, a ship, a person, a supply, a radio. */
const TYPES: readonly (readonly number[])[] = [
  [1, 1, 225, 1, 1, 3, 0], // M1A2 Abrams
  [1, 1, 222, 1, 2, 0, 0], // T-72
  [1, 2, 225, 20, 1, 0, 0], // AH-64 Apache
  [1, 2, 222, 20, 2, 0, 0], // Mi-24 Hind
  [1, 1, 222, 6, 1, 0, 0], // GAZ-69
  [1, 3, 225, 1, 0, 0, 0], // a carrier
  [3, 1, 225, 11, 1, 0, 0], // a U.S. Army soldier
  [6, 1, 0, 3, 0, 0, 0], // combat rations
];
/** The munition the shots fire: BGM-71D TOW 2 (2:2:225:1:1:3:0). */
const MUNITION = [2, 2, 225, 1, 1, 3, 0];

/** Where entity `i` is: a low-discrepancy spread over the land and sea between 60° S and 70° N. */
export function entityPlace(i: number): [latitudeDeg: number, longitudeDeg: number] {
  const a = (i * 0.618_033_988_749_895) % 1;
  const b = (i * 0.414_213_562_373_095_1) % 1;
  return [-60 + 130 * a, -180 + 360 * b];
}

/** Entity `i`'s id: applications of 60,000 entities each. */
function entityId(i: number): { site: number; application: number; entity: number } {
  return { site: 1, application: 1 + Math.floor(i / 60_000), entity: 1 + (i % 60_000) };
}

/** Every frame of the capture in order, each a pcap record; the file header first. */
export function* largeCaptureRecords(options: LargeCaptureOptions): Generator<Uint8Array> {
  const start = options.startSeconds ?? 1_704_067_200;
  const perEntity = options.pdusPerEntity ?? 1;
  yield pcapFileHeader();
  const es = new EntityStateRecord();
  es.protocolVersion = 7;
  es.drAlgorithm = 2;
  const ecef = new Float64Array(3);
  const buffer = new Uint8Array(1024);
  // Spread over `perEntity` seconds, so each entity's PDUs are a second apart.
  const step = 1 / Math.max(1, options.entities);
  for (let k = 0; k < perEntity; k++) {
    for (let i = 0; i < options.entities; i++) {
      const id = entityId(i);
      es.site = id.site;
      es.application = id.application;
      es.entity = id.entity;
      es.forceId = 1 + (i % 3);
      es.entityType.set(TYPES[i % TYPES.length]!);
      setMarkingText(es, `E${i}`);
      const [lat, lon] = entityPlace(i);
      geodeticDegreesToEcef(ecef, lat, lon + k * 1e-4, 0);
      es.location.set(ecef);
      es.linearVelocity[0] = 5;
      const n = encodeEntityStateInto(buffer, es);
      yield pcapUdpRecord(buffer.subarray(0, n), start + k + i * step);
    }
  }
  const end = start + perEntity;
  const radios = options.radios ?? 0;
  const transmitter = new TransmitterRecord(0);
  transmitter.protocolVersion = 7;
  transmitter.powerDbm = 37;
  const signal = new SignalRecord();
  signal.protocolVersion = 7;
  signal.data = new Uint8Array(16);
  signal.dataLengthBits = 128;
  for (let i = 0; i < radios; i++) {
    // Radios of entities far beyond those sending Entity State PDUs: 60,000 per application, 15 per entity.
    const id = { site: 2, application: 1 + Math.floor(i / 900_000), entity: 1 + Math.floor((i % 900_000) / 15) };
    Object.assign(transmitter.entityId, id);
    transmitter.radioId = 1 + (i % 15);
    // Most transmitting; every fourth on but silent.
    transmitter.transmitState = i % 4 === 3 ? 1 : 2;
    transmitter.frequencyHz = 30e6 + (i % 2320) * 25e3;
    let n = encodeTransmitterInto(buffer, transmitter);
    yield pcapUdpRecord(buffer.subarray(0, n), end + i / Math.max(1, radios));
    if (i % 10 === 0) {
      Object.assign(signal.entityId, id);
      signal.radioId = transmitter.radioId;
      n = encodeSignalInto(buffer, signal);
      yield pcapUdpRecord(buffer.subarray(0, n), end + (i + 0.5) / Math.max(1, radios));
    }
  }
  const shots = options.entities > 1 ? (options.shots ?? 0) : 0;
  const fire = new FireRecord();
  const detonation = new DetonationRecord(0);
  for (const r of [fire, detonation]) {
    r.protocolVersion = 7;
    r.descriptor.munitionType.set(MUNITION);
    r.descriptor.quantity = 1;
    r.eventId.site = 1;
    r.eventId.application = 1;
  }
  for (let s = 0; s < shots; s++) {
    const shooter = (2 * s) % options.entities;
    const target = (shooter + 1) % options.entities;
    for (const r of [fire, detonation]) {
      Object.assign(r.firingEntityId, entityId(shooter));
      Object.assign(r.targetEntityId, entityId(target));
      r.eventId.eventNumber = 1 + (s % 65_535);
    }
    const [lat, lon] = entityPlace(shooter);
    geodeticDegreesToEcef(fire.location, lat, lon, 2);
    fire.range = 3000;
    let n = encodeFireInto(buffer, fire);
    const t = end + 1 + s / Math.max(1, shots);
    yield pcapUdpRecord(buffer.subarray(0, n), t);
    geodeticDegreesToEcef(detonation.location, ...entityPlace(target), 0);
    detonation.result = s % 4 === 0 ? 3 : 1;
    n = encodeDetonationInto(buffer, detonation);
    yield pcapUdpRecord(buffer.subarray(0, n), t + 0.5 / Math.max(1, shots));
  }
}

/** The whole capture in memory (for tests, at bounded sizes). */
export function largeCapture(options: LargeCaptureOptions): Uint8Array {
  return Buffer.concat([...largeCaptureRecords(options)]);
}

/** Writes the capture to `path` in 4 MiB pieces; returns its size in bytes. */
export async function writeLargeCapture(path: string, options: LargeCaptureOptions): Promise<number> {
  const file = await open(path, 'w');
  let bytes = 0;
  try {
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    for (const record of largeCaptureRecords(options)) {
      pending.push(record);
      pendingBytes += record.length;
      if (pendingBytes >= 4 * 2 ** 20) {
        await file.write(Buffer.concat(pending));
        bytes += pendingBytes;
        pending = [];
        pendingBytes = 0;
      }
    }
    await file.write(Buffer.concat(pending));
    bytes += pendingBytes;
  } finally {
    await file.close();
  }
  return bytes;
}
