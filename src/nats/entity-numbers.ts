/**
 * The entities of one simulation application by entity number, for the subject router: small integers, which a Map
 * hashes and compares without reading a boxed number as it must for a 48-bit key, and mostly an array read.
 */

/**
 * The entities of one simulation application (site, application). `byNumber` holds them all, in the order first
 * seen; `dense` indexes the same entities by entity number (entity + 1, 0 = none) while the numbers are mostly
 * small and dense (as DIS applications number their entities 1, 2, 3, …), so the common lookup is an array read in
 * the order the entities are sent, rather than a hash lookup at a random place in memory.
 */
export interface Application {
  readonly byNumber: Map<number, number>;
  dense: Int32Array;
}

/** `Application.dense` grows to cover entity number n while n < 2 · entities + this; beyond, the Map alone. */
const DENSE_SLACK = 64;

/** An application with no entities yet. */
export function createApplication(): Application {
  return { byNumber: new Map(), dense: new Int32Array(0) };
}

/** Files `entity` under `number`. */
export function addEntity(application: Application, number: number, entity: number): void {
  application.byNumber.set(number, entity);
  if (number >= application.dense.length && number < 2 * application.byNumber.size + DENSE_SLACK) {
    // Grow the index (at least doubling: amortised) and fill it from the Map, which holds every entity.
    const dense = new Int32Array(Math.max(number + 1, 2 * application.dense.length));
    for (const [n, e] of application.byNumber) if (n < dense.length) dense[n] = e + 1;
    application.dense = dense;
  } else if (number < application.dense.length) {
    application.dense[number] = entity + 1;
  }
}

/** Forgets the entity seen first (Maps iterate in insertion order). @returns it, or -1 when there is none. */
export function forgetOldest(application: Application): number {
  const oldest = application.byNumber.keys().next().value;
  if (oldest === undefined) return -1;
  const forgotten = application.byNumber.get(oldest)!;
  application.byNumber.delete(oldest);
  if (oldest < application.dense.length) application.dense[oldest] = 0;
  return forgotten;
}
