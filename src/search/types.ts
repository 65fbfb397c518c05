// The shapes the search engine takes and gives. A document is one exposed tool; its key is the
// exposed name the gateway serves (`server__tool`), unique in an index.

export interface ToolDoc {
  /** Exposed tool name: the index key. */
  key: string;
  /** Configured name of the server the tool comes from. */
  server: string;
  /** The tool's own name on its server. */
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

export interface SearchHit {
  key: string;
  score: number;
}

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number;
  /** Visibility per client profile: a rejected key is never returned, and never takes a slot. */
  accept?: (key: string) => boolean;
}

/** What every ranking engine here offers: the BM25F index, the plain baseline, the hybrid. */
export interface Searcher {
  upsert(doc: ToolDoc): void;
  remove(key: string): boolean;
  search(query: string, options?: SearchOptions): SearchHit[];
  readonly size: number;
}
