// Cleans every model-visible string a server sends (catalog items, instructions; results in
// sanitize-result.ts) through the one cleaning stage in sanitize-text.ts. Strings that must pass
// verbatim (names, enum values, URIs) are never rewritten: when unclean, the item is withheld (strip, block).

import { quote } from './injection.js';
import { clean, examineLength, verbatimProblems, type Finding, type FindingChange, type SanitizeAction } from './sanitize-text.js';
import { applyChanges, slotField, VisibleStrings, type Change, type Rule, type Slot } from './visible-strings.js';
import type { JsonObject } from '../protocol/json.js';

export type { Finding, FindingChange, SanitizeAction } from './sanitize-text.js';
export { sanitizePromptResult, sanitizeReadResult, sanitizeResult } from './sanitize-result.js';

export interface SanitizeOptions {
  maxDescriptionLength: number;
  action: SanitizeAction;
  /** Longest server `instructions` passed on (default DEFAULT_MAX_INSTRUCTIONS_LENGTH). */
  maxInstructionsLength?: number;
}
export type ItemKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

/** Instructions are guidance for a whole server, longer than a description, still bounded. */
export const DEFAULT_MAX_INSTRUCTIONS_LENGTH = 8192;
/** Strings and nodes walked per item; a bigger item cannot be vouched for. */
export const MAX_ITEM_NODES = 100_000;

/** Findings that mean "this text looks hostile", as opposed to hidden characters simply removed. */
export const isJudgement = (change: FindingChange): boolean => change.startsWith('injection-') || change.startsWith('remote-image-') || change === 'verbatim-flagged' || change === 'withheld';

/** Cleans one string. Pure. */
export function sanitizeText(text: string, options: SanitizeOptions, field = 'text'): { text: string; findings: Finding[] } {
  return clean(text, { cap: options.maxDescriptionLength, examine: examineLength(options.maxDescriptionLength), action: options.action }, field);
}

/**
 * Cleans a server's `instructions` (from its initialize result). Cut to maxInstructionsLength. Under
 * `block` instructions that look hostile are withheld whole (text ""), as an item would be.
 */
export function sanitizeInstructions(text: string, options: SanitizeOptions): { text: string; findings: Finding[]; blocked: boolean } {
  const cap = options.maxInstructionsLength ?? DEFAULT_MAX_INSTRUCTIONS_LENGTH;
  const r = clean(text, { cap, examine: examineLength(cap), action: options.action }, 'instructions');
  if (options.action === 'block' && r.findings.some((f) => isJudgement(f.change))) {
    const why = 'the instructions look like a prompt injection and sanitize.action is block: withheld whole';
    return { text: '', findings: [...r.findings, { field: 'instructions', change: 'withheld', why }], blocked: true };
  }
  return { ...r, blocked: false };
}

const V = (what: string): Rule => ({ verbatim: what });
const DISPLAY: Record<string, Rule> = { title: 'text', description: 'text', icons: 'skip' };
/** What each field of a catalog item is. Unknown fields are shown to models as they are: verbatim. */
export const ITEM_RULES: Record<ItemKind, Rule> = {
  tool: {
    object: { ...DISPLAY, name: V('tool name'), annotations: { object: { title: 'text' }, rest: V('annotation') }, inputSchema: 'schema', outputSchema: 'schema' },
    rest: V('field'),
  },
  prompt: {
    object: { ...DISPLAY, name: V('prompt name'), arguments: { each: { object: { ...DISPLAY, name: V('argument name') }, rest: V('field') } } },
    rest: V('field'),
  },
  // A resource's `name` is a display name (reads go by URI), so it is cleaned like a title.
  resource: { object: { ...DISPLAY, name: 'text', uri: V('URI'), mimeType: V('MIME type'), annotations: V('annotation') }, rest: V('field') },
  resourceTemplate: {
    object: { ...DISPLAY, name: 'text', uriTemplate: V('URI template'), mimeType: V('MIME type'), annotations: V('annotation') },
    rest: V('field'),
  },
};

const ITEM_NOUN: Record<ItemKind, string> = { tool: 'tool', prompt: 'prompt', resource: 'resource', resourceTemplate: 'resource template' };

/** One finding for a verbatim string that is not clean: flagged (warn) or the item withheld. */
function verbatimFinding(slot: Slot, field: string, reasons: readonly string[], withheld: string | undefined): Finding {
  const why = `${slot.what} ${quote(slot.value, 40)} cannot be rewritten (the server expects it verbatim): ${reasons.slice(0, 3).join('; ')}${withheld ? `; ${withheld}` : ''}`;
  return { field, change: withheld ? 'withheld' : 'verbatim-flagged', why };
}

/**
 * Cleans every model-visible string of one catalog item: descriptions and titles (cut to the cap),
 * schema examples/defaults (cleaned, not cut); checks names, property names, enum/const values and
 * URIs, which cannot be rewritten. Returns the same object when nothing changed. `blocked`: the item
 * must not be served, because of `block` and a judged finding, or because a verbatim string is not
 * clean under `strip`/`block` (then a `withheld` finding says why); `why` sums it up.
 */
export function sanitizeItem(kind: ItemKind, item: JsonObject, options: SanitizeOptions): { item: JsonObject; findings: Finding[]; blocked: boolean; why?: string } {
  const walk = new VisibleStrings(item, ITEM_RULES[kind], MAX_ITEM_NODES);
  const action = options.action;
  const withhold = action === 'warn' ? undefined : `the ${ITEM_NOUN[kind]} is withheld`;
  const changes: Change[] = [];
  const findings: Finding[] = [];
  const text = { cap: options.maxDescriptionLength, examine: examineLength(options.maxDescriptionLength), action };
  const value = { cap: Infinity, examine: text.examine, action };
  for (const slot of walk.slots) {
    if (slot.kind === 'verbatim') {
      const reasons = verbatimProblems(slot.value);
      if (reasons.length) findings.push(verbatimFinding(slot, slotField(walk.path(slot)), reasons, withhold));
      continue;
    }
    const r = clean(slot.value, slot.kind === 'text' ? text : value, '');
    if (r.findings.length === 0 && r.text === slot.value) continue;
    const keys = walk.path(slot);
    const field = slotField(keys);
    for (const f of r.findings) findings.push({ ...f, field });
    if (r.text !== slot.value) changes.push({ keys, value: r.text });
  }
  if (walk.exhausted) {
    const why = `more than ${MAX_ITEM_NODES} strings and nodes; the rest was not examined${withhold ? `, so ${withhold}` : ''}`;
    findings.push({ field: '', change: withhold ? 'withheld' : 'truncated', why });
  }
  const withheld = findings.find((f) => f.change === 'withheld');
  const blockedByAction = action === 'block' && findings.some((f) => isJudgement(f.change));
  const blocked = withheld !== undefined || blockedByAction;
  const why = withheld ? `${withheld.field || ITEM_NOUN[kind]}: ${withheld.why}` : blockedByAction ? 'injection pattern found; sanitize.action is block' : undefined;
  return { item: applyChanges(item, changes), findings, blocked, ...(why ? { why } : {}) };
}
