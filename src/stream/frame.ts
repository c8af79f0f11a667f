/**
 * A render-rate snapshot of every remote entity: views of the remote-entity table's own typed arrays (struct of
 * arrays, one slot per entity), filled without allocating. Valid until the next frame.
 */
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import type { InterpolatedView } from './interpolated-view.js';

/** Every remote entity at one render time, in the table's arrays (`entityFrames`). */
export interface EntityFrame {
  /**
   * Time the states are computed for, seconds (scheduler time): the frame's own time, or with `receiver.display`
   * 'interpolate' that time minus `receiver.interpolationDelay`.
   */
  timeSeconds: number;
  /** Entities held. */
  entityCount: number;
  /** Slots to loop over: every entity's slot is below this; read only slots with `active[slot] === 1`. */
  slotCount: number;
  /** 1 where a slot holds an entity. */
  active: Uint8Array;
  /** Entity key (`entityKey(site, application, entity)`) per slot. */
  key: Float64Array;
  /** site, application, entity: 3 per slot. */
  entityId: Uint16Array;
  /** kind, domain, country, category, subcategory, specific, extra: 7 per slot. */
  entityType: Uint16Array;
  /** Marking bytes, 11 per slot, zero-filled (`markingAt` reads one as text). */
  marking: Uint8Array;
  /** Displayed location, ECEF metres, 3 per slot: dead-reckoned and smoothed, or interpolated (display 'interpolate'). */
  location: Float64Array;
  /** Displayed orientation ψ, θ, φ radians, 3 per slot. */
  orientation: Float64Array;
  /** DR algorithm as received, per slot. */
  algorithm: Uint8Array;
  /** 1 where a Stop/Freeze PDU holds the entity (IEEE 1278.1-2012 §7.5.5): shown where it stopped until resumed. */
  frozen: Uint8Array;
  /**
   * With display 'interpolate', per slot: 1 interpolated between two received states, 2 dead-reckoned beyond the
   * newest one, 3 held at the first state of an entity that appeared less than the delay ago
   * (`InterpolationStatus`). Empty with display 'extrapolate'.
   */
  interpolation: Uint8Array;
  /** The table itself (arrival times, appearance, models…), for anything not listed here. */
  table: RemoteEntityTable;
}

const EMPTY = { u8: new Uint8Array(0), u16: new Uint16Array(0), f64: new Float64Array(0) };

/** A frame with no table yet; `renderFrame` fills it. */
export function createFrame(): EntityFrame {
  return {
    timeSeconds: 0,
    entityCount: 0,
    slotCount: 0,
    active: EMPTY.u8,
    key: EMPTY.f64,
    entityId: EMPTY.u16,
    entityType: EMPTY.u16,
    marking: EMPTY.u8,
    location: EMPTY.f64,
    orientation: EMPTY.f64,
    algorithm: EMPTY.u8,
    frozen: EMPTY.u8,
    interpolation: EMPTY.u8,
    table: undefined as unknown as RemoteEntityTable,
  };
}

/**
 * Renders the table at tSeconds (dead reckoning plus smoothing) and points the frame at its arrays; with an
 * interpolated view, the view's states a delay before tSeconds instead.
 * @returns frame.
 */
export function renderFrame(
  frame: EntityFrame,
  table: RemoteEntityTable,
  tSeconds: number,
  view?: InterpolatedView,
): EntityFrame {
  if (view) {
    frame.timeSeconds = view.render(table, tSeconds);
    frame.location = view.location;
    frame.orientation = view.orientation;
    frame.interpolation = view.status;
  } else {
    table.render(tSeconds);
    frame.timeSeconds = tSeconds;
    frame.location = table.displayLocation;
    frame.orientation = table.displayOrientation;
    frame.interpolation = EMPTY.u8;
  }
  frame.entityCount = table.size;
  frame.slotCount = table.highWater;
  frame.active = table.active;
  frame.key = table.key;
  frame.entityId = table.entityId;
  frame.entityType = table.entityType;
  frame.marking = table.marking;
  frame.algorithm = table.store.algorithm;
  frame.frozen = table.frozen;
  frame.table = table;
  return frame;
}

/** The marking of one slot as text (allocates a string: for display). */
export function markingAt(frame: Pick<EntityFrame, 'marking'>, slot: number): string {
  let text = '';
  for (let i = 11 * slot, end = i + 11; i < end && frame.marking[i] !== 0; i++)
    text += String.fromCharCode(frame.marking[i]!);
  return text;
}
