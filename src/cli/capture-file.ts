/**
 * Reads a capture file for a command in pieces (`CaptureParser`), handing each piece's frames on as they come: any
 * size is decoded in bounded memory, the event loop is free between pieces so Ctrl-C is heard, and only a regular
 * file is read (a FIFO with no writer, a device, a folder: refused at once with exit 2).
 */
import { InputFileError, READ_CHUNK_BYTES, openInputFile } from '../files/input-file.js';
import { CaptureFormatError, CaptureParser, type Capture, type CaptureFrame } from '../pcap/reader.js';
import { UsageError } from './command.js';

/** What a read of the whole file found (`Capture` without its frames). */
export interface CaptureFileInfo extends Pick<Capture, 'format' | 'truncated' | 'corrupt'> {
  /** Frames read. */
  readonly frames: number;
  /** Stopped by `signal` before the end of the file. */
  readonly interrupted: boolean;
}

/** How far a read has got, updated as it goes (for a progress line). */
export interface CaptureReadProgress {
  bytesRead: number;
  sizeBytes: number;
  frames: number;
}

/**
 * Reads `path` to its end (or until `signal` aborts), calling `onFrames` with the frames of each piece in order; the
 * frames' data stay valid after the call.
 * @throws UsageError when the file cannot be read or is not a capture.
 */
export async function readCaptureFile(
  path: string,
  signal: AbortSignal,
  onFrames: (frames: CaptureFrame[]) => void | Promise<void>,
  progress?: CaptureReadProgress,
): Promise<CaptureFileInfo> {
  const hint = 'give the path of a .pcap or .pcapng file';
  let file;
  try {
    file = await openInputFile(path, 'capture');
  } catch (error) {
    if (error instanceof InputFileError)
      throw new UsageError([{ path: '<capture>', message: `${error.message}; ${hint}` }]);
    throw error;
  }
  const parser = new CaptureParser();
  if (progress) progress.sizeBytes = file.size;
  let interrupted = false;
  try {
    for (;;) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      // A new buffer per piece: the frames handed on are views into it.
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const { bytesRead } = await file.handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const frames = parser.push(chunk.subarray(0, bytesRead));
      if (progress) {
        progress.bytesRead += bytesRead;
        progress.frames = parser.frameCount;
      }
      if (frames.length > 0) await onFrames(frames);
    }
    if (!interrupted) parser.finish();
  } catch (error) {
    if (error instanceof CaptureFormatError)
      throw new UsageError([{ path: '<capture>', message: `"${path}": ${error.message}` }]);
    throw error;
  } finally {
    await file.handle.close().catch(() => {});
  }
  return {
    format: parser.format ?? 'pcap',
    truncated: parser.truncated,
    ...(parser.corrupt ? { corrupt: parser.corrupt } : {}),
    frames: parser.frameCount,
    interrupted,
  };
}
