// Reading a request: its words as index terms (tokenize.ts, analyze.ts), one concept per distinct
// term, with the indexed terms that are other forms of it (morphology.ts) and, for a word no tool
// uses, its likely corrections (spelling.ts, corrections.ts). Forms and corrections come from the
// indexed vocabulary, so the same request reads differently against different catalogs.

import { analyzeText, term as termOf } from './analyze.js';
import { correct } from './corrections.js';
import type { Concept } from './inverted.js';
import type { RankingParams } from './params.js';
import { tokenize } from './tokenize.js';

/** What reading a request asks of the index. */
export interface Vocabulary {
  /** Number of tools holding the term. */
  df(term: string): number;
  /** Indexed terms that are another form of the term. */
  forms(term: string): string[];
  /** Indexed terms nearest a misspelt term. */
  corrections(term: string): string[];
}

/** The request comes from a model or a person: the work it can ask for is bounded. */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_CONCEPTS = 32;
/** Query words looked up as possible typos per request: a look-up scans the terms of similar length. */
const MAX_CORRECTIONS = 4;
const DIGITS = /^[0-9]+$/;

type Weights = Pick<RankingParams, 'formWeight' | 'typoWeight' | 'typoSureWeight'>;

/** The request's concepts, in the order its words come. */
export function readQuery(query: string, vocabulary: Vocabulary, params: Weights): Concept[] {
  const text = query.slice(0, MAX_QUERY_CHARS);
  const out: Concept[] = [];
  const seen = new Set<string>();
  let corrections = MAX_CORRECTIONS;
  // Each term's surface word as typed, for corrections of a typo the stemmer cut ("delte" → delt);
  // worked out only when a word is taken for a typo, which few requests have.
  let surfaces: Map<string, string> | undefined;
  const surfaceOf = (t: string): string => {
    if (surfaces === undefined) {
      surfaces = new Map();
      for (const word of tokenize(text)) {
        const own = termOf(word);
        if (own !== '' && !surfaces.has(own)) surfaces.set(own, word);
      }
    }
    return surfaces.get(t) ?? t;
  };
  for (const t of analyzeText(text)) {
    // A bare number in a request ("issue 17", "PR 42") names an object, never a tool.
    if (seen.has(t) || DIGITS.test(t)) continue;
    if (out.length >= MAX_CONCEPTS) break;
    seen.add(t);
    const weights = new Map<string, number>([[t, 1]]);
    const add = (term: string, w: number): void => {
      if (w > (weights.get(term) ?? 0)) weights.set(term, w);
    };
    if (params.formWeight > 0) for (const s of vocabulary.forms(t)) add(s, params.formWeight);
    if (params.typoWeight > 0 && vocabulary.df(t) === 0 && corrections-- > 0) {
      const found = correct(t, surfaceOf(t), (word) => vocabulary.corrections(word));
      // A sure correction (one candidate, one edit away) is read as the word itself: it heads the
      // concept, so the concept carries its rarity (inverted.ts reads the first term's), not that
      // of a word no tool uses, which would make "shedule" the rarest word of the request. The
      // typo's own look-alikes go: "delte" is delete, not a form of "delt" (delta).
      if (found.sure) {
        out.push([[found.terms[0]!, Math.max(params.typoWeight, params.typoSureWeight)]]);
        continue;
      }
      for (const c of found.terms) add(c, params.typoWeight);
    }
    out.push([...weights]);
  }
  return out;
}
