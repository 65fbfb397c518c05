// Switchboard's tool ranking: BM25F over a tool's name words, title, description, parameter
// names and descriptions and its server's name, with query words expanded through the synonym
// groups at a lower weight. Incremental: upsert/remove cost the document's own terms only.

import { analyzeName, analyzeText } from './analyze.js';
import { FIELD_NAMES, fieldTerms, type FieldName } from './fields.js';
import { InvertedIndex, type Concept, type FieldParams } from './inverted.js';
import { queryShape } from './hints.js';
import { expansions, SYNONYM_WEIGHT } from './synonyms.js';
import type { SearchHit, SearchOptions, Searcher, ToolDoc } from './types.js';

export interface RankingParams {
  k1: number;
  fields: Record<FieldName, FieldParams>;
  /** Use the synonym groups and query-shape hints (off only to measure what they bring). */
  synonyms: boolean;
  /** Weight of a synonym relative to the query's own word. */
  synonymWeight: number;
  /**
   * Bonus for a tool whose name the query covers: score × (1 + nameCoverage × share of the
   * name's words, apart from the server's own, that the query names, synonyms at their weight).
   */
  nameCoverage: number;
  /** Tools of a server the query names ("... in hubspot") score × (1 + serverMention). */
  serverMention: number;
}

/** Chosen on the dev half of bench/search's queries; the test half judges them. */
export const DEFAULT_RANKING: RankingParams = {
  k1: 1.2,
  fields: {
    name: { weight: 3, b: 0.3 },
    title: { weight: 2, b: 0.3 },
    summary: { weight: 1.5, b: 0.3 },
    description: { weight: 0.7, b: 0.6 },
    params: { weight: 0.6, b: 0.3 },
    paramText: { weight: 0.3, b: 0.6 },
    server: { weight: 1.5, b: 0 },
  },
  synonyms: true,
  synonymWeight: SYNONYM_WEIGHT,
  nameCoverage: 0.5,
  serverMention: 0.5,
};

export const DEFAULT_LIMIT = 10;

export class ToolSearchIndex implements Searcher {
  private readonly index: InvertedIndex;
  /** Words of each tool's name that its server's name does not already say. */
  private readonly nameWords = new Map<string, string[]>();
  private readonly serverOf = new Map<string, string>();
  /** Name words of each server, with how many indexed tools it has (dropped at zero). */
  private readonly servers = new Map<string, { words: string[]; tools: number }>();

  constructor(private readonly params: RankingParams = DEFAULT_RANKING) {
    this.index = new InvertedIndex(FIELD_NAMES.map((f) => params.fields[f]), params.k1);
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
    this.index.set(doc.key, terms);
    let server = this.servers.get(doc.server);
    if (server === undefined) this.servers.set(doc.server, (server = { words: [...new Set(analyzeName(doc.server))], tools: 0 }));
    server.tools++;
    this.serverOf.set(doc.key, doc.server);
    const own = new Set(server.words);
    this.nameWords.set(doc.key, [...new Set(terms[0])].filter((t) => !own.has(t)));
  }

  /** Removes a tool; false when the key was not indexed. */
  remove(key: string): boolean {
    const server = this.serverOf.get(key);
    if (server !== undefined) {
      const s = this.servers.get(server)!;
      if (--s.tools === 0) this.servers.delete(server);
      this.serverOf.delete(key);
    }
    this.nameWords.delete(key);
    return this.index.delete(key);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const concepts = this.concepts(query);
    const beta = this.params.nameCoverage;
    const weights = new Map<string, number>();
    for (const c of concepts) for (const [t, w] of c) if (w > (weights.get(t) ?? 0)) weights.set(t, w);
    const named = new Set<string>();
    if (this.params.serverMention > 0) {
      for (const [server, { words }] of this.servers) if (words.some((w) => weights.get(w) === 1)) named.add(server);
    }
    const mention = 1 + this.params.serverMention;
    const boost = (key: string, score: number): number => {
      const words = this.nameWords.get(key)!;
      let covered = 0;
      for (const w of words) covered += weights.get(w) ?? 0;
      const s = words.length === 0 ? score : score * (1 + (beta * covered) / words.length);
      return named.size > 0 && named.has(this.serverOf.get(key)!) ? s * mention : s;
    };
    return this.index.search(concepts, options.limit ?? DEFAULT_LIMIT, options.accept, boost);
  }

  /** The query as the index sees it: one concept per distinct word, with its expansions. */
  concepts(query: string): Concept[] {
    const out: Concept[] = [];
    const seen = new Set<string>();
    const shape = this.params.synonyms ? queryShape(query) : { text: query, hints: [] };
    for (const t of analyzeText(shape.text)) {
      if (seen.has(t)) continue;
      seen.add(t);
      const concept: [string, number][] = [[t, 1]];
      if (this.params.synonyms) for (const s of expansions(t).keys()) concept.push([s, this.params.synonymWeight]);
      out.push(concept);
    }
    for (const hint of shape.hints) {
      const terms = [...new Set(analyzeText(hint.words))].filter((t) => !seen.has(t));
      if (terms.length > 0) out.push(terms.map((t) => [t, hint.weight] as [string, number]));
    }
    return out;
  }
}
