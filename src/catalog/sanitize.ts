// Cleans every model-visible string a server sends (descriptions, titles) before it enters the
// catalog. Invariants, for any input: the result is a fixed point (cleaning it again changes
// nothing), never longer than the input nor the cap, and free of invisible/control characters.

import { findInjections, quote, removeSpans, type InjectionHit } from './injection.js';
import { applyChanges, schemaSlots, slotField, type Key, type Slot } from './visible-strings.js';

export type SanitizeAction = 'warn' | 'strip' | 'block';
export interface SanitizeOptions {
  maxDescriptionLength: number;
  action: SanitizeAction;
}
export type FindingChange =
  | 'removed-invisible'
  | 'removed-ansi'
  | 'removed-control'
  | 'removed-html-comment'
  | 'truncated'
  | 'injection-flagged'
  | 'injection-stripped';
export interface Finding {
  /** Path inside the item: "description", "inputSchema.properties.path.description", "arguments[0].description". */
  field: string;
  change: FindingChange;
  /** Short human reason; quotes at most ~60 characters, invisible ones as \u{…}. */
  why: string;
}
export type ItemKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

// Everything invisible that is not a control character: tag characters (hidden ASCII), bidi
// controls, zero-width and other format characters (\p{Cf}), Hangul fillers, the supplementary
// variation selectors, and a variation selector that follows another one or starts the text (one
// after a visible character is legitimate emoji/CJK presentation; runs of them smuggle data).
const INVISIBLE =
  /[\u{E0000}-\u{E007F}\p{Cf}\u115F\u1160\u3164\uFFA0\u{E0100}-\u{E01EF}]|(?<=[\uFE00-\uFE0F])[\uFE00-\uFE0F]|^[\uFE00-\uFE0F]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/;
// Whole terminal escape sequences (CSI, OSC/DCS/PM/APC strings up to their terminator or the end,
// two-character escapes), so no parameter bytes are left behind as visible garbage.
const ANSI =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\x20-\x2f]*[\x30-\x7e]/g;
const CONTROL = /(?![\n\t])\p{Cc}|\p{Cs}/gu;
// An unterminated comment hides everything after it in a renderer, so it goes to the end.
const HTML_COMMENT = /<!--[\s\S]*?(?:--!?>|$)/g;

/** Passes before giving up on text whose removals keep uncovering new hidden markup. */
const MAX_PASSES = 32;
/** Text beyond this is never examined: bounds the work an oversized description can cause. */
const precutLength = (cap: number) => Math.max(cap * 4, 16_384);

type Category = 'tag' | 'bidi' | 'zero-width' | 'invisible' | 'ansi' | 'control' | 'surrogate' | 'comment';
const categoryChange: Record<Category, FindingChange> = {
  tag: 'removed-invisible',
  bidi: 'removed-invisible',
  'zero-width': 'removed-invisible',
  invisible: 'removed-invisible',
  ansi: 'removed-ansi',
  control: 'removed-control',
  surrogate: 'removed-control',
  comment: 'removed-html-comment',
};

/** What one call removed, per category; turned into findings at the end. */
class Tally {
  private counts = new Map<Category, { n: number; sample: string }>();
  readonly injections: Finding[] = [];
  constructor(readonly field: string) {}

  note(category: Category, removed: string): void {
    const t = this.counts.get(category) ?? { n: 0, sample: '' };
    t.n++;
    if (category === 'tag') {
      // Tag characters mirror ASCII (U+E0041 is a hidden "A"): show what the hidden text says.
      for (const ch of removed) {
        const cp = ch.codePointAt(0)! - 0xe0000;
        if (cp >= 0x20 && cp < 0x7f && t.sample.length < 64) t.sample += String.fromCharCode(cp);
      }
    } else if (t.sample.length < 64) t.sample += removed.slice(0, 64);
    this.counts.set(category, t);
  }

