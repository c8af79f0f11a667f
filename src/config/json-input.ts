/**
 * Checks JSON from outside (a config file, an experiment spec, a JSON-valued setting) before anything walks it:
 * keys that reach an object's prototype when assigned (`__proto__`, `constructor`, `prototype`) are refused, so no
 * input can change `Object.prototype`; and nesting is bounded, so no input can exhaust the stack of the code that
 * walks it. The walk itself is iterative.
 */

/** Keys refused anywhere in JSON input: assigned to a plain object, they reach or replace its prototype. */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deepest nesting of objects and arrays accepted; the deepest setting or spec value is 4 levels down. */
export const MAX_JSON_DEPTH = 32;

export interface JsonInputProblem {
  /** Dotted path of the key (`network.__proto__`), or of the value nested too deep. */
  readonly path: string;
  readonly message: string;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/**
 * The problems of a parsed JSON value: each forbidden key with its path, and the first value nested deeper than
 * `maxDepth`. Empty when the value is safe to walk and assign from.
 */
export function jsonInputProblems(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonInputProblem[] {
  const problems: JsonInputProblem[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  let tooDeep = false;
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) {
      if (!tooDeep) {
        tooDeep = true;
        problems.push({
          path: path || '<root>',
          message: `nested more than ${maxDepth} levels deep; no setting is nested that deep`,
        });
      }
      continue;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push({ value: item, path: join(path, i), depth: depth + 1 }));
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_JSON_KEYS.has(key)) {
        problems.push({ path: join(path, key), message: `"${key}" is not accepted as a key` });
        continue;
      }
      stack.push({ value: (node as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return problems;
}
