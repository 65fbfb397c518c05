// The matching view of a text: compatibility-folded (NFKD, which is NFKC before composition),
// diacritics dropped and common Latin look-alikes (Cyrillic, Greek, small capitals) mapped to ASCII,
// with a map back to the original positions. Only matching runs on it: what matched is cut from the
// ORIGINAL text, and text that matched nothing keeps every original character.

/** Look-alikes that compatibility folding leaves alone. Keyed by the character as written. */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic, both cases (uppercase mapped by shape: В looks like B even though в does not).
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  У: 'y',
  І: 'i',
  Ј: 'j',
  Ѕ: 's',
  Ԁ: 'd',
  Һ: 'h',
  Ӏ: 'l',
  Ԛ: 'q',
  Ԝ: 'w',
  Ү: 'y',
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  к: 'k',
  м: 'm',
  т: 't',
  п: 'n',
  г: 'r',
  в: 'b',
  н: 'h',
  ь: 'b',
  // Greek.
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
  α: 'a',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
  ϲ: 'c',
  ϳ: 'j',
  // Armenian and Latin extensions that read as plain letters.
  օ: 'o',
  ս: 'u',
  ց: 'g',
  հ: 'h',
  ո: 'n',
  ı: 'i',
  ȷ: 'j',
  ɑ: 'a',
  ɡ: 'g',
  ɩ: 'i',
  ɪ: 'i',
  ʏ: 'y',
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ɢ: 'g',
  ʜ: 'h',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
};
const MARK = /\p{M}/u;
const ASCII_ONLY = /^[\x00-\x7f]*$/;

// Folding one code point is pure, so it is cached; the cache is bounded so a text made of
// every code point cannot grow it without limit (beyond the bound, folding is just recomputed).
const cache = new Map<number, string>();
const CACHE_LIMIT = 8192;

function foldCodePoint(cp: number, ch: string): string {
  const hit = cache.get(cp);
  if (hit !== undefined) return hit;
  let out = CONFUSABLES[ch];
  if (out === undefined) {
    out = '';
    for (const c of ch.normalize('NFKD')) if (!MARK.test(c)) out += CONFUSABLES[c] ?? c;
  }
  if (cache.size < CACHE_LIMIT) cache.set(cp, out);
  return out;
}

export interface MatchView {
  /** The folded text. Regexes run on it case-insensitively (the `i` flag is the case fold). */
  text: string;
  /** For each code unit of `text`: start and end of the original character it came from. Null: identical to the original. */
  from: Int32Array | null;
  to: Int32Array | null;
}

/** The matching view of `text`. Pure ASCII (the common case) is its own view, with no allocation. */
export function matchView(text: string): MatchView {
  if (ASCII_ONLY.test(text)) return { text, from: null, to: null };
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const n = cp > 0xffff ? 2 : 1;
    const folded = cp < 0x80 ? text[i]! : foldCodePoint(cp, text.slice(i, i + n));
    if (folded === '') {
      // A dropped mark belongs to the character before it: cutting that character cuts the mark too.
      if (to.length) to[to.length - 1] = i + n;
    } else {
      parts.push(folded);
      for (let k = 0; k < folded.length; k++) {
        from.push(i);
        to.push(i + n);
      }
    }
    i += n;
  }
  return { text: parts.join(''), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** The original span of the view's span [start, end). */
export function originalSpan(view: MatchView, start: number, end: number, originalLength: number): [number, number] {
  if (!view.from || !view.to) return [start, end];
  const s = start < view.from.length ? view.from[start]! : originalLength;
  const e = end > start ? view.to[end - 1]! : s;
  return [s, Math.max(s, e)];
}

/**
 * How a name reads to a model: `ignore_previousInstructions` as `ignore previous Instructions`.
 * For names only, which are never rewritten, so no position map is kept.
 */
export function identifierView(name: string): string {
  return name.replace(/([a-z0-9])(?=[A-Z])/g, '$1 ').replace(/[_-]+/g, ' ');
}
