import { describe, expect, it, vi } from 'vitest';
import { untilStopped } from '../../src/cli/until-stopped.js';

describe('untilStopped', () => {
  it('stops with "interrupted" when the signal aborts, and forgets its listener', async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const { stopped } = untilStopped(controller.signal);
    controller.abort('SIGINT');
    expect(await stopped).toBe('interrupted');
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('stops at once when the signal was aborted before it was called', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await untilStopped(controller.signal, 60).stopped).toBe('interrupted');
  });

  it('stops after the duration, and the first reason wins over later ones', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const latch = untilStopped(controller.signal, 2.5);
      vi.advanceTimersByTime(2499);
      latch.stop('socket failed');
      vi.advanceTimersByTime(10);
      controller.abort();
      expect(await latch.stopped).toBe('socket failed');
      expect(vi.getTimerCount()).toBe(0); // the duration timer is released
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the duration when it elapses first', async () => {
    vi.useFakeTimers();
    try {
      const latch = untilStopped(new AbortController().signal, 0.5);
      vi.advanceTimersByTime(500);
      expect(await latch.stopped).toBe('0.5 s elapsed');
    } finally {
      vi.useRealTimers();
    }
  });
});
