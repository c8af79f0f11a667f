/**
 * The shape every `reckon` sub-command has. A command module's top level must stay light (no mathjs,
 * no experiment or plotting code): `reckon --help` and `reckon <cmd> --help` load it, and start-up time is
 * part of the product. Import heavy modules inside `run`.
 */

/** One command-line flag. Flags follow the config's names (`--position-threshold` ↔ `positionThreshold`). */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly description: string;
  /** Placeholder shown in help, e.g. `FILE` or `HOST:PORT`. */
  readonly value?: string;
  /** May be given more than once; the value is then a `string[]`. */
  readonly multiple?: boolean;
  readonly short?: string;
  /**
   * The heading help lists the flag under (`DIS`, `NATS`, …). Defaults to none: the command's own options, listed
   * first.
   */
  readonly group?: string;
  /**
   * Listed by name only, on its group's line among the common settings that `reckon help settings` describes.
   * Defaults to false: described in full.
   */
  readonly brief?: boolean;
  /** A default the command applies itself (`a free port`), shown also where the flag is listed by name only. */
  readonly commandDefault?: string;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly flags: FlagValues;
}

/** Where a command writes. Tests pass their own; `main` passes the process streams. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Aborted on SIGINT/SIGTERM: long-running commands stop cleanly and print their summary. */
  readonly signal: AbortSignal;
  /** What a command reads from standard input (`publish --truth -`); absent where there is none to read. */
  readonly stdin?: NodeJS.ReadableStream;
}

/** Exit codes: 0 success, 1 runtime failure, 2 bad usage or config. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** e.g. `reckon decode <capture.pcap> [--json]` */
  readonly usage: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /**
   * Inclusive bounds on positional arguments; `missing` names a required one for the error when none is given
   * (`missing capture file: reckon decode <capture.pcap>`).
   */
  readonly positionals?: { readonly min: number; readonly max: number; readonly missing?: string };
  readonly examples: readonly string[];
  run(args: ParsedArgs, io: CommandIo): Promise<number>;
}

/** A usage problem found while parsing or validating arguments; all of them are reported together. */
export interface UsageProblem {
  /** `--flag`, `<positional>` or a config path such as `emitter.positionThreshold`. */
  readonly path: string;
  readonly message: string;
  /** How many problems this one stands for, when it counts others ("and 21 more"); 1 when absent. */
  readonly count?: number;
}

/** Thrown by a command's `run` to report usage or config problems: main prints each and exits 2. */
export class UsageError extends Error {
  readonly problems: readonly UsageProblem[];
  constructor(problems: readonly UsageProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
    this.name = 'UsageError';
    this.problems = problems;
  }
}
