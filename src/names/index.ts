/**
 * Names for the numbers of DIS from SISO-REF-010 (data/siso/README.md): enumerations, entity types, appearance
 * records and articulated and attached parts. Reprinted with permission from SISO Inc.
 */
export { SISO_ATTRIBUTION, SISO_VERSION } from './siso-data.generated.js';
export type { BitField, BitRecord, Enumeration } from './siso-tables.js';
export {
  EnumerationUid,
  countryCode,
  countryName,
  deadReckoningAlgorithmName,
  domainName,
  entityKindName,
  enumerationName,
  enumerationOf,
  forceName,
  isListed,
  pduTypeName,
  unknownName,
} from './enumerations.js';
export { entityTypeFields, entityTypeText, type EntityTypeLike } from './entity-type-fields.js';
export { entityTypeName, entityTypeNameOf, type EntityTypeNames } from './entity-type-names.js';
export { findEntityType, type EntityTypeLookup } from './entity-type-lookup.js';
export { entityTypeByName, type EntityTypeSearch } from './entity-type-search.js';
export {
  appearanceDamage,
  appearanceRecord,
  appearanceRecordName,
  appearanceSummary,
  decodeAppearance,
  decodeBitRecord,
  setAppearanceFields,
  type BitFieldValue,
  type DecodedAppearance,
} from './appearance.js';
export { bitRecordNames } from './siso-tables.js';
export {
  articulatedPartName,
  articulatedPartValue,
  attachedPartStation,
  variableParameterNames,
  type ArticulatedPartNames,
  type ArticulatedPartUnit,
  type PartValue,
  type VariableParameterNames,
} from './parts.js';
export { entityStatePduNames, type EntityStatePduNames } from './pdu-names.js';
export {
  EngagementEnumerationUid,
  detonationPduNames,
  detonationResultName,
  firePduNames,
  munitionNames,
  receiverPduNames,
  transmitStateName,
  transmitterPduNames,
  type DetonationPduNames,
  type FirePduNames,
  type MunitionNames,
} from './engagement-names.js';
export {
  cotTypeTail,
  sidcOf,
  symbolFunction,
  type BattleDimension,
  type SymbolFunction,
} from './symbol-functions.js';
