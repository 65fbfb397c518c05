// Plain BM25, the benchmark's baseline: one field (name, title and description as written),
// tokens split on whitespace and lower-cased, edge punctuation trimmed; no stemming, no stop
// words, no synonyms. It is what a gateway gets from an off-the-shelf full-text index.

import { InvertedIndex } from './inverted.js';
import type { SearchHit, SearchOptions, Searcher, ToolDoc } from './types.js';

export function plainTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/\s+/)) {
    const t = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (t.length > 0) out.push(t);
  }
  return out;
}

export class PlainBm25Index implements Searcher {
  private readonly index = new InvertedIndex([{ weight: 1, b: 0.75 }], 1.2, false);

  get size(): number {
    return this.index.size;
  }

  upsert(doc: ToolDoc): void {
    const title = typeof doc.title === 'string' ? doc.title : '';
    this.index.set(doc.key, [plainTokens(`${doc.name} ${title} ${doc.description ?? ''}`)]);
  }

  remove(key: string): boolean {
    return this.index.delete(key);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const concepts = [...new Set(plainTokens(query))].map((t) => [[t, 1] as const]);
    return this.index.search(concepts, options.limit ?? 10, options.accept);
  }
}
