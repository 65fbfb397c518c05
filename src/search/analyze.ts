// From words to index terms: stop words out, English words stemmed (Porter, `stemmer`), other
// scripts kept as the tokenizer made them. The same function serves documents and queries, so a
// query term and a document term meet exactly when their words share a stem.

import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { stemSplits } from './stem-splits-table.js';
import { pushRunWords, runs, splitName } from './tokenize.js';

/**
 * Words that carry a tool's meaning even though general stop-word lists drop them
 * (`get`, `make`, `all`, `up`...): tool names are built from exactly these.
 */
const KEEP = new Set(['get', 'make', 'take', 'all', 'up', 'out', 'over', 'under', 'before', 'after', 'new', 'first', 'more', 'same', 'other', 'come', 'way', 'well', 'most', 'now', 'never', 'only', 'between', 'through', 'still', 'each', 'many', 'much', 'since', 'back', 'down', 'off']);

/** How people talk to assistants: politeness, hedges and pronouns that no tool is about. */
const CONVERSATIONAL = [
  'please', 'pls', 'could', 'would', 'can', 'want', 'wanna', 'need', 'needs', 'let', 'lets', 'us',
  'tell', 'help', 'hey', 'hi', 'thanks', 'thank', 'ok', 'okay', 'just', 'also', 'really', 'something',
  'anything', 'somebody', 'someone', 'whatever', 'i', 'im', 'ive', 'id', 'me', 'my', 'mine', 'our',
  'ours', 'you', 'your', 'yours', 'it', 'its', 'this', 'that', 'these', 'those', 'there', 'here',
  'what', 'whats', 'which', 'who', 'whom', 'whose', 'how', 'why', 'when', 'where', 'is', 'are', 'was',
  'were', 'be', 'been', 'being', 'do', 'does', 'did', 'doing', 'done', 'don', 'doesn', 'didn', 'isn',
  'aren', 'wasn', 'weren', 'won', 'shouldn', 'couldn', 'wouldn', 'haven', 'hasn', 'll', 've', 're',
  'the', 'a', 'an', 'some', 'any', 'of', 'for', 'to', 'with', 'from', 'by', 'at', 'as', 'about',
  'into', 'onto', 'than', 'then', 'so', 'if', 'or', 'and', 'but', 'nor', 'yet', 'will', 'shall',
  'should', 'may', 'might', 'must', 'have', 'has', 'had', 'having', 'go', 'going', 'gonna',
  'kind', 'sort', 'bit', 'maybe', 'quick', 'quickly', 'actually', 'currently', 'right', 'ago',
];

const STOP = new Set<string>([...(eng as string[]), ...CONVERSATIONAL].filter((w) => !KEEP.has(w)));

/** English irregular forms, which no suffix stemmer can join to their base ("sent" → send). */
const IRREGULAR = new Map<string, string>(
  [
    'ran run', 'wrote write', 'written write', 'made make', 'found find', 'got get', 'gotten get',
    'took take', 'taken take', 'gave give', 'given give', 'saw see', 'seen see', 'left leave', 'kept keep',
    'built build', 'chose choose', 'chosen choose', 'began begin', 'begun begin', 'broke break', 'broken break',
    'brought bring', 'bought buy', 'drew draw', 'drawn draw', 'drove drive', 'driven drive', 'forgot forget',
    'forgotten forget', 'froze freeze', 'frozen freeze', 'held hold', 'hid hide', 'hidden hide', 'knew know',
    'known know', 'lost lose', 'met meet', 'paid pay', 'said say', 'sold sell', 'spent spend', 'stood stand',
    'stole steal', 'stolen steal', 'told tell', 'thought think', 'threw throw', 'thrown throw', 'woke wake',
    'shown show', 'grew grow', 'grown grow', 'led lead', 'sent send', 'struck strike', 'bound bind', 'fed feed',
    'children child', 'people person', 'men man', 'women woman', 'indices index', 'indexes index', 'data datum',
  ].map((pair) => pair.split(' ') as [string, string]),
);

/**
 * Words the Porter stemmer joins to a word of another meaning, given their own term by hand, where the
 * derived splits (stem-splits.ts) cannot: general vectors trained on news text relate "news" to "new"
 * (which tools read as create; cosine 0.45) and "busy" to "business" (0.36; being busy is a calendar's
 * word, a business a place's), both just above the 0.3 the derivation splits at.
 */
const UNSTEMMED = new Map<string, string>([['news', 'news'], ['busy', 'busy']]);

/** The irregular forms above that are nouns' plurals; the rest are verbs' past forms. */
const PLURALS = new Set(['children', 'people', 'men', 'women', 'indices', 'indexes', 'data']);

/** True for an English irregular form the analyzer joins to its base word ("sent", "children"). */
export function isIrregular(word: string): boolean {
  return IRREGULAR.has(word);
}

/** True for an irregular past form or participle ("written", "sent", "built"). */
export function isIrregularPast(word: string): boolean {
  return IRREGULAR.has(word) && !PLURALS.has(word);
}

const ASCII_WORD = /^[a-z]+$/;
const ASCII_LETTER = /^[a-z]$/;

/** Stem cache: catalogs repeat the same few thousand words, and stemming dominates analysis. */
const stems = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

/** The index term of one lower-case word, or '' when the word is a stop word or noise. */
export function term(word: string): string {
  if (STOP.has(word) || ASCII_LETTER.test(word)) return '';
  if (!ASCII_WORD.test(word)) return word;
  let s = stems.get(word);
  if (s === undefined) {
    const base = IRREGULAR.get(word) ?? word;
    s = UNSTEMMED.get(base) ?? stemSplits().get(base) ?? stemmer(base);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/**
 * The Porter stem of a word's base form (irregular forms joined to theirs), before any split of
 * words the stemmer joins wrongly: what bench/search/derive-stems.mjs groups words by.
 */
export function baseTerm(word: string): string {
  return stemmer(IRREGULAR.get(word) ?? word);
}

/** Terms per run: catalogs repeat the same words, and splitting plus stemming dominates indexing. */
const runTerms = new Map<string, string[]>();
const RUN_CACHE_LIMIT = 200_000;

/** Index terms of free text, in order, repeats kept (term frequency matters). A new array. */
export function analyzeText(text: string): string[] {
  const out: string[] = [];
  for (const run of runs(text)) {
    let terms = runTerms.get(run);
    if (terms === undefined) {
      const words: string[] = [];
      pushRunWords(run, words);
      terms = toTerms(words);
      if (runTerms.size >= RUN_CACHE_LIMIT) runTerms.clear();
      runTerms.set(run, terms);
    }
    for (const t of terms) out.push(t);
  }
  return out;
}

const nameTerms = new Map<string, string[]>();

/** Index terms of an identifier (tool, server or parameter name). */
export function analyzeName(name: string): string[] {
  return nameTermsShared(name).slice();
}

/** Same as analyzeName, without the copy: the array is shared, callers must not modify it. */
export function nameTermsShared(name: string): readonly string[] {
  let terms = nameTerms.get(name);
  if (terms === undefined) {
    terms = toTerms(splitName(name));
    if (nameTerms.size >= RUN_CACHE_LIMIT) nameTerms.clear();
    nameTerms.set(name, terms);
  }
  return terms;
}

function toTerms(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const t = term(w);
    if (t.length > 0) out.push(t);
  }
  return out;
}

/** True when the word is dropped as a stop word (exported for tests and the query explainer). */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}
