/**
 * `reckon decode <capture> [--json] [--port-filter N] [--report FILE]`: every DIS PDU of a pcap/pcapng capture, as a
 * summary (entities, engagements, radios, totals), as NDJSON, and as an HTML report: one story in three forms.
 * NDJSON lines, one per PDU in capture order:
 *   {"frame": n, "time": epochSeconds, "pdu": <EntityStatePdu>, "geodetic": {…}, "names": {…}}   an Entity State
 *                                             PDU, its position and attitude on WGS-84, and the SISO-REF-010 names of
 *                                             its numbers (type, country, force, appearance, parts)
 *   {"frame": n, "time": epochSeconds, "pdu": <FirePdu|DetonationPdu>, "geodetic": {…}, "names": {…}}  a shot:
 *                                             where it left or went off, the munition, warhead, fuse and result named,
 *                                             and the shooter's and target's markings as last seen
 *   {"frame": n, "time": epochSeconds, "pdu": <TransmitterPdu>, "geodetic": {…}|null, "names": {…}}  a radio: its
 *                                             antenna's position, its transmit state and input source named
 *   {"frame": n, "time": epochSeconds, "pdu": <DataPdu, SignalPdu, …>}               a PDU of any other type, in its
 *                                             JSON form (schemas/*-pdu.schema.json; an unknown type as OtherPdu); a
 *                                             float that is NaN or infinite on the wire as "NaN", "Infinity", …
 *   {"frame": n, "time": epochSeconds, "pduType": 67, "length": bytes}              an Entity State Update PDU
 *   {"frame": n, "time": epochSeconds, "error": {"code", "message", "offset"}}       a rejected PDU or header
 *   {"frame": n, "time": epochSeconds, "error": {…}, "pdu": <EntityStatePdu>}        a PDU that decodes but holds
 *                                             values no entity has (NaN, reserved ids, …): the PDU as on the wire,
 *                                             non-finite numbers written as "NaN", "Infinity", "-Infinity"
 * `offset` is where the PDU starts in the UDP payload. The codes are a subscriber's (docs/pdu-validation.md).
 */
import { stringFlag, booleanFlag } from '../args.js';
import { EXIT_OK, UsageError, type Command, type CommandIo } from '../command.js';
import { printable } from '../terminal/printable.js';

/** Files at least this large show progress while they are read. */
const PROGRESS_FROM_BYTES = 64 * 2 ** 20;
/** Rows per table of the summary printed after an interrupt. */
const ROWS_AFTER_INTERRUPT = 1000;

