// The action a tool performs and the action a query asks for, by families of verbs: fetching
// (get, list, search), writing (create, send), changing, deleting, running. A tool whose name
// says one family, asked for with a query that says only others, is likely the wrong tool of
// the right object (list_channels for "post to the channel"). A request's action is a verb in
// its base form; participles describe, and a question without an action asks to fetch.

import { analyzeText, isIrregularPast, term } from './analyze.js';
import { tokenize } from './tokenize.js';

const FAMILIES: Record<string, string> = {
  fetch: 'get fetch retrieve read obtain view show see display load inspect describe list enumerate browse search find lookup query seek locate discover look',
  write: 'create add new make insert generate build compose draft send post publish notify deliver reply respond upload write remind',
  change: 'update edit modify change patch alter set rename adjust mark move assign',
  delete: 'delete remove drop destroy erase purge trash discard uninstall clear',
  run: 'run execute invoke exec trigger launch call perform start',
};

let table: Map<string, number> | undefined;

function families(): Map<string, number> {
  if (table !== undefined) return table;
  table = new Map();
  Object.values(FAMILIES).forEach((words, i) => {
    for (const t of analyzeText(words)) if (!table!.has(t)) table!.set(t, 1 << i);
  });
  return table;
}

/** Bit set of the action families the terms name (0: none). */
export function actionsOf(terms: Iterable<string>): number {
  const f = families();
  let bits = 0;
  for (const t of terms) bits |= f.get(t) ?? 0;
  return bits;
}

/** Participles (-ed, -ing) say what state the wanted things are in, not what to do to them. */
const PARTICIPLE = /^[a-z]{3,}(?:ed|ing)$/;

/**
 * The terms of a request that are only said as participles ("tickets assigned to me",
 * "completed tasks", "programs running"): requests give their action in the base form
 * ("assign", "run"), so these describe the objects and must not count as the action asked for.
 */
export function describingTerms(text: string): Set<string> {
  const participles = new Set<string>();
  const plain = new Set<string>();
  for (const w of tokenize(text)) {
    const t = term(w);
    if (t.length === 0) continue;
    (PARTICIPLE.test(w) || isIrregularPast(w) ? participles : plain).add(t);
  }
  for (const t of plain) participles.delete(t);
  return participles;
}

const QUESTION = /^\s*(?:what|what's|whats|which|who|whom|whose|where|when|how|is|are|was|were|do|does|did|have|has|had|can|could|am)\b|\?\s*$/i;

/**
 * A question about what has been done ("what rules have I set up?", "which files did PR 42
 * touch?"): its verbs tell which things to report, not what to do. "How do I ..." is left out:
 * it asks how to do the thing, often meaning "do it".
 */
const ABOUT_DONE = /^\s*(?:what|what's|whats|which|who|whom|whose|where|when|how (?:many|much|long|often))\b.*?\b(?:have|has|had|did|do|does)\s+\w+/i;

const QUESTION_WORD = '^\\s*(?:what|what\'s|whats|which|who|whom|whose|where|when|how (?:many|much|long|often))\\b.*?';
const SUBJECT = '(?:i|we|you|they|he|she|it|someone|anyone)\\s+';
/**
 * "did" + a pronoun takes the bare verb (a noun subject, "did PR 42 touch", has no end we can
 * see); "have" takes a participle, or it means owning ("who has push access").
 */
const DID_VERB = new RegExp(`${QUESTION_WORD}\\bdid\\s+${SUBJECT}([a-z]+)`, 'i');
const HAVE_VERB = new RegExp(`${QUESTION_WORD}\\b(?:have|has|had)\\s+(?:${SUBJECT})?([a-z]+)`, 'i');

/**
 * The verb of a question about what was done ("where did I put …", "what have I starred"): it
 * says how the thing came about, not what the tool does; its term, or '' when there is none.
 */
export function doneVerb(text: string): string {
  const did = DID_VERB.exec(text)?.[1];
  if (did !== undefined) return term(did.toLowerCase());
  const have = HAVE_VERB.exec(text)?.[1]?.toLowerCase();
  return have !== undefined && (PARTICIPLE.test(have) || isIrregularPast(have)) ? term(have) : '';
}

/**
 * The families a request asks for: those its own words name (participles aside); a question
 * that names none ("what tickets are assigned to me?"), or that asks about what was done,
 * asks to be told, which is fetching.
 */
export function askedActions(text: string, terms: readonly string[]): number {
  if (ABOUT_DONE.test(text)) return actionsOf(['get']);
  const describing = describingTerms(text);
  const bits = actionsOf(terms.filter((t) => !describing.has(t)));
  return bits === 0 && QUESTION.test(text) ? actionsOf(['get']) : bits;
}
