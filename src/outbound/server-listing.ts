// A server's lists as its ServerConnection keeps them: every page of every list its capabilities
// offer, fetched at connect and again (paced) on its list_changed; listed from a successful
// connect until the grace period after a drop ends, so a quick restart is invisible to clients.
// Era-blind: a page is fetched the way the connection's era side says (era-side.ts).

import type { ServerConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { KINDS, LIST_CHANGED, LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { ListLimitError, type ListBounds, type ListLimits } from './list-fetch.js';
import { ListKeeper, type FetchOne } from './list-keeper.js';
import { ListRefetcher } from './list-refetch.js';
import type { ServerLists, ServerState } from './server-connection-types.js';
import type { JsonObject } from '../protocol/json.js';

export interface ListingHost {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** Whether the lists are fetched at all (per-session connections fetch none). */
  readonly keepsLists: boolean;
  readonly listLimits?: () => ListLimits;
  state(): ServerState;
  /** Whether the connection has a peer to fetch with. */
  connected(): boolean;
  capabilities(): JsonObject;
  /** Every page of one list, as the server's era has it fetched. */
  fetchOne: FetchOne;
  /** Lists were (re)fetched, or left or rejoined the catalog. */
  changed(kinds: readonly ListKind[]): void;
  /** A refetch went over a size or time bound of its list. */
  overLimit(err: ListLimitError): void;
}

export class ServerListing {
  /** Whether the lists belong in the catalog: from a successful connect until the grace period after a drop ends. */
  listed = false;
  private readonly keeper: ListKeeper;
  private readonly refetcher: ListRefetcher;
  private graceTimer?: NodeJS.Timeout;

  constructor(private readonly host: ListingHost) {
    this.keeper = new ListKeeper(host.config, host.listLimits);
    this.refetcher = new ListRefetcher({
      readiness: () => {
        const state = host.state();
        return state === 'connecting' ? 'wait' : state === 'ready' && host.connected() ? 'go' : 'drop';
      },
      fetch: (kind) => this.fetch([kind]),
      fetched: (kind) => host.changed([kind]),
      // Closing fails what is in flight on purpose (`check` ends while a list_changed refetch runs).
      failed: (kind, err) => {
        if (err instanceof ListLimitError && host.state() === 'ready') host.overLimit(err);
        else if (host.state() === 'ready') host.logger.warn({ err: describeError(err) }, `refetching ${kind} failed`);
      },
      pacing: () => this.keeper.pacing(),
    });
  }

  /** The lists as last fetched complete and within bounds (empty while not listed). */
  get lists(): ServerLists {
    return this.keeper.lists;
  }

  /** Lists at 80% or more of a size bound (see ListKeeper). */
  nearBounds(): string | undefined {
    return this.keeper.nearBounds();
  }

  /** The bounds of a fetch now, each page waiting up to `pageTimeoutMs`. */
  bounds(pageTimeoutMs: number): ListBounds {
    return this.keeper.bounds(pageTimeoutMs);
  }

  /** Resolves once no refetch is in flight or due. */
  settled(ready: boolean): Promise<void> {
    return this.refetcher.settled(ready);
  }

  /** Fetches every page of the given lists that the server's capabilities offer. */
  fetch(kinds: readonly ListKind[] = this.host.keepsLists ? LIST_KINDS : []): Promise<void> {
    // At start-up the overall startupTimeout bounds this too; later, each page gets the request
    // timeout. Either way the whole fetch of one list is bounded (limits.listFetchTimeout).
    const c = this.host.config;
    const pageTimeoutMs = this.host.state() === 'ready' ? c.timeoutMs : c.startupTimeoutMs;
    return this.keeper.fetch(kinds, pageTimeoutMs, (kind, bounds, previous) => {
      if (!this.host.capabilities()[KINDS[kind].capability]) return undefined;
      return this.host.fetchOne(kind, bounds, previous);
    });
  }

  /** A list_changed of the server's: true when `method` is one (refetched, paced, if lists are kept). */
  announced(method: string): boolean {
    const kinds = LIST_CHANGED.get(method);
    if (!kinds) return false;
    if (this.host.keepsLists) for (const kind of kinds) this.refetcher.request(kind);
    return true;
  }

  /** The server is ready: its lists are listed (again), and refetches due while connecting run. */
  up(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.listed = this.host.keepsLists;
    this.refetcher.resume();
  }

  /** The server went down: its items stay listed for downtimeGrace, unless `final` or never listed. */
  down(wasListed: boolean, final: boolean): void {
    if (wasListed && !final) this.startGrace();
    else this.forget();
  }

  close(): void {
    clearTimeout(this.graceTimer);
    this.refetcher.release();
  }

  /** Its items leave the catalog (at once, or when the grace period after a drop ends). */
  private forget(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.listed = false;
    this.keeper.forget();
  }

  private startGrace(): void {
    // Once per drop: failed reconnect attempts must not push the end of the grace period back.
    if (this.graceTimer) return;
    const graceMs = this.host.config.downtimeGraceMs ?? 30_000;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.host.state() === 'ready') return;
      this.forget();
      this.host.logger.warn(`still down after ${graceMs / 1000}s; its items leave the catalog until it is back`);
      this.host.changed(LIST_KINDS);
    }, graceMs);
  }
}
