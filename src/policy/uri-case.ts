// Case folding of `file:` URIs for rules about servers whose file system ignores case (macOS,
// Windows: `/SECRET/x` is `/secret/x` there). Works on canonical text (uri.ts), escapes included:
// a letter spelt `%C3%89` folds like `É`. Invariants: fold(fold(x)) = fold(x); the fold of a
// canonical URI is canonical; it never changes or moves a `/`, an ASCII escape or anything else a
// glob or a server parses.
//
// The fold: NFC; each character to its upper case where that is one character (NTFS compares
// by its upcase table: `ı` and `i` are both `I`), then to its lower case (ſ → S → s, ς → Σ → σ,
// K (Kelvin) → k), one character at a time so no context rule (the final sigma) applies; NFC
// again. One character to one, as NTFS and HFS+ fold: `ß` is not `ss`. NFC makes the composed
// and the decomposed é one name, as APFS does. Escapes that are not UTF-8 stay as they are. Where
// file systems differ, the fold joins what either joins: a deny rule covers both.

import { char, type Atom } from './glob-parse.js';

/** How a rule compares `file:` paths: as bytes (Linux) or ignoring case (macOS, Windows). */
export type FileCase = 'sensitive' | 'insensitive';

/** Folds decoded text (no escapes in it). */
export function foldText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const upper = ch.toUpperCase();
    out += ([...upper].length === 1 ? upper : ch).toLowerCase();
  }
  return out.normalize('NFC');
}

const HEX2 = /^[0-9A-Fa-f]{2}$/;
/** Text with no non-ASCII character and no escape of a byte above 0x7F. */
const ASCII_ONLY = /^(?:[\x00-\x24\x26-\x7f]|%(?![89A-Fa-f]))*$/;
const LONE_SURROGATE = /^[\uD800-\uDFFF]$/;
/** What a canonical file: URI holds unescaped (uri.ts; `;` is refused in its path). */
const RAW = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,=]$/;

/** Bytes of a UTF-8 sequence by its lead byte; 0 when it cannot lead one. */
const sequenceLength = (lead: number): number => (lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0);

/**
 * Folds canonical URI text: ASCII letters and the characters of UTF-8 escape sequences fold,
 * then go back to their canonical spelling (non-ASCII as upper-case `%HH`). ASCII escapes
 * (`%3F`, `%20`) and escapes that are no UTF-8 stay as they are.
 */
export function foldUriText(text: string): string {
  // Most URIs: ASCII with ASCII escapes only, where folding lower-cases the letters outside escapes.
  if (ASCII_ONLY.test(text)) return text.replace(/%[0-9A-Fa-f]{0,2}|[A-Z]+/g, (m) => (m[0] === '%' ? m : m.toLowerCase()));
  let out = '';
  let plain = ''; // decoded text waiting to be folded (folded as one, so NFC sees neighbours)
  const flush = () => {
    if (plain === '') return;
    // NFC maps a few characters to ASCII (U+037E to `;`, U+1FEF to a backquote): those get the
    // spelling a canonical file: URI gives them (`;` is `%3B` there), as non-ASCII ones do.
    for (const ch of foldText(plain)) out += RAW.test(ch) ? ch : ch === ';' ? '%3B' : encodeURIComponent(ch);
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '%') {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      if (LONE_SURROGATE.test(ch)) {
        flush();
        out += ch;
      } else plain += ch;
      i += ch.length;
      continue;
    }
    const hex = text.slice(i + 1, i + 3);
    if (!HEX2.test(hex)) {
      // `%` cut off by a glob wildcard: it and its hex digits stay as written.
      flush();
      const digits = /^[0-9A-Fa-f]{0,2}/.exec(text.slice(i + 1))![0];
      out += `%${digits}`;
      i += 1 + digits.length;
      continue;
    }
    const length = sequenceLength(parseInt(hex, 16));
    const sequence = text.slice(i, i + 3 * length);
    let decoded: string | undefined;
    if (length > 0 && /^(%[0-9A-Fa-f]{2})+$/.test(sequence) && sequence.length === 3 * length) {
      try {
        decoded = decodeURIComponent(sequence);
      } catch {
        decoded = undefined;
      }
    }
    if (decoded !== undefined) {
      plain += decoded;
      i += sequence.length;
    } else {
      flush();
      out += text.slice(i, i + 3);
      i += 3;
    }
  }
  flush();
  return out;
}

/** The same class for folded text: each ASCII upper-case member brings its lower case along. */
function foldClass(a: Extract<Atom, { kind: 'class' }>): Atom {
  const extra: [number, number][] = [];
  for (const [s, e] of a.ranges) {
    const from = Math.max(s, 0x41);
    const to = Math.min(e, 0x5a);
    if (from <= to) extra.push([from + 0x20, to + 0x20]);
  }
  return extra.length === 0 ? a : { ...a, ranges: [...a.ranges, ...extra] };
}

/** A canonical URI glob for folded URIs: its literal runs folded, its classes widened. */
export function foldAtoms(atoms: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  let run = '';
  const flush = () => {
    if (run !== '') for (const unit of foldUriText(run).split('')) out.push(char(unit));
    run = '';
  };
  for (const a of atoms) {
    if (a.kind === 'char') {
      run += a.char;
      continue;
    }
    flush();
    out.push(a.kind === 'class' ? foldClass(a) : a);
  }
  flush();
  return out;
}
