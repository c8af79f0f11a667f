/**
 * What `reckon subscribe` lists under its live table as it happens: shots, detonations, collisions, entities frozen
 * and resumed by simulation management PDUs, and entities that left or timed out, newest last, each with how long
 * ago; without a terminal, one line each as they come. Network text (markings) is made printable here.
 */
import type { EntityEvent } from '../../stream/entity-events.js';
import type { EngagementEvent, EntityRef } from '../../stream/engagement-events.js';
import { printable } from './printable.js';

/** Lines kept: the live table shows as many as fit under it, at most this many. */
export const RECENT_EVENTS = 4;

/** One line of the list: its text without the age, and when it happened (scheduler seconds). */
export interface RecentEvent {
  readonly text: string;
  readonly timeSeconds: number;
}

interface Grouped {
  type: 'frozen' | 'resumed';
  timeSeconds: number;
  count: number;
  first: string;
}

/** `M1A2 1`, or `1:3001:15` for an entity the table does not hold (or that has no marking). */
function named(ref: EntityRef): string {
  const { site, application, entity } = ref.entityId;
  return ref.marking ? printable(ref.marking) : `${site}:${application}:${entity}`;
}

/** The most specific part of a SISO name: "AT-6 Spiral" of "AT-6 Spiral · Guided · RUS". */
function shortName(label: string): string {
  return label.split(' · ')[0]!;
}

/** `1.4 km`, `850 m`. */
function distance(meters: number): string {
  return meters >= 1000 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters)} m`;
}

/** The text of an engagement event: who fired what at whom, where it went off and with what result, who collided. */
export function engagementText(event: EngagementEvent): string {
  switch (event.type) {
    case 'fire': {
      const target = event.target ? ` → ${named(event.target)}` : '';
      const range = event.range > 0 ? `, ${distance(event.range)}` : '';
      return `fire: ${named(event.shooter)} → ${printable(shortName(event.munition.name))}${target}${range}`;
    }
    case 'detonation': {
      const target = event.target ? ` on ${named(event.target)}` : '';
      const result = printable(event.resultName).toLowerCase();
      return `detonation: ${printable(shortName(event.munition.name))} of ${named(event.shooter)}${target}: ${result}`;
    }
    case 'collision': {
      const other = event.colliding ? ` with ${named(event.colliding)}` : ' with terrain or an object';
      return `collision: ${named(event.issuing)}${other} (${printable(event.collisionTypeName).toLowerCase()})`;
    }
  }
}

/**
 * The last few things that happened, for the lines under the live table. Entities frozen or resumed at the same
 * moment (one Stop/Freeze or Start/Resume PDU addresses many) make one line. Bounded: `RECENT_EVENTS` lines.
 */
export class RecentEvents {
  private readonly lines: RecentEvent[] = [];
  private group: Grouped | undefined;
  /** Lines added since `takeNew` was last called (for output without a terminal), bounded as the list. */
  private fresh: RecentEvent[] = [];

  /** Newest last. */
  get all(): readonly RecentEvent[] {
    this.closeGroup();
    return this.lines;
  }

  add(text: string, timeSeconds: number): void {
    this.closeGroup();
    this.push({ text, timeSeconds });
  }

  /** An entity event: frozen and resumed are listed (grouped); the rest are the entity list's own. */
  entity(event: EntityEvent): void {
    if (event.type !== 'frozen' && event.type !== 'resumed') return;
    const g = this.group;
    if (g !== undefined && g.type === event.type && g.timeSeconds === event.timeSeconds) {
      g.count++;
      return;
    }
    this.closeGroup();
    const { site, application, entity } = event.entityId;
    const first = event.marking ? printable(event.marking) : `${site}:${application}:${entity}`;
    this.group = { type: event.type, timeSeconds: event.timeSeconds, count: 1, first };
  }

  engagement(event: EngagementEvent): void {
    this.add(engagementText(event), event.timeSeconds);
  }

  /** The lines added since the last call, oldest first. */
  takeNew(): RecentEvent[] {
    this.closeGroup();
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }

  private closeGroup(): void {
    const g = this.group;
    if (g === undefined) return;
    this.group = undefined;
    const what = g.count === 1 ? g.first : `${g.count} entities`;
    const by = g.type === 'frozen' ? 'Stop/Freeze' : 'Start/Resume';
    this.push({ text: `${g.type}: ${what} (${by})`, timeSeconds: g.timeSeconds });
  }

  private push(line: RecentEvent): void {
    this.lines.push(line);
    if (this.lines.length > RECENT_EVENTS) this.lines.shift();
    this.fresh.push(line);
    if (this.fresh.length > RECENT_EVENTS) this.fresh.shift();
  }
}

/** `fire: … · 3 s ago`. */
export function recentLine(line: RecentEvent, nowSeconds: number): string {
  return `${line.text} · ${Math.max(0, nowSeconds - line.timeSeconds).toFixed(0)} s ago`;
}
