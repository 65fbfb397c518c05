// What a request quotes or dictates is a value for the tool, not a word about which tool: the
// text after "saying" ("post in #general saying the deploy is done"), a quoted string, the name
// after "called"/"named"/"titled", a clause told to someone ("ping #eng that standup is off").
// Terms said only there are returned; a term also said outside keeps its full weight. No
// pattern nests repeats; the look-behind is bounded (60 characters).

import { analyzeText } from './analyze.js';

const SPANS: readonly RegExp[] = [
  /"[^"\n]{1,200}"|“[^”\n]{1,200}”/g,
  // "have been saying" describes talk that happened; only a dictated "saying …" is content.
  /(?<!\b(?:been|is|are|was|were|am|be|keeps?|kept)\s+)\b(?:saying|that says|to say)\b[^.!?\n]*/gi,
  // A name runs on for a few words, to a preposition or the end of the clause ("a page called Q4 goals under Projects").
  /\b(?:called|named|titled)\s+[^\s,;]+(?:\s+(?!(?:in|on|for|to|under|into|inside|with|from|at|and|but|then|so|please|pls|plz|that|which|as|by|of|off|onto|over|about|via)\b)[^\s,;.!?]+){0,3}/gi,
  // "ping #eng that standup is cancelled": a clause told to someone (its subject and verb follow "that").
  /(?<=\b(?:ping|tell|let \w+ know|answer|reply|say|write|post|message|dm|email|text|notify|remind|warn)\b[^.!?\n]{0,60}?\bthat\s+)(?:(?:i|i'll|i'm|i've|we|we're|we'll|you|he|she|they|it|it's)\b|(?:(?:the|a|an|my|our|this|his|her|their)\s+)?\w+\s+(?:is|are|was|were|has|have|will|won't|isn't|can't)\b)[^.!?\n]*/gi,
];

/** Index terms the request says only inside dictated or quoted content. */
export function contentTerms(text: string): Set<string> {
  let outside = text;
  const inside: string[] = [];
  for (const re of SPANS) {
    outside = outside.replace(re, (m) => {
      inside.push(m.replace(/^\W*(?:saying|that says|to say|called|named|titled)\b/i, ' '));
      return ' ';
    });
  }
  if (inside.length === 0) return new Set();
  const said = new Set(analyzeText(outside));
  return new Set(analyzeText(inside.join(' ')).filter((t) => !said.has(t)));
}
