// Reads the derived stem splits (stem-splits.ts, bench/search/derive-stems.mjs): words the Porter
// stemmer joins to a more frequent word of another meaning, each with the term it gets instead.
// Parsed once, on the first word the analyzer stems, never at import.

import { STEM_SPLITS } from './stem-splits.js';

const HEADER = /^switchboard-stem-splits 1 common=(\d+) cosine=(\S+) terms=(\d+)$/;
const WORD = /^[a-z]+$/;

/** A split: the term, and the words (the term's own word among them) that take it. */
export interface StemSplit {
  readonly term: string;
  readonly words: readonly string[];
}

/**
 * The table's text: a header line recording the thresholds, then one line per term: the term, then
 * its words in code-unit order, separated by single spaces. Throws on anything it could not read back.
 */
export function encodeStemSplits(splits: readonly StemSplit[], common: number, minCosine: number): string {
  const seen = new Set<string>();
  const lines = splits.map(({ term, words }) => {
    const sorted = [...words].sort();
    for (const w of [term, ...sorted]) if (!WORD.test(w)) throw new Error(`stem splits: bad word ${JSON.stringify(w)}`);
    for (const w of sorted) {
      if (seen.has(w)) throw new Error(`stem splits: ${w} given twice`);
      seen.add(w);
    }
    return [term, ...sorted].join(' ');
  });
  return [`switchboard-stem-splits 1 common=${common} cosine=${minCosine} terms=${splits.length}`, ...lines].join('\n') + '\n';
}

/** Reads encodeStemSplits' text into word → term; throws on anything it would not have written. */
export function parseStemSplits(text: string): Map<string, string> {
  const lines = text.split('\n');
  const header = HEADER.exec(lines[0] ?? '');
  if (header === null || lines.at(-1) !== '' || lines.length !== Number(header[3]) + 2) throw new Error('not a stem-splits table');
  const out = new Map<string, string>();
  for (let i = 1; i < lines.length - 1; i++) {
    const [term, ...words] = lines[i]!.split(' ');
    if (term === undefined || !WORD.test(term) || words.length === 0) throw new Error(`stem-splits table: bad line ${i + 1}`);
    for (const w of words) {
      if (!WORD.test(w) || out.has(w)) throw new Error(`stem-splits table: bad word on line ${i + 1}`);
      out.set(w, term);
    }
  }
  return out;
}

let table: Map<string, string> | undefined;

/** Word → its own term, for the words the table splits off their Porter stem. */
export function stemSplits(): Map<string, string> {
  return (table ??= parseStemSplits(STEM_SPLITS));
}
