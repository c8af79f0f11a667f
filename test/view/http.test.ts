/**
 * The page's HTTP server: static files from a page folder with the security headers, /healthz, a clear answer when
 * the page is not built, nothing outside the folder; the `HOST:PORT` parser; and the `reckon view` binary end to
 * end (URL printed, /healthz, the feed carrying what arrives on its UDP port, exit 0 on Ctrl-C).
 */
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as createConnectionTo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reckon, within } from '../support/binary.js';
import { contentSecurityPolicy, parseHttpAddress } from '../../src/view/http.js';
import { FeedClient, entityPdu, startGateway } from './support.js';

function get(url: string, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return within(
    new Promise((resolve, reject) => {
      const req = request(url, { method }, (res) => {
        let body = '';
        res.on('data', (c) => (body += String(c)));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    }),
    5000,
    `${method} ${url}`,
  );
}

/** A raw request line, for paths `http.request` would normalise. */
function rawGet(port: number, path: string): Promise<string> {
  return within(
    new Promise((resolve, reject) => {
      const socket = createConnectionTo(port);
      let text = '';
      socket.on('data', (c) => (text += String(c)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    }),
    5000,
    `GET ${path}`,
  );
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('page server', () => {
  it('serves the page folder with the security headers, /healthz, and nothing outside the folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'reckon-view-'));
    dirs.push(root);
    const pageDir = join(root, 'page');
    mkdirSync(join(pageDir, 'assets'), { recursive: true });
    writeFileSync(join(pageDir, 'index.html'), '<!doctype html><title>map</title>');
    writeFileSync(join(pageDir, 'app.js'), 'console.log(1)');
    writeFileSync(join(pageDir, 'assets', 'icon.svg'), '<svg/>');
    writeFileSync(join(pageDir, '.secret'), 'no');
    writeFileSync(join(root, 'outside.txt'), 'no');
    const g = await startGateway({ pageDir, tiles: 'https://tiles.example.org/{z}/{x}/{y}.png' });
    try {
      const index = await get(g.url);
      expect(index.status).toBe(200);
      expect(index.body).toBe('<!doctype html><title>map</title>');
      expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(index.headers['x-content-type-options']).toBe('nosniff');
      expect(index.headers['content-security-policy']).toBe(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob: https://tiles.example.org; " +
          "style-src 'self' 'unsafe-inline'; " +
          "worker-src 'self' blob:; connect-src 'self' ws: wss: https://tiles.example.org",
      );
      expect((await get(`${g.url}app.js`)).headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect((await get(`${g.url}assets/icon.svg`)).body).toBe('<svg/>');
      expect(await get(`${g.url}healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
      expect((await get(`${g.url}healthz`, 'HEAD')).body).toBe('');
      expect((await get(`${g.url}nothing.js`)).status).toBe(404);
      expect((await get(`${g.url}.secret`)).status).toBe(404);
      expect((await get(g.url, 'POST')).status).toBe(405);
      const port = Number(new URL(g.url).port);
      for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt', '/%00']) {
        const response = await rawGet(port, path);
        expect(response, path).toMatch(/^HTTP\/1\.1 (400|404)/);
        expect(response, path).not.toContain('no\n');
      }
    } finally {
      await g.close();
    }
  });

  it('answers a connection that sent nothing in time 408, which browsers retry, and garbage 400', async () => {
    // Browsers open connections ahead of need: the page's later requests (the names after the first frame) go
    // out on one of them, and a 400 there is an error the browser shows, where a 408 makes it ask again.
    const g = await startGateway({ headersTimeoutMs: 200 });
    try {
      const port = Number(new URL(g.url).port);
      const answer = (text: string) =>
        within(
          new Promise<string>((resolve, reject) => {
            const socket = createConnectionTo(port);
            let got = '';
            socket.on('data', (c) => (got += String(c)));
            socket.on('close', () => resolve(got));
            socket.on('error', reject);
            if (text !== '') socket.write(text);
          }),
          5000,
          `the answer to ${JSON.stringify(text)}`,
        );
      expect(await answer('')).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\nConnection: close\r\n/);
      expect(await answer('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')).toMatch(/^HTTP\/1\.1 408 /);
      expect(await answer('NOT HTTP\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    } finally {
      await g.close();
    }
  });

  it('answers "page not built" when the folder has no page', async () => {
    const g = await startGateway({ pageDir: join(tmpdir(), 'reckon-view-no-such-folder') });
    try {
      expect(await get(g.url)).toMatchObject({ status: 404, body: 'page not built: run npm run build\n' });
      expect((await get(`${g.url}healthz`)).status).toBe(200);
    } finally {
      await g.close();
    }
  });

  it('parses HOST:PORT', () => {
    expect(parseHttpAddress('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseHttpAddress('0.0.0.0:0')).toEqual({ host: '0.0.0.0', port: 0 });
    expect(parseHttpAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(parseHttpAddress('localhost:80')).toEqual({ host: 'localhost', port: 80 });
    expect(parseHttpAddress('9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    for (const bad of ['', 'host', ':80', 'host:', 'host:x', 'host:70000', '::1:80'])
      expect(typeof parseHttpAddress(bad), bad).toBe('string');
  });

  it('leaves the tile origin out of the policy when there are no tiles', () => {
    expect(contentSecurityPolicy()).not.toContain('https:');
    expect(contentSecurityPolicy('not a url')).toBe(contentSecurityPolicy());
  });
});

describe('reckon view', () => {
  it('prints the URL, serves /healthz and the feed of what arrives on its UDP port, and ends with 0 on Ctrl-C', async () => {
    const run = reckon(['view', '--http', '127.0.0.1:0', '--port', '0', '--address', '127.0.0.1']);
    try {
      const [, url] = await run.waitFor(/map at (http:\/\/127\.0\.0\.1:\d+\/)/);
      const [, udpPort] = await run.waitFor(/receiving DIS on 127\.0\.0\.1 port (\d+)/);
      expect(await get(`${url}healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
      const feed = await FeedClient.connect(`${url!.replace('http:', 'ws:')}feed`);
      await feed.next('hello');
      const sender = createSocket('udp4');
      const pdu = entityPdu({ entity: 42 });
      // Before it, PDUs of other types (a Data and two Attribute PDUs) and one cut short: only that one is rejected.
      const other = (type: number) => Buffer.from([7, 1, type, 5, 0, 0, 0, 0, 0, 16, 0, 0, 0, 1, 0, 2]);
      for (const datagram of [other(20), Buffer.concat([other(72), other(72)]), pdu.subarray(0, 100)]) {
        sender.send(datagram, Number(udpPort), '127.0.0.1');
      }
      sender.send(pdu, Number(udpPort), '127.0.0.1');
      await feed.waitFor(() => feed.records.length > 0, 'the PDU on the feed');
      sender.close();
      expect([...feed.records[0]!.pdu]).toEqual([...pdu]);
      feed.close();
      run.child.kill('SIGINT');
      expect(await within(run.exited, 10_000, 'exit')).toBe(0);
      expect(run.stderr()).toMatch(/view: stopped \(interrupted\)[\s\S]*1 Entity State PDUs forwarded/);
      expect(run.stderr()).toMatch(
        /forwarded, 3 PDUs of other types \(Attribute 2, Data 1\), rejected 1 \(truncated 1\)/,
      );
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('says what is wrong with the HTTP address and exits 2, and 1 when the port is taken', async () => {
    const bad = reckon(['view', '--http', 'localhost', '--port', '0']);
    expect(await within(bad.exited, 10_000, 'exit')).toBe(2);
    expect(bad.stderr()).toMatch(/--http: expected HOST:PORT/);
    const g = await startGateway();
    try {
      const taken = reckon(['view', '--http', `127.0.0.1:${new URL(g.url).port}`, '--port', '0']);
      expect(await within(taken.exited, 10_000, 'exit')).toBe(1);
      expect(taken.stderr()).toMatch(
        /serving the page on 127\.0\.0\.1 port \d+ failed: .*EADDRINUSE.* pick another with --http/,
      );
      expect(taken.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await g.close();
    }
  });
});
