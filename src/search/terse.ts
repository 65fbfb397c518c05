// A request that is only a noun phrase ("my linear tickets", "linear roadmap", "redis keys starting
// with user:") names the things it wants and no action: it asks to see them, as "open prs" does
// (senses.ts). The action families (actions.ts) cannot tell it from an instruction whose verb they
// lack ("book a call", "restart the pod"); a general list of the words that can be verbs can
// (verbs.ts, from WordNet): the request is a noun phrase when its first word, past owners, articles
// and politeness, cannot be a verb, nor the word after it ("password protect"), nor the first word
// of a later clause ("the meeting of tomorrow, please put it later"). A label before a colon
// ("linear: issues assigned to me") is passed over. Questions ask to be told already (actions.ts).
// Linear patterns on the bounded query; the list is parsed once, on first use.

import { VERBS } from './verbs.js';

let verbs: Set<string> | undefined;

/** Whether the word can be a verb in its base form (WordNet's verb lemmas). */
export function canBeVerb(word: string): boolean {
  verbs ??= new Set(VERBS.split(/\s+/).filter((w) => w.length > 0));
  return verbs.has(word);
}

/** Words before a request's first noun that say nothing of its kind: owners, articles, politeness. */
const LEAD = new Set(['my', 'our', 'the', 'all', 'your', 'his', 'her', 'their', 'a', 'an', 'this', 'these', 'those', 'every', 'any', 'some', 'i', 'pls', 'please', 'plz', 'hey', 'hi', 'ok', 'okay', 'so', 'oops', 'just', 'also', 'now']);
const QUESTION = /\?\s*$|^\s*(?:what|which|who|where|when|how|why|is|are|do|does|did|can|could|should|will|would)\b/i;
/** A label of one to three words before a colon ("linear:", "desktop commander cfg:"). */
const LABEL = /^\s*((?:[\w-]+\s+){0,2}[\w-]+):\s+(.*)$/s;
/** The first word of a later clause: after a comma or semicolon, "please", "and", "then". */
const CLAUSE_START = /(?:[,;]|\b(?:please|pls|and|then))\s+([a-z]+)\b/g;
const WORD = /[a-z0-9][a-z0-9'-]*/g;
const ADVERB = /^[a-z]+ly$/;

/** True when the request is a noun phrase that names things and no action. */
export function isTerse(request: string): boolean {
  let text = request;
  const label = LABEL.exec(text);
  if (label !== null) {
    // "open PR: …" is an instruction, not a label.
    if (canBeVerb(label[1]!.toLowerCase().split(/\s+/)[0]!)) return false;
    text = label[2]!;
  }
  if (QUESTION.test(text)) return false;
  const lower = text.toLowerCase();
  const words = lower.match(WORD) ?? [];
  let i = 0;
  while (i < words.length && (LEAD.has(words[i]!) || (ADVERB.test(words[i]!) && !canBeVerb(words[i]!)))) i++;
  const first = words[i];
  if (first === undefined || !/^[a-z]+$/.test(first) || canBeVerb(first)) return false;
  const second = words[i + 1];
  if (second !== undefined && canBeVerb(second)) return false;
  for (const m of lower.matchAll(CLAUSE_START)) if (canBeVerb(m[1]!)) return false;
  return true;
}
