// "open" is three words in requests to tools: a state ("my open issues", "open prs", "which
// tickets are still open": the things to list), a view ("open the readme": read it) and a
// creation ("open a ticket", "open a pr"). The synonym groups know only the creation and the
// navigation; this says which one a request means, from the words around it. Linear patterns.

import type { Concept } from './inverted.js';
import type { Hint } from './hints.js';
import { expansions } from './synonyms.js';

/** How a request uses "open": as a state of things, as "view it", or neither said (creation, navigation). */
export type OpenSense = 'state' | 'view' | undefined;

/** "open" after an owner, a quantifier or a copula: "my open issues", "all open prs", "are still open". */
const STATE_BEFORE = /\b(?:my|our|your|his|her|their|the|all|any|many|some|no|of|which|what|those|these|are|is|still|currently|remain|remains|stay|stays)\s+open\b(?!\s+(?:a|an|the|up|in|on|to|with|it|them|that|this)\b)/i;
/** "open" before a plural noun, with at most one word between: "open prs", "open pull requests". */
const STATE_AFTER = /(?:^|[^\w-])open\s+(?:(?!(?:a|an|new|another|some|more)\s)[a-z]+\s+)?[a-z]*[a-rt-z]s\b/i;
/** "open" told to show a thing: "open the readme", "pls open that email". */
const VIEW = /(?:^|[.!?,;:]\s*|\b(?:and|then|pls|please|plz|you|u)\s+)open\s+(?:the|that|this|my|our|your|its|their|it|them)\b/i;
/** The plural after "open" must not be a word that only ends in s ("open this", "open its"). */
const NOT_PLURAL = /(?:^|[^\w-])open\s+(?:the|this|its|his|us|yes|was|is|as|has|does|plus)\b/i;

export function openSense(text: string): OpenSense {
  if (!/\bopen\b/i.test(text)) return undefined;
  if (STATE_BEFORE.test(text)) return 'state';
  if (STATE_AFTER.test(text) && !NOT_PLURAL.test(text)) return 'state';
  if (VIEW.test(text)) return 'view';
  return undefined;
}

/** The index term of "open". */
export const OPEN_TERM = 'open';

/** What a state said instead of an action asks for (as hints.ts's "which … are there" does). */
export const LISTING: Hint = { words: 'list all', weight: 0.4 };

/** The concept of "open" in its sense: a state is only its own word; a view brings view's synonyms. */
export function openConcept(sense: 'state' | 'view', synonymWeight: number): Concept {
  if (sense === 'state') return [[OPEN_TERM, 1]];
  return [[OPEN_TERM, 1], ...[...expansions('view').keys()].map((t) => [t, synonymWeight] as const)];
}
