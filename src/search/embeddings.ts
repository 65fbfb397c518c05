// Optional semantic ranking: tool vectors from an OpenAI-compatible `POST {url}/embeddings`,
// cached on disk by a hash of (model, searchable text), fused with the lexical ranking by
// reciprocal rank fusion. The only file of src/search that does I/O. A search never fails and
// never waits past its timeout because of the endpoint: it falls back to the lexical ranking.

import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchableText } from './fields.js';
import { takeTop, type Candidate } from './top.js';
import type { SearchHit, SearchOptions, ToolDoc } from './types.js';

export interface EmbeddingsConfig {
  /** Base URL; requests go to `${url}/embeddings`. */
  url: string;
  model: string;
  /** Extra headers (e.g. authorization). Never logged. */
  headers?: Record<string, string>;
  /** Per-request deadline in ms (default 2000); a query's embedding must come back within it. */
  timeoutMs?: number;
  /** Texts per request when indexing (default 64). */
  batchSize?: number;
  /** Folder of the disk cache; no disk cache when absent. */
  cacheDir?: string;
  /** After a failure, skip the endpoint for this long in ms (default 30000). */
  cooldownMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Talks to the endpoint; throws on any failure (the hybrid searcher decides what to do). */
export class EmbeddingClient {
  constructor(private readonly config: EmbeddingsConfig) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const res = await fetch(`${this.config.url.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.config.headers ?? {}) },
      body: JSON.stringify({ model: this.config.model, input: texts }),
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 2000),
    });
    if (!res.ok) throw new Error(`embeddings endpoint answered ${res.status}`);
    const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
    const data = body.data;
    if (!Array.isArray(data) || data.length !== texts.length) throw new Error('embeddings answer has the wrong number of vectors');
    const out: Float32Array[] = new Array(texts.length);
    data.forEach((d, i) => {
      const at = typeof d.index === 'number' ? d.index : i;
      if (!Array.isArray(d.embedding) || at < 0 || at >= texts.length) throw new Error('malformed embedding');
      out[at] = Float32Array.from(d.embedding as number[]);
    });
    if (out.some((v) => v === undefined || v.length !== out[0]!.length)) throw new Error('embeddings of mixed sizes');
    return out;
  }
}

/** Vectors by content hash: in memory, mirrored to an append-only file per model when asked. */
export class VectorCache {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string | undefined;

  constructor(model: string, dir?: string) {
    if (dir === undefined) return;
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `embeddings-${sha256(model).slice(0, 16)}.jsonl`);
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return; // no cache yet
    }
    for (const line of text.split('\n')) {
      try {
        const { h, v } = JSON.parse(line) as { h: string; v: string };
        const buf = Buffer.from(v, 'base64');
        this.vectors.set(h, new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4).slice());
      } catch {
        // a torn last line after a crash: skip it, the vector is fetched again
      }
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  get(hash: string): Float32Array | undefined {
    return this.vectors.get(hash);
  }

  set(hash: string, vector: Float32Array): void {
    this.vectors.set(hash, vector);
    if (this.file === undefined) return;
    const v = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
    appendFileSync(this.file, `${JSON.stringify({ h: hash, v })}\n`);
  }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Reciprocal rank fusion of ranked key lists: Σ 1/(k + rank), best first, ties by key. */
export function fuseRankings(rankings: readonly (readonly string[])[], limit: number, k = 60): SearchHit[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((key, i) => {
      scores.set(key, (scores.get(key) ?? 0) + 1 / (k + i + 1));
    });
  }
  return takeTop(
    [...scores].map(([key, score]) => ({ key, score })),
    limit,
  );
}

/** The lexical engine as the hybrid searcher needs it. */
export interface LexicalSearcher {
  upsert(doc: ToolDoc): void;
  remove(key: string): boolean;
  search(query: string, options?: SearchOptions): SearchHit[];
  syncServer?(server: string, docs: readonly ToolDoc[]): { added: number; updated: number; removed: number };
}

export interface HybridOptions {
  /** Candidates taken from each ranking before fusion (default 50). */
  depth?: number;
  /** RRF constant (default 60). */
  rrfK?: number;
}

export class HybridSearcher {
  private readonly client: EmbeddingClient;
  private readonly cache: VectorCache;
  private readonly hashes = new Map<string, string>();
  private readonly texts = new Map<string, string>();
  private readonly serverOf = new Map<string, string>();
  private readonly queryVectors = new Map<string, Float32Array>();
  private downUntil = 0;
  private readonly now: () => number;

  constructor(
    private readonly lexical: LexicalSearcher,
    private readonly config: EmbeddingsConfig,
    private readonly options: HybridOptions = {},
  ) {
    this.client = new EmbeddingClient(config);
    this.cache = new VectorCache(config.model, config.cacheDir);
    this.now = config.now ?? Date.now;
  }

  upsert(doc: ToolDoc): void {
    this.lexical.upsert(doc);
    this.track(doc);
  }

  remove(key: string): boolean {
    this.forget(key);
    return this.lexical.remove(key);
  }

  /** Makes the server's tools exactly `docs` (see ToolSearchIndex.syncServer); call refresh() after. */
  syncServer(server: string, docs: readonly ToolDoc[]): void {
    const wanted = new Set(docs.map((d) => d.key));
    const gone = [...this.serverOf].filter(([key, s]) => s === server && !wanted.has(key)).map(([key]) => key);
    if (this.lexical.syncServer !== undefined) {
      this.lexical.syncServer(server, docs);
      for (const key of gone) this.forget(key);
      for (const doc of docs) this.track(doc);
    } else {
      for (const key of gone) this.remove(key);
      for (const doc of docs) this.upsert(doc);
    }
  }

  private track(doc: ToolDoc): void {
    const text = searchableText(doc);
    this.texts.set(doc.key, text);
    this.hashes.set(doc.key, sha256(`${this.config.model}\n${text}`));
    this.serverOf.set(doc.key, doc.server);
  }

  private forget(key: string): void {
    this.texts.delete(key);
    this.hashes.delete(key);
    this.serverOf.delete(key);
  }

  /** Fetches the vectors the cache lacks; returns how many are still missing (0 when done). */
  async refresh(): Promise<number> {
    const missing = [...this.hashes].filter(([, h]) => this.cache.get(h) === undefined);
    const size = this.config.batchSize ?? 64;
    for (let i = 0; i < missing.length && this.available(); i += size) {
      const batch = missing.slice(i, i + size);
      try {
        const vectors = await this.client.embed(batch.map(([key]) => this.texts.get(key)!));
        batch.forEach(([, h], j) => {
          this.cache.set(h, vectors[j]!);
        });
      } catch {
        this.downUntil = this.now() + (this.config.cooldownMs ?? 30_000);
      }
    }
    return [...this.hashes.values()].filter((h) => this.cache.get(h) === undefined).length;
  }

  /** Lexical ∪ semantic by RRF; the lexical ranking alone whenever the endpoint fails. */
  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const limit = options.limit ?? 10;
    const depth = Math.max(limit, this.options.depth ?? 50);
    const lexical = this.lexical.search(query, { limit: depth, accept: options.accept });
    const qv = await this.queryVector(query);
    if (qv === undefined) return lexical.slice(0, limit);
    const candidates: Candidate[] = [];
    for (const [key, h] of this.hashes) {
      const v = this.cache.get(h);
      if (v !== undefined) candidates.push({ key, score: cosine(qv, v) });
    }
    const semantic = takeTop(candidates, depth, options.accept);
    return fuseRankings([lexical.map((x) => x.key), semantic.map((x) => x.key)], limit, this.options.rrfK);
  }

  private available(): boolean {
    return this.now() >= this.downUntil;
  }

  private async queryVector(query: string): Promise<Float32Array | undefined> {
    const cached = this.queryVectors.get(query);
    if (cached !== undefined) return cached;
    if (!this.available()) return undefined;
    try {
      const [v] = await this.client.embed([query]);
      if (this.queryVectors.size >= 256) this.queryVectors.delete(this.queryVectors.keys().next().value!);
      this.queryVectors.set(query, v!);
      return v;
    } catch {
      this.downUntil = this.now() + (this.config.cooldownMs ?? 30_000);
      return undefined;
    }
  }
}
