/**
 * The simulated entities of `reckon demo` and `reckon publish --entity`: a tank on a road course with turns and
 * halts, a ship in slow turning circles, an aircraft orbiting while it climbs.
 */
import { aircraftOrbit, shipTurningCircles, tankRoadCourse } from '../../truth/index.js';
import { DEFAULT_ORIGIN, type Origin, type Trajectory } from '../../truth/trajectory.js';
import type { EntityType } from '../../pdu/schema/schema.js';

/** A simulated entity of the demo and of `reckon publish`. */
export interface Actor {
  readonly name: string;
  readonly marking: string;
  readonly entityType: EntityType;
  readonly trajectory: Trajectory;
  /** Where along its trajectory the demo starts, s: chosen so that the first 30 s show turns and a halt. */
  readonly startSeconds: number;
}

/**
 * The demo's cast, in order: tank, ship, aircraft.
 * @param origin - where the aircraft's orbit starts; the tank and the ship keep their places relative to it (a few
 *   km away). Defaults to Monterey Bay (`DEFAULT_ORIGIN`).
 */
export function demoActors(origin: Origin = DEFAULT_ORIGIN): Actor[] {
  const at = (latitudeDeg: number, longitudeDeg: number): Origin => ({
    latitudeDeg: origin.latitudeDeg + (latitudeDeg - DEFAULT_ORIGIN.latitudeDeg),
    longitudeDeg: origin.longitudeDeg + (longitudeDeg - DEFAULT_ORIGIN.longitudeDeg),
    heightM: origin.heightM ?? 0,
  });
  return [
    {
      name: 'tank',
      marking: 'TANK 1',
      entityType: { kind: 1, domain: 1, country: 225, category: 1, subcategory: 1, specific: 3, extra: 0 }, // M1A2
      trajectory: tankRoadCourse({ origin: at(36.6367, -121.7702) }),
      startSeconds: 36, // ends a turn, drives on, brakes and halts at about 25 s
    },
    {
      name: 'ship',
      marking: 'SHIP 1',
      entityType: { kind: 1, domain: 3, country: 225, category: 4, subcategory: 0, specific: 0, extra: 0 }, // a destroyer
      trajectory: shipTurningCircles({ straightLength: 200, origin: at(36.75, -121.95) }),
      startSeconds: 20, // starts its first turning circle at about 9 s
    },
    {
      name: 'aircraft',
      marking: 'AIRCRAFT 1',
      entityType: { kind: 1, domain: 2, country: 225, category: 1, subcategory: 3, specific: 0, extra: 0 }, // a fighter
      trajectory: aircraftOrbit({ origin: at(DEFAULT_ORIGIN.latitudeDeg, DEFAULT_ORIGIN.longitudeDeg) }),
      startSeconds: 0,
    },
  ];
}
