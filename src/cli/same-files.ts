/**
 * The command-line face of `files/same-file.ts`: each command that writes (a file, or standard output redirected to
 * one) hands its inputs and outputs here before any work, and an output that is one of its inputs is a usage
 * problem (exit 2) naming both. The inputs every command shares (the config file, the NATS credentials and
 * certificates) are added by `configInputs`.
 */
import type { Config } from '../config/schema.js';
import { sameFiles, type NamedDescriptor, type NamedFile } from '../files/same-file.js';
import { UsageError, type CommandIo, type FlagValues, type UsageProblem } from './command.js';

/** The files a command reads because of its configuration: the config file and the NATS files it names. */
export function configInputs(
  flags: FlagValues,
  config: Config | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): NamedFile[] {
  const inputs: NamedFile[] = [];
  if (typeof flags.config === 'string') inputs.push({ path: flags.config, name: '--config' });
  else if (env.RECKON_CONFIG) inputs.push({ path: env.RECKON_CONFIG, name: 'RECKON_CONFIG' });
  const nats = config?.nats;
  for (const key of ['credsFile', 'tlsCa', 'tlsCert', 'tlsKey'] as const) {
    const path = nats?.[key];
    if (path !== undefined) inputs.push({ path, name: `nats.${key}` });
  }
  return inputs;
}

/** Standard output as an output to check, when it is a descriptor of this process (not a test's stream). */
function standardOutput(io: CommandIo): NamedDescriptor | undefined {
  const fd = (io.stdout as { fd?: unknown }).fd;
  return typeof fd === 'number' ? { fd, name: 'standard output' } : undefined;
}

/**
 * The problems of outputs that are inputs: each output (and standard output) that is the same file as an input.
 * @param outputs - the files the command will write; standard output is added.
 */
export async function sameFileProblems(
  io: CommandIo,
  inputs: readonly NamedFile[],
  outputs: readonly NamedFile[],
): Promise<UsageProblem[]> {
  const stdout = standardOutput(io);
  const found = await sameFiles(inputs, stdout ? [...outputs, stdout] : outputs);
  return found.map(({ output, input }) => {
    const what = `${input.name} "${input.path}", which this command reads: writing it would destroy it`;
    return 'fd' in output
      ? { path: output.name, message: `goes into ${what}; send the output to another file` }
      : { path: output.name, message: `"${output.path}" is the same file as ${what}; give another file` };
  });
}

/**
 * Refuses, before any work, outputs that are inputs (see `sameFileProblems`).
 * @throws UsageError naming each output and the input it would destroy.
 */
export async function refuseSameFiles(
  io: CommandIo,
  inputs: readonly NamedFile[],
  outputs: readonly NamedFile[],
): Promise<void> {
  const problems = await sameFileProblems(io, inputs, outputs);
  if (problems.length > 0) throw new UsageError(problems);
}
