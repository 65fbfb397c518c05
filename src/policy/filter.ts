// Allow/deny glob filters for tools, prompts (matched against the server's ORIGINAL name) and
// resources (matched against the URI). Invariants: deny wins over allow; an empty allow list
// allows nothing; `*` matches ANY run of characters, including none, `/`, `.` and newlines.
//
// Glob syntax (case-sensitive, whole-string match):
//   *      any run of characters (`**` is the same)   ?  exactly one character (UTF-16 unit)
//   [abc] [a-z] [^a] [!a]  one character; `]` first (`[]a]`) or escaped is a member; no [[:alpha:]]
//   {a,b}  alternatives, may nest; no `{1..3}` ranges (`..` inside braces is literal); braces
//          without a top-level comma (`{a}`, `{}`) are literal text, as in bash
//   \x     the character x literally (`\\` is a backslash; so is a trailing `\`)
// Everything else, including ( ) | + @ ! $ ^ " and NUL, is literal. An unclosed `[` or `{`, a
// stray `]`, a reversed range (`[z-a]`) or more than 1024 brace alternatives make compileFilter
// throw (config errors beat silently literal globs). Compiled by glob.ts: linear-time matching.

import type { FilterRules } from './rules.js';
import { compileGlobList } from './glob.js';

/** True for globs that match every string: one or more stars and nothing else. */
export const matchesAll = (glob: string): boolean => /^\*+$/.test(glob);

const allowAll = (): boolean => true;
const allowNone = (): boolean => false;

/**
 * A predicate: true when the name (or URI) is allowed. Deny wins over allow. Empty allow list =
 * nothing allowed. Compile once per config, call per item. Throws on an invalid glob, with a
 * message `invalid glob "<glob>": <reason>`.
 */
export function compileFilter(rules: FilterRules): (name: string) => boolean {
  const deny = rules.deny;
  const allow = rules.allow;
  // Validate every glob even when a shortcut below makes some of them irrelevant.
  const denied = deny.length > 0 ? compileGlobList(deny) : undefined;
  const allowed = allow.length > 0 ? compileGlobList(allow) : undefined;

  if (allowed === undefined || deny.some(matchesAll)) return allowNone;
  const allowEverything = allow.some(matchesAll);
  if (denied === undefined) {
    // The common default `allow: ["*"], deny: []`: no glob work at all per call.
    return allowEverything ? allowAll : allowed;
  }
  if (allowEverything) return (name) => !denied(name);
  return (name) => !denied(name) && allowed(name);
}
