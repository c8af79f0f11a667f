/**
 * Quantities with units in configuration: `"1 m"`, `"3 deg"`, `"5 s"`, `"15 Hz"`, `"200 ms"`, `"30 kn"`, or a
 * plain number already in SI units (metres, radians, seconds, hertz, m/s). mathjs parses the units; it is slow to
 * load, so a number with one of the common units below is read without it, and mathjs is loaded (synchronously,
 * once) only for any other string with a unit.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';

/** The physical dimensions configuration uses, each with its SI unit and a valid example. */
export const DIMENSIONS = {
  length: { si: 'm', example: '"1 m"', noun: 'a length' },
  angle: { si: 'rad', example: '"3 deg"', noun: 'an angle' },
  time: { si: 's', example: '"5 s"', noun: 'a duration' },
  frequency: { si: 'Hz', example: '"15 Hz"', noun: 'a frequency' },
  speed: { si: 'm/s', example: '"10 m/s"', noun: 'a speed' },
  acceleration: { si: 'm/s^2', example: '"2 m/s^2"', noun: 'an acceleration' },
  angularRate: { si: 'rad/s', example: '"10 deg/s"', noun: 'an angular rate' },
  dataRate: { si: 'b/s', example: '"1 Mb/s"', noun: 'a data rate' },
} as const;

/** A kind of quantity a setting may carry (length, angle, time, speed, …). */
export type Dimension = keyof typeof DIMENSIONS;

type MathUnit = { equalBase(other: MathUnit): boolean; toNumber(unit: string): number; value: number | null };
interface MathInstance {
  unit(value: string): MathUnit;
  createUnit(name: string, definition: string | object, options?: object): unknown;
}

let math: MathInstance | undefined;

function mathjs(): MathInstance {
  if (!math) {
    // The one-file build: the package's main entry requires about a thousand modules, four times the CPU.
    const { create, all } = createRequire(import.meta.url)('mathjs/lib/browser/math.js') as {
      create(factories: unknown): MathInstance;
      all: unknown;
    };
    // A private instance, so the units added here never leak into a user's own mathjs.
    math = create(all);
    math.createUnit('knot', { definition: '0.514444444 m/s', aliases: ['knots', 'kn', 'kt', 'kts'] });
    math.createUnit('nmi', { definition: '1852 m', aliases: ['NM'] });
  }
  return math;
}

/**
 * The common units as mathjs defines them: dimension and SI value of one unit. A number with one of these is
 * `number × value`, as mathjs computes it (test/config/units.test.ts compares every one with mathjs).
 */
const COMMON_UNITS: Readonly<Record<string, { readonly dimension: Dimension; readonly value: number }>> = {
  m: { dimension: 'length', value: 1 },
  km: { dimension: 'length', value: 1000 },
  cm: { dimension: 'length', value: 0.01 },
  mm: { dimension: 'length', value: 0.001 },
  nmi: { dimension: 'length', value: 1852 },
  NM: { dimension: 'length', value: 1852 },
  rad: { dimension: 'angle', value: 1 },
  deg: { dimension: 'angle', value: Math.PI / 180 },
  s: { dimension: 'time', value: 1 },
  ms: { dimension: 'time', value: 0.001 },
  min: { dimension: 'time', value: 60 },
  h: { dimension: 'time', value: 3600 },
  Hz: { dimension: 'frequency', value: 1 },
  'm/s': { dimension: 'speed', value: 1 },
  'rad/s': { dimension: 'angularRate', value: 1 },
};

/** A number and a unit: `"200 ms"`, `"5s"`, `"-1.5e3 m"`. */
const NUMBER_AND_UNIT = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([A-Za-z/]+)$/i;

/** The SI value of `text` when it is a number with a common unit of `dimension`; otherwise undefined (ask mathjs). */
function readCommonUnit(text: string, dimension: Dimension): number | undefined {
  const match = NUMBER_AND_UNIT.exec(text);
  const unit = match && Object.hasOwn(COMMON_UNITS, match[2]!) ? COMMON_UNITS[match[2]!] : undefined;
  return unit?.dimension === dimension ? Number(match![1]) * unit.value : undefined;
}

/** The result of reading one quantity: the SI value, or why it is not valid. */
export type QuantityResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads a quantity in the given dimension and returns its value in SI units.
 * @param input - a finite number (taken as SI) or a string such as `"3 deg"`; a bare numeric string is SI too.
 */
export function readQuantity(input: unknown, dimension: Dimension): QuantityResult {
  const { si, example, noun } = DIMENSIONS[dimension];
  if (typeof input === 'number') {
    return Number.isFinite(input)
      ? { ok: true, value: input }
      : { ok: false, message: `must be finite, e.g. ${example}` };
  }
  if (typeof input !== 'string') {
    return { ok: false, message: `expected a number in ${si} or a string with a unit, e.g. ${example}` };
  }
  const text = input.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) {
    const value = Number(text);
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, message: `must be finite, e.g. ${example}` };
  }
  const common = readCommonUnit(text, dimension);
  if (common !== undefined && Number.isFinite(common)) return { ok: true, value: common };
  let unit: MathUnit;
  try {
    unit = mathjs().unit(text);
  } catch {
    return { ok: false, message: `"${input}" is not a quantity with a known unit, e.g. ${example}` };
  }
  if (unit.value === null || !unit.equalBase(mathjs().unit(si))) {
    return { ok: false, message: `"${input}" is not ${noun} (expected units like ${si}), e.g. ${example}` };
  }
  const value = unit.toNumber(si);
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, message: `must be finite, e.g. ${example}` };
}

/**
 * A zod schema for a quantity: accepts a number (SI) or a string with a unit, outputs the SI number.
 * The JSON Schema shows both accepted forms.
 */
export function quantity(dimension: Dimension) {
  const { si, example, noun } = DIMENSIONS[dimension];
  return z
    .union([z.number(), z.string()])
    .transform((input, ctx) => {
      const result = readQuantity(input, dimension);
      if (result.ok) return result.value;
      ctx.addIssue({ code: 'custom', message: result.message });
      return z.NEVER;
    })
    .describe(
      `${noun[0]!.toUpperCase()}${noun.slice(1)}: a number in ${si}, or a string with a unit, e.g. ${example}.`,
    );
}

/** Slowest rate of anything that ticks (frames, publishing): one per 1000 s. */
export const MIN_RATE_HZ = 0.001;

/**
 * A quantity that must be more than 0 (thresholds, rates, durations). The one definition of that rule, shared by
 * the configuration and the experiment spec, so every entry point accepts and rejects the same values.
 */
export function positiveQuantity(dimension: Dimension) {
  // No example here: the config and spec loaders append the setting's own.
  return quantity(dimension).refine((v) => v > 0, { message: 'must be positive' });
}

/** A quantity that must be 0 or more (a delay or blend time, where 0 means none). */
export function nonNegativeQuantity(dimension: Dimension) {
  return quantity(dimension).refine((v) => v >= 0, { message: 'must be 0 or more' });
}
