/**
 * How a `DatagramTransport` ends, once: by `close()` or by the failure that ended it, whichever comes first. Both
 * tell the `onClose` listeners exactly once (with the failure, or with nothing after `close()`), and every later
 * `close()` gets the same promise, which resolves when the transport's resources are released.
 */
export class TransportLifecycle {
  /** The failure that ended the transport, if one did. */
  failure: Error | undefined;
  private readonly listeners: Array<(error?: Error) => void> = [];
  private closing: Promise<void> | undefined;

  /** True once the transport has begun to end (closed, or failed). */
  get ended(): boolean {
    return this.closing !== undefined;
  }

  /** Calls `listener` once when the transport ends; at once if it already has. */
  onClose(listener: (error?: Error) => void): void {
    if (this.closing) listener(this.failure);
    else this.listeners.push(listener);
  }

  /** Forgets a listener that `onClose` took and that has not been called yet. */
  offClose(listener: (error?: Error) => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  /**
   * Ends the transport: the first call records `error`, runs `release` (stop receiving, free the socket or the
   * connection) and then tells the listeners; every call returns `release`'s promise.
   */
  end(error: Error | undefined, release: () => Promise<void>): Promise<void> {
    if (this.closing) return this.closing;
    this.failure = error;
    this.closing = release();
    for (const listener of this.listeners.splice(0)) listener(error);
    return this.closing;
  }
}
