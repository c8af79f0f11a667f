/** A map that holds at most `maxBytes` of values, dropping the least recently used first. */
export class ByteBoundedCache<V extends { readonly byteLength: number }> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  /** @param maxBytes - most bytes held; a larger value is not kept at all. */
  constructor(readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    for (const [oldest, old] of this.entries) {
      if (this.bytes + value.byteLength <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.byteLength;
    }
    this.entries.set(key, value);
    this.bytes += value.byteLength;
  }

  private delete(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.bytes -= old.byteLength;
  }
}
