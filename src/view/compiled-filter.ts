/**
 * A feed client's filter (`ViewFilter`, protocol.ts) compiled into lookup tables, so that the gateway matches a
 * record against it with a few array reads.
 */
import { isEmptyFilter, longitudeInSpan, type ViewFilter } from './protocol.js';

/** A client's filter as lookup tables, so matching a record costs a few array reads. */
export interface CompiledFilter {
  readonly all: boolean;
  readonly exercise: number;
  readonly forces: Uint8Array | undefined;
  readonly kinds: Uint8Array | undefined;
  readonly domains: Uint8Array | undefined;
  readonly bbox: readonly [number, number, number, number] | null;
}

function table(values: readonly number[] | null): Uint8Array | undefined {
  if (values === null) return undefined;
  const t = new Uint8Array(256);
  for (const v of values) t[v] = 1;
  return t;
}

export function compile(filter: ViewFilter): CompiledFilter {
  return {
    all: isEmptyFilter(filter),
    exercise: filter.exercise ?? -1,
    forces: table(filter.forces),
    kinds: table(filter.kinds),
    domains: table(filter.domains),
    bbox: filter.bbox,
  };
}

/** Whether a filter's exercise, force, kind and domain parts let an entity through (the area is checked apart). */
export function matchesAttributes(
  f: CompiledFilter,
  exercise: number,
  force: number,
  kind: number,
  domain: number,
): boolean {
  if (f.exercise >= 0 && exercise !== f.exercise) return false;
  if (f.forces !== undefined && f.forces[force] === 0) return false;
  if (f.kinds !== undefined && f.kinds[kind] === 0) return false;
  return f.domains === undefined || f.domains[domain] === 1;
}

export function inBbox(b: readonly [number, number, number, number], latDeg: number, lonDeg: number): boolean {
  return latDeg >= b[1] && latDeg <= b[3] && longitudeInSpan(lonDeg, b[0], b[2]);
}
