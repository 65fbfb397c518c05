// Switchboard's tool ranking: BM25F over a tool's name words, title, description, parameter
// names and descriptions and its server's name, with query words expanded through the synonym
// groups, the world-knowledge map, the indexed forms of each word (those general word vectors
// relate to it) and, for an unknown word that is not a common English one, its corrections, at lower
// weights; phrasal verbs, negated verbs and dictated content read as such; a request that matches
// nothing falls back to character trigrams. Incremental: upsert/remove cost the document's own terms only.

import { analyzeText, term as termOf } from './analyze.js';
import { FIELD_NAMES, fieldTerms } from './fields.js';
import { InvertedIndex, type Concept } from './inverted.js';
import { queryShape } from './hints.js';
import { expandShorthand } from './shorthand.js';
import { actionsOf, askedActions, doneVerb } from './actions.js';
import { phrasalVerbs } from './phrasal.js';
import { negatedTerms } from './negation.js';
import { contentTerms } from './content.js';
import { contextTerms } from './preamble.js';
import { payloadTerms } from './payload.js';
import { isTerse } from './terse.js';
import { LISTING, OPEN_TERM, openConcept, openSense } from './senses.js';
import { spreadServers } from './crowding.js';
import { Families } from './families.js';
import { ServerContext } from './servers.js';
import { takeTop } from './top.js';
import { numbers } from './number.js';
import { parameterKinds, valueKinds } from './values.js';
import { splitName, tokenize } from './tokenize.js';
import { expansions, synonymTerms } from './synonyms.js';
import { worldExpansions, worldTerms } from './world.js';
import { commonWord, plausibleForm, wordChecks } from './vectors.js';
import { correct } from './corrections.js';
import type { SearchHit, SearchOptions, Searcher, ToolDoc } from './types.js';
import { DEFAULT_RANKING, type RankingParams } from './params.js';

export { DEFAULT_RANKING, type RankingParams } from './params.js';

export const DEFAULT_LIMIT = 10;
/** How many lexical hits the name, server and context boosts re-rank. */
export const RERANK_DEPTH = 100;

const DIGITS = /^[0-9]+$/;
const EMPTY: ReadonlyMap<string, number> = new Map();
const MAX_QUERY_CHARS = 1_000;
const MAX_CONCEPTS = 32;
/** Query words looked up as possible typos per query. */
const MAX_CORRECTIONS = 4;
/** Most words between a phrasal verb's verb and its particle ("push my 1:1 with Dan back" is 4: too far). */
const PHRASAL_GAP = 2;
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
  /** Action families the name says (see actions.ts). */
  readonly action: number;
  /** Kinds of value the parameters take (see values.ts). */
  readonly kinds: number;
  /** Grammatical number of the name's words, by index term (see number.ts). */
  readonly nameNumber: ReadonlyMap<string, boolean>;
}

export class ToolSearchIndex implements Searcher {
  private readonly index: InvertedIndex;
  /** What the boosts read of each tool, one record per tool: a search reads it for each of its hundred candidates. */
  private readonly facts = new Map<string, ToolFacts>();
  private readonly servers = new ServerContext();
  /** Name variants of one operation (families.ts), spread apart like servers. */
  private readonly families = new Families();
  /** What each tool was indexed from, to skip unchanged tools in syncServer. */
  private readonly fingerprints = new Map<string, string>();

