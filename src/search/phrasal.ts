// Phrasal verbs: a verb followed by a particle ("pull up", "put out", "push … back", "block
// out") means something else than the verb alone, so neither the verb's literal sense nor the
// particle should pick a tool ("push my 1:1 back" is not push_files). One detector over a closed
// list of particles, never a list of phrases; the set phrases hints.ts rewrites come first.

import { term } from './analyze.js';

/** Particles that turn a verb into a phrasal verb. */
const PARTICLES = new Set(['up', 'out', 'back', 'over', 'off', 'down', 'away']);

/** Words after which the next word is a clause's verb: the start of a request, its subject, "to". */
const LEAD = new Set([
  'please', 'pls', 'can', 'could', 'would', 'will', 'you', 'i', 'we', 'they', 'he', 'she', 'to', 'and', 'then',
  'just', 'now', 'also', 'let', 'lets', "let's", 'go', 'need', 'want', 'hey', 'ok', 'okay', 'quickly', 'first',
  'should', 'must', 'i\'ll', 'we\'ll', 'ill', 'who', 'did', 'didn\'t', 'have', 'has', 'had',
]);

/** Short objects a phrasal verb may hold between verb and particle ("catch me up", "push it back"). */
const HELD = new Set(['me', 'it', 'them', 'him', 'her', 'us', 'this', 'that', 'these', 'those', 'everything', 'everyone']);

/** Clause breaks: punctuation (a dot or colon only before a space: "1:1", "index.js" stay whole), conjunctions. */
const CLAUSES = /[,;!?()]+|[.:]+(?=\s|$)|\s(?:and|then|but|so|or)\s/i;
const LETTERS = /^[a-z]+$/;
const WORD = /[\p{L}\p{N}'’]+/gu;

export interface Phrasal {
  /** Index terms of verbs used with a particle. */
  verbs: Set<string>;
  /** Index terms of the particles so used. */
  particles: Set<string>;
}

/**
 * The phrasal verbs of a request: a clause's verb (its first word, or the word after a subject
 * or "to"), then a particle right after it or after `gap` more words ("push my 1:1 with Dan
 * back"), at most `gap`; with gap 0 only held pronouns may come between.
 */
export function phrasalVerbs(text: string, gap = 0): Phrasal {
  const verbs = new Set<string>();
  const particles = new Set<string>();
  for (const clause of text.toLowerCase().split(CLAUSES)) {
    const words = (clause.match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
    for (let v = 0; v < words.length; v++) {
      if (!(v === 0 || LEAD.has(words[v - 1]!))) continue;
      const verb = words[v]!;
      if (!LETTERS.test(verb) || LEAD.has(verb) || PARTICLES.has(verb) || HELD.has(verb)) continue;
      for (let p = v + 1; p < words.length && p <= v + 2 + gap; p++) {
        const w = words[p]!;
        if (PARTICLES.has(w)) {
          const t = term(verb);
          if (t.length > 0) {
            verbs.add(t);
            particles.add(term(w));
          }
          break;
        }
        // Another verb's place ("mike to look over"): the particle, if any, is that verb's.
        if ((gap === 0 && !HELD.has(w)) || LEAD.has(w)) break;
      }
    }
  }
  return { verbs, particles };
}
