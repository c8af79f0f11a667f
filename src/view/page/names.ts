/**
 * The SISO-REF-010 names on the page: a chunk of their own (about 300 kB gzipped), fetched once the first frame has
 * drawn entities, so the map shows them as soon as it can and names them a moment later.
 */
type Names = typeof import('../../names/index.js');

/** After a failed fetch (the server restarting), asked for again no sooner than this, ms. */
const RETRY_MS = 10_000;

let names: Names | undefined;
let loading = false;
let failedAtMs = -Infinity;

/** The names, or undefined until they are loaded. */
export function pageNames(): Names | undefined {
  return names;
}

/** Starts loading the names unless they are loaded or on their way; `loaded` runs when they arrive. */
export function loadPageNames(loaded: () => void): void {
  if (names !== undefined || loading || performance.now() - failedAtMs < RETRY_MS) return;
  loading = true;
  import('../../names/index.js').then(
    (module) => {
      names = module;
      loading = false;
      loaded();
    },
    (error: unknown) => {
      loading = false;
      failedAtMs = performance.now();
      console.warn(`entity names not loaded (${String(error)}); asking again in ${RETRY_MS / 1000} s`);
    },
  );
}
