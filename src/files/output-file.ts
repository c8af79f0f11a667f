/**
 * The one rule for every file a command writes (`record --out`, `experiment`'s results.csv, results.json and
 * report.html): the bytes go to a temporary file beside the target, which is renamed over the target only when it
 * is complete. An existing file is therefore never truncated or destroyed by a command that fails to start, fails
 * midway or is killed: it is replaced in one step by a finished file, or left as it was. Paths are checked before
 * any work starts, so a bad `--out` is reported at once and not after a long run.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** An output path that cannot be written; the message names the path and what is wrong with it. */
export class OutputPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputPathError';
  }
}

/** A file being written: bytes go to `temporaryPath` until `commit` renames it to `path`. */
export interface OutputFile {
  readonly path: string;
  readonly temporaryPath: string;
  /** Open for writing, at position 0. A stream made from it may close it; `commit` and `discard` allow that. */
  readonly handle: FileHandle;
  /** Closes the temporary file (when still open) and renames it over `path`. */
  commit(): Promise<void>;
  /** Closes and deletes the temporary file; `path` stays as it was. Never throws. */
  discard(): Promise<void>;
}

/**
 * Starts writing `path`: checks that it can be written (its folder exists and is writable, the path is not a
 * folder) and creates an empty temporary file beside it. Nothing at `path` changes until `commit`.
 * @throws OutputPathError naming the path and the problem.
 */
export async function openOutputFile(path: string): Promise<OutputFile> {
  await checkOutputPath(path);
  const target = resolve(path);
  const folder = dirname(target);
  const temporaryPath = join(folder, `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    handle = await open(temporaryPath, 'wx');
  } catch (error) {
    throw new OutputPathError(`cannot write "${path}": ${reason(error)}`);
  }
  let settled = false;
  return {
    path: target,
    temporaryPath,
    handle,
    async commit() {
      if (settled) return;
      settled = true;
      try {
        await handle.close();
        await rename(temporaryPath, target);
      } catch (error) {
        await rm(temporaryPath, { force: true }).catch(() => {});
        throw new Error(`cannot write "${path}": ${reason(error)}`);
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      await handle.close().catch(() => {});
      await rm(temporaryPath, { force: true }).catch(() => {});
    },
  };
}

/**
 * Checks, before any work, that `path` can be written later: it is not a folder, and its folder exists and is
 * writable. Nothing is created.
 * @throws OutputPathError naming the path and the problem.
 */
export async function checkOutputPath(path: string): Promise<void> {
  const target = resolve(path);
  const kind = await stat(target).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => 'none',
  );
  if (kind === 'folder') {
    throw new OutputPathError(`"${path}" is a folder; give a file name, e.g. ${join(path, 'out.pcap')}`);
  }
  await checkWritableFolder(dirname(target), path);
}

/**
 * Writes a whole file by the rule above: `path` holds either its old content or all of `data`.
 * @throws OutputPathError when the path cannot be written.
 */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  const file = await openOutputFile(path);
  try {
    await file.handle.writeFile(data);
  } catch (error) {
    await file.discard();
    throw new Error(`cannot write "${path}": ${reason(error)}`);
  }
  await file.commit();
}

/**
 * Makes sure `path` is a writable folder, creating it (and its parents) when missing.
 * @throws OutputPathError when it is a file, or cannot be created or written.
 */
export async function prepareOutputFolder(path: string): Promise<void> {
  const kind = await stat(path).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => 'none',
  );
  if (kind === 'file') {
    throw new OutputPathError(
      `"${path}" is a file, not a folder; give a folder for the results (it is created if missing)`,
    );
  }
  if (kind === 'none') {
    try {
      await mkdir(path, { recursive: true });
    } catch (error) {
      throw new OutputPathError(`cannot create the folder "${path}": ${reason(error)}`);
    }
  }
  await checkWritableFolder(path, path);
}

async function checkWritableFolder(folder: string, given: string): Promise<void> {
  try {
    const s = await stat(folder);
    if (!s.isDirectory()) throw new OutputPathError(`cannot write "${given}": "${folder}" is not a folder`);
    await access(folder, constants.W_OK);
  } catch (error) {
    if (error instanceof OutputPathError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `the folder "${folder}" does not exist`
        : code === 'EACCES'
          ? `no permission to write in "${folder}"`
          : reason(error);
    throw new OutputPathError(`cannot write "${given}": ${why}`);
  }
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENOSPC') return 'no space left on the device';
  return e.code ?? (error instanceof Error ? error.message : String(error));
}
