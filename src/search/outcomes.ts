// Outcomes: a request may state the result wanted, not the operation ("make sure I don't forget
// the dentist", "make sure the checkout service has 6 copies running"). Read word by word,
// "forget" deletes a memory and "copies" copies files; the construction says the operation: a
// reminder to set, a count of running copies to scale to. Closed constructions, no object lists.

/** A number as people write it in a request. */
const COUNT = String.raw`(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)`;

const RULES: readonly [RegExp, string][] = [
  // "make sure I don't forget the dentist", "don't let me forget to pay rent": a reminder, not a deletion
  // ("forget what I told you about my old job" stays a deletion).
  [
    /\b(?:make sure|make certain|ensure)\s+(?:that\s+)?(?:i|we)\s+(?:don't|dont|do not|never|won't|will not)\s+forget\b|\b(?:don't|dont|do not)\s+(?:let\s+(?:me|us)\s+)?forget\b/giu,
    ' remind me ',
  ],
  // "make sure the service has 6 copies running", "keep 3 instances up": a wanted count of running copies is the
  // scale to set. Only after a verb of wanting or keeping, so "are there 3 copies running?" stays a question.
  [
    new RegExp(
      String.raw`(?<=\b(?:make sure|make certain|ensure|keep|have|want|need)\b[^.?!]{0,40}?)\b${COUNT}\s+(?:\w+\s+)?(?:copies|instances|replicas)\s+(?:running|up|alive|online|live)\b`,
      'giu',
    ),
    ' scale replicas ',
  ],
];

/** The request with each outcome construction rewritten to the operation that reaches it. */
export function outcomes(text: string): string {
  for (const [re, replacement] of RULES) text = text.replace(re, replacement);
  return text;
}
