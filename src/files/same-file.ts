/**
 * The rule that no command writes over a file it reads: an output that is the same file as one of the command's
 * inputs (`decode x.pcap --report x.pcap`, a symbolic link to the input, a hard link to it, standard output
 * redirected into it) is refused before any work, since replacing it would destroy the input and appending to it
 * would feed the command its own output. Two names are the same file when they lead, links followed, to the same
 * device and inode.
 */
import { fstat } from 'node:fs';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';

/** A file a command reads or writes, and how the user named it: `<capture>`, `--report`, `nats.credsFile`. */
export interface NamedFile {
  readonly path: string;
  /** The argument, flag or setting that gave the path. */
  readonly name: string;
}

/** An output that is an input. */
export interface SameFile {
  readonly output: NamedFile | NamedDescriptor;
  readonly input: NamedFile;
}

/** An output already open, such as standard output (descriptor 1), named for messages. */
export interface NamedDescriptor {
  readonly fd: number;
  readonly name: string;
}

const fstatDescriptor = promisify(fstat);

// bigint: an inode number may pass 2^53.
type Identity = { readonly dev: bigint; readonly ino: bigint };

/** Device and inode of a regular file, links followed; undefined for anything else or nothing. */
async function identity(of: NamedFile | NamedDescriptor): Promise<Identity | undefined> {
  try {
    const s = 'fd' in of ? await fstatDescriptor(of.fd, { bigint: true }) : await stat(of.path, { bigint: true });
    return s.isFile() ? { dev: s.dev, ino: s.ino } : undefined;
  } catch {
    return undefined; // a file that does not exist yet, or cannot be seen, is no input's twin
  }
}

/**
 * Every output that is the same file as an input. Only regular files are compared: an input that is not one is
 * refused when it is read, and a terminal, pipe or device written to destroys no input.
 */
export async function sameFiles(
  inputs: readonly NamedFile[],
  outputs: ReadonlyArray<NamedFile | NamedDescriptor>,
): Promise<SameFile[]> {
  const [read, written] = await Promise.all([Promise.all(inputs.map(identity)), Promise.all(outputs.map(identity))]);
  const found: SameFile[] = [];
  outputs.forEach((output, o) => {
    const w = written[o];
    if (w === undefined) return;
    const i = read.findIndex((r) => r !== undefined && r.dev === w.dev && r.ino === w.ino);
    if (i >= 0) found.push({ output, input: inputs[i]! });
  });
  return found;
}
