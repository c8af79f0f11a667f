/** The kinds of vehicle a recorded track can record, and what each kind can do. */

/** What a track records, as the entity kinds and domains of IEEE 1278.1 (SISO-REF-010 Kind 1 domains, Kind 2). */
export const TRACK_KINDS = ['ground', 'surface', 'subsurface', 'air', 'space', 'munition'] as const;
/** What kind of vehicle a track records; its plausible speeds follow. */
export type TrackKind = (typeof TRACK_KINDS)[number];

/**
 * Fastest plausible speed between two fixes, m/s, by kind: well above the fastest vehicle of the kind, so that
 * receiver noise between close fixes does not trip it, and far below a position typed in the wrong column.
 */
export const MAX_SPEED_MPS: Readonly<Record<TrackKind, number>> = {
  ground: 100,
  surface: 40,
  subsurface: 25,
  air: 700,
  space: 12_000,
  munition: 2_000,
};

/** SISO-REF-010 platform domain of each kind (entity kind 1), or the munition kind (2). */
export const KIND_ENTITY_TYPE: Readonly<Record<TrackKind, { kind: number; domain: number }>> = {
  ground: { kind: 1, domain: 1 },
  air: { kind: 1, domain: 2 },
  surface: { kind: 1, domain: 3 },
  subsurface: { kind: 1, domain: 4 },
  space: { kind: 1, domain: 5 },
  munition: { kind: 2, domain: 0 },
};

/** What moves on a track of each kind, with its article, for messages. */
export const KIND_NOUNS: Readonly<Record<TrackKind, string>> = {
  ground: 'a ground vehicle',
  surface: 'a ship',
  subsurface: 'a submarine',
  air: 'an aircraft',
  space: 'a spacecraft',
  munition: 'a munition',
};
