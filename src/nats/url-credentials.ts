/**
 * Credentials written in a server URL (`nats://alice:secret@host:4222`, `nats://token@host`): the client ignores
 * them (the server saw `User ""`), so they are taken out of the URL here and given as the connection's user and
 * password, or token. The URLs handed on keep no credentials, so nothing that shows a URL can show them.
 */

export interface UrlCredentials {
  /** The URLs without their credentials. */
  readonly servers: string[];
  readonly user?: string;
  readonly password?: string;
  readonly token?: string;
}

/** Splits credentials off `servers`; the first URL that has them gives them. */
export function credentialsFromUrls(servers: readonly string[]): UrlCredentials {
  let found: { user?: string; password?: string; token?: string } | undefined;
  const stripped = servers.map((url) => {
    const match = /^((?:[a-z]+:\/\/)?)([^@/]*)@(.*)$/i.exec(url);
    if (!match) return url;
    const [, scheme, userinfo, rest] = match as unknown as [string, string, string, string];
    if (found === undefined) {
      const colon = userinfo.indexOf(':');
      found =
        colon < 0
          ? { token: decode(userinfo) }
          : { user: decode(userinfo.slice(0, colon)), password: decode(userinfo.slice(colon + 1)) };
    }
    return `${scheme}${rest}`;
  });
  return { servers: stripped, ...found };
}

/** Percent-decoding of a URL's user or password (`p%40ss` → `p@ss`); the text as it is when malformed. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Hides the user name, password or token in a server URL (`nats://u:p@host` → `nats://***@host`). */
export function redactUrl(url: string): string {
  return url.replace(/^((?:[a-z]+:\/\/)?)[^@/]*@/i, '$1***@');
}
