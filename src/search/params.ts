// The ranking's parameters and their defaults: BM25F's field weights and length normalisation,
// the weights of a query word's other forms and corrections, the bounded boosts, crowding, and
// key-term selection. Defaults were chosen on bench/search's dev sets (README, round 17).

import type { FieldName } from './fields.js';
import type { FieldParams } from './inverted.js';

export interface RankingParams {
  k1: number;
  fields: Record<FieldName, FieldParams>;
  /** Weight of an indexed term that is another form of the query's word (morphology.ts); 0 = off. */
  formWeight: number;
  /**
   * Weight of the corrections of a query word no tool uses (a typo): the indexed terms nearest it
   * (spelling.ts); 0 = off.
   */
  typoWeight: number;
  /**
   * Weight of a sure correction instead (corrections.ts: the only candidate, one edit from the
   * stem or the word as typed): "delte" is delete, nearly as plainly as if it had been typed so.
   */
  typoSureWeight: number;
  /**
   * For a request that matches nothing, search again with each word's most similar indexed
   * terms by character trigrams (ngrams.ts), weighted by their Dice coefficient.
   */
  gramFallback: boolean;
  /**
   * Bonus for a tool whose name the query covers: score × (1 + nameCoverage × share of the
   * name's words, apart from the server's own, that the query says, other forms at their weight).
   */
  nameCoverage: number;
  /**
   * Share of the name-coverage credit for a name word the query says in another form only (the
   * same stem, not the word as written): "create event" covers create-event fully, create-events
   * at this share. 1 = no difference.
   */
  nameFormCredit: number;
  /** Tools of a server the query names ("... in hubspot") score × (1 + serverMention × the naming term's weight). */
  serverMention: number;
  /** Tools score × (1 + serverContext × their server's relevance to the query, best = 1; servers.ts). */
  serverContext: number;
  /** A tool with a parameter of a kind of value the query carries (a URL, a path, #channel...) scores × (1 + valueMatch). */
  valueMatch: number;
  /** Each tool of one server past its first crowdingFree in the ranking scores × this once more (1 = off; crowding.ts). */
  crowdingDecay: number;
  crowdingFree: number;
  /** Each further tool of one name family (families.ts) in the ranking scores × this once more (1 = off). */
  familyDecay: number;
  /** Key-term selection (keyterms.ts): a query with more than keyTermsAbove distinct content terms... */
  keyTermsAbove: number;
  /** ... keeps its keyTermsKept rarest at full weight ... */
  keyTermsKept: number;
  /** ... and the rest at this weight (0 drops them). */
  keyTermsWeight: number;
}

/** Chosen on the dev sets of bench/search (README, round 17). */
export const DEFAULT_RANKING: RankingParams = {
  k1: 1,
  fields: {
    name: { weight: 3, b: 0.3 },
    title: { weight: 2, b: 0.3 },
    summary: { weight: 1.5, b: 0.3 },
    // Prose fields: how long a description runs is its server's house style, so its length
    // counts half against its own server's tools and half against everyone's.
    description: { weight: 0.7, b: 0.6, groupNorm: 0.5 },
    params: { weight: 0.6, b: 0.3 },
    paramText: { weight: 0.3, b: 0.6, groupNorm: 0.5 },
    // The product's name, when the request says it, weighs more; a longer server name counts a little less per word.
    server: { weight: 2.25, b: 0.2 },
  },
  formWeight: 0.5,
  typoWeight: 0.6,
  typoSureWeight: 0.85,
  gramFallback: true,
  nameCoverage: 0.5,
  nameFormCredit: 0.4,
  serverMention: 0.75,
  serverContext: 0.5,
  valueMatch: 0.2,
  crowdingDecay: 0.8,
  crowdingFree: 3,
  familyDecay: 0.5,
  keyTermsAbove: 12,
  keyTermsKept: 6,
  keyTermsWeight: 0.5,
};
