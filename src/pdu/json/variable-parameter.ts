/**
 * One 16-byte variable parameter record (v7) / articulation parameter record (v5, v6) in its JSON form. The two
 * types reckon interprets have the same bytes in every version (IEEE 1278.1-1995 §A.2.1.8: an articulated part's
 * 64-bit value is a float32 followed by 32 zero bits, which v7 names value + padding):
 *
 * | bytes | 0 | 1 | 2–3 | 4–7 | 8–15 |
 * |---|---|---|---|---|---|
 * | articulated part (0) | type | change indicator | part attached to | parameter type | float32 value, 4 padding |
 * | attached part (1) | type | detached indicator | part attached to | parameter type (station) | entity type |
 *
 * Other record types (separation, entity type, association, unknown) are kept as their raw bytes.
 */
import { PARAMETER_RECORD_BYTES, ParameterRecordType } from '../wire/constants.js';
import { DataViewCache, bytesToHex, hexInto } from '../wire/bytes.js';
import type { EntityType, VariableParameter } from '../schema/schema.js';

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/** Reads the record at `offset` of `bytes` into its JSON form. */
export function parameterRecordToJson(bytes: Uint8Array, offset: number): VariableParameter {
  const view = readViews.of(bytes);
  const recordType = bytes[offset]!;
  const raw = bytesToHex(bytes, offset, offset + PARAMETER_RECORD_BYTES);
  if (recordType === ParameterRecordType.ARTICULATED_PART) {
    return {
      recordType,
      changeIndicator: bytes[offset + 1],
      partAttachedTo: view.getUint16(offset + 2),
      parameterType: view.getUint32(offset + 4),
      parameterValue: view.getFloat32(offset + 8),
      raw,
    };
  }
  if (recordType === ParameterRecordType.ATTACHED_PART) {
    return {
      recordType,
      detachedIndicator: bytes[offset + 1],
      partAttachedTo: view.getUint16(offset + 2),
      parameterType: view.getUint32(offset + 4),
      attachedPartType: entityTypeToJson(view, offset + 8),
      raw,
    };
  }
  return { recordType, raw };
}

/**
 * Writes the JSON form of a record at `offset` of `out`. Starts from `raw` (zero-filled when shorter or empty),
 * then the typed fields that are present overwrite their bytes, so a hand-written record needs no `raw`.
 */
export function parameterRecordFromJson(out: Uint8Array, offset: number, parameter: VariableParameter): void {
  hexInto(out, offset, parameter.raw, PARAMETER_RECORD_BYTES);
  const view = writeViews.of(out);
  out[offset] = parameter.recordType;
  const indicator = parameter.changeIndicator ?? parameter.detachedIndicator;
  if (indicator !== undefined) out[offset + 1] = indicator;
  if (parameter.partAttachedTo !== undefined) view.setUint16(offset + 2, parameter.partAttachedTo);
  if (parameter.parameterType !== undefined) view.setUint32(offset + 4, parameter.parameterType);
  if (parameter.parameterValue !== undefined) {
    view.setFloat32(offset + 8, parameter.parameterValue);
    view.setUint32(offset + 12, 0);
  }
  if (parameter.attachedPartType !== undefined) entityTypeFromJson(view, offset + 8, parameter.attachedPartType);
}

/** Reads an 8-byte Entity Type record at DataView position `p`. */
function entityTypeToJson(view: DataView, p: number): EntityType {
  return {
    kind: view.getUint8(p),
    domain: view.getUint8(p + 1),
    country: view.getUint16(p + 2),
    category: view.getUint8(p + 4),
    subcategory: view.getUint8(p + 5),
    specific: view.getUint8(p + 6),
    extra: view.getUint8(p + 7),
  };
}

function entityTypeFromJson(view: DataView, p: number, type: EntityType): void {
  view.setUint8(p, type.kind);
  view.setUint8(p + 1, type.domain);
  view.setUint16(p + 2, type.country);
  view.setUint8(p + 4, type.category);
  view.setUint8(p + 5, type.subcategory);
  view.setUint8(p + 6, type.specific);
  view.setUint8(p + 7, type.extra);
}
