/**
 * DIS captures as recorded tracks: every decodable Entity State (Update) PDU of one entity, with the whole state it
 * carries (location, velocity, acceleration, orientation, angular velocity, dead-reckoning algorithm), timed by the
 * PDU's own timestamp placed on the capture's clock (a recorder's frame times can be whole seconds while PDUs come
 * milliseconds apart).
 */
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { udpFromFrame } from '../pcap/packet.js';
import { CaptureParser } from '../pcap/reader.js';
import { PduType } from '../pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../pdu/wire/entity-state-record.js';
import { entityTypeJson } from '../pdu/json/pdu-json-parts.js';
import type { EntityType } from '../pdu/schema/schema.js';
import { CodecStatus } from '../pdu/wire/status.js';
import type { TrackPoint } from './track-point.js';
import {
  TRACK_LIMITS,
  TrackError,
  formatSeconds,
  listedLines,
  printable,
  tooManyFixes,
  type TrackKind,
} from './track-checks.js';

/** The state one Entity State PDU gave its entity. */
export interface CapturedState {
  /** On the capture's clock, from the PDU's timestamp where it can be trusted (`placeOnCaptureClock`). */
  timeSeconds: number;
  /** The capture's own time of the frame, seconds. */
  readonly frameSeconds: number;
  /** Timestamp field (units since the hour × 2 + absolute bit), IEEE 1278.1 §6.2.88. */
  readonly timestampRaw: number;
  /** The capture's frame number, from 1. */
  readonly row: number;
  /** ECEF metres. */
  readonly location: Float64Array;
  /** m/s, in the frame of the algorithm (world for 1–5, body for 6–9). */
  readonly linearVelocity: Float64Array;
  readonly linearAcceleration: Float64Array;
  /** ψ, θ, φ radians. */
  readonly orientation: Float64Array;
  /** rad/s about the body axes. */
  readonly angularVelocity: Float64Array;
  readonly algorithm: number;
  readonly appearance: number;
}

/** One entity seen in a DIS capture. */
export interface CaptureEntity {
  /** "site:application:entity". */
  readonly id: string;
  /** The marking as captured (Latin-1, up to 11 characters; may hold anything: sanitise before printing). */
  readonly marking: string;
  readonly entityType: EntityType;
  /** 0 other, 1 friendly, 2 opposing, 3 neutral. */
  readonly forceId: number;
  /** Entity State (and Entity State Update) PDUs decoded. */
  readonly pdus: number;
  /** Capture times of its first and last PDU, seconds. */
  readonly firstSeconds: number;
  readonly lastSeconds: number;
}

/** "kind:domain:country:category:subcategory:specific:extra". */
export function formatEntityType(t: EntityType): string {
  return [t.kind, t.domain, t.country, t.category, t.subcategory, t.specific, t.extra].join(':');
}

/** One line per capture entity: id, marking, type, force, PDUs and time span. Safe to print. */
export function describeCaptureEntity(e: CaptureEntity): string {
  return (
    `${e.id} "${printable(e.marking)}" type ${formatEntityType(e.entityType)} force ${e.forceId}, ${e.pdus} PDUs over ` +
    `${formatSeconds(e.lastSeconds - e.firstSeconds)}`
  );
}

/**
 * The fixes of one entity in a DIS capture: every decodable Entity State (Update) PDU of that entity, timed by its
 * timestamp on the capture's clock (`placeOnCaptureClock`; `row` is the capture's frame number, from 1), with the
 * entity's captured identity and every state it sent.
 * @param entity - "site:application:entity"; needed when the capture holds more than one entity.
 * @throws TrackError listing the entities when `entity` is missing (and there are several) or not there.
 */
