/**
 * Names accepted in any letter case (`"fpw"`, `"Projective"`, `"KDIS"`) and normalised to their canonical spelling,
 * in files, specs, flags and the environment alike. The JSON Schema stays honest: it lists the canonical names (so
 * editors still offer them) and, as an alternative, a pattern that matches them in any case.
 */
import { z } from 'zod';

const SPECIAL = /[.*+?^${}()|[\]\\/-]/g;

/** `fpw` → `[fF][pP][wW]`: a pattern for one name in any case, without the `i` flag JSON Schema lacks. */
function anyCasePattern(name: string): string {
  return [...name]
    .map((c) => {
      const cased = c.toLowerCase() !== c.toUpperCase();
      return cased ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(SPECIAL, '\\$&');
    })
    .join('');
}

/**
 * An enum that takes its names in any letter case and outputs the canonical one.
 * @param names - the canonical names; no two may differ only in case.
 * @param error - message when the value is none of them. Defaults to one listing the names.
 */
export function anyCaseEnum<const T extends readonly [string, ...string[]]>(names: T, error?: string) {
  const canonical = new Map<string, T[number]>(names.map((n) => [n.toLowerCase(), n]));
  const pattern = new RegExp(`^(?:${names.map(anyCasePattern).join('|')})$`);
  const message = error ?? `expected one of ${names.map((n) => `"${n}"`).join(', ')} (any letter case)`;
  // The enum is tried first and the pattern only for other spellings; its message is the one users see.
  return z
    .union([z.enum(names), z.string().regex(pattern, { error: message })], { error: message })
    .transform((name) => canonical.get(name.toLowerCase())!);
}
