/**
 * How a command's summary names the PDUs of the types it passes over (counted by type, named from SISO-REF-010,
 * never called rejected) and what a subscriber made of the engagement and simulation management PDUs.
 */
import { MAX_PENDING_ORDERS } from '../../dr/receiver/pending-orders.js';
import { pduTypeName } from '../../names/index.js';
import type { SubscriberStats } from '../../stream/subscriber-types.js';
import { otherPduCounts, type TransportStats } from '../../transport/transport.js';
import type { EngagementFeed } from '../../view/engagement-feed.js';
import { MAX_RADIOS } from '../../view/radio-table.js';
import { formatCount } from './format.js';

/** `, 680 of other PDU types (Attribute 108, Environmental Process 30, …)`, or '' when there were none. */
export function formatOtherPdus(stats: TransportStats): string {
  const counts = otherPduCounts(stats);
  if (counts.length === 0) return '';
  const total = counts.reduce((n, [, count]) => n + count, 0);
  const named = counts.map(([type, count]) => `${pduTypeName(type)} ${count}`);
  return `, ${formatCount(total, 'PDU')} of other types (${named.join(', ')})`;
}

/**
 * `; Entity State PDUs rejected: BAD_LENGTH 2; Fire PDUs rejected: LOCATION_NOT_FINITE 1`: each PDU type's
 * rejections under its own name, or '' when there were none.
 */
export function formatDecodeErrors(stats: SubscriberStats): string {
  const named = (counts: Partial<Record<string, number>>) =>
    Object.entries(counts)
      .filter(([, n]) => n! > 0)
      .map(([code, n]) => `${code} ${n}`);
  const parts: string[] = [];
  const entityState = named(stats.decodeErrors);
  if (entityState.length > 0) parts.push(`Entity State PDUs rejected: ${entityState.join(', ')}`);
  for (const [type, counts] of Object.entries(stats.otherDecodeErrors)) {
    const codes = named(counts);
    if (codes.length > 0) parts.push(`${pduTypeName(Number(type))} PDUs rejected: ${codes.join(', ')}`);
  }
  return parts.map((part) => `; ${part}`).join('');
}

/** `; 1 fire, 1 detonation, 2 entities frozen, …`: what the subscriber made of the PDUs beside Entity State. */
export function formatEngagements(stats: SubscriberStats): string {
  const { fires, detonations, collisions } = stats.engagements;
  const c = stats.control;
  const parts = [
    fires > 0 ? formatCount(fires, 'fire') : '',
    detonations > 0 ? formatCount(detonations, 'detonation') : '',
    collisions > 0 ? formatCount(collisions, 'collision') : '',
    c.removeEntityPdus > 0 ? `${formatCount(c.removedEntities, 'entity', 'entities')} removed` : '',
    c.stopFreezePdus > 0 ? `${formatCount(c.frozenEntities, 'entity', 'entities')} frozen` : '',
    c.startResumePdus > 0 ? `${formatCount(c.resumedEntities, 'entity', 'entities')} resumed` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? '' : `; ${parts.join(', ')}`;
}

/**
 * `; 1200 Stop/Freeze or Start/Resume orders dated ahead not carried out (200 replaced by a newer one for the same
 * entities, 1000 over the 1024 waiting)`, or '' when every one was.
 */
export function formatOrdersNotCarriedOut(control: SubscriberStats['control']): string {
  const { ordersReplaced, ordersDropped } = control;
  if (ordersReplaced + ordersDropped === 0) return '';
  const parts = [
    ordersReplaced > 0 ? `${ordersReplaced} replaced by a newer one for the same entities` : '',
    ordersDropped > 0 ? `${ordersDropped} over the ${MAX_PENDING_ORDERS} waiting` : '',
  ].filter((part) => part !== '');
  const n = ordersReplaced + ordersDropped;
  return `; ${n} Stop/Freeze or Start/Resume ${n === 1 ? 'order' : 'orders'} dated ahead not carried out (${parts.join(', ')})`;
}

/** `Fire 1, Transmitter 17`: counts by PDU type, the most first. */
function byType(counts: Record<number, number>): { total: number; named: string } {
  const sorted = Object.entries(counts)
    .map(([type, n]) => [Number(type), n] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const total = sorted.reduce((n, [, count]) => n + count, 0);
  return { total, named: sorted.map(([type, count]) => `${pduTypeName(type)} ${count}`).join(', ') };
}

/**
 * `, 19 PDUs of shots, entity control and radios (Fire 1, Transmitter 17, …), 2 of them invalid (Transmitter 2)`:
 * what the map was sent; then radios evicted from the full radio table, when any were.
 */
export function formatMapPdus(stats: EngagementFeed['stats']): string {
  const taken = byType(stats.pdus);
  if (taken.total === 0) return '';
  const rejected = byType(stats.rejected);
  const invalid = rejected.total > 0 ? `, ${rejected.total} of them invalid (${rejected.named})` : '';
  const evicted =
    stats.radiosEvicted > 0
      ? `, ${formatCount(stats.radiosEvicted, 'radio')} evicted from the full radio table (${MAX_RADIOS})`
      : '';
  return `, ${formatCount(taken.total, 'PDU')} of shots, entity control and radios (${taken.named})${invalid}${evicted}`;
}
