// One token acquisition at a time per server. A caller asking for the acquisition already
// running (same key) joins it; a different one queues behind it. Waiting never throws: each
// caller re-checks the state afterwards, which is what stops a thundering herd of refreshes.

export class SingleFlight {
  private current: { key: string; promise: Promise<void> } | undefined;

  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Settles when whatever is running now has finished (successfully or not). */
  async settled(): Promise<void> {
    if (this.current) await this.current.promise.catch(() => {});
  }

  run(key: string, fn: () => Promise<void>): Promise<void> {
    if (this.current?.key === key) return this.current.promise;
    const promise = (this.current ? this.current.promise.catch(() => {}) : Promise.resolve()).then(fn);
    const entry = { key, promise };
    this.current = entry;
    const clear = () => {
      if (this.current === entry) this.current = undefined;
    };
    promise.then(clear, clear);
    return promise;
  }
}
