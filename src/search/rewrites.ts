// Rewrite tables: phrases of a request replaced, in the table's order, by the words tools use for
// what they mean. The set phrases, light verbs, outcomes, false friends and workplace idioms are
// each one such table; this is the one place that applies them.

/** A pattern (global, so every occurrence goes) and what replaces it. */
export type Rewrite = readonly [RegExp, string];

/** The text with each rule of `rules` applied in turn, each to the previous one's result. */
export function rewrite(text: string, rules: readonly Rewrite[]): string {
  for (const [re, replacement] of rules) text = text.replace(re, replacement);
  return text;
}
