// What a request quotes or dictates is a value for the tool, not a word about which tool: the
// text after "saying" ("post in #general saying the deploy is done"), a quoted string, the name
// after "called"/"named"/"titled". Terms said only there are returned; a term also said outside
// keeps its full weight. No pattern nests repeats.

import { analyzeText } from './analyze.js';

const SPANS: readonly RegExp[] = [
  /"[^"\n]{1,200}"|“[^”\n]{1,200}”/g,
  // "have been saying" describes talk that happened; only a dictated "saying …" is content.
  /(?<!\b(?:been|is|are|was|were|am|be|keeps?|kept)\s+)\b(?:saying|that says|to say)\b[^.!?\n]*/gi,
  /\b(?:called|named|titled)\s+[^\s,;]+/gi,
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
