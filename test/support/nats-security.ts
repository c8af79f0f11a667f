// What the NATS and CoT TLS tests need, made at test time in a temporary directory: TLS certificates (a CA, a server
// certificate for 127.0.0.1 and localhost, a client certificate) with Debian's `openssl`, and an operator, an
// account and a user of NATS's decentralised JWT authentication with their server configuration and creds files,
// minted with @nats-io/jwt and @nats-io/nkeys. Nothing here is ever used outside the tests.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAccount, encodeOperator, encodeUser, fmtCreds } from '@nats-io/jwt';
import { createAccount, createOperator, createUser } from '@nats-io/nkeys';

/** A temporary directory removed by `remove()`. */
export interface TempDir {
  readonly path: string;
  file(name: string, text: string | Uint8Array): string;
  remove(): void;
}

export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file(name, text) {
      const at = join(path, name);
      writeFileSync(at, text);
      return at;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

export interface TestCertificates {
  /** PEM files. */
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
  /** A second CA that signed nothing here: trusting it alone must fail. */
  readonly otherCaCert: string;
}

/**
 * A CA and, signed by it, a server certificate for 127.0.0.1 and localhost and a client certificate; P-256 keys
 * (quick to make), valid for a day.
 * @param openssl - the program's path (from `findSystemBinary('openssl')`).
 */
export function makeCertificates(openssl: string, dir: TempDir): TestCertificates {
  const at = (name: string) => join(dir.path, name);
  const run = (...args: string[]) => execFileSync(openssl, args, { cwd: dir.path, stdio: ['ignore', 'pipe', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ca = (name: string) =>
    run(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.pem`),
      '-days',
      '1',
      '-subj',
      `/CN=reckon test ${name}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  ca('ca');
  ca('other-ca');
  const leaf = (name: string, cn: string, extensions: string) => {
    run('req', ...ec, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', `/CN=${cn}`);
    dir.file(`${name}.ext`, extensions);
    run(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at(`${name}.pem`),
      '-days',
      '1',
      '-extfile',
      at(`${name}.ext`),
    );
  };
  leaf(
    'server',
    'localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  leaf('client', 'reckon test client', 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n');
  return {
    caCert: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    otherCaCert: at('other-ca.pem'),
  };
}

export interface TestOperator {
  /** nats-server configuration lines for operator mode with the account preloaded (memory resolver). */
  readonly serverConfig: string;
  /** A creds file of a user of the account: accepted. */
  readonly userCreds: string;
  /** A creds file of a user signed by an account the server does not know: refused. */
  readonly strangerCreds: string;
}

/** An operator, an account signed by it, a user signed by the account; and a stranger of another account. */
export async function makeOperator(dir: TempDir): Promise<TestOperator> {
  const operator = createOperator();
  const account = createAccount();
  const operatorJwt = await encodeOperator('reckon-test', operator);
  // Unlimited (-1): left out, a limit is 0 and the server refuses the first connection and subscription.
  const limits = { conn: -1, leaf: -1, subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true };
  const accountJwt = await encodeAccount('DIS', account, { limits }, { signer: operator });
  const user = createUser();
  const userJwt = await encodeUser('reckon', user, account);
  const otherAccount = createAccount();
  const stranger = createUser();
  const strangerJwt = await encodeUser('stranger', stranger, otherAccount);
  const operatorFile = dir.file('operator.jwt', operatorJwt);
  return {
    serverConfig:
      `operator: "${operatorFile}"\n` +
      'resolver: MEMORY\n' +
      `resolver_preload: {\n  ${account.getPublicKey()}: "${accountJwt}"\n}\n`,
    userCreds: dir.file('user.creds', fmtCreds(userJwt, user)),
    strangerCreds: dir.file('stranger.creds', fmtCreds(strangerJwt, stranger)),
  };
}