  findings(): Finding[] {
    const out: Finding[] = [];
    for (const [category, { n, sample }] of this.counts) {
      const why =
        category === 'tag'
          ? `Unicode tag characters (hidden text), ${n} removed` + (sample ? `, reading ${quote(sample)}` : '')
          : category === 'bidi'
            ? `bidirectional control characters (text reads differently than stored), ${n} removed`
            : category === 'zero-width'
              ? `zero-width characters, ${n} removed`
              : category === 'invisible'
                ? `invisible format characters, ${n} removed: ${quote(sample, 40)}`
                : category === 'ansi'
                  ? `ANSI escape sequences (terminal control), ${n} removed: ${quote(sample, 40)}`
                  : category === 'control'
                    ? `control characters, ${n} removed: ${quote(sample, 40)}`
                    : category === 'surrogate'
                      ? `unpaired surrogate code units, ${n} removed`
                      : `HTML comments (hidden when rendered), ${n} removed: ${quote(sample)}`;
      out.push({ field: this.field, change: categoryChange[category], why });
    }
    return out;
  }
}

const invisibleCategory = (ch: string): Category => {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  return BIDI.test(ch) ? 'bidi' : ZERO_WIDTH.test(ch) ? 'zero-width' : 'invisible';
};

/** One finding per kind of pattern (a text repeating one phrase 700 times gets one line, not 700). */
function injectionFindings(hits: InjectionHit[], field: string, change: FindingChange): Finding[] {
  const byLabel = new Map<string, { n: number; excerpt: string }>();
  for (const h of hits) {
    const seen = byLabel.get(h.label);
    if (seen) seen.n++;
    else byLabel.set(h.label, { n: 1, excerpt: h.excerpt });
  }
  return [...byLabel].map(([label, { n, excerpt }]) => ({ field, change, why: `${label}${n > 1 ? ` (${n} times)` : ''}: ${excerpt}` }));
}

/** One round of removals. Returns the input itself when there was nothing to remove. */
function pass(text: string, strip: boolean, tally: Tally): string {
  let s = text.replace(INVISIBLE, (m) => (tally.note(invisibleCategory(m), m), ''));
  s = s.replace(ANSI, (m) => (tally.note('ansi', m), ''));
  s = s.replace(CONTROL, (m) => (tally.note(m.length === 1 && /\p{Cs}/u.test(m) ? 'surrogate' : 'control', m), ''));
  s = s.replace(HTML_COMMENT, (m) => (tally.note('comment', m), ''));
  if (strip) {
    const hits = findInjections(s);
    tally.injections.push(...injectionFindings(hits, tally.field, 'injection-stripped'));
    if (hits.length) s = removeSpans(s, hits);
  }
  // Removals leave blanks at the ends; trimming only then keeps untouched text byte-identical.
  return s === text ? text : s.trim();
}

/** Cuts to at most `cap` characters, "…" included, on a word boundary when there is one. */
function truncate(text: string, cap: number): string {
  if (text.length <= cap) return text;
  if (cap < 1) return '';
  const budget = cap - 1;
  let cut = budget;
  if (!/\s/.test(text[budget]!)) {
    let ws = budget - 1;
    while (ws >= budget / 2 && !/\s/.test(text[ws]!)) ws--;
    // A "word" longer than half the cap (a URL, base64) has no boundary worth keeping: hard cut.
    if (ws >= budget / 2) cut = ws;
  }
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // never split a surrogate pair
  return text.slice(0, cut).trimEnd() + '…';
}

interface TextOptions {
  cap: number;
  action: SanitizeAction;
}

function clean(text: string, options: TextOptions, field: string): { text: string; findings: Finding[] } {
  const tally = new Tally(field);
  const strip = options.action === 'strip';
  const limit = precutLength(options.cap);
  let t = text;
  const extra: Finding[] = [];
  if (t.length > limit) {
    const end = t.charCodeAt(limit - 1) >= 0xd800 && t.charCodeAt(limit - 1) <= 0xdbff ? limit - 1 : limit;
    t = t.slice(0, end);
    extra.push({ field, change: 'truncated', why: `${text.length} characters; only the first ${end} were examined` });
  }
  const giveUp = (): { text: string; findings: Finding[] } => ({
    text: '',
    findings: [
      ...tally.findings(),
      ...tally.injections,
      { field, change: 'injection-stripped', why: `hidden markup nested too deeply (still changing after ${MAX_PASSES} passes); the whole text was removed` },
    ],
  });

  // Removing one thing can uncover another (`<!<!-- -->--` becomes `<!--`), so repeat until
  // nothing changes: that is what makes the result a fixed point.
  let passes = 0;
  for (let next = pass(t, strip, tally); next !== t; next = pass(t, strip, tally)) {
    t = next;
    if (++passes >= MAX_PASSES) return giveUp();
  }
  // Flag on the full cleaned text: an injection past the cap still tells what the server is.
  const flagged = strip ? [] : injectionFindings(findInjections(t), field, 'injection-flagged');
  const before = t.length;
  for (let next = pass(truncate(t, options.cap), strip, tally); next !== t; next = pass(truncate(t, options.cap), strip, tally)) {
    t = next;
    if (++passes >= MAX_PASSES) return giveUp();
  }
  if (t.length < before && Number.isFinite(options.cap)) {
    extra.push({ field, change: 'truncated', why: `longer than ${options.cap} characters (was ${before}); cut to ${t.length}` });
  }
  return { text: t, findings: [...tally.findings(), ...tally.injections, ...flagged, ...extra] };
}

