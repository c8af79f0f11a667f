/** Which pages may open the gateway's WebSocket feed, by the `Origin` of their upgrade request. */

/** Whether an upgrade's `Origin` may use the feed: absent, the page's own (same host:port), or allowed. */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowOrigins: readonly string[] = [],
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (allowOrigins.some((allowed) => sameOrigin(allowed, parsed.origin))) return true;
  if (host === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return false;
  try {
    return new URL(`${parsed.protocol}//${host}`).host === parsed.host;
  } catch {
    return false;
  }
}

function sameOrigin(allowed: string, origin: string): boolean {
  try {
    return new URL(allowed).origin === origin;
  } catch {
    return false;
  }
}
