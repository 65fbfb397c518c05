// Light verbs: "give", "hand", "log", "follow" say little on their own; in these constructions the object
// and what follows say the action ("give ENG-99 to Priya" assigns it, "log a call" records one).
// Read literally they pick the wrong tool (give_feedback, pods_log). Each rule is a construction
// over closed sets of function words, never a list of objects or names.

import { rewrite, type Rewrite } from './rewrites.js';

/** What ends a clause: past it, the words are no longer the construction's receiver. */
const END = String.raw`(?=\s*(?:$|[.,;:!?)]|\b(?:so|and|then|but|please|pls|asap|now|today|tomorrow)\b))`;

/** Determiners that open a noun phrase after a verb: "log a call", "log the meeting", "log my hours". */
const DET = String.raw`(?:a|an|the|this|that|these|those|my|our|his|her|their|today's|yesterday's|another|one|two|\d+)`;

const RULES: readonly Rewrite[] = [
  // "give ENG-99 to Priya", "hand #230 over to alice", "pass the ticket to Sam": a thing given to one person is
  // assigned to them. The receiver is one word that ends the clause: "give me …" and "to the Platform team" are not this.
  [
    new RegExp(
      String.raw`\b(?:give|gave|giving|gives|hand(?:s|ed|ing)?|pass(?:es|ed|ing)?)\b(?!\s+(?:me|us)\b)([^.,;!?]{1,50}?)\b(?:over\s+)?to\s+(?!the\b|a\b|an\b|my\b|our\b|your\b)([\p{L}][\p{L}'-]*)${END}`,
      'giu',
    ),
    ' assign $1 assignee $2 ',
  ],
  // "log a call with Jane", "please log the meeting", "log my hours": "log" before a noun phrase records an
  // occurrence; it is not the logs to read ("pod logs", "log output"). Only where a clause's verb stands.
  [
    new RegExp(String.raw`(?:^|(?<=[.,;:!?]\s*)|(?<=\b(?:please|pls|can you|could you|and|then|to|just)\s+))log(?:ged|ging|s)?\s+(?=${DET}\s)`, 'giu'),
    ' record create ',
  ],
  // "follow ENG-12 for the updates", "watch the repo so I get notifications": following a thing for its updates
  // subscribes to it. Watching a page for changes is a monitor (hints.ts), so only updates and notifications count.
  [/\b(?:follow|watch)(?:ed|ing|es|s)?(?!-)\b(?=[^.,;!?]{1,40}?\b(?:for|to|so)\s+(?:\w+\s+){0,2}(?:the\s+)?(?:updates|notifications)\b)/giu, ' subscribe '],
];

/** The request with each light-verb construction rewritten to the action it says. */
export function lightVerbs(text: string): string {
  return rewrite(text, RULES);
}
