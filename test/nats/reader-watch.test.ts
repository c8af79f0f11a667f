// watchReader: every watched connection checks itself when nats.js logs "reader closed", even when another
// watched connection cannot (a connection that throws from flush must not keep the others from failing).
import type { NatsConnection } from '@nats-io/transport-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchReader } from '../../src/nats/reader-watch.js';

afterEach(() => vi.useRealTimers());

describe('watchReader', () => {
  it('fails a connection that no longer answers, though another watched one throws from flush', async () => {
    vi.useFakeTimers();
    const broken = {
      flush: () => {
        throw new TypeError('no flush');
      },
    } as unknown as NatsConnection;
    const silent = { flush: () => new Promise<void>(() => {}) } as unknown as NatsConnection;
    const answering = { flush: () => Promise.resolve() } as unknown as NatsConnection;
    const failures: string[] = [];
    const stops = [
      watchReader(broken, () => failures.push('broken')),
      watchReader(silent, (error) => failures.push(`silent: ${error.message}`)),
      watchReader(answering, () => failures.push('answering')),
    ];
    try {
      expect(() => console.log('reader closed', new Error('bad MSG line\u001b[2J\nstack'))).not.toThrow();
      await vi.advanceTimersByTimeAsync(6000);
      expect(failures).toEqual([
        'silent: the NATS server sent what the client cannot read (bad MSG line?[2J); the connection is closed',
      ]);
    } finally {
      for (const stop of stops) stop();
    }
  });
});