export const command: Command = {
  name: 'decode',
  summary:
    'Decode every DIS PDU in a pcap/pcapng capture: a summary of its entities, engagements and radios, NDJSON ' +
    'with --json, an HTML report with --report.',
  usage: 'reckon decode <capture.pcap|capture.pcapng> [--json] [--port-filter N] [--report FILE.html]',
  flags: {
    json: { type: 'boolean', description: 'One JSON object per PDU (NDJSON) instead of the summary.' },
    'port-filter': {
      type: 'string',
      value: 'N',
      description:
        'Only UDP datagrams from or to this port, all decoded as DIS. Defaults to any port (DIS-looking datagrams).',
    },
    // The name replay uses for the same thing is the main one; the old name still works.
    port: { type: 'string', value: 'N', description: 'Same as --port-filter.' },
    report: {
      type: 'string',
      value: 'FILE',
      description:
        'Also write a self-contained HTML report: entity tracks, PDUs per second by type, entities, engagements, ' +
        'radios, rejected PDUs. ' +
        'Defaults to none; an existing file is replaced only once the report is complete.',
    },
  },
  positionals: { min: 1, max: 1, missing: 'capture file' },
  examples: [
    'reckon decode exercise.pcap',
    'reckon decode exercise.pcap --report exercise.html',
    'reckon decode exercise.pcapng --port-filter 3000 --json > pdus.ndjson',
    "reckon decode exercise.pcap --json | jq -c 'select(.pdu) | .pdu.location'",
  ],
  async run(args, io) {
    const path = args.positionals[0]!;
    const portName = args.flags['port-filter'] !== undefined ? 'port-filter' : 'port';
    const portText = stringFlag(args.flags, portName);
    const port = portText === undefined ? undefined : Number(portText);
    if (port !== undefined && !(/^\d+$/.test(portText!.trim()) && port >= 1 && port <= 65535)) {
      const message = `expected a UDP port 1–65535, e.g. 3000; got "${portText}"`;
      throw new UsageError([{ path: `--${portName}`, message }]);
    }
    const report = stringFlag(args.flags, 'report');
    if (report !== undefined && report.trim() === '') {
      throw new UsageError([
        { path: '--report', message: 'expected the path of the HTML file to write, e.g. --report capture.html' },
      ]);
    }
    if (report !== undefined) await checkReportPath(report);
    const { refuseSameFiles } = await import('../same-files.js');
    await refuseSameFiles(
      io,
      [{ path, name: '<capture>' }],
      report === undefined ? [] : [{ path: report, name: '--report' }],
    );
    const options = port === undefined ? {} : { port };
    const [{ readCaptureFile }, { CaptureSummaryBuilder }, { formatBytes, formatCount }] = await Promise.all([
      import('../capture-file.js'),
      import('../../pcap/capture-summary.js'),
      import('../terminal/format.js'),
    ]);
    // One pass over the file for the output (and the summary a report needs), read in pieces: memory stays bounded
    // whatever the capture's size, and Ctrl-C stops it between pieces.
    const summary = new CaptureSummaryBuilder(options);
    const json = booleanFlag(args.flags, 'json') ? await ndjsonWriter(options, io) : undefined;
    // A long read of a large file says how far it got on stderr, from the first second on.
    const progress = { bytesRead: 0, sizeBytes: 0, frames: 0 };
    const showProgress = () =>
      progress.sizeBytes >= PROGRESS_FROM_BYTES &&
      io.stderr.write(
        `decode: ${Math.floor((100 * progress.bytesRead) / Math.max(1, progress.sizeBytes))} % of ` +
          `${formatBytes(progress.sizeBytes)} read, ${formatCount(progress.frames, 'frame')}\n`,
      );
    let ticker: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      showProgress();
      ticker = setInterval(showProgress, 5000);
    }, 1000);
    let info;
    try {
      info = await readCaptureFile(
        path,
        io.signal,
        async (frames) => {
          if (json) await json(frames);
          if (!json || report !== undefined) summary.add(frames);
        },
        progress,
      );
    } finally {
      clearTimeout(first);
      clearInterval(ticker);
    }
    if (!json) {
      // In pieces, each written before the next is made: memory stays bounded, and a Ctrl-C while the summary of
      // the whole file is printed is heard in between. One while reading leaves the summary of what was read, its
      // tables cut short so that the run still ends at once.
      const { captureSummaryChunks } = await import('../terminal/decode-summary.js');
      const rows = info.interrupted ? { maxRows: ROWS_AFTER_INTERRUPT } : {};
      for (const chunk of captureSummaryChunks(path, info, summary.summary(), rows)) {
        if (io.signal.aborted && !info.interrupted) return interruptedPrinting(info, io);
        if (chunk !== '' && !io.stdout.write(chunk)) await new Promise<void>((r) => io.stdout.once('drain', r));
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    writeCaptureDamage(info, io);
    if (info.interrupted) return interrupted(info, io);
    if (report !== undefined) {
      await writeReport(report, path, info, summary.summary(), options, io);
      if (io.signal.aborted) {
        const signal = String(io.signal.reason ?? 'SIGINT');
        io.stderr.write(`reckon decode: interrupted (${signal}) before the report was complete; nothing written\n`);
        return signal === 'SIGTERM' ? 143 : 130;
      }
    }
    return EXIT_OK;
  },
};

type CaptureFileInfo = import('../capture-file.js').CaptureFileInfo;
type CaptureFrame = import('../../pcap/reader.js').CaptureFrame;
type Options = import('../../pcap/dis-capture.js').DisCaptureOptions;

