// Grammatical number, which stemming throws away: `get_user` and `get_users`, `create-event` and
// `create-events` differ only in it, and a request says which it wants ("the members", "an
// appointment"). Heuristic English plural test on surface words; unknown words count as singular.

import { term } from './analyze.js';

/** True when the word is a regular English plural of a word with the same index term. */
export function isPlural(word: string): boolean {
  if (word.length < 4 || !word.endsWith('s') || /(?:ss|us|is|ous)$/.test(word)) return false;
  const t = term(word);
  if (t.length === 0) return false;
  if (word.endsWith('ies') && term(`${word.slice(0, -3)}y`) === t) return true;
  if (word.endsWith('es') && term(word.slice(0, -2)) === t) return true;
  return term(word.slice(0, -1)) === t;
}

/**
 * Index term → plural? for the words given; a term said both ways is left out (it says
 * nothing about number). Stop words are left out.
 */
export function numbers(words: readonly string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const both = new Set<string>();
  for (const w of words) {
    const t = term(w);
    if (t.length === 0 || both.has(t)) continue;
    const p = isPlural(w);
    const had = out.get(t);
    if (had === undefined) out.set(t, p);
    else if (had !== p) {
      out.delete(t);
      both.add(t);
    }
  }
  return out;
}
