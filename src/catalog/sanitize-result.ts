// Cleans what a call returns before a model reads it (sanitize.results): tool results (text,
// embedded resources, resource links, every string of structuredContent), prompts/get messages and
// resources/read contents. Per call, so one linear walk; `_meta` is never touched.

import { clean, verbatimProblems, type Finding, type SanitizeAction } from './sanitize-text.js';
import { applyChanges, slotField, VisibleStrings, type Change, type Rule } from './visible-strings.js';
import type { JsonObject } from '../protocol/json.js';

/** Strings and nodes walked per result; past this, a result cannot be vouched for. */
export const MAX_RESULT_NODES = 250_000;

const TOOL_RESULT: Rule = { object: { content: 'block', structuredContent: 'value' }, rest: 'skip' };
const PROMPT_RESULT: Rule = { object: { description: 'value', messages: { each: { object: { content: 'block' }, rest: 'skip' } } }, rest: 'skip' };
const READ_RESULT: Rule = { object: { contents: { each: { object: { text: 'value' }, rest: 'skip' } } }, rest: 'skip' };

type Sanitized = { result: JsonObject; findings: Finding[] };

function sanitizeWith(rule: Rule, result: JsonObject, action: SanitizeAction): Sanitized {
  const walk = new VisibleStrings(result, rule, MAX_RESULT_NODES);
  // There is no item to hide: `block` strips the flagged span, as `strip` does.
  const strip = action !== 'warn';
  const options = { cap: Infinity, examine: Infinity, action: strip ? ('strip' as const) : action };
  const changes: Change[] = [];
  const findings: Finding[] = [];
  for (const slot of walk.slots) {
    if (slot.isKey) {
      // A key of structured data cannot be rewritten into another key without confusing its reader:
      // an unclean one goes with its value.
      const reasons = verbatimProblems(slot.value);
      if (reasons.length === 0) continue;
      const keys = walk.path(slot);
      const why = `key cannot be rewritten: ${reasons.slice(0, 3).join('; ')}${strip ? '; the entry was removed' : ''}`;
      findings.push({ field: slotField(keys), change: strip ? 'withheld' : 'verbatim-flagged', why });
      if (strip) changes.push({ keys, remove: true });
      continue;
    }
    // Results are data: never cut to the description cap, and a stray string is cleaned like the rest.
    const r = clean(slot.value, options, '');
    if (r.findings.length === 0 && r.text === slot.value) continue;
    const keys = walk.path(slot);
    const field = slotField(keys);
    for (const f of r.findings) findings.push({ ...f, field });
    if (r.text !== slot.value) changes.push({ keys, value: r.text });
  }
  if (walk.exhausted) {
    const what = `more than ${MAX_RESULT_NODES} strings and nodes`;
    if (!strip) return { result: applyChanges(result, changes), findings: [...findings, { field: '', change: 'truncated', why: `${what}; the rest was not examined` }] };
    const withheld: JsonObject = {
      content: [{ type: 'text', text: `The gateway withheld this result: it is too large to examine (${what}).` }],
      isError: true,
    };
    if (result._meta !== undefined) withheld._meta = result._meta;
    return { result: withheld, findings: [...findings, { field: '', change: 'withheld', why: `${what}; the whole result was withheld` }] };
  }
  // A cleaned string may sit under a removed entry, and a removed entry under another: rewrites go
  // first, then removals deepest first, so no removed branch is recreated by a later change.
  const rank = (c: Change) => ('remove' in c ? 1e9 - c.keys.length : 0);
  changes.sort((a, b) => rank(a) - rank(b));
  return { result: applyChanges(result, changes), findings };
}

/**
 * Cleans a tool result: text blocks, embedded resource text, resource_link name/title/description
 * and every string of structuredContent (keys that are not clean are removed with their value).
 * Returns the same object when nothing changed. Results are data, so they are never cut to the
 * description cap, and `block` strips the flagged span (there is no item to hide).
 */
export function sanitizeResult(result: JsonObject, options: { action: SanitizeAction }): Sanitized {
  return sanitizeWith(TOOL_RESULT, result, options.action);
}

/** Cleans a prompts/get result: its description and every message's content block. */
export function sanitizePromptResult(result: JsonObject, options: { action: SanitizeAction }): Sanitized {
  return sanitizeWith(PROMPT_RESULT, result, options.action);
}

/** Cleans a resources/read result: the text of each content (blobs are binary and left alone). */
export function sanitizeReadResult(result: JsonObject, options: { action: SanitizeAction }): Sanitized {
  return sanitizeWith(READ_RESULT, result, options.action);
}
