/**
 * The radios the gateway knows (from Transmitter and Signal PDUs), bounded: when a new radio finds the table full,
 * the least recently heard radio goes, one of an entity the gateway does not hold first, so spoofed radios cannot
 * lock real ones out. Kept in order of last hearing (a `Map` re-inserted on each PDU). Evictions are counted.
 */
import type { RadioMessage } from './engagement-messages.js';

/** Radios kept at most. */
export const MAX_RADIOS = 4096;
/** The least recently heard radios looked at for one of an entity not held, before the oldest of all goes. */
const EVICTION_SCAN = 64;

export interface Radio {
  /** Its last state, as sent to pages. */
  message: RadioMessage;
  readonly exercise: number;
  readonly site: number;
  readonly application: number;
  readonly entity: number;
  lastSignalMs: number;
  sentMs: number;
}

/** Whether the gateway holds this entity (has its Entity State PDUs). */
export type EntityHeld = (exercise: number, site: number, application: number, entity: number) => boolean;

export class RadioTable {
  /** Radios that left the table to make room for a new one. */
  evicted = 0;
  private readonly radios = new Map<string, Radio>();

  constructor(
    private readonly held: EntityHeld = () => true,
    readonly capacity = MAX_RADIOS,
  ) {}

  get size(): number {
    return this.radios.size;
  }

  /** The radios, least recently heard first. */
  values(): IterableIterator<Radio> {
    return this.radios.values();
  }

  /**
   * The radio `radioId` of an entity, heard now (it moves to the end of the order); made when new, evicting one
   * when full.
   */
  heard(exercise: number, site: number, application: number, entity: number, radioId: number, nowMs: number): Radio {
    const key = `${exercise}/${site}:${application}:${entity}#${radioId}`;
    let radio = this.radios.get(key);
    if (radio !== undefined) {
      this.radios.delete(key);
      this.radios.set(key, radio);
      return radio;
    }
    if (this.radios.size >= this.capacity) this.evictOne();
    radio = {
      message: {
        type: 'radio',
        serverTimeMs: nowMs,
        exercise,
        entity: `${site}:${application}:${entity}`,
        radioId,
        frequencyHz: 0,
        powerDbm: 0,
        transmitState: -1,
        transmitting: false,
        signals: 0,
        antenna: null,
      },
      exercise,
      site,
      application,
      entity,
      lastSignalMs: Number.NEGATIVE_INFINITY,
      sentMs: Number.NEGATIVE_INFINITY,
    };
    this.radios.set(key, radio);
    return radio;
  }

  /** Whether the radio's entity is held by the gateway. */
  ofHeldEntity(radio: Radio): boolean {
    return this.held(radio.exercise, radio.site, radio.application, radio.entity);
  }

  /** Removes the least recently heard radio of an entity not held among the oldest few, else the oldest. */
  private evictOne(): void {
    let victim: string | undefined;
    let looked = 0;
    for (const [key, radio] of this.radios) {
      victim ??= key;
      if (!this.ofHeldEntity(radio)) {
        victim = key;
        break;
      }
      if (++looked >= EVICTION_SCAN) break;
    }
    if (victim === undefined) return;
    this.radios.delete(victim);
    this.evicted++;
  }
}