/** Says how far decoding got before a signal; exit 128 + the signal's number. */
function interrupted(info: CaptureFileInfo, io: CommandIo): number {
  const signal = String(io.signal.reason ?? 'SIGINT');
  io.stderr.write(`reckon decode: interrupted (${signal}) after ${info.frames} frames; what is above is theirs\n`);
  return signal === 'SIGTERM' ? 143 : 130;
}

/** Says the summary was cut short by a signal (the whole file was read); exit 128 + the signal's number. */
function interruptedPrinting(info: CaptureFileInfo, io: CommandIo): number {
  const signal = String(io.signal.reason ?? 'SIGINT');
  io.stderr.write(`reckon decode: interrupted (${signal}) while printing the summary of ${info.frames} frames\n`);
  return signal === 'SIGTERM' ? 143 : 130;
}

/**
 * A writer of NDJSON lines for the frames of each piece of the capture; waits for stdout to drain, so a slow
 * reader (a pipe into a script) holds the decoding back instead of its lines piling up in memory.
 */
async function ndjsonWriter(options: Options, io: CommandIo): Promise<(frames: CaptureFrame[]) => Promise<void>> {
  const { disCapturePdus, emptyTotals } = await import('../../pcap/dis-capture.js');
  const { DecodeJsonLines } = await import('../terminal/decode-json.js');
  const totals = emptyTotals();
  const json = new DecodeJsonLines();
  const flush = async (lines: string[]) => {
    if (lines.length === 0) return;
    if (!io.stdout.write(lines.join('\n') + '\n'))
      await new Promise<void>((resolve) => io.stdout.once('drain', resolve));
  };
  return async (frames) => {
    let lines: string[] = [];
    for (const event of disCapturePdus(frames, totals, options)) {
      lines.push(json.line(event));
      if (lines.length >= 1000) {
        await flush(lines);
        lines = [];
      }
    }
    await flush(lines);
  };
}

/** Says on stderr when the file ends mid-record or a record is corrupt (the frames before it were decoded). */
function writeCaptureDamage(info: CaptureFileInfo, io: CommandIo): void {
  if (info.corrupt) {
    io.stderr.write(`reckon decode: ${info.corrupt.message}; the ${info.frames} frames before it were decoded\n`);
  } else if (info.truncated) {
    io.stderr.write(
      'reckon decode: the capture file ends in the middle of a frame; the frames before it were decoded\n',
    );
  }
}

/**
 * Writes the HTML report from a second pass over the file (the first gave the summary); written next to its final
 * name and renamed, so a failed run leaves an older file intact. A signal stops the pass, the page between two of
 * its parts or the write before the rename: nothing is written then.
 */
async function writeReport(
  file: string,
  capturePath: string,
  info: CaptureFileInfo,
  summary: import('../../pcap/capture-summary.js').CaptureSummary,
  options: Options,
  io: CommandIo,
): Promise<void> {
  const [{ CaptureReportPass, captureReportPage }, { openOutputFile }, { readCaptureFile }, nodePath] =
    await Promise.all([
      import('../../report/capture-report.js'),
      import('../../files/output-file.js'),
      import('../capture-file.js'),
      import('node:path'),
    ]);
  const pass = new CaptureReportPass(summary, options);
  const second = await readCaptureFile(capturePath, io.signal, (frames) => pass.add(frames));
  if (second.interrupted) return;
  let html: string;
  try {
    html = await captureReportPage(nodePath.basename(capturePath), pass.data, info, io.signal);
  } catch (error) {
    if (io.signal.aborted) return;
    throw error;
  }
  const out = await openOutputFile(file);
  try {
    await out.handle.writeFile(html);
  } catch (error) {
    await out.discard();
    throw new Error(`cannot write "${printable(file)}": ${(error as Error).message}`);
  }
  if (io.signal.aborted) return out.discard();
  await out.commit();
  io.stderr.write(`wrote ${printable(file)}\n`);
}

/** A `--report` path that cannot be written is a usage problem found before the capture is decoded. */
async function checkReportPath(file: string): Promise<void> {
  const { checkOutputPath, OutputPathError } = await import('../../files/output-file.js');
  try {
    await checkOutputPath(file);
  } catch (error) {
    if (!(error instanceof OutputPathError)) throw error;
    throw new UsageError([{ path: '--report', message: error.message }]);
  }
}
