/**
 * The one rule for every file a command writes (`record --out`, `decode --report`, `replay --export`,
 * `experiment`'s results.csv, results.json and report.html): the bytes go to a temporary file beside the target,
 * which is renamed over the target only when it is complete. An existing file is therefore never truncated or
 * destroyed by a command that fails to start, fails midway or is killed: it is replaced in one step by a finished
 * file, or left as it was. Paths are checked before any work starts, so a bad `--out` is reported at once and not
 * after a long run.
 *
 * Only a regular file (or none) is replaced so. A symbolic link is followed: its target is replaced and the link
 * stays. A FIFO or a character device (`/dev/null`, a terminal, `/dev/stdout`) is written directly, never renamed
 * over; a block device, a socket or a link to nothing is refused.
 */
import { randomBytes } from 'node:crypto';
import { constants, rmSync, type Stats } from 'node:fs';
import { access, lstat, mkdir, open, readlink, rename, rm, stat, type FileHandle } from 'node:fs/promises';
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
  /** Where the bytes go: a temporary file beside `path`, or `path` itself when `direct`. */
  readonly temporaryPath: string;
  /** Written straight to `path` (a FIFO or a character device): `commit` and `discard` only close it. */
  readonly direct: boolean;
  /** Open for writing, at position 0. A stream made from it may close it; `commit` and `discard` allow that. */
  readonly handle: FileHandle;
  /** Closes the temporary file (when still open) and renames it over `path`. */
  commit(): Promise<void>;
  /** Closes and deletes the temporary file; `path` stays as it was. Never throws. */
  discard(): Promise<void>;
}

/** Temporary files of outputs neither committed nor discarded yet. */
const unfinished = new Set<string>();

/**
 * Removes, at once, the temporary files of every output still being written, leaving their targets as they were:
 * for a process that must stop now (a second Ctrl-C). Never throws.
 * @returns how many there were.
 */
export function removeUnfinishedOutputsSync(): number {
  const count = unfinished.size;
  for (const path of unfinished) {
    try {
      rmSync(path, { force: true });
    } catch {
      // left behind: nothing more can be done on the way out
    }
  }
  unfinished.clear();
  return count;
}

const NAMES_A_SOCKET = 'it names a socket, which cannot be opened by name; give a file, a pipe or a terminal';

/** What an output path names, links followed: a regular file or nothing (replaced), or a stream (written to). */
type OutputTarget =
  | { readonly kind: 'replace'; readonly path: string }
  | { readonly kind: 'direct'; readonly path: string; readonly what: string };

/** The kind of a non-regular file, in words; undefined for a regular file or a folder. */
function specialKind(s: Stats): string | undefined {
  if (s.isFIFO()) return 'FIFO';
  if (s.isCharacterDevice()) return 'character device';
  if (s.isBlockDevice()) return 'block device';
  if (s.isSocket()) return 'socket';
  return undefined;
}

/**
 * Follows `path` through symbolic links to what it names. A descriptor link of procfs (`/dev/stdout` →
 * `/proc/self/fd/1`) is written directly, whatever it points at: it is this process's own output.
 * @throws OutputPathError for a folder, a block device, a socket, or a link to nothing.
 */
