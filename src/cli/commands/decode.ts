/**
 * `reckon decode <capture> [--json] [--port N]`: every DIS PDU of a pcap/pcapng capture, as a per-entity summary
 * or as NDJSON. NDJSON lines, one per PDU in capture order:
 *   {"frame": n, "time": epochSeconds, "pdu": <EntityStatePdu>}                       an Entity State PDU
 *   {"frame": n, "time": epochSeconds, "pduType": t, "length": bytes}                any other PDU type (incl. 67)
 *   {"frame": n, "time": epochSeconds, "error": {"code", "message", "offset"}}       a rejected PDU or header
 * `offset` is where the PDU starts in the UDP payload.
 */
import { stringFlag, booleanFlag } from '../args.js';
import { EXIT_OK, UsageError, type Command, type CommandIo } from '../command.js';

export const command: Command = {
  name: 'decode',
  summary: 'Decode every DIS PDU in a pcap/pcapng capture: a per-entity summary, or NDJSON with --json.',
  usage: 'reckon decode <capture.pcap|capture.pcapng> [--json] [--port N] [--report FILE.html]',
  flags: {
    json: { type: 'boolean', description: 'One JSON object per PDU (NDJSON) instead of the summary.' },
    port: {
      type: 'string',
      value: 'N',
      description: 'Only UDP datagrams from or to this port, all decoded as DIS. Defaults to any port (DIS-looking datagrams).',
    },
    report: {
      type: 'string',
      value: 'FILE',
      description:
        'Also write a self-contained HTML report: entity tracks, PDUs per second by type, entities, rejected PDUs. ' +
        'Defaults to none; an existing file is replaced only once the report is complete.',
    },
  },
  positionals: { min: 1, max: 1 },
  examples: [
    'reckon decode exercise.pcap',
    'reckon decode exercise.pcap --report exercise.html',
    'reckon decode exercise.pcapng --port 3000 --json > pdus.ndjson',
    "reckon decode exercise.pcap --json | jq -c 'select(.pdu) | .pdu.location'",
  ],
  async run(args, io) {
    const path = args.positionals[0]!;
    const portText = stringFlag(args.flags, 'port');
    const port = portText === undefined ? undefined : Number(portText);
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) {
      throw new UsageError([{ path: '--port', message: `expected a UDP port 1–65535, got "${portText}"` }]);
    }
    const { readFile } = await import('node:fs/promises');
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw new UsageError([{ path: '<capture>', message: `cannot read "${path}": ${reason}; give the path of a .pcap or .pcapng file` }]);
    }
    const { readCapture, CaptureFormatError } = await import('../../pcap/reader.js');
    let capture;
    try {
      capture = readCapture(bytes);
    } catch (error) {
      if (error instanceof CaptureFormatError) throw new UsageError([{ path: '<capture>', message: `"${path}": ${error.message}` }]);
      throw error;
    }
    const options = port === undefined ? {} : { port };
    const report = stringFlag(args.flags, 'report');
    if (report !== undefined && report.trim() === '') {
      throw new UsageError([{ path: '--report', message: 'expected the path of the HTML file to write, e.g. --report capture.html' }]);
    }
    if (booleanFlag(args.flags, 'json')) await writeNdjson(capture, options, io);
    else await writeSummary(path, capture, options, io);
    if (report !== undefined) await writeReport(report, path, capture, options, io);
    return EXIT_OK;
  },
};

type Capture = import('../../pcap/reader.js').Capture;
type Options = import('../../pcap/dis-capture.js').DisCaptureOptions;

async function writeNdjson(capture: Capture, options: Options, io: CommandIo): Promise<void> {
  const { disCapturePdus, emptyTotals } = await import('../../pcap/dis-capture.js');
  const { entityStateRecordToPdu } = await import('../../pdu/entity-state-json.js');
  const { codecStatusMessage, codecStatusName } = await import('../../pdu/status.js');
  const totals = emptyTotals();
  let lines: string[] = [];
  for (const event of disCapturePdus(capture, totals, options)) {
    const head = { frame: event.frame, time: event.timeSeconds };
    let line: object;
    if (event.status !== 0) {
      line = { ...head, error: { code: codecStatusName(event.status), message: codecStatusMessage(event.status), offset: event.offset } };
    } else if (event.record && event.pduType === 1) {
      line = { ...head, pdu: entityStateRecordToPdu(event.record) };
    } else {
      line = { ...head, pduType: event.pduType, length: event.length };
    }
    lines.push(JSON.stringify(line));
    if (lines.length >= 1000) {
      io.stdout.write(lines.join('\n') + '\n');
      lines = [];
    }
  }
  if (lines.length > 0) io.stdout.write(lines.join('\n') + '\n');
  if (capture.truncated) io.stderr.write('reckon decode: the capture file ends in the middle of a frame; the frames before it were decoded\n');
}

/** Writes the HTML report next to its final name and renames it: a failed run leaves an older file intact. */
async function writeReport(file: string, capturePath: string, capture: Capture, options: Options, io: CommandIo): Promise<void> {
  const [{ captureReportHtml }, { writeFile, rename, rm }, nodePath] = await Promise.all([
    import('../../report/capture-report.js'),
    import('node:fs/promises'),
    import('node:path'),
  ]);
  const html = await captureReportHtml(nodePath.basename(capturePath), capture, options);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, html);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code ?? (error as Error).message;
    throw new UsageError([{ path: '--report', message: `cannot write "${file}": ${reason}; give a path in a writable folder` }]);
  }
  io.stderr.write(`wrote ${file}\n`);
}

async function writeSummary(path: string, capture: Capture, options: Options, io: CommandIo): Promise<void> {
  const { summarizeDisCapture } = await import('../../pcap/capture-summary.js');
  const { renderCaptureSummary } = await import('../../pcap/render-summary.js');
  io.stdout.write(renderCaptureSummary(path, capture, summarizeDisCapture(capture, options)));
}
