// Switchboard's tool ranking, one pipeline in one order: read the request (query.ts: terms, their
// indexed forms, typo corrections) → key-term selection for a verbose one (keyterms.ts) → BM25F
// over a tool's fields with `accept` (inverted.ts; trigram fallback when nothing matches) → bounded
// boosts over the best RERANK_DEPTH (name coverage, a server named, server context, value match) →
// crowding of one server and of one name family → top k. Incremental: upsert/remove cost the tool's own terms.

import { analyzeText, term } from './analyze.js';
import { spreadServers } from './crowding.js';
import { Families } from './families.js';
import { FIELD_NAMES, fieldTerms } from './fields.js';
import { InvertedIndex, type Concept } from './inverted.js';
import { selectKeyTerms } from './keyterms.js';
import { DEFAULT_RANKING, type RankingParams } from './params.js';
import { MAX_CONCEPTS, MAX_QUERY_CHARS, readQuery } from './query.js';
import { ServerContext } from './servers.js';
import { takeTop } from './top.js';
import type { SearchHit, SearchOptions, Searcher, ToolDoc } from './types.js';
import { parameterKinds, valueKinds } from './values.js';
import { splitName, tokenize } from './tokenize.js';

export { DEFAULT_RANKING, type RankingParams } from './params.js';

export const DEFAULT_LIMIT = 10;
/** How many lexical hits the boosts re-rank: bounded factors, which rarely lift a tool from further down into the top 10. */
export const RERANK_DEPTH = 100;
/** The fallback's least Dice coefficient, and most similar terms per word (chosen on bench/search/fallback.mjs). */
const GRAM_MIN = 0.4;
const GRAM_LIMIT = 5;

/** The parts of a tool that ranking reads, as one string. */
function fingerprint(doc: ToolDoc): string {
  const title = (doc.annotations as { title?: unknown } | undefined)?.title;
  return JSON.stringify([doc.server, doc.name, doc.title, doc.description, doc.inputSchema ?? null, typeof title === 'string' ? title : null]);
}

interface ToolFacts {
  readonly server: string;
  /** Words of the tool's name that its server's name does not already say. */
  readonly nameWords: readonly string[];
  /** For each of nameWords, the name's own word for it as written (lower case). */
  readonly nameSurfaces: readonly string[];
  /** Kinds of value the parameters take (values.ts). */
  readonly kinds: number;
}

/** The name's words as terms, apart from the server's own (`own`), each once, with the word as written. */
function nameWordsOf(words: readonly string[], own: ReadonlySet<string>): { nameWords: string[]; nameSurfaces: string[] } {
  const nameWords: string[] = [];
  const nameSurfaces: string[] = [];
  for (const w of words) {
    const t = term(w);
    if (t === '' || own.has(t) || nameWords.includes(t)) continue;
    nameWords.push(t);
    nameSurfaces.push(w);
  }
  return { nameWords, nameSurfaces };
}

export class ToolSearchIndex implements Searcher {
  private readonly index: InvertedIndex;
  /** What the boosts read of each tool: a search reads it for each of its hundred candidates. */
  private readonly facts = new Map<string, ToolFacts>();
  private readonly servers = new ServerContext();
  /** Name variants of one operation (families.ts), spread apart like servers. */
  private readonly families = new Families();
  /** What each tool was indexed from, to skip unchanged tools in syncServer. */
  private readonly fingerprints = new Map<string, string>();

  constructor(private readonly params: RankingParams = DEFAULT_RANKING) {
    this.index = new InvertedIndex(
      FIELD_NAMES.map((f) => params.fields[f]),
      params.k1,
    );
  }

