// The app's tool search: one index of every tool in the catalog (and, with catalog.embeddings,
// the semantic ranking fused over it), brought to the current snapshot server by server before a
// search. The engine loads on the first search and indexes on it: a gateway whose clients never
// search never pays for either. Views filter the hits; the index itself is profile-blind.

import type { Catalog } from '../catalog/build.js';
import { hiddenFromModel } from '../catalog/tool-exposure.js';
import type { CatalogView } from '../catalog/view.js';
import type { GatewayConfig } from '../config/types.js';
import type { FoundTool, ToolFinding } from '../inbound/context.js';
import type { HybridSearcher } from '../search/embeddings.js';
import type { ToolSearchIndex } from '../search/index.js';
import { IndexSync } from './index-sync.js';

type EmbeddingsConfig = GatewayConfig['catalog']['embeddings'];

export class ToolFinder implements ToolFinding {
  private engine?: Promise<typeof import('../search/index.js')>;
  private hybrid?: Promise<typeof import('../search/embeddings.js')>;
  private index?: ToolSearchIndex;
  /** The index itself, or with catalog.embeddings the hybrid ranking over it. */
  private searcher?: ToolSearchIndex | HybridSearcher;
  /** The embeddings settings the searcher was made for (a reload may change them). */
  private embeddings?: string;
  private readonly indexSync = new IndexSync();
  private indexed?: Catalog;

  constructor(
    private readonly catalog: () => Catalog,
    private readonly embeddingsConfig: () => EmbeddingsConfig,
  ) {}

  async find(view: CatalogView, query: string, { limit, servers }: { limit: number; servers?: ReadonlySet<string> }): Promise<FoundTool[]> {
    const searcher = await this.configured();
    const catalog = this.catalog();
    if (this.indexed !== catalog) this.reindex(catalog, searcher);
    const hits = await searcher.search(query, {
      limit,
      accept: (key) => {
        const entry = view.toolByCatalogKey(key);
        return entry !== undefined && !hiddenFromModel(entry.item) && (servers === undefined || servers.has(entry.server));
      },
    });
    return hits.map((h) => ({ entry: view.toolByCatalogKey(h.key)!, score: h.score }));
  }

  /** The searcher for the config in force: lexical, or hybrid when catalog.embeddings is set. */
  private async configured(): Promise<ToolSearchIndex | HybridSearcher> {
    // The engine (stemmer, stop words) loads on the first search: start-up never pays for it.
    const engine = await (this.engine ??= import('../search/index.js'));
    const e = this.embeddingsConfig();
    const key = e === undefined ? undefined : JSON.stringify(e);
    if (this.searcher && key === this.embeddings) return this.searcher;
    const hybrid = e === undefined ? undefined : await (this.hybrid ??= import('../search/embeddings.js'));
    // Searches that waited for the same modules made it already.
    if (this.searcher && key === this.embeddings) return this.searcher;
    this.index ??= new engine.ToolSearchIndex();
    this.embeddings = key;
    this.searcher = e === undefined ? this.index : new hybrid!.HybridSearcher(this.index, { url: e.url, model: e.model, headers: e.headers, timeoutMs: e.timeout, cacheDir: e.cacheDir });
    // The hybrid learns each tool's text from syncServer: index everything again.
    this.indexed = undefined;
    this.indexSync.reset();
    return this.searcher;
  }

  /** Brings the index to a snapshot: only servers whose tools changed are indexed again. */
  private reindex(catalog: Catalog, searcher: ToolSearchIndex | HybridSearcher): void {
    this.indexed = catalog;
    this.indexSync.sync(catalog, searcher);
    // Vectors are fetched in the background; until they are there, ranking is lexical.
    if ('refresh' in searcher) void searcher.refresh().catch(() => undefined);
  }
}
