/**
 * NATS subjects of DIS traffic (docs/nats.md):
 *
 * - Entity State (type 1) and Entity State Update (type 67) PDUs: `PREFIX.EXERCISE.CELL.KIND.DOMAIN`, where CELL is
 *   the H3 cell (hex index, e.g. `851f9d2ffffffff`) of the entity's location at the configured resolution, and KIND
 *   and DOMAIN are the first two fields of its entity type (IEEE 1278.1 §6.2.30). An Update PDU carries no entity
 *   type: it takes the kind and domain of the entity's last full PDU seen by the same publisher, else `0.0`.
 * - Every other PDU, and an Entity State PDU whose location is not a point near the Earth:
 *   `PREFIX.EXERCISE.all.TYPE` (TYPE the PDU type number), so a receiver of one exercise takes them with
 *   `PREFIX.EXERCISE.all.>`.
 *
 * Subject tokens never need escaping: cells are hex, the rest are decimal numbers.
 */
/** The CELL token of PDUs that are not routed by position. */
export const GLOBAL_TOKEN = 'all';
/** Header on a copy of an Entity State PDU sent to the cell its entity has just left (docs/nats.md). */
export const LEFT_CELL_HEADER = 'Reckon-Left-Cell';
/** Header on that copy naming the cell the entity is now in, so a receiver of both cells ignores the copy. */
export const NEW_CELL_HEADER = 'Reckon-Cell';

/** `PREFIX.EXERCISE.all.TYPE`: the subject of a PDU not routed by position. */
export function globalSubject(prefix: string, exercise: number, pduType: number): string {
  return `${prefix}.${exercise}.${GLOBAL_TOKEN}.${pduType}`;
}

/** `PREFIX.EXERCISE.CELL.KIND.DOMAIN`: the subject of an Entity State (Update) PDU in a cell. */
export function cellSubject(prefix: string, exercise: number, cell: string, kind: number, domain: number): string {
  return `${prefix}.${exercise}.${cell}.${kind}.${domain}`;
}

/** The CELL token of a subject `PREFIX.EXERCISE.CELL.…` (prefix of `prefixTokens` tokens), else undefined. */
export function cellOfSubject(subject: string, prefixTokens: number): string | undefined {
  const tokens = subject.split('.');
  const cell = tokens[prefixTokens + 1];
  return cell === undefined || cell === GLOBAL_TOKEN ? undefined : cell;
}