  get size(): number {
    return this.index.size;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** Adds the tool, or replaces the one with the same key. */
  upsert(doc: ToolDoc): void {
    this.remove(doc.key);
    const terms = fieldTerms(doc);
    this.index.set(doc.key, terms, doc.server);
    // The server's document: what its tools are (names, titles, first sentences), not how to call them.
    this.servers.add(doc.server, doc.key, [...terms[0]!, ...terms[1]!, ...terms[2]!]);
    const words = splitName(doc.name);
    this.facts.set(doc.key, {
      server: doc.server,
      ...nameWordsOf(words, new Set(this.servers.words(doc.server))),
      kinds: parameterKinds(doc.inputSchema),
    });
    this.families.add(doc.key, doc.server, words);
  }

  /**
   * Makes the index hold exactly `docs` for `server` (after a list_changed, a reconnect or a
   * reload): removes its tools that are gone, re-indexes only the ones whose searchable parts
   * changed. Every doc must have `server` as its server.
   */
  syncServer(server: string, docs: readonly ToolDoc[]): { added: number; updated: number; removed: number } {
    const wanted = new Set(docs.map((d) => d.key));
    let removed = 0;
    for (const key of this.servers.keysOf(server)) if (!wanted.has(key) && this.remove(key)) removed++;
    let added = 0;
    let updated = 0;
    for (const doc of docs) {
      if (doc.server !== server) throw new Error(`syncServer(${server}): ${doc.key} belongs to ${doc.server}`);
      const print = fingerprint(doc);
      if (this.fingerprints.get(doc.key) === print && this.index.has(doc.key)) continue;
      if (this.index.has(doc.key)) updated++;
      else added++;
      this.upsert(doc);
      this.fingerprints.set(doc.key, print);
    }
    return { added, updated, removed };
  }

  /** Removes a tool; false when the key was not indexed. */
  remove(key: string): boolean {
    const had = this.facts.get(key);
    if (had !== undefined) {
      this.servers.delete(had.server, key);
      this.facts.delete(key);
    }
    this.families.delete(key);
    this.fingerprints.delete(key);
    return this.index.delete(key);
  }

  /** The request as the index sees it: one concept per distinct term, key terms selected. */
  concepts(query: string): Concept[] {
    const read = readQuery(query, this.index, this.params);
    const p = this.params;
    return [...selectKeyTerms(read, (t) => this.index.df(t), { above: p.keyTermsAbove, kept: p.keyTermsKept, weight: p.keyTermsWeight })];
  }

  /**
   * Best tools for a request, best first, ties by key. `accept` filters during the lexical pass,
   * so rejected tools never take a place; the boosts then re-rank the best RERANK_DEPTH accepted.
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const p = this.params;
    const limit = options.limit ?? DEFAULT_LIMIT;
    const concepts = this.concepts(query);
    // No word of the request (nor a form or correction of one) is indexed: compare its words with
    // the index's by character trigrams. Decided before `accept`: visibility never changes the question.
    const none = p.gramFallback && concepts.every((c) => c.every(([t]) => this.index.df(t) === 0));
    const pool = this.index.search(none ? this.gramConcepts(query) : concepts, Math.max(limit, RERANK_DEPTH), options.accept);

    // Each term's best weight in the request, for the boosts that ask whether it says a word.
    const weights = new Map<string, number>();
    for (const c of concepts) for (const [t, w] of c) if (w > (weights.get(t) ?? 0)) weights.set(t, w);
    const named = p.serverMention > 0 ? this.servers.named(weights) : new Map<string, number>();
    const context = p.serverContext > 0 ? this.servers.relevance(concepts) : new Map<string, number>();
    const said = new Set(tokenize(query.slice(0, MAX_QUERY_CHARS)));
    const carried = p.valueMatch > 0 ? valueKinds(query.slice(0, MAX_QUERY_CHARS)) : 0;
    const boost = (key: string, score: number): number => {
      const tool = this.facts.get(key)!;
      const words = tool.nameWords;
      if (words.length > 0) {
        let covered = 0;
        for (let i = 0; i < words.length; i++) {
          const w = weights.get(words[i]!) ?? 0;
          // "create event" is create-event more than create-events: the word as written is the surer match.
          covered += w > 0 && !said.has(tool.nameSurfaces[i]!) ? w * p.nameFormCredit : w;
        }
        score *= 1 + (p.nameCoverage * covered) / words.length;
      }
      const naming = named.get(tool.server);
      if (naming !== undefined) score *= 1 + p.serverMention * naming;
      if ((carried & tool.kinds) !== 0) score *= 1 + p.valueMatch;
      return score * (1 + p.serverContext * (context.get(tool.server) ?? 0));
    };
    const boosted = pool.map((h) => ({ key: h.key, score: boost(h.key, h.score) }));
    const spread = spreadServers(
      boosted,
      (key) => this.facts.get(key)!.server,
      p.crowdingDecay,
      p.crowdingFree,
      named,
      (key) => this.families.of(key),
      p.familyDecay,
    );
    return takeTop(spread, limit);
  }

  /** The fallback's concepts: each query word with the indexed terms most like it by trigrams. */
  private gramConcepts(query: string): Concept[] {
    const out: Concept[] = [];
    for (const t of new Set(analyzeText(query.slice(0, MAX_QUERY_CHARS)))) {
      if (out.length >= MAX_CONCEPTS) break;
      const similar = this.index.similar(t, GRAM_MIN, GRAM_LIMIT);
      if (similar.length > 0) out.push([[t, 1], ...similar]);
    }
    return out;
  }
}
