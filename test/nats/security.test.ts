// NATS security against real servers (Debian's nats-server on free loopback ports): TLS with certificates made by
// openssl for the test (a CA, a server certificate for 127.0.0.1/localhost, a client certificate), user/password,
// and decentralised JWT authentication with a creds file (operator, account and user minted with @nats-io/jwt).
// Each is tried through the library and through the CLI: the right settings connect and carry entities; wrong ones
// give one clear line (exit 1 from the CLI, no stack trace), and no secret is ever printed. Runs that hold a secret
// and connect use the built `reckon` binary, whose whole output (a library's own console lines too) is checked; the
// others run in process (runCli, as the binary does).
// Skipped with an install line where nats-server or openssl is missing.
import { readFileSync } from 'node:fs';
import { filter, firstValueFrom, take } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsTransport } from '../../src/nats/transport.js';
import type { NatsTransportOptions } from '../../src/nats/transport-options.js';
import { credentialsFromUrls } from '../../src/nats/url-credentials.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import { reckon, within } from '../support/binary.js';
import { startCli } from '../support/cli.js';
import { startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import {
  makeCertificates,
  makeOperator,
  tempDir,
  type TempDir,
  type TestCertificates,
  type TestOperator,
} from '../support/nats-security.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { landPlatformRecord } from './records.js';

const natsServer = findSystemBinary('nats-server');
const openssl = findSystemBinary('openssl');
const describeSecurity = natsServer.path && openssl.path ? describe : describe.skip;

const USER = 'alice';
const PASSWORD = 'pw-7c1e55';
const WRONG_PASSWORD = 'wrong-pw-9d02';
/** Entity 1:1:`entity` in Munich, stamped at `tSeconds`. */
const record = (entity: number, tSeconds: number) => landPlatformRecord(entity, 48.137, 11.575, tSeconds);

/** The error `NatsTransport.open` rejects with. */
async function openError(options: NatsTransportOptions): Promise<Error> {
  const result = await NatsTransport.open(options).then(
    async (transport) => {
      await transport.close();
      return undefined;
    },
    (error: unknown) => error as Error,
  );
  if (!result) throw new Error('connected, but should not have');
  return result;
}

/**
 * A subscriber and a publisher with the same `nats` settings: resolves once an entity published by one appeared at
 * the other.
 */
async function roundTrip(nats: Record<string, unknown>): Promise<void> {
  const config = { nats, heartbeat: { heartbeatTable: 'ieee' as const } };
  const subscriber = createSubscriber(config);
  const appeared = firstValueFrom(
    subscriber.entityEvents$.pipe(
      filter((e) => e.type === 'appeared'),
      take(1),
    ),
  );
  await firstValueFrom(subscriber.listening$);
  const publisher = await createPublisher(config);
  try {
    publisher.send(record(7, 1));
    publisher.flush();
    expect((await appeared).marking).toBe('E7');
  } finally {
    await publisher.close();
  }
}

/** Where a CLI run happens: the built binary (a process of its own) or runCli in this process. */
type Where = 'binary' | 'in process';

function start(where: Where, args: string[], env: NodeJS.ProcessEnv) {
  if (where === 'in process') {
    const run = startCli(args, env);
    return { ...run, exited: within(run.exited, 15_000, `${args[0]} to exit`) };
  }
  const run = reckon(args, env);
  return {
    ...run,
    exited: within(run.exited, 15_000, `${args[0]} to exit`, run.child),
    interrupt: () => run.child.kill('SIGINT'),
  };
}

/** A CLI run that must fail at connecting: exit 1, the failure on one line matching `pattern`, no stack trace. */
async function expectCliFailure(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
  where: Where = 'binary',
): Promise<string> {
  const run = start(where, args, env);
  expect(await run.exited).toBe(1);
  const output = run.stdout() + run.stderr();
  const line = output.split('\n').find((l) => pattern.test(l));
  expect(line, output).toBeDefined();
  expect(output).not.toMatch(/\n\s+at /);
  return output;
}

/** A CLI subscriber that must connect: says so, then stops on Ctrl-C with exit 0. */
async function expectCliConnects(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  where: Where = 'binary',
): Promise<string> {
  const run = start(where, ['subscribe', ...args, '--json', '--duration', '20'], env);
  await run.waitFor(/connected to NATS 127\.0\.0\.1:\d+/);
  run.interrupt();
  expect(await run.exited).toBe(0);
  return run.stdout() + run.stderr();
}

describeSecurity('NATS connection limits', () => {
  let dir: TempDir;
  let server: RunningNatsServer;
  beforeAll(async () => {
    dir = tempDir('reckon-nats-limits-');
    server = await startNatsServer(natsServer.path!, { args: ['-c', dir.file('limits.conf', 'max_connections: 1\n')] });
  });
  afterAll(async () => {
    await server?.stop();
    dir?.remove();
  });

  it("a connection over the server's limit is said to be possibly refused for it, after the connect timeout", async () => {
    const first = await NatsTransport.open({ servers: [server.url] });
    try {
      // The library and the CLI wait out their connect timeouts side by side: both are over the limit.
      const [error] = await Promise.all([
        openError({ servers: [server.url], connectTimeoutMs: 1500 }),
        // The CLI's --nats-connect-timeout (nats.connectTimeout) gives up as soon, where the default waits 20 s.
        expectCliFailure(
          ['subscribe', '--nats', server.url, '--nats-connect-timeout', '1.5 s'],
          {},
          /connecting to NATS at .* failed: .*connection limits/,
          'in process',
        ),
      ]);
      expect(error.message).toMatch(/no answer: .*connection limits \(max_connections/);
      expect(error.message).not.toContain('\n');
      expect(server.log()).toMatch(/maximum connections exceeded/i);
    } finally {
      await first.close();
    }
  });
});

describeSecurity('NATS over TLS', () => {
  let dir: TempDir;
  let certs: TestCertificates;
  let tls: RunningNatsServer;
  let mutual: RunningNatsServer;
  beforeAll(async () => {
    dir = tempDir('reckon-nats-tls-');
    certs = makeCertificates(openssl.path!, dir);
    const server = `cert_file: "${certs.serverCert}"\n  key_file: "${certs.serverKey}"`;
    tls = await startNatsServer(natsServer.path!, { args: ['-c', dir.file('tls.conf', `tls {\n  ${server}\n}\n`)] });
    const verify = `tls {\n  ${server}\n  ca_file: "${certs.caCert}"\n  verify: true\n}\n`;
    mutual = await startNatsServer(natsServer.path!, { args: ['-c', dir.file('mutual.conf', verify)] });
  });
  afterAll(async () => {
    await tls?.stop();
    await mutual?.stop();
    dir?.remove();
  });

  it('with the CA configured, entities go from a publisher to a subscriber over TLS', async () => {
    const transport = await NatsTransport.open({ servers: [tls.url], tlsCa: certs.caCert });
    expect(transport.connection.info?.tls_required).toBe(true);
    await transport.close();
    await roundTrip({ servers: [tls.url], tlsCa: certs.caCert });
  });

  it('with a client certificate, a server that asks for one takes the connection', async () => {
    const transport = await NatsTransport.open({
      servers: [mutual.url],
      tlsCa: certs.caCert,
      tlsCert: certs.clientCert,
      tlsKey: certs.clientKey,
    });
    expect(transport.connection.info?.tls_verify).toBe(true);
    await transport.close();
  });

  it('without a client certificate, a server that asks for one is said to need it', async () => {
    // The server drops the connection after the handshake; the client sees no answer until its timeout.
    const error = await openError({ servers: [mutual.url], tlsCa: certs.caCert, connectTimeoutMs: 1000 });
    expect(error.message).toMatch(/give nats\.tlsCert and nats\.tlsKey \(--nats-tls-cert, --nats-tls-key\)/);
  });

  it('without the CA, or with another one, the failure is one line saying to give the CA', async () => {
    for (const options of [{}, { tlsCa: certs.otherCaCert }]) {
      const error = await openError({ servers: [tls.url], ...options });
      expect(error.message).toMatch(/certificate/);
      expect(error.message).toMatch(/give the CA that signed it with nats\.tlsCa \(--nats-tls-ca\)/);
      expect(error.message).not.toContain('\n');
    }
  });

  it('a CA file that does not exist is named as such, not as a connection failure', async () => {
    const error = await openError({ servers: [tls.url], tlsCa: `${dir.path}/missing.pem` });
    expect(error.message).toBe(
      `cannot read the NATS CA certificate file "${dir.path}/missing.pem": no such file; check nats.tlsCa (--nats-tls-ca)`,
    );
  });

  it('reckon subscribe: connects with --nats-tls-ca; without it exits 1 with one line, no stack trace', async () => {
    await expectCliConnects(['--nats', tls.url, '--nats-tls-ca', certs.caCert], {}, 'in process');
    await expectCliConnects(['--nats', tls.url], { RECKON_NATS_TLS_CA: certs.caCert }, 'in process');
    await expectCliFailure(['subscribe', '--nats', tls.url], {}, /failed: .*certificate.*--nats-tls-ca/, 'in process');
  }, 30_000);
});

describeSecurity('NATS user and password', () => {
  let server: RunningNatsServer;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!, { args: ['--user', USER, '--pass', PASSWORD] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the right ones carry entities; a wrong password is refused without being shown', async () => {
    await roundTrip({ servers: [server.url], user: USER, password: PASSWORD });
    const error = await openError({ servers: [server.url], user: USER, password: WRONG_PASSWORD });
    expect(error.message).toMatch(/refused the credentials: check .*nats\.user\/nats\.password/);
    expect(error.message).not.toContain(WRONG_PASSWORD);
    expect(error.message).not.toContain('\n');
  });

  it('reckon subscribe and publish: a wrong password exits 1 with one line; no password is printed', async () => {
    const ok = await expectCliConnects(['--nats', server.url, '--nats-user', USER], { RECKON_NATS_PASSWORD: PASSWORD });
    expect(ok).not.toContain(PASSWORD);
    for (const command of [['subscribe'], ['publish', '--entity', 'tank', '--duration', '1']]) {
      const output = await expectCliFailure(
        [...command, '--nats', server.url, '--nats-user', USER, '--nats-password', WRONG_PASSWORD],
        {},
        /refused the credentials/,
      );
      expect(output).not.toContain(WRONG_PASSWORD);
    }
    // In the URL: the password is hidden wherever the URL is shown.
    const inUrl = `nats://${USER}:${WRONG_PASSWORD}@127.0.0.1:${server.port}`;
    const output = await expectCliFailure(['subscribe', '--nats', inUrl], {}, /refused the credentials/);
    expect(output).not.toContain(WRONG_PASSWORD);
    expect(output).toContain(`nats://***@127.0.0.1:${server.port}`);
  }, 30_000);

  it('credentials in the URL are used (the client ignored them), and never printed', async () => {
    const inUrl = `nats://${USER}:${PASSWORD}@127.0.0.1:${server.port}`;
    await roundTrip({ servers: [inUrl] });
    const output = await expectCliConnects(['--nats', inUrl]);
    expect(output).not.toContain(PASSWORD);
    // Percent-encoded, as a URL must write an @ or : in a password.
    expect(credentialsFromUrls(['nats://a%40b:p%3Aw@h:4222', 'tls://tok@h2'])).toEqual({
      servers: ['nats://h:4222', 'tls://h2'],
      user: 'a@b',
      password: 'p:w',
    });
    expect(credentialsFromUrls(['tok-1@h:4222'])).toEqual({ servers: ['h:4222'], token: 'tok-1' });
  }, 30_000);

  it('--help and a usage error show no secret given by flag or environment', async () => {
    const env = { RECKON_NATS_PASSWORD: PASSWORD, RECKON_NATS_TOKEN: 'tok-env-5e1f' };
    // Neither connects: all they print goes through runCli's streams.
    const help = start('in process', ['subscribe', '--help'], env);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toMatch(/--nats-password/);
    const usage = start(
      'in process',
      ['subscribe', '--nats', server.url, '--nats-password', WRONG_PASSWORD, '--h3-resolution', '99'],
      env,
    );
    expect(await usage.exited).toBe(2);
    expect(usage.stderr()).toMatch(/nats\.h3Resolution/);
    for (const run of [help, usage]) {
      const output = run.stdout() + run.stderr();
      for (const secret of [PASSWORD, WRONG_PASSWORD, 'tok-env-5e1f']) expect(output).not.toContain(secret);
    }
  }, 20_000);
});

describeSecurity('NATS creds file (decentralised JWT authentication)', () => {
  let dir: TempDir;
  let operator: TestOperator;
  let server: RunningNatsServer;
  /** A creds file whose JWT is damaged: its seed must not be printed either. */
  let damaged: string;
  let seed: string;
  beforeAll(async () => {
    dir = tempDir('reckon-nats-jwt-');
    operator = await makeOperator(dir);
    server = await startNatsServer(natsServer.path!, {
      args: ['-c', dir.file('operator.conf', operator.serverConfig)],
    });
    const creds = readFileSync(operator.userCreds, 'utf8');
    seed = /\bSU[A-Z2-7]{56}\b/.exec(creds)![0];
    damaged = dir.file(
      'damaged.creds',
      creds.replace(/-----BEGIN NATS USER JWT-----\n[^\n]+/, '-----BEGIN NATS USER JWT-----\n'),
    );
  });
  afterAll(async () => {
    await server?.stop();
    dir?.remove();
  });

  it('a user of the trusted account carries entities; a user of an unknown account is refused', async () => {
    await roundTrip({ servers: [server.url], credsFile: operator.userCreds });
    const error = await openError({ servers: [server.url], credsFile: operator.strangerCreds });
    expect(error.message).toMatch(/refused the credentials: check .*nats\.credsFile/);
    const noCreds = await openError({ servers: [server.url] });
    expect(noCreds.message).toMatch(/refused the credentials/);
  });

  it('a damaged creds file is named as such, its seed not shown', async () => {
    const error = await openError({ servers: [server.url], credsFile: damaged });
    expect(error.message).toMatch(/is not a NATS creds file .*nats\.credsFile \(--nats-creds\)/);
    expect(error.message).not.toContain(seed);
  });

  it('reckon subscribe --nats-creds: connects with the user, exits 1 with one line for the stranger', async () => {
    const ok = await expectCliConnects(['--nats', server.url, '--nats-creds', operator.userCreds]);
    expect(ok).not.toContain(seed);
    await expectCliFailure(
      ['subscribe', '--nats', server.url],
      { RECKON_NATS_CREDS_FILE: operator.strangerCreds },
      /refused the credentials/,
      'in process',
    );
    const output = await expectCliFailure(
      ['subscribe', '--nats', server.url, '--nats-creds', damaged],
      {},
      /not a NATS creds file/,
    );
    expect(output).not.toContain(seed);
  }, 30_000);
});
