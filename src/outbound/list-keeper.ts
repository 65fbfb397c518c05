// A connection's lists: each replaced only by a complete fetch within its bounds, and what each
// fetch brought kept whole, so the next one keeps unchanged pages and items (list-fetch.ts); the
// bounds and the refetch pacing as the config says now (a reload applies to the next fetch); and
// which lists come close to their size bounds, for `check` and `status`.

import type { ServerConfig } from '../config/types.js';
import { LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { DEFAULT_LIST_LIMITS, boundsFor, type FetchedList, type ListBounds, type ListLimits } from './list-fetch.js';
import type { ServerLists } from './server-connection-types.js';

/** Fetches one list (undefined: the server does not offer it). */
export type FetchOne = (kind: ListKind, bounds: ListBounds, previous?: FetchedList) => Promise<FetchedList> | undefined;

const emptyLists = (): ServerLists => ({ tools: [], prompts: [], resources: [], resourceTemplates: [] });

/** A list at this share of a size bound is reported as near it. */
const NEAR = 0.8;

export class ListKeeper {
  lists: ServerLists = emptyLists();
  private fetched: Partial<Record<ListKind, FetchedList>> = {};

  constructor(
    private readonly server: Pick<ServerConfig, 'listLimits'>,
    private readonly limits: (() => ListLimits) | undefined,
  ) {}

  /** The bounds of one fetch of this server's lists; each page may take `pageTimeoutMs`. */
  bounds(pageTimeoutMs: number): ListBounds {
    return boundsFor(this.server, this.limits?.() ?? DEFAULT_LIST_LIMITS, pageTimeoutMs);
  }

  /** limits.listRefetchInterval and listRefetchMaxInterval. */
  pacing(): { minMs: number; maxMs: number } {
    const l = this.limits?.() ?? DEFAULT_LIST_LIMITS;
    return { minMs: l.listRefetchIntervalMs, maxMs: l.listRefetchMaxIntervalMs };
  }

  /** Fetches `kinds` together; only once every one is complete and within bounds are they kept. */
  async fetch(kinds: readonly ListKind[], pageTimeoutMs: number, one: FetchOne): Promise<void> {
    const bounds = this.bounds(pageTimeoutMs);
    const fetched = await Promise.all(kinds.map((kind) => one(kind, bounds, this.fetched[kind])));
    kinds.forEach((kind, i) => {
      const list = fetched[i];
      this.fetched[kind] = list;
      this.lists[kind] = list?.items ?? [];
    });
  }

  /** No lists (the server failed, or stayed down past its grace period). */
  forget(): void {
    this.lists = emptyLists();
    this.fetched = {};
  }

  /** Lists at 80% or more of a size bound, e.g. "tools 17000 of limits.maxListItems (20000)". */
  nearBounds(): string | undefined {
    const b = this.bounds(0);
    const near: string[] = [];
    for (const kind of LIST_KINDS) {
      const f = this.fetched[kind];
      if (!f) continue;
      if (f.items.length >= NEAR * b.maxItems) near.push(`${kind} ${f.items.length} of ${b.keys.items} (${b.maxItems})`);
      if (f.bytes >= NEAR * b.maxBytes) near.push(`${kind} ${f.bytes} bytes of ${b.keys.bytes} (${b.maxBytes})`);
    }
    return near.length > 0 ? near.join('; ') : undefined;
  }
}
