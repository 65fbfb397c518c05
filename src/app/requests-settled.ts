// When a drain may end: every request in progress, in every session, answered. Sessions tell it
// each time one of their requests ends; it counts only while someone waits, since a count walks
// every session and most requests end with no drain waiting.

export class RequestsSettled {
  private waiters: (() => void)[] = [];

  /** `busy` counts the requests in progress across every session. */
  constructor(private readonly busy: () => number) {}

  /** A request ended somewhere: wakes the waiters once none is left. */
  ended(): void {
    if (this.waiters.length > 0 && this.busy() === 0) for (const done of this.waiters.splice(0)) done();
  }

  /** Resolves once no request is in progress in any session. */
  done(): Promise<void> {
    if (this.busy() === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
