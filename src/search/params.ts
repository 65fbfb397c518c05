// The ranking's parameters and their defaults: field weights and length normalisation, and the
// weight or factor of each rule layered over BM25F (expansions, corrections, boosts, penalties).
// Defaults were chosen on the dev queries of bench/search; the test half judges them.

import type { FieldName } from './fields.js';
import type { FieldParams } from './inverted.js';
import { SYNONYM_WEIGHT } from './synonyms.js';
import { WORLD_WEIGHT } from './world.js';

export interface RankingParams {
  k1: number;
  fields: Record<FieldName, FieldParams>;
  /** Use the synonym groups and query-shape hints (off only to measure what they bring). */
  synonyms: boolean;
  /** Weight of a synonym relative to the query's own word. */
  synonymWeight: number;
  /** Weight of a world-knowledge expansion (world.ts) relative to the query's own word. */
  worldWeight: number;
  /** Weight of an indexed term that is another form of the query's word (morphology.ts); 0 = off. */
  formWeight: number;
  /**
   * Whether general word vectors (vectors.ts) may turn an indexed term away as a form of a common
   * query word ("country" ↛ count, "back" ↛ backend); false = no check (and the table is never read).
   * An on/off switch: the thresholds (the 10,000 most frequent terms, cosine below 0.3) are baked
   * into word-checks.ts; changing them means re-deriving it (bench/search/derive-vectors.mjs).
   */
  formCheck: boolean;
  /** Each tool of one server past its first crowdingFree in the ranking scores × this once more (1 = off; crowding.ts). */
  crowdingDecay: number;
  crowdingFree: number;
  /** Each further tool of one name family (families.ts) in the ranking scores × this once more (1 = off). */
  familyDecay: number;
  /**
   * Weight of the corrections of a query word that neither a tool nor the expansion tables know
   * (a typo): the known terms nearest it (spelling.ts), and their expansions at this share; 0 = off.
   */
  typoWeight: number;
  /**
   * Weight of a sure correction instead (corrections.ts: the only candidate, one edit from the
   * stem or the word as typed): "delte" is delete, nearly as plainly as if it had been typed so.
   */
  typoSureWeight: number;
  /**
   * Whether a query word among general English's most frequent terms (vectors.ts; 10,000, baked into
   * word-checks.ts like formCheck's thresholds) is taken as a word, not a misspelling, and never corrected.
   */
  typoCommonWords: boolean;
  /**
   * Weight of the verb of a phrasal verb ("pull up", "push my 1:1 back"; phrasal.ts), whose
   * particle is then dropped and whose verb names no action; also of the verb of a question
   * about what was done ("where did I put …", actions.ts doneVerb); 1 = off.
   */
  phrasalWeight: number;
  /**
   * A tool whose name holds a verb the request negates ("draft it but don't send it";
   * negation.ts) scores × (1 − negatedName) for each such word; the verb names no action either.
   * 0 = off.
   */
  negatedName: number;
  /**
   * For a request that matches nothing, search again with each word's most similar indexed
   * terms by character trigrams (ngrams.ts), weighted by their Dice coefficient.
   */
  gramFallback: boolean;
  /**
   * Bonus for a tool whose name the query covers: score × (1 + nameCoverage × share of the
   * name's words, apart from the server's own, that the query names, synonyms at their weight).
   */
  nameCoverage: number;
  /**
   * Tools of a server the query names ("... in hubspot") score × (1 + serverMention × the
   * naming term's weight): 1 for the query's own word, less for an expansion of it.
   */
  serverMention: number;
  /** A tool whose name's action family differs from every one the query names scores × (1 − actionMismatch). */
  actionMismatch: number;
  /** Tools score × (1 + serverContext × their server's relevance to the query, best = 1). */
  serverContext: number;
  /**
   * A tool scores × (1 − numberMismatch) for each word of its name that the query says in the
   * other grammatical number (`get_user` for "the members", `create-events` for "an appointment").
   */
  numberMismatch: number;
  /**
   * Weight of a word the request says only in dictated or quoted content ("… saying the deploy
   * is done", "\"Order confirmed\"", "called web"; content.ts): a value for the tool, not a word
   * about which tool. 1 = off.
   */
  contentWeight: number;
  /** A tool with a parameter of a kind of value the query carries (a URL, a path, #channel...) scores × (1 + valueMatch). */
  valueMatch: number;
  /** Weight of a word said only in a chatty request's context, before it asks ("so … anyway can you …"; preamble.ts). 1 = off. */
  preambleWeight: number;
  /** Weight of a word said only after an instruction's colon ("file in linear: signup email not sent"; payload.ts). 1 = off. */
  payloadWeight: number;
  /** A request that is a noun phrase with no action ("my linear tickets"; terse.ts) asks to list, as "open prs" does. */
  terseListing: boolean;
  /** Read "open" by its sense (senses.ts): a state ("my open issues") takes no synonyms, "open the readme" reads as view. */
  openSense: boolean;
  /** Write out the request's shorthand ("tmrw", "appt", "mkdir"; shorthand.ts) before reading it. */
  shorthand: boolean;
}

/** Chosen on the dev half of bench/search's queries; the test half judges them. */
export const DEFAULT_RANKING: RankingParams = {
  k1: 1.2,
  fields: {
    name: { weight: 3, b: 0.3 },
    title: { weight: 2, b: 0.3 },
    summary: { weight: 1.5, b: 0.3 },
    // Prose fields: how long a description runs is its server's house style, so its length
    // counts half against its own server's tools and half against everyone's.
    description: { weight: 0.7, b: 0.6, groupNorm: 0.5 },
    params: { weight: 0.6, b: 0.3 },
    paramText: { weight: 0.3, b: 0.6, groupNorm: 0.5 },
    // Round 16e (tune.mjs on all five dev sets, held by each): the product's name, when the
    // request says it, weighs more, and a longer server name counts a little less per word.
    server: { weight: 2.25, b: 0.2 },
  },
  synonyms: true,
  synonymWeight: SYNONYM_WEIGHT,
  worldWeight: WORLD_WEIGHT,
  formWeight: 0.7,
  formCheck: true,
  crowdingDecay: 0.8,
  crowdingFree: 3,
  familyDecay: 0.5,
  typoWeight: 0.6,
  typoSureWeight: 0.85,
  typoCommonWords: true,
  phrasalWeight: 0.5,
  negatedName: 0.5,
  gramFallback: true,
  nameCoverage: 0.5,
  serverMention: 0.5,
  serverContext: 0.5,
  actionMismatch: 0.3,
  numberMismatch: 0.05,
  valueMatch: 0.2,
  contentWeight: 0,
  shorthand: true,
  preambleWeight: 0.5,
  payloadWeight: 0,
  terseListing: true,
  openSense: true,
};
