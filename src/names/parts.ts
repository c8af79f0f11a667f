/**
 * Names for variable parameter records (IEEE 1278.1-2012 §6.2.94; articulation parameters in 1995): an articulated
 * part's type is a class (SISO-REF-010 UID 59, multiples of 32) plus a metric (UID 58, 0–31), its value a float32
 * whose unit the metric gives; an attached part names its station (UID 57) and carries the entity type of the
 * store.
 */
import type { VariableParameter } from '../pdu/schema/schema.js';
import { EnumerationUid, nameByUid } from './enumerations.js';
import { entityTypeName } from './entity-type-names.js';

/** The unit of an articulated part's value, as the wire carries it. */
export type ArticulatedPartUnit = 'm' | 'm/s' | 'rad' | 'rad/s' | '';

/** The names of an articulated part's type and metric. */
export interface ArticulatedPartNames {
  /** The class, e.g. "Primary Turret Number 1". */
  readonly partClass: string;
  /** The metric, e.g. "Azimuth". */
  readonly metric: string;
  /** "Primary Turret Number 1 · Azimuth". */
  readonly label: string;
  readonly unit: ArticulatedPartUnit;
}

/**
 * Units by metric (IEEE 1278.1-2012 Annex: position, extension and X/Y/Z in metres, azimuth, elevation and rotation
 * in radians, each odd metric's rate per second in the even one after it; 0 not specified).
 */
const METRIC_UNITS: readonly ArticulatedPartUnit[] = [
  '',
  'm',
  'm/s',
  'm',
  'm/s',
  'm',
  'm/s',
  'm',
  'm/s',
  'm',
  'm/s',
  'rad',
  'rad/s',
  'rad',
  'rad/s',
  'rad',
  'rad/s',
];

const CACHE_LIMIT = 4096;
const articulatedNames = new Map<number, ArticulatedPartNames>();

/** The names of an articulated part's parameter type (class + metric); made once per type. Never throws. */
export function articulatedPartName(parameterType: number): ArticulatedPartNames {
  let names = articulatedNames.get(parameterType);
  if (names === undefined) {
    const valid = parameterType >>> 0 === parameterType;
    const metricValue = valid ? parameterType % 32 : Number.NaN;
    const partClass = nameByUid(EnumerationUid.ARTICULATED_PARTS_TYPE_CLASS, parameterType - metricValue);
    const metric = nameByUid(EnumerationUid.ARTICULATED_PARTS_TYPE_METRIC, metricValue);
    names = {
      partClass: valid ? partClass : nameByUid(EnumerationUid.ARTICULATED_PARTS_TYPE_CLASS, parameterType),
      metric,
      label: valid ? `${partClass} · ${metric}` : `unknown (${parameterType})`,
      unit: METRIC_UNITS[metricValue] ?? '',
    };
    if (articulatedNames.size >= CACHE_LIMIT) articulatedNames.clear();
    articulatedNames.set(parameterType, names);
  }
  return names;
}

/** A value for a person: radians as degrees, metres as metres. */
export interface PartValue {
  readonly value: number;
  /** The unit of `value`: 'deg', 'deg/s', 'm', 'm/s', or '' when the metric gives none. */
  readonly unit: 'deg' | 'deg/s' | 'm' | 'm/s' | '';
  /** e.g. "37.5°", "1.20 m", "0.5". */
  readonly text: string;
}

/** An articulated part's value in the unit a person reads: degrees for angles, metres for lengths. */
export function articulatedPartValue(parameterType: number, value: number): PartValue {
  const unit = articulatedPartName(parameterType).unit;
  if (unit === 'rad' || unit === 'rad/s') {
    const degrees = (value * 180) / Math.PI;
    const rate = unit === 'rad/s';
    return { value: degrees, unit: rate ? 'deg/s' : 'deg', text: `${degrees.toFixed(1)}${rate ? '°/s' : '°'}` };
  }
  if (unit === 'm' || unit === 'm/s') return { value, unit, text: `${value.toFixed(2)} ${unit}` };
  return { value, unit: '', text: String(value) };
}

/**
 * An attached part's station (UID 57): the listed ones by name (0 "Nothing, Empty", 896 "M16A42 rifle", …), and
 * the ranges SISO defines by number: 1–511 model-specific stations, 512–639 fuselage, 640–767 left wing, 768–895
 * right wing, 906–1023 other attached parts.
 */
export function attachedPartStation(station: number): string {
  if (station >>> 0 === station) {
    if (station >= 1 && station <= 511) return `Model-specific station ${station}`;
    if (station >= 512 && station <= 639) return `Fuselage station ${station - 511}`;
    if (station >= 640 && station <= 767) return `Left-wing station ${station - 639}`;
    if (station >= 768 && station <= 895) return `Right-wing station ${station - 767}`;
    if (station >= 906 && station <= 1023) return `Other attached part ${station - 905}`;
  }
  return nameByUid(EnumerationUid.ATTACHED_PARTS, station);
}

/** The names of one variable parameter record, beside its numbers. */
export interface VariableParameterNames {
  /** The record type's name: "Articulated Part", "Attached Part", "Separation", … */
  readonly record: string;
  /** An articulated part: "Primary Turret Number 1 · Azimuth"; an attached part: its station. */
  readonly part?: string;
  /** An articulated part's value in degrees or metres, and that unit ('deg', 'deg/s', 'm', 'm/s' or ''). */
  readonly value?: number;
  readonly unit?: string;
  /** An attached part's store: the label of its entity type ("AIM-9B · Guided · USA"). */
  readonly store?: string;
  /** An attached part that has been detached. */
  readonly detached?: boolean;
}

/** Names for a record in its JSON form (`parameterRecordToJson`). Never throws. */
export function variableParameterNames(parameter: VariableParameter): VariableParameterNames {
  const record = nameByUid(EnumerationUid.VARIABLE_PARAMETER_RECORD_TYPE, parameter.recordType);
  if (parameter.recordType === 0 && parameter.parameterType !== undefined) {
    const shown = articulatedPartValue(parameter.parameterType, parameter.parameterValue ?? 0);
    return {
      record,
      part: articulatedPartName(parameter.parameterType).label,
      value: shown.value,
      unit: shown.unit,
    };
  }
  if (parameter.recordType === 1 && parameter.parameterType !== undefined) {
    return {
      record,
      part: attachedPartStation(parameter.parameterType),
      ...(parameter.attachedPartType ? { store: entityTypeName(parameter.attachedPartType).label } : {}),
      detached: parameter.detachedIndicator === 1,
    };
  }
  return { record };
}