async function outputTarget(path: string): Promise<OutputTarget> {
  let current = resolve(path);
  for (let hop = 0; hop < 40; hop++) {
    if (/^\/proc\/[^/]+\/fd\//.test(current)) {
      const socket = await stat(current).then(
        (s) => s.isSocket(),
        () => false,
      );
      if (socket) throw new OutputPathError(`cannot write "${path}": ${NAMES_A_SOCKET}`);
      return { kind: 'direct', path: current, what: 'descriptor' };
    }
    let s: Stats;
    try {
      s = await lstat(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file where a folder should be, which checkWritableFolder names.
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new OutputPathError(`cannot write "${path}": ${reason(error)}`);
      if (hop === 0) return { kind: 'replace', path: current };
      throw new OutputPathError(`"${path}" is a symbolic link to "${current}", which does not exist; give a file path`);
    }
    if (s.isSymbolicLink()) {
      current = resolve(dirname(current), await readlink(current));
      continue;
    }
    if (s.isDirectory()) {
      throw new OutputPathError(`"${path}" is a folder; give a file name, e.g. ${join(path, 'out.pcap')}`);
    }
    const kind = specialKind(s);
    if (kind === undefined) return { kind: 'replace', path: current };
    if (kind === 'FIFO' || kind === 'character device') return { kind: 'direct', path: current, what: kind };
    throw new OutputPathError(
      `"${path}" is a ${kind}; reckon writes regular files, FIFOs and character devices such as /dev/null only`,
    );
  }
  throw new OutputPathError(`"${path}" is a loop of symbolic links`);
}

/**
 * Starts writing `path`: checks that it can be written (its folder exists and is writable, the path is not a
 * folder) and creates an empty temporary file beside it (beside a link's target, for a symbolic link). Nothing at
 * `path` changes until `commit`. A FIFO or a character device is opened and written directly; a FIFO must have a
 * reader already.
 * @throws OutputPathError naming the path and the problem.
 */
export async function openOutputFile(path: string): Promise<OutputFile> {
  const target = await checkOutputPath(path);
  if (target.kind === 'direct') return openDirect(path, target);
  const folder = dirname(target.path);
  const temporaryPath = join(folder, `.${basename(target.path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    handle = await open(temporaryPath, 'wx');
  } catch (error) {
    throw new OutputPathError(`cannot write "${path}": ${reason(error)}`);
  }
  let settled = false;
  unfinished.add(temporaryPath);
  return {
    path: target.path,
    temporaryPath,
    direct: false,
    handle,
    async commit() {
      if (settled) return;
      settled = true;
      unfinished.delete(temporaryPath);
      try {
        await handle.close();
        await rename(temporaryPath, target.path);
      } catch (error) {
        await rm(temporaryPath, { force: true }).catch(() => {});
        throw new Error(`cannot write "${path}": ${reason(error)}`);
      }
    },
    async discard() {
      if (settled) return;
      settled = true;
      unfinished.delete(temporaryPath);
      await handle.close().catch(() => {});
      await rm(temporaryPath, { force: true }).catch(() => {});
    },
  };
}

/** Opens a FIFO or a character device for writing, neither creating nor truncating anything. */
async function openDirect(path: string, target: OutputTarget & { kind: 'direct' }): Promise<OutputFile> {
  if (target.what === 'FIFO') {
    // Opening a FIFO for writing waits for a reader: look for one without waiting, so a missing one is said at once.
    try {
      await (await open(target.path, constants.O_WRONLY | constants.O_NONBLOCK)).close();
    } catch (error) {
      const none = (error as NodeJS.ErrnoException).code === 'ENXIO';
      const why = none ? 'no program reads this FIFO; start its reader first' : reason(error);
      throw new OutputPathError(`cannot write "${path}": ${why}`);
    }
  }
  let handle: FileHandle;
  try {
    handle = await open(target.path, constants.O_WRONLY);
  } catch (error) {
    const socket = (error as NodeJS.ErrnoException).code === 'ENXIO' && target.what === 'descriptor';
    const why = socket ? NAMES_A_SOCKET : reason(error);
    throw new OutputPathError(`cannot write "${path}": ${why}`);
  }
  let settled = false;
  const close = async () => {
    if (settled) return;
    settled = true;
    await handle.close().catch(() => {});
  };
  return { path: target.path, temporaryPath: target.path, direct: true, handle, commit: close, discard: close };
}

/**
 * Checks, before any work, that `path` can be written later: it is not a folder, a block device, a socket or a
 * link to nothing, and (for a regular file or none) its folder exists and is writable. Nothing is created.
 * @returns what will be written: the file to replace (a link's target), or the FIFO or device to write to.
 * @throws OutputPathError naming the path and the problem.
 */
export async function checkOutputPath(path: string): Promise<OutputTarget> {
  const target = await outputTarget(path);
  if (target.kind === 'replace') await checkWritableFolder(dirname(target.path), path);
  return target;
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