  constructor(private readonly params: RankingParams = DEFAULT_RANKING) {
    this.index = new InvertedIndex(FIELD_NAMES.map((f) => params.fields[f]), params.k1);
    // A misspelt word may be meant as a word the tables know though no tool says it ("weathr").
    if (params.synonyms && params.typoWeight > 0) {
      for (const t of synonymTerms()) this.index.know(t);
      if (params.worldWeight > 0) for (const t of worldTerms()) this.index.know(t);
    }
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
    const own = new Set(this.servers.words(doc.server));
    this.facts.set(doc.key, {
      server: doc.server,
      nameWords: [...new Set(terms[0])].filter((t) => !own.has(t)),
      action: actionsOf(terms[0]!),
      kinds: parameterKinds(doc.inputSchema),
      nameNumber: numbers(splitName(doc.name)),
    });
    this.families.add(doc.key, doc.server, splitName(doc.name));
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
      const had = this.fingerprints.get(doc.key);
      if (had === print && this.index.has(doc.key)) continue;
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

  /**
   * Best tools for a request, best first, ties by key. `accept` filters during the lexical pass,
   * so rejected tools never take a place; the boosts then re-rank the best RERANK_DEPTH accepted.
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const { concepts, notAsked, negated, listing } = this.read(query);
    const negP = 1 - this.params.negatedName;
    const beta = this.params.nameCoverage;
    const weights = new Map<string, number>();
    for (const c of concepts) for (const [t, w] of c) if (w > (weights.get(t) ?? 0)) weights.set(t, w);
    const named = this.params.serverMention > 0 ? this.servers.named(weights) : new Map<string, number>();
    const mention = this.params.serverMention;
    const gamma = this.params.serverContext;
    const context = gamma > 0 ? this.servers.relevance(concepts) : new Map<string, number>();
    // Only the query's own words say what it wants done; synonyms would say everything.
    const told = askedActions(query.slice(0, MAX_QUERY_CHARS), concepts.map((c) => c[0]![0]).filter((t) => !notAsked.has(t)));
    // "open prs" names a state and no action: it asks for the things in that state.
    const asked = told === 0 && listing ? actionsOf(['list']) : told;
    const mismatch = 1 - this.params.actionMismatch;
    // Number is the user's own: "appointment" says one event, but not whether "events" would do.
    const said = numbers(tokenize(query.slice(0, MAX_QUERY_CHARS)));
    const numberKept = 1 - this.params.numberMismatch;
    const carried = this.params.valueMatch > 0 ? valueKinds(query.slice(0, MAX_QUERY_CHARS)) : 0;
    const fits = 1 + this.params.valueMatch;
    const boost = (key: string, score: number): number => {
      const tool = this.facts.get(key)!;
      if (numberKept !== 1) {
        for (const [t, plural] of tool.nameNumber) {
          const wanted = said.get(t);
          if (wanted !== undefined && wanted !== plural) score *= numberKept;
        }
      }
      const words = tool.nameWords;
      let covered = 0;
      for (const w of words) {
        covered += weights.get(w) ?? 0;
        if (negated.has(w)) score *= negP;
      }
      let s = words.length === 0 ? score : score * (1 + (beta * covered) / words.length);
      const server = tool.server;
      const naming = named.get(server);
      if (naming !== undefined) s *= 1 + mention * naming;
      const does = tool.action;
      if (asked !== 0 && does !== 0 && (asked & does) === 0) s *= mismatch;
      if ((carried & tool.kinds) !== 0) s *= fits;
      return gamma > 0 ? s * (1 + gamma * (context.get(server) ?? 0)) : s;
    };
    const limit = options.limit ?? DEFAULT_LIMIT;
    // The boosts are bounded factors: re-ranking the lexical top RERANK_DEPTH is enough.
    // No word of the request (nor any expansion) is indexed: compare its words with the index's
    // by character trigrams instead. Decided before `accept`, so visibility never changes the question.
    const none = this.params.gramFallback && concepts.every((c) => c.every(([t]) => this.index.df(t) === 0));
    const pool = this.index.search(none ? this.gramConcepts(query) : concepts, Math.max(limit, RERANK_DEPTH), options.accept);
    const boosted = pool.map((h) => ({ key: h.key, score: boost(h.key, h.score) }));
    const spread = spreadServers(boosted, (key) => this.facts.get(key)!.server, this.params.crowdingDecay, this.params.crowdingFree, named,
      (key) => this.families.of(key), this.params.familyDecay);
    return takeTop(spread, limit);
  }

  /**
   * A query term with its synonyms, world-knowledge expansions, the index's other forms of it
   * and, for a word no tool uses, its likely corrections, each at its best weight. Forms and
   * corrections depend on the indexed vocabulary, so concepts do too.
   */
  private expand(t: string, surfaceOf: (term: string) => string, budget: { corrections: number }): Concept {
    const weights = new Map<string, number>([[t, 1]]);
    const add = (term: string, w: number): void => {
      if (w > (weights.get(term) ?? 0)) weights.set(term, w);
    };
    const tables = (word: string, share: number): boolean => {
      const syn = expansions(word);
      for (const s of syn.keys()) add(s, this.params.synonymWeight * share);
      const world = this.params.worldWeight > 0 ? worldExpansions(word) : EMPTY;
      for (const s of world.keys()) add(s, this.params.worldWeight * share);
      return syn.size > 0 || world.size > 0;
    };
    const known = tables(t, 1);
    if (this.params.formWeight > 0) {
      // A longer or shorter indexed word is a form only if general usage relates the two ("country" ↛ count).
      const check = this.params.formCheck ? wordChecks() : null;
      for (const s of this.index.forms(t)) if (plausibleForm(check, t, s)) add(s, this.params.formWeight);
    }
    // A word that neither a tool nor the tables know may be misspelt.
    const w = this.params.typoWeight;
    // ... unless general English knows it well: "lunch" is not a misspelt launch, nor "stick" stack.
    const misspelt = w > 0 && !known && this.index.df(t) === 0 && !(this.params.typoCommonWords && commonWord(wordChecks(), t));
    if (misspelt && budget.corrections-- > 0) {
      const found = correct(t, surfaceOf(t), (word) => this.index.corrections(word));
      // A sure correction (one candidate, one edit away) is read as the word itself: it heads the
      // concept, so the request asks for its action ("delte" → delete) and carries its rarity
      // (inverted.ts reads the first term's), not that of a word no tool uses, which would make
      // "shedule" the rarest word of the request and any tool named schedule_* its answer. The
      // typo's own look-alikes go: "delte" is delete, not a form of "delt" (delta).
      const only = found.sure ? found.terms[0] : undefined;
      if (only !== undefined) {
        const sure = Math.max(w, this.params.typoSureWeight);
        weights.clear();
        weights.set(only, sure);
        tables(only, sure);
        return [...weights];
      }
      for (const c of found.terms) {
        add(c, w);
        tables(c, w);
      }
    }
    return [...weights];
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

  /** The query as the index sees it: one concept per distinct word, with its expansions. */
  concepts(query: string): Concept[] {
    return this.read(query).concepts;
  }

  /** Whether the catalog itself says every term of the word (a shorthand it uses is its own word). */
  private readonly says = (word: string): boolean => {
    const terms = analyzeText(word);
    return terms.length > 0 && terms.every((t) => this.index.df(t) > 0);
  };

  /**
   * The query's concepts, the terms that must not say which action it asks for (the verbs of
   * its phrasal verbs, the verbs it negates), and the negated ones.
   */
  private read(query: string): { concepts: Concept[]; notAsked: Set<string>; negated: Set<string>; listing: boolean } {
    const out: Concept[] = [];
    const seen = new Set<string>();
    // Typo look-ups scan the vocabulary of similar length: a few per query.
    const budget = { corrections: MAX_CORRECTIONS };
    // The query comes from a model or a person: bound the work it can ask for.
    const text = query.slice(0, MAX_QUERY_CHARS);
    // "cal tmrw", "mkdir src/utils": shorthand is the word it stands for.
    const shape = this.params.synonyms ? queryShape(this.params.shorthand ? expandShorthand(text, this.says) : text) : { text, hints: [] };
    // "pull up", "push it back": the verb's own sense is not meant, and the particle says nothing alone.
    const vw = this.params.phrasalWeight;
    const phrasal = vw < 1 ? phrasalVerbs(shape.text, PHRASAL_GAP) : { verbs: new Set<string>(), particles: new Set<string>() };
    // "... but don't send it": what the user does not want done picks no tool.
    // It still says what the request is about ("send" → mail), so its concept stays.
    const negated = this.params.negatedName > 0 ? negatedTerms(shape.text) : new Set<string>();
    // "where did I put the spreadsheet": how the thing came about, not what the tool does; counts as a phrasal verb does.
    const done = vw < 1 ? doneVerb(shape.text) : '';
    // "post in #general saying the deploy is done": the dictated words are a value, not a tool's job.
    const cw = this.params.contentWeight;
    const content = cw < 1 ? contentTerms(shape.text) : new Set<string>();
    // "so my manager wants … anyway can you …": the task is what is asked, not the story before it.
    const context = this.params.preambleWeight < 1 ? contextTerms(shape.text) : new Set<string>();
    // "file in linear: signup email not sent": after an instruction's colon comes the thing's text, not the tool's job.
    const payload = this.params.payloadWeight < 1 ? payloadTerms(shape.text) : new Set<string>();
    // "my open issues" is a state to list by, "open the readme" asks to view it: neither creates.
    const open = this.params.synonyms && this.params.openSense ? openSense(shape.text) : undefined;
    // Each term's surface word as typed (tokenize lower-cases), for corrections of a typo the stemmer
    // cut ("delte" → delt); worked out only when a word is taken for a typo, which few requests have.
    let surfaces: Map<string, string> | undefined;
    const surfaceOf = (t: string): string => {
      if (surfaces === undefined) {
        surfaces = new Map();
        for (const word of tokenize(shape.text)) {
          const own = termOf(word);
          if (own !== '' && !surfaces.has(own)) surfaces.set(own, word);
        }
      }
      return surfaces.get(t) ?? t;
    };
    for (const t of analyzeText(shape.text)) {
      // A bare number in a request ("issue 17", "PR 42") names an object, never a tool.
      if (seen.has(t) || DIGITS.test(t)) continue;
      if (out.length >= MAX_CONCEPTS) break;
      seen.add(t);
      let c: Concept = this.params.synonyms ? this.expand(t, surfaceOf, budget) : [[t, 1]];
      if (t === OPEN_TERM && open !== undefined) c = openConcept(open, this.params.synonymWeight);
      let scale = content.has(t) ? cw : phrasal.verbs.has(t) || t === done ? vw : phrasal.particles.has(t) ? 0 : 1;
      if (context.has(t)) scale *= this.params.preambleWeight;
      if (payload.has(t) && !content.has(t)) scale *= this.params.payloadWeight;
      if (scale !== 1) c = c.map(([term, w]) => [term, w * scale] as const);
      if (scale > 0) out.push(c);
    }
    if (open === 'state' && seen.has(OPEN_TERM)) shape.hints.push(LISTING);
    for (const hint of shape.hints) {
      const terms = [...new Set(analyzeText(hint.words))].filter((t) => !seen.has(t));
      if (terms.length > 0) out.push(terms.map((t) => [t, hint.weight] as [string, number]));
    }
    // "my linear tickets", "linear roadmap": a noun phrase with no action asks to see the things, as "open prs" does.
    const terse = this.params.synonyms && this.params.terseListing && isTerse(shape.text);
    return { concepts: out, notAsked: new Set([...phrasal.verbs, ...negated]), negated, listing: open === 'state' || terse };
  }
}
