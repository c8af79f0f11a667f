/**
 * The one rule for every file a command reads (a config, a spec, a capture, a track, a certificate): it must be a
 * regular file, it is opened without blocking (a FIFO with no writer or a device would otherwise hang the process
 * past Ctrl-C), and it is read only up to a bound, so a huge or endless input is refused with a message naming the
 * path and the bound instead of exhausting memory.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** An input that cannot be read; the message names the path and what to do. */
export class InputFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFileError';
  }
}

/** What a file is, in words, when it is not a regular file. */
function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** `1.5 MiB`, `512 KiB`, `300 B`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${+(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes >= 2 ** 20) return `${+(bytes / 2 ** 20).toFixed(1)} MiB`;
  if (bytes >= 2 ** 10) return `${+(bytes / 2 ** 10).toFixed(1)} KiB`;
  return `${bytes} B`;
}

function openError(path: string, what: string, error: unknown): InputFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENXIO'
          ? 'not a regular file'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (code ?? (error instanceof Error ? error.message : String(error)));
  return new InputFileError(`cannot read the ${what} "${path}": ${why}`);
}

function checkStats(path: string, what: string, stats: Stats, maxBytes: number): void {
  const kind = kindOf(stats);
  if (kind !== undefined) {
    throw new InputFileError(`the ${what} "${path}" is ${kind}, not a regular file; give the path of a file`);
  }
  if (stats.size > maxBytes) {
    throw new InputFileError(
      `the ${what} "${path}" holds ${stats.size} bytes, more than the ${formatBytes(maxBytes)} ` +
        `(${maxBytes} bytes) a ${what} may hold`,
    );
  }
}

function tooLong(path: string, what: string, maxBytes: number): InputFileError {
  return new InputFileError(`the ${what} "${path}" grew past the ${formatBytes(maxBytes)} a ${what} may hold`);
}

// O_NONBLOCK: opening a FIFO that has no writer returns at once (and is then refused) instead of waiting.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a small regular file whole, synchronously (a config file: loading it is synchronous).
 * @param what - names the file in messages, e.g. `config file`.
 * @throws InputFileError when it is missing, not a regular file or longer than `maxBytes`.
 */
export function readInputFileSync(path: string, what: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw openError(path, what, error);
  }
  try {
    checkStats(path, what, fstatSync(fd), maxBytes);
    // Read one byte past the bound: a file that grew since fstat is refused, not cut short.
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooLong(path, what, maxBytes);
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw openError(path, what, error);
  } finally {
    closeSync(fd);
  }
}

/** A regular file open for reading, and its size when opened. */
export interface InputFile {
  readonly handle: FileHandle;
  readonly size: number;
}

/**
 * Opens a regular file for reading in pieces (`handle.read`, or `handle.createReadStream`): the event loop is never
 * blocked, so Ctrl-C is always heard. The caller closes the handle.
 * @throws InputFileError when it is missing, not a regular file or longer than `maxBytes`.
 */
export async function openInputFile(
  path: string,
  what: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<InputFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    throw openError(path, what, error);
  }
  try {
    const stats = await handle.stat();
    checkStats(path, what, stats, maxBytes);
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close().catch(() => {});
    if (error instanceof InputFileError) throw error;
    throw openError(path, what, error);
  }
}

/** Bytes read at a time by `readInputFile` and by commands that stream a file. */
export const READ_CHUNK_BYTES = 1 << 20;

/**
 * Reads a regular file whole, in pieces (the event loop stays free between them), stopping when `signal` aborts.
 * @throws InputFileError when it is missing, not a regular file or longer than `maxBytes`; the signal's reason
 *   when aborted.
 */
export async function readInputFile(
  path: string,
  what: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const { handle, size } = await openInputFile(path, what, maxBytes);
  try {
    // One byte past the size: a file that grew since it was opened is read on, within the bound.
    let buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    for (;;) {
      signal?.throwIfAborted();
      if (length === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const room = Math.min(READ_CHUNK_BYTES, buffer.length - length);
      const { bytesRead } = await handle.read(buffer, length, room, null);
      if (bytesRead === 0) return buffer.subarray(0, length);
      length += bytesRead;
      if (length > maxBytes) throw tooLong(path, what, maxBytes);
    }
  } catch (error) {
    if (error instanceof InputFileError || signal?.aborted) throw error;
    throw openError(path, what, error);
  } finally {
    await handle.close().catch(() => {});
  }
}
