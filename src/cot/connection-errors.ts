/**
 * What went wrong with a CoT connection, in one line a user can act on: socket and TLS errors arrive as codes and
 * OpenSSL strings (`80CC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:…\n`), and a server
 * that accepts a connection but never answers the TLS handshake raises no error at all (see `CONNECT_TIMEOUT_MS`).
 */

/** How long a connection (TCP, and the TLS handshake) may take before it counts as failed, ms. */
export const CONNECT_TIMEOUT_MS = 10_000;

const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** One printable line for a connection error of a `tcp://` or `tls://` target. */
export function describeConnectionError(
  error: NodeJS.ErrnoException,
  tls: boolean,
  timeoutMs = CONNECT_TIMEOUT_MS,
): string {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused: nothing listens there (check the host and the port)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host (check the host name)';
  if (code === 'ETIMEDOUT' || code === 'CONNECT_TIMEOUT') {
    return tls
      ? `no answer within ${timeoutMs / 1000} s: the server did not complete the TLS handshake ` +
          '(is it a TLS port? use tcp:// for a plain one)'
      : `no answer within ${timeoutMs / 1000} s (check the host and the port)`;
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long/i.test(error.message)) {
    return 'the server does not speak TLS there: use tcp:// for a plain TCP port, or the TLS port of the server';
  }
  if (CERTIFICATE_CODES.has(code)) {
    return (
      `the server's certificate is not trusted (${code}): give the CA that signed it (--cot-ca), or check the ` +
      'host name it was issued for'
    );
  }
  if (/alert.*(certificate required|handshake failure|bad certificate)/i.test(error.message)) {
    return 'the server refused the TLS handshake: it may want a client certificate (--cot-cert, --cot-key)';
  }
  // Anything else: the message on one line, printable, without OpenSSL's file and line.
  const text = error.message
    .replace(/:\.\.\/deps\/openssl\/\S*/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[^ -~]/g, '?')
    .trim();
  return code && !text.includes(code) ? `${text} (${code})` : text;
}
