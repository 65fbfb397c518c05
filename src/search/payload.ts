// What a request hands over after a colon: "file a bug on github: checkout button does nothing on
// safari", "add a row to the Leads table: Initech, 50 seats". When the words before the colon are
// an instruction (2+ words with an article, pronoun or preposition: "in linear", "to the task"), the
// words after it are the thing's text, a value for the tool, not words about which tool. A label
// before the colon ("redis:", "github actions:", "todo:") is not an instruction: what follows is the
// ask. Terms said only after the colon are returned; a term also said elsewhere keeps its weight.
// Linear patterns on the bounded query.

import { analyzeText } from './analyze.js';

/** A colon that ends an instruction: the sentence so far holds no colon, and whitespace follows. */
const COLON = /(^|[.!?\n]\s*)([^:.!?\n]+):\s+([^.!?\n]*)/g;
/** Function words that make the words before a colon a clause rather than a label. */
const CLAUSE = /\b(?:a|an|the|this|that|these|those|my|our|your|its|in|on|to|for|into|onto|under|at|with|of)\b/i;
const MIN_WORDS = 2;

const wordCount = (s: string): number => s.split(/\s+/).filter((w) => /\w/.test(w)).length;

/** Terms said only after a colon that ends an instruction; empty when there is none. */
export function payloadTerms(text: string): Set<string> {
  let outside = text;
  const inside: string[] = [];
  outside = text.replace(COLON, (m, lead: string, before: string, after: string) => {
    if (wordCount(before) < MIN_WORDS || !CLAUSE.test(before)) return m;
    inside.push(after);
    return `${lead}${before} `;
  });
  if (inside.length === 0) return new Set();
  const said = new Set(analyzeText(outside));
  return new Set(analyzeText(inside.join(' ')).filter((t) => !said.has(t)));
}
