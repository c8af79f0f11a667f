/**
 * The names of an Entity State PDU's numbers in one JSON object, as `reckon decode --json` and `reckon subscribe
 * --json` write it beside the PDU (`"names": {…}`).
 */
import type { EntityStatePdu } from '../pdu/schema/schema.js';
import { setAppearanceFields } from './appearance.js';
import { deadReckoningAlgorithmName, forceName } from './enumerations.js';
import { entityTypeName } from './entity-type-names.js';
import { type VariableParameterNames, variableParameterNames } from './parts.js';

/** The names of an Entity State PDU's numbers. */
export interface EntityStatePduNames {
  /** The entity type's short label, "M1A2 · Tank · USA". */
  readonly type: string;
  /** Every level named, "Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2". */
  readonly typePath: string;
  readonly kind: string;
  readonly domain: string;
  readonly country: string;
  /** The levels below the country SISO-REF-010 lists for this type (absent below the deepest). */
  readonly category?: string;
  readonly subcategory?: string;
  readonly specific?: string;
  readonly extra?: string;
  readonly force: string;
  readonly deadReckoning: string;
  /** The appearance fields that are set (not zero), by label: `{ "damage": "Destroyed", "flaming": "yes" }`. */
  readonly appearance: Readonly<Record<string, string>>;
  /** One entry per variable parameter record, in order. */
  readonly parts: readonly VariableParameterNames[];
}

/** The names of a PDU's numbers (its JSON form, `entityStateRecordToPdu`). Never throws. */
export function entityStatePduNames(pdu: EntityStatePdu): EntityStatePduNames {
  const type = entityTypeName(pdu.entityType);
  const appearance: Record<string, string> = {};
  for (const f of setAppearanceFields(pdu.entityType, pdu.appearance)) appearance[f.label] = f.valueName;
  return {
    type: type.label,
    typePath: type.path,
    kind: type.kind,
    domain: type.domain,
    country: type.country,
    ...(type.category === undefined ? {} : { category: type.category }),
    ...(type.subcategory === undefined ? {} : { subcategory: type.subcategory }),
    ...(type.specific === undefined ? {} : { specific: type.specific }),
    ...(type.extra === undefined ? {} : { extra: type.extra }),
    force: forceName(pdu.forceId),
    deadReckoning: deadReckoningAlgorithmName(pdu.deadReckoning.algorithm),
    appearance,
    parts: pdu.variableParameters.map(variableParameterNames),
  };
}
