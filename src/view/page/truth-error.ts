/**
 * The page held against the truth the gateway forwards (`truth` messages): where each true entity is, and how far
 * the displayed entity is from it at the truth's own time, for the map, the details and the panel's summary.
 */
import { geodeticDegreesToEcef } from '../../math/geodesy.js';
import { entityKey } from '../../pdu/wire/entity-state-record.js';
import type { TruthEntity } from '../protocol.js';
import type { PageEntities } from './entities.js';

/** A true place as the map draws it. */
export interface TruthPoint {
  id: string;
  lon: number;
  lat: number;
  /** Slot of the entity it is the truth of, or −1. */
  slot: number;
}

/** The last truth message and the display's error against it. */
export class TruthComparison {
  /** The true places, each with the slot that shows it (−1: none). */
  points: TruthPoint[] = [];
  /** Display − truth distance per slot, m. */
  private readonly errors = new Map<number, number>();
  private readonly ecef = new Float64Array(3);
  private readonly displayed = new Float64Array(3);
  private readonly displayedMatrix = new Float64Array(9);

  /** Takes a truth message: entities without a string id or a finite place are skipped. */
  compare(e: PageEntities, serverTimeMs: number, truth: readonly TruthEntity[]): void {
    const t = e.table;
    const points: TruthPoint[] = [];
    this.errors.clear();
    for (const entity of truth) {
      if (typeof entity?.id !== 'string' || !Number.isFinite(entity.lat) || !Number.isFinite(entity.lon)) continue;
      const [site, application, number] = entity.id.split(':').map(Number);
      const key = entityKey(site!, application!, number!);
      const slot = Number.isFinite(key) ? t.slotOf(key) : -1;
      points.push({ id: entity.id, lon: entity.lon, lat: entity.lat, slot });
      if (slot < 0) continue;
      // The displayed state at the truth's own time: the error the viewer sees, free of message latency.
      t.renderSlot(slot, serverTimeMs / 1000, this.displayed, this.displayedMatrix);
      geodeticDegreesToEcef(this.ecef, entity.lat, entity.lon, Number.isFinite(entity.altM) ? entity.altM : 0);
      const d = this.displayed;
      const x = this.ecef;
      this.errors.set(slot, Math.hypot(d[0]! - x[0]!, d[1]! - x[1]!, d[2]! - x[2]!));
    }
    this.points = points;
  }

  /** Display − truth of a slot, m, or undefined when the truth does not hold it. */
  errorOf(slot: number): number | undefined {
    return this.errors.get(slot);
  }

  /** The mean and largest error over the entities the truth holds, for the panel; null without any. */
  summary(): string | null {
    const errors = this.errors;
    if (errors.size === 0) return null;
    let sum = 0;
    let max = 0;
    for (const error of errors.values()) {
      sum += error;
      if (error > max) max = error;
    }
    return `display − truth: mean ${(sum / errors.size).toFixed(2)} m, max ${max.toFixed(2)} m (${errors.size} entities)`;
  }
}
