// Refetching a server's lists when it announces a change: one fetch per list at a time, and a
// change announced while that fetch runs (or while the connection is still being made) gets
// exactly one more fetch after it, so the last announcement is always followed by a fetch.

import type { ListKind } from '../protocol/mcp.js';

export interface RefetchHost {
  /** 'wait' while connecting (fetched once ready), 'go' when ready, 'drop' when there is no server to ask. */
  readiness(): 'wait' | 'go' | 'drop';
  fetch(kind: ListKind): Promise<void>;
  fetched(kind: ListKind): void;
  failed(kind: ListKind, err: unknown): void;
}

export class ListRefetcher {
  private readonly running = new Set<ListKind>();
  private readonly again = new Set<ListKind>();
  private waiters: (() => void)[] = [];

  constructor(private readonly host: RefetchHost) {}

  /** A change announced for `kind`. */
  request(kind: ListKind): void {
    const readiness = this.host.readiness();
    if (readiness === 'wait' || this.running.has(kind)) {
      this.again.add(kind);
      return;
    }
    if (readiness === 'drop') return;
    this.running.add(kind);
    this.host
      .fetch(kind)
      .then(
        () => this.host.fetched(kind),
        (err: unknown) => this.host.failed(kind, err),
      )
      .finally(() => {
        this.running.delete(kind);
        if (this.again.delete(kind)) this.request(kind);
        if (this.running.size === 0) this.release();
      });
  }

  /** The connection is ready: the changes announced while it was being made are fetched now. */
  resume(): void {
    const due = [...this.again];
    this.again.clear();
    for (const kind of due) this.request(kind);
  }

  /** Resolves once no refetch is in flight or (while `ready`) due. */
  settled(ready: boolean): Promise<void> {
    if (this.running.size === 0 && (this.again.size === 0 || !ready)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Lets every waiter go (the connection closes). */
  release(): void {
    for (const done of this.waiters.splice(0)) done();
  }
}
