/**
 * A read-only set that always shows another set, picked anew on every read: tools loaded once see
 * what the session's current model accepts after a `/model` switch, and nobody refills a set in place.
 */
export class LiveCapabilities implements ReadonlySet<string> {
  constructor(private readonly current: () => ReadonlySet<string>) {}

  get size(): number {
    return this.current().size;
  }

  has(capability: string): boolean {
    return this.current().has(capability);
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const value of this.current()) callback.call(thisArg, value, value, this);
  }

  entries(): SetIterator<[string, string]> {
    return this.current().entries();
  }

  keys(): SetIterator<string> {
    return this.current().keys();
  }

  values(): SetIterator<string> {
    return this.current().values();
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.current()[Symbol.iterator]();
  }
}
