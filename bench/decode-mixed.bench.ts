/**
 * `reckon decode` per PDU on a capture of mixed PDU types against an Entity State-only capture, in the same run:
 * the recorded GAZ-69 exercise (test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap: 97 Entity State PDUs beside
 * 108 Attribute, 30 Environmental Process, 26 Data and 17 Transmitter PDUs, every one now decoded) and a capture of
 * its 97 Entity State PDUs alone. Both ways the command runs: the summary and `--json`. CPU time of the whole
 * command in process (file read, capture parse, decode, output to a sink), median of the runs, divided by the PDUs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../src/cli/run.js';
import { udpFromFrame } from '../src/pcap/packet.js';
import { readCapture } from '../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../src/pcap/writer.js';
import { forEachPdu } from '../src/pdu/wire/header.js';
import { cpuSeconds, round, type BenchResult, type BenchSuite } from './harness.js';

const MIXED = new URL('../test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap', import.meta.url);

/** The Entity State PDUs of a capture, one per datagram, as a pcap file; and the count of each. */
function entityStateOnly(bytes: Uint8Array): { file: Uint8Array; mixedPdus: number; entityStatePdus: number } {
  const records: Uint8Array[] = [pcapFileHeader()];
  let mixedPdus = 0;
  for (const frame of readCapture(bytes).frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp') continue;
    forEachPdu(udp.payload, (payload, offset, length, type) => {
      mixedPdus++;
      if (type === 1) records.push(pcapUdpRecord(payload.slice(offset, offset + length), frame.timeSeconds));
    });
  }
  return { file: Buffer.concat(records), mixedPdus, entityStatePdus: records.length - 1 };
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** CPU seconds of one `reckon decode` run, median over `runs` after two warm-up runs. */
async function decodeSeconds(args: string[], runs: number): Promise<number> {
  const io = { stdout: sink(), stderr: sink(), signal: new AbortController().signal };
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = cpuSeconds();
    const code = await runCli(['decode', ...args], io);
    if (code !== 0) throw new Error(`decode ${args.join(' ')} exited ${code}`);
    if (i >= 2) times.push(cpuSeconds() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const suite: BenchSuite = async ({ quick }) => {
  const runs = quick ? 5 : 31;
  const mixedBytes = readFileSync(MIXED);
  const { file, mixedPdus, entityStatePdus } = entityStateOnly(mixedBytes);
  const dir = mkdtempSync(join(tmpdir(), 'reckon-bench-'));
  const esOnly = join(dir, 'entity-state-only.pcap');
  writeFileSync(esOnly, file);
  const results: BenchResult[] = [];
  try {
    for (const [mode, extra] of [
      ['summary', []],
      ['json', ['--json']],
    ] as const) {
      // Alternating, so that a change of load touches both alike.
      let mixed = Number.POSITIVE_INFINITY,
        only = Number.POSITIVE_INFINITY;
      for (let pass = 0; pass < 3; pass++) {
        mixed = Math.min(mixed, await decodeSeconds([MIXED.pathname, ...extra], runs));
        only = Math.min(only, await decodeSeconds([esOnly, ...extra], runs));
      }
      const mixedUs = (mixed / mixedPdus) * 1e6;
      const onlyUs = (only / entityStatePdus) * 1e6;
      results.push({
        name: `cli.decode.${mode}.mixed-types`,
        usPerPdu: round(mixedUs),
        pdus: mixedPdus,
        entityStateOnlyUsPerPdu: round(onlyUs),
        entityStateOnlyPdus: entityStatePdus,
        ratio: round(mixedUs / onlyUs),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
};

export default suite;
