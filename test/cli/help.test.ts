// Help per command: each lists the settings it uses (the side of the network it is on), grouped under their
// sections, the common ones on one line each pointing to `reckon help settings`, which describes every one of them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_LEAVES } from '../../src/config/leaves.js';
import { SETTINGS_DOC_MARKERS, settingsMarkdown } from '../../src/cli/help-settings.js';
import { renderCommandHelp } from '../../src/cli/help.js';
import { allCommands, loadCommand } from '../../src/cli/run.js';
import { cli } from '../support/cli.js';

const COMMANDS = [
  'demo',
  'decode',
  'publish',
  'subscribe',
  'view',
  'bridge',
  'record',
  'replay',
  'experiment',
  'lockstep',
];

/** A flag's entry in a help text: its line and the wrapped lines of its description after it, as one line. */
function entry(help: string, flag: string): string | undefined {
  const lines = help.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^\\s+(-\\w, )?--${flag}( |$)`).test(l));
  if (at < 0) return undefined;
  const indent = /^\s*/.exec(lines[at]!)![0].length;
  const more: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const own = /^\s*/.exec(line)![0].length;
    if (line.trim() === '' || own <= indent || /^\s+(-\w, )?--/.test(line)) break;
    more.push(line.trim());
  }
  return [lines[at]!.trim(), ...more].join(' ').replace(/\s+/g, ' ');
}

/** The names of the flags a help lists, by the heading they are under ('Options', 'DIS', …; 'common' for the brief). */
function listed(help: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let heading = '';
  for (const line of help.split('\n')) {
    const head = /^(\S.*):$/.exec(line);
    if (head) heading = head[1]!;
    if (line.startsWith('Common settings')) heading = 'common';
    if (heading === 'Examples' || heading === '') continue;
    const flags =
      heading === 'common' ? line.match(/--[a-z0-9-]+/g) : /^ {2}(?:-\w, | {4})(--[a-z0-9-]+)/.exec(line)?.slice(1);
    if (flags) out.set(heading, [...(out.get(heading) ?? []), ...flags.map((f) => f.slice(2))]);
  }
  return out;
}

describe('command help', () => {
  it.each(COMMANDS)('%s --help fits 80 columns (examples aside) and lists each flag it takes once', async (name) => {
    const { code, stdout } = await cli(name, '--help');
    expect(code).toBe(0);
    const examples = stdout.indexOf('\nExamples:\n');
    const wide = stdout
      .slice(0, examples)
      .split('\n')
      .filter((l) => [...l].length > 80);
    expect(wide).toEqual([]);
    const command = (await loadCommand(name))!;
    const names = [...listed(stdout).values()].flat();
    expect(names.sort()).toEqual([...Object.keys(command.flags), 'help'].sort());
  });

  it('view takes only what a receiver reads: no protocol version, site, application, TTL or bundling', async () => {
    const { stdout } = await cli('view', '--help');
    for (const flag of ['protocol-version', 'site', 'application', 'ttl', 'mtu', 'broadcast', 'multicast-loopback'])
      expect(entry(stdout, flag), flag).toBeUndefined();
    // …nor what the page does not do itself (it dead-reckons and smooths, at the display's rate).
    for (const flag of ['render-rate', 'display', 'interpolation-delay', 'latency-compensation', 'teleport-distance'])
      expect(entry(stdout, flag), flag).toBeUndefined();
    expect(entry(stdout, 'exercise')).toMatch(/Exercise ID accepted; PDUs of other exercises are counted and dropped/);
    expect(entry(stdout, 'exercise')).not.toMatch(/sent/);
    expect(entry(stdout, 'position-threshold')).toMatch(/The senders' position threshold/);
    const r = await cli('view', '--site', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--site: unknown flag');
  });

  it('publish takes only what a sender reads, in its words', async () => {
    const { stdout } = await cli('publish', '--help');
    for (const flag of ['accept-protocol-versions', 'allow-sources', 'smoothing', 'reuse-address', 'area'])
      expect(entry(stdout, flag), flag).toBeUndefined();
    expect(entry(stdout, 'exercise')).toBe('--exercise N Exercise ID sent. Default: 1.');
    expect(entry(stdout, 'protocol-version')).toMatch(/Protocol version sent \(7 = IEEE 1278.1-2012/);
    // The flags of each source of truth under a heading of their own.
    const groups = listed(stdout);
    expect(groups.get('Simulated entities (--entity)')).toEqual(['entity', 'origin']);
    expect(groups.get('Load generator (--entities)')).toEqual(['entities', 'max-rate', 'seed']);
    expect(groups.get('Recorded tracks (--track)')).toContain('callsign-column');
  });

  it('groups settings by section: those that define the command in full, the common ones on a line each', async () => {
    const { stdout } = await cli('subscribe', '--help');
    const groups = listed(stdout);
    expect(groups.get('DIS')).toEqual(['exercise', 'accept-protocol-versions']);
    expect(groups.get('Receiver (dead reckoning and smoothing)')).toContain('display');
    expect(groups.get('NATS')).toEqual(['area']);
    expect(groups.get('common')).toEqual(
      expect.arrayContaining(['address', 'port', 'allow-sources', 'heartbeat-table', 'nats', 'nats-password']),
    );
    expect(stdout).toContain('Common settings (described by `reckon help settings` and in docs/cli.md):');
    expect(stdout).toMatch(/\n {2}Network +--address ADDRESS, --port N, --multicast GROUP,/);
    expect(stdout).toMatch(/\n {2}NATS +--nats URL, --nats-token TOKEN,/);
    // A number keeps its unit on its line.
    expect(stdout).not.toMatch(/\d\n\s+(ms|m|s|deg)\b/);
  });

  it('shows the defaults of the settings it describes, and the ones a command applies itself', async () => {
    for (const name of ['demo', 'publish', 'subscribe', 'view', 'record']) {
      const { stdout } = await cli(name, '--help');
      const groups = listed(stdout);
      for (const [heading, flags] of groups) {
        if (heading === 'common' || heading === 'Options') continue;
        for (const flag of flags) {
          const leaf = CONFIG_LEAVES.find((l) => l.flag === flag);
          if (leaf?.defaultValue === undefined) continue;
          const text = entry(stdout, flag)!;
          if (leaf.kind === 'boolean') expect(text).toMatch(leaf.defaultValue ? /On by default/ : /Off by default/);
          else expect(text, `${name} --${flag}`).toMatch(/ Default: [^ ].*\./);
        }
      }
    }
    const demo = (await cli('demo', '--help')).stdout;
    expect(entry(demo, 'orientation-threshold')).toMatch(/ Default: 3 deg\./);
    expect(entry(demo, 'interpolation-delay')).toMatch(/ Default: 100 ms\./);
    expect(entry(demo, 'latency-compensation')).toMatch(/ Default: timestamp\./);
    expect(demo).toMatch(/--port N \(default: a free port\)/); // the demo picks one unless told
  });

  it('wraps to the terminal width, 80 columns on a pipe', async () => {
    const command = (await loadCommand('subscribe'))!;
    const wide = renderCommandHelp(command, 120).split('\n');
    expect(Math.max(...wide.map((l) => [...l].length))).toBeGreaterThan(80);
    expect(wide.filter((l) => [...l].length > 120 && !l.startsWith('  reckon '))).toEqual([]);
  });
});

describe('reckon help settings', () => {
  it('describes every setting: flag, file key, environment variable, default, the commands that take it', async () => {
    const { code, stdout } = await cli('help', 'settings');
    expect(code).toBe(0);
    for (const leaf of CONFIG_LEAVES) {
      expect(stdout).toContain(`File: ${leaf.path}. Environment:`);
      expect(stdout.replace(/\s+/g, ' ')).toContain(`Environment: ${leaf.env}.`);
      if (leaf.kind !== 'object') expect(stdout).toMatch(new RegExp(`\\n {2}--${leaf.flag}( |\\n)`));
      if (leaf.defaultText !== undefined)
        expect(stdout.replace(/\s+/g, ' ')).toContain(`Default: ${leaf.defaultText}.`);
    }
    expect(stdout).toContain('Precedence: flags > RECKON_<SECTION>_<SETTING> environment > --config file >');
    const port = stdout.slice(stdout.indexOf('  --port N'));
    expect(port).toMatch(/Taken by: demo, publish, subscribe, view, bridge, record, replay\./); // not lockstep's --port
    expect([...stdout.split('\n')].filter((l) => [...l].length > 80)).toEqual([]);
  });

  it('shows one section or one setting, and names the closest one for a name it does not know', async () => {
    const nats = await cli('help', 'settings', 'nats');
    expect(nats.stdout).toContain('--nats-creds FILE');
    expect(nats.stdout).not.toContain('  --port');
    const port = await cli('help', 'settings', '--port');
    expect(port.stdout).toMatch(/--port N\n {6}UDP port\. DIS uses 3000\. Default: 3000\./);
    expect(port.stdout).not.toContain('  --address');
    const wrong = await cli('help', 'settings', 'prot');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('reckon help settings: no setting or section "prot" (did you mean port?)\n');
    const topic = await cli('help', 'subscirbe');
    expect(topic.code).toBe(2);
    expect(topic.stderr).toMatch(/^reckon help: no help on "subscirbe" \(did you mean subscribe\?\)/);
    expect((await cli('help', 'view')).stdout).toBe((await cli('view', '--help')).stdout);
  });

  it('is pointed to by the main help, and docs/cli.md holds the same table', async () => {
    expect((await cli('--help')).stdout).toContain('Run `reckon help settings` for what every setting does');
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const start = doc.indexOf(SETTINGS_DOC_MARKERS[0]);
    const end = doc.indexOf(SETTINGS_DOC_MARKERS[1]) + SETTINGS_DOC_MARKERS[1].length;
    // Out of date: npx tsx scripts/write-settings-doc.ts
    expect(doc.slice(start, end)).toBe(settingsMarkdown(await allCommands()));
  });
});