/** Cleans one string. Pure. */
export function sanitizeText(text: string, options: SanitizeOptions, field = 'text'): { text: string; findings: Finding[] } {
  return clean(text, { cap: options.maxDescriptionLength, action: options.action }, field);
}

const isRecord = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function cleanSlots(slots: Slot[], options: TextOptions): { changes: { keys: Key[]; value: string }[]; findings: Finding[] } {
  const changes: { keys: Key[]; value: string }[] = [];
  const findings: Finding[] = [];
  for (const slot of slots) {
    const r = clean(slot.value, options, slot.field);
    findings.push(...r.findings);
    if (r.text !== slot.value) changes.push({ keys: slot.keys, value: r.text });
  }
  return { changes, findings };
}

/** Cleans every model-visible string of one catalog item. Returns the same object when nothing changed. */
export function sanitizeItem(
  kind: ItemKind,
  item: Record<string, any>,
  options: SanitizeOptions,
): { item: Record<string, any>; findings: Finding[]; blocked: boolean } {
  const slots: Slot[] = [];
  const top = (keys: Key[]) => {
    let v: unknown = item;
    for (const k of keys) v = isRecord(v) || Array.isArray(v) ? (v as any)[k] : undefined;
    if (typeof v === 'string') slots.push({ keys, field: slotField(keys), value: v });
  };
  top(['title']);
  top(['description']);
  if (kind === 'tool') {
    top(['annotations', 'title']);
    for (const k of ['inputSchema', 'outputSchema']) if (isRecord(item[k])) schemaSlots(item[k], [k], k, slots);
  }
  if (kind === 'prompt' && Array.isArray(item.arguments)) {
    item.arguments.forEach((_: unknown, i: number) => {
      top(['arguments', i, 'title']);
      top(['arguments', i, 'description']);
    });
  }
  const { changes, findings } = cleanSlots(slots, { cap: options.maxDescriptionLength, action: options.action });
  const blocked = options.action === 'block' && findings.some((f) => f.change.startsWith('injection-'));
  return { item: applyChanges(item, changes), findings, blocked };
}

/**
 * Cleans the text content blocks of a tool result (sanitize.results). Returns the same object when
 * nothing changed. Results are data, so they are never cut to the description cap, and `block`
 * strips the flagged span (there is no item to hide).
 */
export function sanitizeResult(result: Record<string, any>, options: SanitizeOptions): { result: Record<string, any>; findings: Finding[] } {
  const slots: Slot[] = [];
  if (Array.isArray(result.content)) {
    result.content.forEach((block: unknown, i: number) => {
      if (!isRecord(block)) return;
      if (block.type === 'text' && typeof block.text === 'string') {
        slots.push({ keys: ['content', i, 'text'], field: `content[${i}].text`, value: block.text });
      } else if (block.type === 'resource' && isRecord(block.resource) && typeof block.resource.text === 'string') {
        slots.push({ keys: ['content', i, 'resource', 'text'], field: `content[${i}].resource.text`, value: block.resource.text });
      }
    });
  }
  const action = options.action === 'block' ? 'strip' : options.action;
  const { changes, findings } = cleanSlots(slots, { cap: Infinity, action });
  return { result: applyChanges(result, changes), findings };
}
