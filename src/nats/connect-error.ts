/** Reading the files a NATS connection needs, and explaining a failed connect without the credentials. */
import { InputFileError, readInputFile } from '../files/input-file.js';
import { redactUrl } from './url-credentials.js';

/** Largest NATS credentials or TLS (PEM) file read, bytes. */
const MAX_NATS_FILE_BYTES = 1 << 20;

/** A credentials or PEM file, read by the input-file rule; @throws Error naming the file, the problem and the setting. */
export async function readNatsFile(path: string, what: string, setting: string, flag: string): Promise<Buffer> {
  try {
    return await readInputFile(path, what, MAX_NATS_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new Error(`${error.message}; check ${setting} (${flag})`);
  }
}

/** The explanation of a failed connect, without the credentials. */
export function explainConnectError(error: unknown, servers: readonly string[], tls: boolean): Error {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? '';
  const where = servers.map(redactUrl).join(', ');
  const name = error instanceof Error ? error.name : '';
  let hint: string;
  if (/authoriz|authenticat/i.test(`${name} ${message} ${code}`)) {
    hint =
      'the server refused the credentials: check nats.token, nats.user/nats.password or nats.credsFile ' +
      '(--nats-token, --nats-user, --nats-password, --nats-creds or RECKON_NATS_*)';
  } else if (/ECONNREFUSED|connection refused/i.test(`${message} ${code}`)) {
    hint = 'nothing listens there: start nats-server, or check the URL given to --nats (nats.servers)';
  } else if (/ENOTFOUND|EAI_AGAIN/i.test(`${message} ${code}`)) {
    hint = 'no such host: check the URL given to --nats (nats.servers)';
  } else if (/unable to parse credentials/i.test(message)) {
    hint =
      'the credentials file is not a NATS creds file (a user JWT and its NKey seed, as `nsc generate creds` writes ' +
      'it): check nats.credsFile (--nats-creds)';
  } else if (/does not support 'tls'|tls.*not available/i.test(message)) {
    hint = 'the server does not speak TLS: leave out nats.tlsCa/tlsCert/tlsKey (--nats-tls-*), or enable TLS on it';
  } else if (/certificate|self.signed|verify|altnames|hostname/i.test(`${message} ${code}`)) {
    hint =
      "TLS failed: the server's certificate is not signed by a CA this client trusts, or is not for this host: " +
      'give the CA that signed it with nats.tlsCa (--nats-tls-ca), and connect by a name or address it is made for';
  } else if (/tls|ssl/i.test(`${message} ${code}`)) {
    hint =
      'TLS failed: check nats.tlsCa, nats.tlsCert and nats.tlsKey (--nats-tls-ca, --nats-tls-cert, --nats-tls-key)';
  } else if (tls && /timeout/i.test(`${name} ${message}`)) {
    // A server that asks for a client certificate (tls verify) drops a connection without one after the TLS
    // handshake, which the client sees only as no answer.
    hint =
      'no answer after the TLS handshake: a server that asks for a client certificate drops connections without ' +
      'one, so give nats.tlsCert and nats.tlsKey (--nats-tls-cert, --nats-tls-key); else check that it is running';
  } else if (/timeout/i.test(`${name} ${message}`)) {
    // A server over its connection limits sends an error and closes; the client tries again until its timeout.
    hint =
      'no answer: check --nats (nats.servers) and that the servers are running; a server over its connection ' +
      "limits (max_connections, or the account's) drops new connections the same way, and says so in its log";
  } else {
    hint = 'check --nats (nats.servers) and that the servers are running';
  }
  // The client's message may quote the URL as given: hide any user info in it.
  const clean = servers.reduce((text, url) => text.split(url).join(redactUrl(url)), message);
  return new Error(`connecting to NATS at ${where} failed: ${clean} — ${hint}`, { cause: error });
}
