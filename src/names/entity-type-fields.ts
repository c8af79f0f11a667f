/** An Entity Type given either way the project holds one: its JSON object, or its seven numbers. */
import type { EntityType } from '../pdu/schema/schema.js';

/** An Entity Type as its JSON object, or its seven numbers in order (as `EntityStateRecord.entityType` holds them). */
export type EntityTypeLike = EntityType | ArrayLike<number>;

/** True when the type is given as its seven numbers. */
export function isEntityTypeArray(type: EntityTypeLike): type is ArrayLike<number> {
  return typeof (type as ArrayLike<number>).length === 'number';
}

/** kind, domain, country, category, subcategory, specific, extra. */
export function entityTypeFields(type: EntityTypeLike): [number, number, number, number, number, number, number] {
  if (isEntityTypeArray(type)) return [type[0]!, type[1]!, type[2]!, type[3]!, type[4]!, type[5]!, type[6]!];
  return [type.kind, type.domain, type.country, type.category, type.subcategory, type.specific, type.extra];
}

/** The seven numbers as text, `1:1:225:1:1:3:0`. */
export function entityTypeText(type: EntityTypeLike): string {
  return entityTypeFields(type).join(':');
}
