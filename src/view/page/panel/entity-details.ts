/**
 * The selected entity's names for the details panel, once the SISO-REF-010 names are loaded: the type's every
 * level, the country, the appearance fields that are set and each articulated or attached part with its value
 * (degrees, metres). Before they are loaded, the numbers with the kind and domain.
 */
import { parameterRecordToJson } from '../../../pdu/json/variable-parameter.js';
import { VARIABLE_PARAMETER_BYTES } from '../../../pdu/wire/entity-state-record.js';
import type { pageNames } from '../names.js';

type Names = NonNullable<ReturnType<typeof pageNames>>;

const KIND_NAMES = [
  'other',
  'platform',
  'munition',
  'life form',
  'environmental',
  'cultural feature',
  'supply',
  'radio',
  'expendable',
  'sensor/emitter',
];
const DOMAIN_NAMES = ['other', 'land', 'air', 'surface', 'subsurface', 'space'];

/**
 * Rows for the details list.
 * @param type - the seven numbers of the entity type.
 * @param parts - the entity's variable parameter records (16 bytes each), `partCount` of them.
 */
export function typeDetailRows(
  names: Names | undefined,
  type: ArrayLike<number>,
  appearance: number,
  parts: Uint8Array | undefined,
  partCount: number,
): Array<[string, string]> {
  const numbers = Array.prototype.join.call(type, ':');
  if (names === undefined) {
    const kind = KIND_NAMES[type[0]!] ?? `kind ${type[0]}`;
    const domain = DOMAIN_NAMES[type[1]!] ?? `domain ${type[1]}`;
    return [['type', `${numbers} (${kind}, ${domain})`]];
  }
  const typeNames = names.entityTypeName(type);
  const rows: Array<[string, string]> = [
    ['type', typeNames.label],
    ['type path', `${typeNames.path}${typeNames.exact ? '' : ` (${numbers} is not listed)`}`],
    ['entity type', numbers],
    ['country', typeNames.country],
    ['appearance', names.appearanceSummary(type, appearance) || 'nothing set'],
  ];
  for (let i = 0; parts !== undefined && i < partCount; i++) {
    const record = parameterRecordToJson(parts, i * VARIABLE_PARAMETER_BYTES);
    const part = names.variableParameterNames(record);
    if (record.recordType === 0 && record.parameterType !== undefined) {
      const shown = names.articulatedPartValue(record.parameterType, record.parameterValue ?? 0);
      rows.push([part.part ?? part.record, shown.text]);
    } else if (record.recordType === 1) {
      rows.push([part.part ?? part.record, `${part.store ?? 'store'}${part.detached ? ' (detached)' : ''}`]);
    } else {
      // A record named but not read here (separation, entity type, association): its bytes.
      rows.push([part.record, record.raw ?? '']);
    }
  }
  return rows;
}

type TypeNames = ReturnType<Names['entityTypeName']>;
/** Lower-cased search text per type (the names of a type are one object, made once). */
const searchText = new WeakMap<TypeNames, string>();

/** Text the entity list's search matches besides the marking and id: the type's label and path, once loaded. */
export function typeSearchText(names: Names | undefined, type: ArrayLike<number>): string {
  if (names === undefined) return '';
  const typeNames = names.entityTypeName(type);
  let text = searchText.get(typeNames);
  if (text === undefined) searchText.set(typeNames, (text = `${typeNames.label} ${typeNames.path}`.toLowerCase()));
  return text;
}

/** The type's label for the entity list, or '' until the names are loaded. */
export function typeLabel(names: Names | undefined, type: ArrayLike<number>): string {
  return names === undefined ? '' : names.entityTypeName(type).label;
}
