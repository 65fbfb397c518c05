// The one cleaning stage every model-visible string goes through, whatever field it is in.
// Invariants, for any input: the result is a fixed point (cleaning it again changes nothing), never
// longer than the input nor the cap, and free of invisible/control characters (but for a CR that
// ends a line before its LF, and a byte-order mark that starts the text: see INVISIBLE, CONTROL).

import { quote, removeSpans } from './injection.js';
import { detect, type Hit } from './sanitize-detect.js';
import { identifierView } from './sanitize-fold.js';
import { neutraliseLinks } from './sanitize-markup.js';

export type SanitizeAction = 'warn' | 'strip' | 'block';
export type FindingChange =
  | 'removed-invisible'
  | 'removed-ansi'
  | 'removed-control'
  | 'removed-html-comment'
  | 'neutralised-link'
  | 'truncated'
  | 'injection-flagged'
  | 'injection-stripped'
  | 'remote-image-flagged'
  | 'remote-image-stripped'
  | 'verbatim-flagged'
  | 'withheld';
export interface Finding {
  /** Path inside the item: "description", "inputSchema.properties.path.description", "arguments[0].description". */
  field: string;
  change: FindingChange;
  /** Short human reason; quotes at most ~60 characters, invisible ones as \u{…}. */
  why: string;
}

// Everything invisible that is not a control character: tag characters (hidden ASCII), bidi
// controls, zero-width and other format characters (\p{Cf}), Hangul fillers, the supplementary
// variation selectors, and a variation selector that follows another one or starts the text (one
// after a visible character is legitimate emoji/CJK presentation; runs of them smuggle data).
// A zero-width joiner between two pictographs is kept: it is how 👩‍💻 and 🏳️‍🌈 are written. So is a
// byte-order mark that starts the text: a file saved by a Windows editor begins with one, it hides
// nothing, and removing it would break the digest a host checks a skill file against (SEP-2640).
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: lone variation selectors and joiners are what this class is for
  /(?!^\uFEFF)(?!(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic}))[\u{E0000}-\u{E007F}\p{Cf}\u115F\u1160\u3164\uFFA0\u{E0100}-\u{E01EF}]|(?<=[\uFE00-\uFE0F])[\uFE00-\uFE0F]|^[\uFE00-\uFE0F]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/;
// Whole terminal escape sequences (CSI, OSC/DCS/PM/APC strings up to their terminator or the end,
// two-character escapes), so no parameter bytes are left behind as visible garbage.
const ANSI = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\x20-\x2f]*[\x30-\x7e]/g;
// A carriage return before a line feed is a Windows line end, not control: kept (a file served with
// CRLF line ends must keep its digest). A lone one (it rewrites a terminal line) is removed.
const CONTROL = /(?![\n\t])(?!\r\n)\p{Cc}|\p{Cs}/gu;
// An unterminated comment hides everything after it in a renderer, so it goes to the end.
const HTML_COMMENT = /<!--[\s\S]*?(?:--!?>|$)/g;

/** Whatever the four removals above can match starts with one of these: one scan for clean text. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: a one-character scan for the classes above, joiners and selectors included
const HIDDEN_HINT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Cf}\p{Cs}\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0000}-\u{E01EF}]|<!--/u;

/** Passes before giving up on text whose removals keep uncovering new hidden markup. */
const MAX_PASSES = 32;

type Category = 'tag' | 'bidi' | 'zero-width' | 'invisible' | 'ansi' | 'control' | 'surrogate' | 'comment' | 'link';
const categoryChange: Record<Category, FindingChange> = {
  tag: 'removed-invisible',
  bidi: 'removed-invisible',
  'zero-width': 'removed-invisible',
  invisible: 'removed-invisible',
  ansi: 'removed-ansi',
  control: 'removed-control',
  surrogate: 'removed-control',
  comment: 'removed-html-comment',
  link: 'neutralised-link',
};

/** What one call removed, per category; turned into findings at the end. */
class Tally {
  // Allocated on the first removal: most strings have none.
  private counts: Map<Category, { n: number; sample: string }> | undefined;
  readonly judged: Finding[] = [];
  constructor(readonly field: string) {}

  note(category: Category, removed: string): void {
    this.counts ??= new Map();
    const t = this.counts.get(category) ?? { n: 0, sample: '' };
    t.n++;
    if (category === 'tag') {
      // Tag characters mirror ASCII (U+E0041 is a hidden "A"): show what the hidden text says.
      for (const ch of removed) {
        const cp = ch.codePointAt(0)! - 0xe0000;
        if (cp >= 0x20 && cp < 0x7f && t.sample.length < 64) t.sample += String.fromCharCode(cp);
      }
    } else if (t.sample.length < 64) t.sample += (category === 'link' && t.sample ? ' ' : '') + removed.slice(0, 64);
    this.counts.set(category, t);
  }

