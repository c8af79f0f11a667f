// DNS rebinding: a page at http://rebind.attacker.example:PORT whose name resolves to 127.0.0.1 is same-origin with
// itself, so the origin check passed and it read the live feed. Every HTTP path and the feed's upgrade now answer
// only the Host names the server is reachable by (403 otherwise). Real Chromium with --host-resolver-rules, real
// sockets.
import { connect } from 'node:net';
import { hostname } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_REFUSED, allowHostProblem, hostNameOf, hostPolicy } from '../../src/view/host-check.js';
import { within } from '../support/binary.js';
import { cli } from '../support/cli.js';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { startGateway, type TestGateway } from './support.js';

/** The first bytes of the answer to a raw HTTP request (an upgrade or a GET) with the given headers. */
function rawRequest(port: number, lines: readonly string[]): Promise<string> {
  return within(
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (c) => {
        text += String(c);
        if (text.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    }),
    5000,
    lines[0]!,
  );
}

const upgrade = (host: string, origin: string) => [
  'GET /feed HTTP/1.1',
  `Host: ${host}`,
  `Origin: ${origin}`,
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
];

describe('the Host policy', () => {
  it('takes the name out of a Host header: port, brackets, case and a trailing dot removed', () => {
    expect(hostNameOf('LocalHost.:8080')).toBe('localhost');
    expect(hostNameOf('[::1]:8080')).toBe('::1');
    expect(hostNameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostNameOf('a b')).toBeUndefined();
    expect(hostNameOf(undefined)).toBeUndefined();
  });

  it('answers addresses, localhost, the --http name, --allow-host names; nothing else', () => {
    const local = hostPolicy();
    for (const host of ['127.0.0.1:8080', '[::1]:8080', '10.0.0.7', 'localhost:8080', 'app.localhost'])
      expect(local(host), host).toBe(true);
    for (const host of ['rebind.attacker.example:8080', 'localhost.attacker.example', '', undefined])
      expect(local(host), String(host)).toBe(false);
    const named = hostPolicy({ bindHost: 'map.lan', allowHosts: ['Map.Example.org.'] });
    expect(['map.lan:80', 'map.example.org:8080'].map(named)).toEqual([true, true]);
    expect(hostPolicy({ bindHost: '0.0.0.0' })(`${hostname()}:8080`)).toBe(true);
    expect(hostPolicy({ bindHost: '127.0.0.1' })(`${hostname()}:8080`)).toBe(hostname() === 'localhost');
    expect(allowHostProblem('map.example.org')).toBeUndefined();
    expect(allowHostProblem('http://map.example.org/')).toMatch(/expected a host name/);
  });
});

describe('reckon view behind a foreign Host', () => {
  let gw: TestGateway;
  let port: number;
  beforeAll(async () => {
    gw = await startGateway();
    port = Number(new URL(gw.url).port);
  });
  afterAll(async () => gw?.close());

  it('a raw upgrade with Host: evil.example:PORT and the matching Origin gets 403, not 101', async () => {
    const refusedBefore = gw.gateway.stats.upgradesRefused;
    const answer = await rawRequest(port, upgrade(`evil.example:${port}`, `http://evil.example:${port}`));
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(gw.gateway.stats.upgradesRefused).toBe(refusedBefore + 1);
    const allowed = await rawRequest(port, upgrade(`127.0.0.1:${port}`, `http://127.0.0.1:${port}`));
    expect(allowed).toMatch(/^HTTP\/1\.1 101 Switching Protocols/);
  });

  it.each(['/', '/healthz', '/index.html', '/nothing'])('GET %s with a foreign Host gets 403', async (path) => {
    const answer = await rawRequest(port, [`GET ${path} HTTP/1.1`, `Host: evil.example:${port}`, 'Connection: close']);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain('Content-Security-Policy');
    const none = await rawRequest(port, [`GET ${path} HTTP/1.0`, 'Connection: close']);
    expect(none).toMatch(/^HTTP\/1\.1 403 Forbidden/);
  });
});

describe('reckon view: --allow-host and the loopback block', () => {
  it('--http 127.0.0.2:0 is this host only: no "open to the network" warning', async () => {
    const run = await cli('view', '--http', '127.0.0.2:0', '--port', '0', '--duration', '0.2');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/map at http:\/\/127\.0\.0\.2:\d+\//);
    expect(run.stderr).not.toContain('open to the network');
  });

  it('a malformed --allow-host: exit 2 naming it', async () => {
    const run = await cli('view', '--allow-host', 'http://map.example.org/', '--port', '0', '--duration', '0.2');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-host: expected a host name such as map.example.org');
  });
});

const describeChromium = chromiumBinary.path ? describe : describe.skip;

describeChromium('DNS rebinding in Chromium (--host-resolver-rules)', () => {
  let browser: Browser;
  let gw: TestGateway;
  let port: number;
  beforeAll(async () => {
    browser = await launchChromium(undefined, [
      '--host-resolver-rules=MAP rebind.attacker.example 127.0.0.1, MAP map.example.test 127.0.0.1',
    ]);
    gw = await startGateway({ hostAllowed: hostPolicy({ allowHosts: ['map.example.test'] }) });
    port = Number(new URL(gw.url).port);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  /**
   * Opens a document at `http://NAME:PORT/` (NAME resolving to 127.0.0.1, where the server is) and has its script open
   * the feed at the same name and port, same-origin as far as the browser knows; returns what the script saw.
   */
  async function attackFrom(name: string): Promise<string> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://${name}:${port}/healthz`);
      return await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onmessage = (event) => resolve(`read: ${String(event.data).slice(0, 40)}`);
            ws.onerror = () => resolve('refused');
            setTimeout(() => resolve('no answer'), 10_000);
          }),
        `ws://${name}:${port}/feed`,
      );
    } finally {
      await context.close();
    }
  }

  it('a page at rebind.attacker.example cannot read the feed (the upgrade gets 403)', async () => {
    const refusedBefore = gw.gateway.stats.upgradesRefused;
    expect(await attackFrom('rebind.attacker.example')).toBe('refused');
    expect(gw.gateway.stats.upgradesRefused).toBe(refusedBefore + 1);
    expect(gw.gateway.stats.clients).toBe(0);
  }, 30_000);

  it('nor load anything from the server by that name', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`http://rebind.attacker.example:${port}/healthz`);
    expect(response?.status()).toBe(403);
    expect(await page.textContent('body')).toContain(HOST_REFUSED);
    await context.close();
  }, 30_000);

  it('a name given with --allow-host reads it', async () => {
    expect(await attackFrom('map.example.test')).toMatch(/^read: \{"type":"hello"/);
  }, 30_000);
});
