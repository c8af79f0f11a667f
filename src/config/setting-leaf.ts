/**
 * The shape of one setting as a flat leaf: its path in `ConfigSchema` and the names it has outside a file. Kept
 * apart from `leaves.ts` so that the generated list (`setting-leaves.generated.ts`) and the code that reads it
 * depend on this file, not on each other.
 */
import type { ConfigSection } from './schema.js';

/** How a leaf's text (from a flag or the environment) is turned into the value the schema expects. */
export type LeafKind = 'number' | 'boolean' | 'string' | 'list' | 'numberList' | 'object';

export interface ConfigLeaf {
  readonly section: ConfigSection;
  readonly key: string;
  /** `section.key`, as in error messages. */
  readonly path: string;
  /** Flag name without dashes, e.g. `position-threshold`. */
  readonly flag: string;
  /** e.g. `RECKON_EMITTER_POSITION_THRESHOLD`. */
  readonly env: string;
  readonly kind: LeafKind;
  readonly description: string;
  readonly example: unknown;
  /** The value when nothing sets it (absent for optional settings). */
  readonly defaultValue?: unknown;
  /** The default as help shows it, in the unit of the example: `3 deg`, `100 ms`, `5,6,7`. */
  readonly defaultText?: string;
}
