// The end of a transport, shared by the UDP and NATS transports: once, whichever of close() and a failure comes
// first, each listener told exactly once.
import { describe, expect, it } from 'vitest';
import { TransportLifecycle } from '../../src/transport/lifecycle.js';

describe('TransportLifecycle', () => {
  it('ends once: the first end releases and tells the listeners, later ones get the same promise', async () => {
    const lifecycle = new TransportLifecycle();
    const heard: Array<Error | undefined> = [];
    lifecycle.onClose((error) => heard.push(error));
    let releases = 0;
    const release = () => {
      releases++;
      return Promise.resolve();
    };
    expect(lifecycle.ended).toBe(false);
    const failure = new Error('socket closed');
    const first = lifecycle.end(failure, release);
    const second = lifecycle.end(undefined, release);
    expect(second).toBe(first);
    await first;
    expect(releases).toBe(1);
    expect(heard).toEqual([failure]);
    expect(lifecycle.ended).toBe(true);
    expect(lifecycle.failure).toBe(failure);
  });

  it('tells a listener that comes after the end at once, with the failure or with nothing after close()', () => {
    const closed = new TransportLifecycle();
    void closed.end(undefined, () => Promise.resolve());
    const heard: Array<Error | undefined | 'none'> = [];
    closed.onClose((error) => heard.push(error ?? 'none'));
    const failed = new TransportLifecycle();
    const failure = new Error('reader died');
    void failed.end(failure, () => Promise.resolve());
    failed.onClose((error) => heard.push(error));
    expect(heard).toEqual(['none', failure]);
  });

  it('forgets a listener taken back before the end, and records the failure before releasing', async () => {
    const lifecycle = new TransportLifecycle();
    const heard: string[] = [];
    const kept = () => heard.push('kept');
    const dropped = () => heard.push('dropped');
    lifecycle.onClose(dropped);
    lifecycle.onClose(kept);
    lifecycle.offClose(dropped);
    const failure = new Error('gone');
    let seen: Error | undefined;
    await lifecycle.end(failure, () => {
      seen = lifecycle.failure;
      heard.push('released');
      return Promise.resolve();
    });
    expect(seen).toBe(failure);
    expect(heard).toEqual(['released', 'kept']);
  });
});
