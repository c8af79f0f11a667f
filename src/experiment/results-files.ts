/**
 * `results.csv` and `results.json`, written as the runs finish: each run's line goes out as soon as the runs before
 * it are done (one that finishes early waits in memory for them), so the files keep the run order and the writing
 * is linear in the runs, with neither file held whole in memory. Both are written beside their targets and renamed
 * over them when the sweep ends (`files/output-file.ts`), also when it is stopped: the finished runs are then kept,
 * marked partial, and an earlier result is replaced only by a whole new one.
 */
import { once } from 'node:events';
import { createReadStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { openOutputFile, type OutputFile } from '../files/output-file.js';
import { csvLines } from './results-table.js';
import type { RunResult } from './runner.js';

/** Results of a sweep that was stopped: they hold only the runs that finished. */
export interface PartialResults {
  /** Runs the sweep had planned. */
  readonly runsPlanned: number;
  /** Why it stopped, e.g. "interrupted by SIGINT". */
  readonly reason: string;
}

/** One line that says results are partial, e.g. "partial: 3 of 10 runs finished (interrupted by SIGINT)". */
export function partialNote(results: { readonly length: number }, partial: PartialResults): string {
  return `partial: ${results.length} of ${partial.runsPlanned} runs finished (${partial.reason})`;
}

/** `text`, every line after the first indented by `pad` (JSON nested in pretty-printed JSON). */
const indented = (text: string, pad: string) => text.replace(/\n/g, `\n${pad}`);

/**
 * The content of `results.json` in pieces: `{ name, spec, runs: [...], partial? }` pretty-printed as
 * `JSON.stringify(…, null, 2)` writes it, one run at a time. A stopped sweep's file ends with `partial`
 * ({ runsPlanned, runsFinished, reason }).
 */
export function resultsJsonPieces(
  name: string,
  spec: unknown,
): {
  readonly head: string;
  run(result: RunResult, first: boolean): string;
  tail(runs: number, partial?: PartialResults): string;
} {
  const opening = JSON.stringify({ name, spec }, null, 2);
  return {
    head: `${opening.slice(0, -2)},\n  "runs": [`,
    run({ index, settings, trajectory, truth, metrics, notes }, first) {
      const entry = { index, settings, trajectory, ...(notes ? { notes } : {}), truth, metrics };
      return `${first ? '' : ','}\n    ${indented(JSON.stringify(entry, null, 2), '    ')}`;
    },
    tail(runs, partial) {
      const marker = partial && {
        runsPlanned: partial.runsPlanned,
        runsFinished: runs,
        reason: partial.reason,
      };
      const end = marker ? `,\n  "partial": ${indented(JSON.stringify(marker, null, 2), '  ')}` : '';
      return `${runs === 0 ? ']' : '\n  ]'}${end}\n}\n`;
    },
  };
}

/** The content of `results.json`: the spec as given, and each run's settings and metrics (no traces). */
export function resultsJson(
  name: string,
  spec: unknown,
  results: readonly RunResult[],
  partial?: PartialResults,
): string {
  const pieces = resultsJsonPieces(name, spec);
  let text = pieces.head;
  results.forEach((r, i) => (text += pieces.run(r, i === 0)));
  return text + pieces.tail(results.length, partial);
}

/** A file being written a piece at a time; a write error is kept and thrown when it is finished. */
class Sink {
  private readonly stream: WriteStream;
  private failure: Error | undefined;
  constructor(readonly file: OutputFile) {
    this.stream = file.handle.createWriteStream(); // closes the handle when it ends
    this.stream.on('error', (error: Error) => (this.failure ??= error));
  }
  write(text: string): void {
    if (this.failure === undefined) this.stream.write(text);
  }
  /** Resolves once what was written so far has gone to the file, when much is waiting. */
  async drained(): Promise<void> {
    if (this.stream.writableNeedDrain && this.failure === undefined) await once(this.stream, 'drain').catch(() => {});
  }
  async close(): Promise<void> {
    if (this.failure === undefined) {
      this.stream.end();
      await once(this.stream, 'close').catch(() => {});
    }
    if (this.failure) throw new Error(`cannot write "${this.file.path}": ${this.failure.message}`);
  }
}

/** `results.csv` and `results.json` of one sweep, filled as its runs finish (see the module comment). */
export class ResultsFiles {
  private readonly waiting = new Map<number, RunResult>();
  private next = 0;
  private written = 0;
  private settled = false;

  private constructor(
    readonly csvPath: string,
    readonly jsonPath: string,
    private readonly csv: Sink,
    private readonly json: Sink,
    private readonly csvRow: (result: RunResult) => string,
    private readonly jsonPieces: ReturnType<typeof resultsJsonPieces>,
  ) {}

  /**
   * Starts both files in `outDirectory` (which exists): their header and opening are written at once.
   * @param swept - the sweep's setting paths in order (`Object.keys(plan.spec.sweep)`), the CSV's first columns.
   * @throws OutputPathError when a file cannot be written.
   */
  static async open(outDirectory: string, name: string, spec: unknown, swept: readonly string[]) {
    const csvFile = await openOutputFile(join(outDirectory, 'results.csv'));
    let jsonFile: OutputFile;
    try {
      jsonFile = await openOutputFile(join(outDirectory, 'results.json'));
    } catch (error) {
      await csvFile.discard();
      throw error;
    }
    const lines = csvLines(swept);
    const pieces = resultsJsonPieces(name, spec);
    const files = new ResultsFiles(
      join(outDirectory, 'results.csv'),
      join(outDirectory, 'results.json'),
      new Sink(csvFile),
      new Sink(jsonFile),
      lines.row,
      pieces,
    );
    files.csv.write(lines.header);
    files.json.write(pieces.head);
    return files;
  }

  /** Runs written so far. */
  get runsWritten(): number {
    return this.written;
  }

  /** Takes a finished run (in any order): written now if every run before it is, else when they are. */
  add(result: RunResult): void {
    if (this.settled) return;
    if (result.index !== this.next) {
      this.waiting.set(result.index, result);
      return;
    }
    this.write(result);
    this.next++;
    for (let r = this.waiting.get(this.next); r !== undefined; r = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.write(r);
      this.next++;
    }
  }

  /** Resolves when the files have taken what was written, so a fast sweep does not pile lines up in memory. */
  async drained(): Promise<void> {
    await Promise.all([this.csv.drained(), this.json.drained()]);
  }

  private write(result: RunResult): void {
    this.csv.write(this.csvRow(result));
    this.json.write(this.jsonPieces.run(result, this.written === 0));
    this.written++;
  }

  /**
   * Writes the runs still waiting (those after a run that never finished, in run order), ends both files and
   * renames them over their targets. A partial CSV starts with a `#` comment line (read with e.g. pandas'
   * comment="#"): it is copied after that line, once.
   * @returns the paths written.
   */
  async finish(partial?: PartialResults): Promise<string[]> {
    if (this.settled) return [];
    for (const index of [...this.waiting.keys()].sort((a, b) => a - b)) this.write(this.waiting.get(index)!);
    this.waiting.clear();
    this.settled = true;
    try {
      this.json.write(this.jsonPieces.tail(this.written, partial));
      const note = partial && `# ${partialNote({ length: this.written }, partial)}\n`;
      // A FIFO or a device is written as it goes: its note can only come last.
      if (note && this.csv.file.direct) this.csv.write(note);
      await Promise.all([this.csv.close(), this.json.close()]);
      if (note && !this.csv.file.direct) await this.prependNote(note);
      else await this.csv.file.commit();
      await this.json.file.commit();
    } catch (error) {
      await this.discardFiles();
      throw error;
    }
    return [this.csvPath, this.jsonPath];
  }

  /** Leaves both targets as they were and removes what was written. */
  async discard(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await Promise.all([this.csv.close().catch(() => {}), this.json.close().catch(() => {})]);
    await this.discardFiles();
  }

  private async discardFiles(): Promise<void> {
    await Promise.all([this.csv.file.discard(), this.json.file.discard()]);
  }

  private async prependNote(note: string): Promise<void> {
    const withNote = await openOutputFile(this.csvPath);
    try {
      const sink = new Sink(withNote);
      sink.write(note);
      for await (const chunk of createReadStream(this.csv.file.temporaryPath, { encoding: 'utf8' })) {
        sink.write(chunk as string);
        await sink.drained();
      }
      await sink.close();
    } catch (error) {
      await withNote.discard();
      throw error;
    }
    await this.csv.file.discard();
    await withNote.commit();
  }
}
