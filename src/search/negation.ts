// Negated verbs: "draft it but don't send it", "archive it without deleting": the negated verb
// names what the user does NOT want done, so it must neither match tools nor say the action.
// Only negated instructions count ("don't", "do not", "never", "without"...): "doesn't", "won't",
// "no" and a bare "not" describe a state or qualify things ("the toggle doesn't stick", "issues
// with no assignee") and are left alone.

import { analyzeText } from './analyze.js';

/** A verb negator, any adverbs after it, then the negated word (captured). */
const NEGATED =
  /\b(?:don'?t|do not|never|without|not to|rather than|instead of)\s+(?:(?:yet|just|even|ever|actually|really|accidentally|also|go|be|any)\s+)*([a-z]+)/gi;

/**
 * Index terms of the words a request negates, unless the same request also says them plainly
 * ("send it to Ann but don't send it to Bob" still asks to send).
 */
export function negatedTerms(text: string): Set<string> {
  const negated = new Set<string>();
  let rest = text.replace(/’/g, "'");
  for (const m of rest.matchAll(NEGATED)) for (const t of analyzeText(m[1]!)) negated.add(t);
  if (negated.size === 0) return negated;
  rest = rest.replace(NEGATED, ' ');
  for (const t of analyzeText(rest)) negated.delete(t);
  return negated;
}
