// Splitting of tool names and free text into lower-case words. Pure and allocation-light: it runs
// on every indexed field and every query. Invariants: never throws, every word is non-empty and
// equal to its own lower case, and Han/Kana/Hangul/Thai runs become character bigrams.

/** Scripts written without spaces between words: indexed as overlapping character bigrams. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{M}]+)/u;

/** A run of letters, marks and digits: everything else (space, `_`, `-`, `.`, `/`, punctuation) separates. */
const RUN = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Word boundaries inside a run: an acronym's plural (`PRs`, `URLs`, `getIDsByName` → get, ids, by,
 * name: not P and Rs), acronyms before a capitalised word (`HTTPResponse` → HTTP, Response),
 * capitalised or lower-case words, a trailing acronym, digit groups, and letters of scripts
 * without case. Marks stay with the letter they follow.
 */
const PART = /\p{Lu}[\p{Lu}\p{M}]+s(?![\p{Ll}\p{M}])|\p{Lu}[\p{Lu}\p{M}]*(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}[\p{Lu}\p{M}]*|\p{N}+|[\p{Lo}\p{Lt}\p{Lm}][\p{Lo}\p{Lt}\p{Lm}\p{M}]*|\p{M}+/gu;

/** Combining diacritics of Latin, Greek and Cyrillic (`é` → `e`); other scripts' marks are letters' parts. */
const DIACRITICS = /[\u0300-\u036f]/g;
const HAS_NON_ASCII = /[^\x00-\x7f]/;

/** Lower-cases and folds Latin diacritics; returns '' when nothing of a word is left. */
export function foldWord(word: string): string {
  let w = word.toLowerCase();
  if (HAS_NON_ASCII.test(w)) w = w.normalize('NFD').replace(DIACRITICS, '').normalize('NFC').toLowerCase().replace(/ß/g, 'ss');
  return w;
}

/**
 * Splits an identifier into its words, lower-cased: `snake_case`, `kebab-case`, `camelCase`,
 * `PascalCase`, acronyms (`getHTTPResponse` → get, http, response), digit groups, dots, slashes.
 */
export function splitName(name: string): string[] {
  const out: string[] = [];
  for (const run of name.normalize('NFKC').match(RUN) ?? []) pushParts(run, out);
  return out;
}

function pushParts(run: string, out: string[]): void {
  for (const part of run.match(PART) ?? []) {
    // An ASCII part is all letters or all digits, and lower-casing leaves it one part: no second split.
    if (ASCII_ONLY.test(part)) {
      out.push(part.toLowerCase());
      continue;
    }
    // Folding can change a character's class (a title-case Greek letter loses its marks and
    // becomes lower case): split the folded part again, so splitting is idempotent.
    for (const w of foldWord(part).match(PART) ?? []) {
      if (!ONLY_MARKS.test(w)) out.push(w);
    }
  }
}

const ONLY_MARKS = /^\p{M}+$/u;

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_RUN = /[A-Za-z0-9]+/g;

/**
 * The letter-and-digit runs of a text, in order: the unit the analyzer caches. Pure ASCII text
 * (nearly every tool definition) skips Unicode normalisation, which is the costly part.
 */
export function runs(text: string): string[] {
  if (ASCII_ONLY.test(text)) return text.match(ASCII_RUN) ?? [];
  return text.normalize('NFKC').match(RUN) ?? [];
}

/**
 * Words of free text (descriptions, queries) in reading order. Identifiers inside text are split
 * like names; a run mixing letters and digits (`s3`, `ec2`, `oauth2`) also yields the whole run,
 * since users type it that way. Unspaced scripts yield bigrams (a lone character stays a unigram).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const run of runs(text)) pushRunWords(run, out);
  return out;
}

/** The words of one run (see `tokenize`), appended to `out`. */
export function pushRunWords(run: string, out: string[]): void {
  if (!UNSPACED.test(run)) {
    pushRun(run, out);
    return;
  }
  for (const piece of run.split(UNSPACED_RUN)) {
    if (piece.length === 0) continue;
    if (UNSPACED.test(piece)) pushBigrams(foldWord(piece), out);
    else pushRun(piece, out);
  }
}

function pushRun(run: string, out: string[]): void {
  const before = out.length;
  pushParts(run, out);
  if (out.length - before > 1 && /\p{N}/u.test(run) && /\p{L}/u.test(run) && run.length <= 12) {
    const whole = foldWord(run);
    if (/^[\p{L}\p{N}]+$/u.test(whole)) out.push(whole);
  }
}

function pushBigrams(run: string, out: string[]): void {
  // Marks of unspaced scripts (Thai vowel signs) belong to the previous character.
  const units: string[] = [];
  for (const c of Array.from(run)) {
    if (/^\p{M}$/u.test(c) && units.length > 0) units[units.length - 1] += c;
    else if (!/^\p{M}$/u.test(c)) units.push(c);
  }
  if (units.length === 1) out.push(units[0]!);
  for (let i = 0; i + 1 < units.length; i++) out.push(units[i]! + units[i + 1]!);
}