  findings(): Finding[] {
    const out: Finding[] = [];
    if (!this.counts) return out;
    for (const [category, { n, sample }] of this.counts) {
      const why =
        category === 'tag'
          ? `Unicode tag characters (hidden text), ${n} removed${sample ? `, reading ${quote(sample)}` : ''}`
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
                      : category === 'link'
                        ? `link targets with a script or data scheme, ${n} neutralised: ${quote(sample, 40)}`
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
function judgedFindings(hits: Hit[], field: string, stripped: boolean): Finding[] {
  const byLabel = new Map<string, { n: number; excerpt: string; kind: Hit['kind'] }>();
  for (const h of hits) {
    const seen = byLabel.get(h.label);
    if (seen) seen.n++;
    else byLabel.set(h.label, { n: 1, excerpt: h.excerpt, kind: h.kind });
  }
  return [...byLabel].map(([label, { n, excerpt, kind }]) => ({
    field,
    change: kind === 'image' ? (stripped ? 'remote-image-stripped' : 'remote-image-flagged') : stripped ? 'injection-stripped' : 'injection-flagged',
    why: `${label}${n > 1 ? ` (${n} times)` : ''}: ${excerpt}`,
  }));
}

export interface TextOptions {
  /** Longest result, "…" included; Infinity for data that is never cut. */
  cap: number;
  /** Longest input examined; the rest is dropped unread (bounds the work a huge text can cause). */
  examine: number;
  action: SanitizeAction;
  /** The text is a name: see FindOptions.identifier. */
  identifier?: boolean;
}

/** One round of removals. Returns the input itself when there was nothing to remove. */
function pass(text: string, options: TextOptions, tally: Tally): string {
  let s = text;
  if (HIDDEN_HINT.test(s)) {
    s = s.replace(INVISIBLE, (m) => (tally.note(invisibleCategory(m), m), ''));
    s = s.replace(ANSI, (m) => (tally.note('ansi', m), ''));
    s = s.replace(CONTROL, (m) => (tally.note(m.length === 1 && /\p{Cs}/u.test(m) ? 'surrogate' : 'control', m), ''));
    s = s.replace(HTML_COMMENT, (m) => (tally.note('comment', m), ''));
  }
  s = neutraliseLinks(s, (target) => tally.note('link', target));
  if (options.action === 'strip') {
    const hits = detect(s, { identifier: options.identifier });
    if (hits.length) {
      tally.judged.push(...judgedFindings(hits, tally.field, true));
      s = removeSpans(s, hits);
    }
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
  return `${text.slice(0, cut).trimEnd()}…`;
}

export interface Cleaned {
  text: string;
  findings: Finding[];
}

/** Cleans one string. Pure. The cleaning stage: every other export routes its strings here. */
export function clean(text: string, options: TextOptions, field: string): Cleaned {
  const tally = new Tally(field);
  const strip = options.action === 'strip';
  let t = text;
  const extra: Finding[] = [];
  if (t.length > options.examine) {
    const limit = options.examine;
    const end = t.charCodeAt(limit - 1) >= 0xd800 && t.charCodeAt(limit - 1) <= 0xdbff ? limit - 1 : limit;
    t = t.slice(0, end);
    extra.push({ field, change: 'truncated', why: `${text.length} characters; only the first ${end} were examined` });
  }
  const giveUp = (): Cleaned => ({
    text: '',
    findings: [
      ...tally.findings(),
      ...tally.judged,
      { field, change: 'injection-stripped', why: `hidden markup nested too deeply (still changing after ${MAX_PASSES} passes); the whole text was removed` },
    ],
  });

  // Removing one thing can uncover another (`<!<!-- -->--` becomes `<!--`), so repeat until
  // nothing changes: that is what makes the result a fixed point.
  let passes = 0;
  for (let next = pass(t, options, tally); next !== t; next = pass(t, options, tally)) {
    t = next;
    if (++passes >= MAX_PASSES) return giveUp();
  }
  // Flag on the full cleaned text: an injection past the cap still tells what the server is.
  const flagged = strip ? [] : judgedFindings(detect(t, { identifier: options.identifier }), field, false);
  const before = t.length;
  // Cutting can open new hidden markup (half a tag); text within the cap is already a fixed point.
  for (let next = t.length > options.cap ? pass(truncate(t, options.cap), options, tally) : t; next !== t; next = pass(truncate(t, options.cap), options, tally)) {
    t = next;
    if (++passes >= MAX_PASSES) return giveUp();
  }
  if (t.length < before && Number.isFinite(options.cap)) {
    extra.push({ field, change: 'truncated', why: `longer than ${options.cap} characters (was ${before}); cut to ${t.length}` });
  }
  return { text: t, findings: [...tally.findings(), ...tally.judged, ...flagged, ...extra] };
}

/** Text beyond this is never examined: bounds the work an oversized description can cause. */
export const examineLength = (cap: number) => Math.max(cap * 4, 16_384);
/** A name longer than this cannot be vouched for (and no real name is that long). */
const VERBATIM_EXAMINE = 16_384;

// Names repeat (every schema has "type": "string", every result row the same keys): answers for
// short ones are remembered, in a bounded memo, so checking them stays cheap per result.
const memo = new Map<string, readonly string[]>();
const MEMO_LIMIT = 4096;
const MEMO_LENGTH = 128;

/**
 * Why a string that must pass verbatim (a name, an enum value, a URI) is not clean: the reasons the
 * cleaning stage would change it, and patterns in how it reads as a name (`ignore_previous_…`).
 * Empty when it is clean.
 */
export function verbatimProblems(value: string): readonly string[] {
  const known = memo.get(value);
  if (known) return known;
  // A name (no blanks) is judged as a name; a whole sentence in a name slot, as a sentence.
  const identifier = !/\s/.test(value);
  const r = clean(value, { cap: Infinity, examine: VERBATIM_EXAMINE, action: 'strip', identifier }, '');
  // (Nothing is removed from a name: it is reported as found.)
  const reasons = r.text === value ? [] : r.findings.map((f) => f.why.replace(/ (\d+) (?:removed|neutralised)\b/, ' $1 found'));
  const view = identifierView(value);
  if (reasons.length === 0 && view !== value) {
    reasons.push(...judgedFindings(detect(view, { identifier: true }), '', false).map((f) => f.why));
  }
  if (value.length <= MEMO_LENGTH && memo.size < MEMO_LIMIT) memo.set(value, reasons);
  return reasons;
}
