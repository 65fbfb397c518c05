// What the ranking knows about servers as wholes: each server's name words (a query that names
// a server wants its tools) and a server-level index over all its tools' names and summaries
// (a query about calendars favours the calendar server's tools). The server index is rebuilt
// lazily, per changed server, at the next search: bulk loads pay once.

import { nameTermsShared } from './analyze.js';
import { InvertedIndex, type Concept } from './inverted.js';

interface ServerEntry {
  words: string[];
  /** Terms each of its tools contributes to the server's document. */
  tools: Map<string, string[]>;
}

export class ServerContext {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly dirty = new Set<string>();
  private readonly index = new InvertedIndex([{ weight: 1, b: 0.5 }]);

  add(server: string, key: string, terms: string[]): void {
    let s = this.servers.get(server);
    if (s === undefined) this.servers.set(server, (s = { words: [...new Set(nameTermsShared(server))], tools: new Map() }));
    s.tools.set(key, terms);
    this.dirty.add(server);
  }

  delete(server: string, key: string): void {
    const s = this.servers.get(server);
    if (s === undefined || !s.tools.delete(key)) return;
    if (s.tools.size === 0) this.servers.delete(server);
    this.dirty.add(server);
  }

  /** Keys of the server's indexed tools. */
  keysOf(server: string): string[] {
    return [...(this.servers.get(server)?.tools.keys() ?? [])];
  }

  /** The server's name words (empty for an unknown server). */
  words(server: string): readonly string[] {
    return this.servers.get(server)?.words ?? [];
  }

  /**
   * Servers whose name contains a query term, each with the best weight of such a term: 1 for
   * the query's own word, less for another form or a likely correction of it ("gmial" names
   * gmail less surely than "gmail" does).
   */
  named(weights: ReadonlyMap<string, number>): Map<string, number> {
    const out = new Map<string, number>();
    for (const [server, { words }] of this.servers) {
      let best = 0;
      for (const w of words) best = Math.max(best, weights.get(w) ?? 0);
      if (best > 0) out.set(server, best);
    }
    return out;
  }

  /** Each matching server's relevance to the query, scaled so the best server has 1. */
  relevance(concepts: readonly Concept[]): Map<string, number> {
    this.refresh();
    const hits = this.index.search(concepts, this.servers.size);
    const top = hits[0]?.score ?? 0;
    return new Map(hits.map((h) => [h.key, top > 0 ? h.score / top : 0]));
  }

  private refresh(): void {
    for (const server of this.dirty) {
      const s = this.servers.get(server);
      if (s === undefined) this.index.delete(server);
      else this.index.set(server, [[...s.tools.values()].flat()]);
    }
    this.dirty.clear();
  }
}
