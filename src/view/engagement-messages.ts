/**
 * The text messages of the `/feed` protocol (src/view/protocol.ts) about what happens between entities and to
 * them beside their Entity State PDUs: shots, detonations and collisions, Remove Entity / Stop/Freeze /
 * Start/Resume, and radios. Made by the gateway from the PDUs (src/view/engagement-feed.ts), drawn by the page
 * (src/view/page/engagements/engagements.ts). Entities are named `site:application:entity`; places are
 * `[longitude°, latitude°, height m]` (WGS-84). Pure: types only.
 */

export type GeoPoint = [longitudeDeg: number, latitudeDeg: number, heightM: number];

/** A Fire PDU: a line from shooter to target on the map. */
export interface FireMessage {
  readonly type: 'fire';
  /** When it arrived, server clock, ms since the Unix epoch. */
  readonly serverTimeMs: number;
  readonly exercise: number;
  readonly shooter: string;
  /** null when the shooter did not know its target. */
  readonly target: string | null;
  /** The munition type's name (SISO-REF-010), e.g. "AT-6 Spiral · Guided · RUS". */
  readonly munition: string;
  /** `site:application:event`: pairs the shot with its detonation. */
  readonly event: string;
  /** Where the round left. */
  readonly from: GeoPoint;
  /** Range to the target the shooter used, metres (0 when none). */
  readonly rangeM: number;
}

/** A Detonation PDU: a burst on the map, coloured by its result. */
export interface DetonationMessage {
  readonly type: 'detonation';
  readonly serverTimeMs: number;
  readonly exercise: number;
  readonly shooter: string;
  readonly target: string | null;
  readonly munition: string;
  readonly event: string;
  readonly at: GeoPoint;
  /** Detonation result (SISO-REF-010 UID 62) and its name. */
  readonly result: number;
  readonly resultName: string;
}

/** A Collision (or Collision-Elastic) PDU: a marker where the issuing entity is, plus the offset. */
export interface CollisionMessage {
  readonly type: 'collision';
  readonly serverTimeMs: number;
  readonly exercise: number;
  readonly issuing: string;
  /** null for terrain or an object that is not an entity. */
  readonly colliding: string | null;
  /** Where on the issuing entity, in its body coordinates (x forward, y right, z down), metres. */
  readonly offset: [number, number, number];
  readonly collisionType: string;
}

/** Remove Entity, Stop/Freeze, Start/Resume: what to do with the entities the receiving id addresses. */
export interface EntityControlMessage {
  readonly type: 'entity-control';
  readonly action: 'remove' | 'freeze' | 'resume';
  readonly serverTimeMs: number;
  /** When it takes effect (the PDU's real-world time when near the server's clock), ms since the Unix epoch. */
  readonly atMs: number;
  readonly exercise: number;
  /** 65535 in a part means all; entity 0 means every entity of the simulation. */
  readonly receiving: { readonly site: number; readonly application: number; readonly entity: number };
}

/** One radio (an entity and a radio number): what its last Transmitter PDU said, and whether it sends. */
export interface RadioMessage {
  readonly type: 'radio';
  readonly serverTimeMs: number;
  readonly exercise: number;
  readonly entity: string;
  readonly radioId: number;
  readonly frequencyHz: number;
  readonly powerDbm: number;
  /** 0 off, 1 on but not transmitting, 2 on and transmitting (SISO-REF-010 UID 164), -1 before a Transmitter PDU. */
  readonly transmitState: number;
  /** Transmitting now: its Transmitter PDU says so, or a Signal PDU came in the last second. */
  readonly transmitting: boolean;
  /** Signal PDUs received for it. */
  readonly signals: number;
  /** Its antenna, or null when unknown (no Transmitter PDU, or at the Earth's centre). */
  readonly antenna: GeoPoint | null;
}

export type EngagementMessage =
  | FireMessage
  | DetonationMessage
  | CollisionMessage
  | EntityControlMessage
  | RadioMessage;
