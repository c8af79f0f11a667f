/**
 * How a command's summary names the PDUs of the types it passes over: counted by type, named from SISO-REF-010,
 * never called rejected.
 */
import { pduTypeName } from '../../names/index.js';
import { otherPduCounts, type TransportStats } from '../../transport/transport.js';
import { formatCount } from './format.js';

/** `, 680 of other PDU types (Attribute 108, Environmental Process 30, …)`, or '' when there were none. */
export function formatOtherPdus(stats: TransportStats): string {
  const counts = otherPduCounts(stats);
  if (counts.length === 0) return '';
  const total = counts.reduce((n, [, count]) => n + count, 0);
  const named = counts.map(([type, count]) => `${pduTypeName(type)} ${count}`);
  return `, ${formatCount(total, 'PDU')} of other types (${named.join(', ')})`;
}