export function readDisCaptureTrack(
  bytes: Uint8Array,
  entity?: string,
  file = 'capture',
): { points: TrackPoint[]; entity: CaptureEntity; states: CapturedState[] } {
  const record = new EntityStateRecord();
  const tracks = new Map<string, { fixes: CapturedState[]; summary: CaptureEntity }>();
  let frameNumber = 0;
  let fixes = 0;
  const parser = new CaptureParser();
  // In pieces: the frames of one piece at a time, not of the whole file.
  const PIECE = 1 << 20;
  const pieces = function* () {
    for (let at = 0; at < bytes.length; at += PIECE) yield* parser.push(bytes.subarray(at, at + PIECE));
    parser.finish();
  };
  for (const frame of pieces()) {
    frameNumber++;
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp' || decodeEntityStateOrUpdateInto(record, udp.payload) !== CodecStatus.OK) continue;
    const id = `${record.site}:${record.application}:${record.entity}`;
    let track = tracks.get(id);
    const full = record.pduType === PduType.ENTITY_STATE; // an Entity State Update carries no type, force or marking
    if (!track) {
      const t = frame.timeSeconds;
      track = {
        fixes: [],
        summary: {
          id,
          marking: '',
          entityType: entityTypeJson(record.entityType),
          forceId: 0,
          pdus: 0,
          firstSeconds: t,
          lastSeconds: t,
        },
      };
      tracks.set(id, track);
    }
    const s = track.summary;
    track.summary = {
      ...s,
      ...(full
        ? { marking: markingText(record), entityType: entityTypeJson(record.entityType), forceId: record.forceId }
        : {}),
      pdus: s.pdus + 1,
      lastSeconds: frame.timeSeconds,
    };
    if (entity !== undefined && id !== entity) continue; // only the chosen entity's fixes are kept
    if (++fixes > TRACK_LIMITS.maxFixes) throw tooManyFixes(file);
    track.fixes.push({
      timeSeconds: frame.timeSeconds,
      frameSeconds: frame.timeSeconds,
      timestampRaw: record.timestampRaw,
      row: frameNumber,
      location: Float64Array.from(record.location),
      linearVelocity: Float64Array.from(record.linearVelocity),
      linearAcceleration: Float64Array.from(record.linearAcceleration),
      orientation: Float64Array.from(record.orientation),
      angularVelocity: Float64Array.from(record.angularVelocity),
      algorithm: record.drAlgorithm,
      appearance: record.appearance,
    });
  }
  const list = () => listedLines(tracks.values(), tracks.size, (t) => describeCaptureEntity(t.summary));
  if (tracks.size === 0) throw new TrackError(file, ['no Entity State PDUs in the capture']);
  let chosen = entity;
  if (chosen === undefined) {
    if (tracks.size > 1) {
      throw new TrackError(file, [
        `the capture holds ${tracks.size} entities; choose one with entity: "site:application:entity" ` +
          `(reckon publish --entity S:A:E):\n${list()}`,
      ]);
    }
    chosen = tracks.keys().next().value!;
  }
  const track = tracks.get(chosen);
  if (!track) {
    throw new TrackError(file, [`no Entity State PDUs of entity ${chosen} in the capture; entities:\n${list()}`]);
  }
  const states = placeOnCaptureClock(track.fixes);
  const geo = new Float64Array(3);
  const points = states.map((f) => {
    ecefToGeodeticDegrees(geo, f.location[0]!, f.location[1]!, f.location[2]!);
    return { timeSeconds: f.timeSeconds, latitudeDeg: geo[0]!, longitudeDeg: geo[1]!, heightM: geo[2]!, row: f.row };
  });
  return { points, entity: track.summary, states };
}

/** Seconds per timestamp unit: an hour in 2³¹ units (IEEE 1278.1 §6.2.88). */
const TIMESTAMP_SECONDS = 3600 / 2 ** 31;
/**
 * Furthest a PDU's timestamp may place it from its frame's capture time, s: beyond it the timestamps are not
 * trusted (zero, another clock) and the frame times stand. A recorder writing whole seconds is within 1 s.
 */
const TIMESTAMP_TRUST_SECONDS = 2;

/**
 * Times the states by their PDUs' timestamps, placed on the capture's clock: the timestamps unwrapped across the
 * hour, shifted by the median of (frame time − timestamp). When that leaves any PDU further than
 * TIMESTAMP_TRUST_SECONDS from its frame, or the timestamps go back, the frame times stay. Sorted by time.
 */
export function placeOnCaptureClock(states: CapturedState[]): CapturedState[] {
  if (states.length === 0) return states;
  const unwrapped = new Float64Array(states.length);
  let hours = 0;
  for (let i = 0; i < states.length; i++) {
    const seconds = (states[i]!.timestampRaw >>> 1) * TIMESTAMP_SECONDS;
    if (i > 0) {
      const previous = unwrapped[i - 1]! - hours * 3600;
      if (seconds - previous < -1800) hours++;
    }
    unwrapped[i] = seconds + hours * 3600;
  }
  const offsets = Float64Array.from(states, (s, i) => s.frameSeconds - unwrapped[i]!).sort();
  const offset = offsets[offsets.length >> 1]!;
  let trusted = true;
  for (let i = 0; i < states.length && trusted; i++) {
    const t = unwrapped[i]! + offset;
    if (Math.abs(t - states[i]!.frameSeconds) > TIMESTAMP_TRUST_SECONDS) trusted = false;
    if (i > 0 && unwrapped[i]! < unwrapped[i - 1]! - TIMESTAMP_TRUST_SECONDS) trusted = false;
  }
  for (let i = 0; i < states.length; i++)
    states[i]!.timeSeconds = trusted ? unwrapped[i]! + offset : states[i]!.frameSeconds;
  return [...states].sort((a, b) => a.timeSeconds - b.timeSeconds);
}

/** The fixes of one entity in a DIS capture (see `readDisCaptureTrack`). */
export function parseDisCaptureTrack(bytes: Uint8Array, entity?: string): TrackPoint[] {
  return readDisCaptureTrack(bytes, entity).points;
}

/** The track kind of a DIS entity type: its platform domain, or munition (SISO-REF-010); air when unknown. */
export function kindOfEntityType(t: EntityType): TrackKind {
  if (t.kind === 2) return 'munition';
  const byDomain: Record<number, TrackKind> = { 1: 'ground', 2: 'air', 3: 'surface', 4: 'subsurface', 5: 'space' };
  return (t.kind === 1 && byDomain[t.domain]) || 'air';
}
