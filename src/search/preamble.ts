// Which part of a chatty request is the task: it tells its context first and asks after ("so the
// team argued in #design yesterday and I wasn't there, could you pull up what was said"). Terms
// said only in the context are returned; a term also said in the task is never among them.
// Patterns are linear (no nested repeats) on the bounded query.

import { analyzeText } from './analyze.js';

/** Where the asking starts: "can you", "could u", "pls", "I need you to", "anyway". */
const ASK = /\b(?:can|could|would|will)\s+(?:you|u)\b|\b(?:pls|plz|please)\b|\bi\s+(?:need|want|would like|'d like)\s+(?:you|u)\s+to\b|\banyway\b|\banyhow\b/gi;
/** Words of context before the asking that make it a preamble rather than a short lead-in ("hey can you"). */
const PREAMBLE_WORDS = 6;

const wordCount = (s: string): number => s.split(/\s+/).filter((w) => /\w/.test(w)).length;

/** Terms said only in a chatty request's context, before it asks; empty when it has none. */
export function contextTerms(text: string): Set<string> {
  let task = text;
  let before = '';
  // The last ask that follows enough context: the context is all before it.
  for (const m of text.matchAll(ASK)) {
    if (wordCount(text.slice(0, m.index)) >= PREAMBLE_WORDS) {
      before = text.slice(0, m.index);
      task = text.slice(m.index);
    }
  }
  if (before === '') return new Set();
  const said = new Set(analyzeText(task));
  return new Set(analyzeText(before).filter((t) => !said.has(t)));
}
