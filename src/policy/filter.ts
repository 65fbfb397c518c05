// Allow/deny glob filters for tools, prompts (matched against the server's ORIGINAL name) and
// resources (matched against the URI). Invariants: deny wins over allow; an empty allow list
// allows nothing; `*` matches ANY run of characters, including none, `/`, `.` and newlines.
//
// Glob syntax (case-sensitive, whole-string match):
//   *      any run of characters (`**` is the same)   ?  exactly one character (UTF-16 unit)
//   [abc] [a-z] [^a] [!a]  one character; `]` first (`[]a]`) or escaped is a member; no [[:alpha:]]
//   {a,b}  alternatives, may nest; no `{1..3}` ranges (`..` inside braces is literal)
//   \x     the character x literally (`\\` is a backslash; so is a trailing `\`)
// Everything else, including ( ) | + @ ! $ ^ " and NUL, is literal. An unclosed `[` or `{`, or a
// stray `]`, makes compileFilter throw (config errors beat silently literal globs).

import picomatch from 'picomatch';
import type { FilterRules } from '../config/types.js';

/*
 * Why picomatch (a small, well-maintained, dependency-free glob library) plus a few tricks:
 * picomatch is built for file paths, so even with `bash: true` (single star crosses `/`) and
 * `dot: true` it still (a) refuses `.`/`..` path segments inside a star (`x*` does not match
 * `x/../y`, `*` does not match `./a`, `.` or ``) and (b) never lets `?` match `/`. Exactly such
 * strings could slip past a deny rule. So `/` is swapped for a private-use stand-in on both the
 * glob and the name, and both get the same one-character sentinel in front: with no `/` and no
 * leading `.` left, picomatch's path rules have nothing to act on. Likewise a literal backslash
 * (an escaped `\\` in the glob) gets a stand-in, because picomatch loses it before some characters
 * (`\\.` matched `.` alone). The cost: a name containing U+E000 or U+E001 itself is matched as if
 * that character were `/` or `\`. All of this is pinned down by the property tests.
 */
const SLASH = '\uE000';
const BACKSLASH = '\uE001';
const SENTINEL = '\uE002';

const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = {
  bash: true, // `*` also matches `/` (moot after the swap, kept as the intended semantics)
  dot: true, // `*` matches a leading `.`
  literalBrackets: false, // `[ab]` is a class only (by default picomatch also matches the text `[ab]`)
  // No POSIX classes: picomatch then rebuilds its regex from raw tokens and loses escapes
  // (`\\.[[:digit:]]` matched any character before a digit). prepareGlob turns `[!` into `[^`.
  posix: false,
  noextglob: true, // `*(x)`, `+(x)`, `@(x)`: URIs contain parentheses, keep them literal
  nonegate: true, // a leading `!` is a literal character, never "invert the glob"
  windows: false, // same behaviour on every OS: `\` escapes, it is never a path separator
  flags: 's', // `.` in the generated regex must also match line terminators
  debug: true, // throw on a glob that compiles to an invalid regex instead of silently never matching
  strictBrackets: true, // an unclosed `[` or `{` (or a stray `]`) is an error, not silently literal
};

const prepareName = (name: string): string =>
  SENTINEL + name.replaceAll('/', SLASH).replaceAll('\\', BACKSLASH);

/**
 * Characters passed to picomatch unescaped: letters, digits and our syntax. Everything else is
 * plain text in our syntax and gets a backslash, because picomatch treats a surprising set of
 * them specially: balanced `( )` stay regex groups even with extglobs off (`(a)` would match `a`,
 * not `(a)`); with braces, `|` becomes alternation and a `+` after `{` a quantifier; `"` quotes;
 * `$$` and `^^` break; NUL is dropped. Found by differential fuzzing against a reference regex.
 */
const SYNTAX = /[A-Za-z0-9*?[\]{},.:-]/;

/**
 * The glob-side twin of prepareName, plus the escaping described above. Also: an escaped letter
 * or digit becomes bare (picomatch would copy `\d`, `\0`, `\n` into the regex as classes or
 * controls), a trailing `\` is a literal backslash, and a `.` inside braces becomes `[.]`
 * (picomatch reads any `..` there, even `\.\.`, as a range and garbles the whole brace).
 */
function prepareGlob(glob: string): string {
  let out = SENTINEL;
  let braces = 0;
  let bracketOpenedAt = -2; // index of the `[` of the class we are in, or -2
  let classStart = -2; // index of its first member (after a negation)
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    const inBracket = bracketOpenedAt !== -2;
    if (ch === '\\') {
      const next = glob[++i];
      if (next === undefined || next === '\\') out += BACKSLASH;
      else if (next === '/') out += SLASH;
      else if (next === '.' && braces > 0 && !inBracket) out += '[.]';
      else if (/[A-Za-z0-9]/.test(next)) out += next;
      else out += ch + next;
    } else if (ch === '/') {
      out += SLASH;
    } else if (inBracket) {
      if ((ch === '!' || ch === '^') && i === bracketOpenedAt + 1) {
        out += '^'; // negation, bash's `[!` spelled as regex's `[^`
        classStart = i + 1;
      } else if (ch === ']' && i !== classStart) {
        bracketOpenedAt = -2;
        out += ch;
      } else {
        // As in bash (and picomatch), a `]` first in the class is a member, not the end.
        out += ch !== '[' && SYNTAX.test(ch) ? ch : '\\' + ch;
      }
    } else if (ch === '[') {
      bracketOpenedAt = i;
      classStart = i + 1;
      out += ch;
    } else if (ch === '.' && braces > 0) {
      out += '[.]';
    } else {
      if (ch === '{') braces++;
      else if (ch === '}' && braces > 0) braces--;
      out += SYNTAX.test(ch) ? ch : '\\' + ch;
    }
  }
  return out;
}

/** True for globs that match every string: one or more stars and nothing else. */
const matchesAll = (glob: string): boolean => /^\*+$/.test(glob);

/** One regex for a whole list, so each call costs one regex test, not one per glob. */
function compileList(globs: readonly string[]): RegExp {
  const sources = globs.map((glob) => {
    try {
      return picomatch.makeRe(prepareGlob(glob), PICOMATCH_OPTIONS).source;
    } catch (err) {
      // picomatch's own messages are helpful ("Missing closing: ..."); its regex errors quote
      // internals (our stand-in characters), so those get a plain explanation instead.
      const message = (err as Error).message;
      const reason = message.startsWith('Missing') ? message : 'unbalanced brackets or braces';
      throw new Error(`invalid glob ${JSON.stringify(glob)}: ${reason}`);
    }
  });
  return new RegExp(sources.map((s) => `(?:${s})`).join('|'), 's');
}

const allowAll = (): boolean => true;
const allowNone = (): boolean => false;

/**
 * A predicate: true when the name (or URI) is allowed. Deny wins over allow. Empty allow list =
 * nothing allowed. Compile once per config, call per item.
 */
export function compileFilter(rules: FilterRules): (name: string) => boolean {
  const deny = rules.deny;
  const allow = rules.allow;
  // Validate every glob even when a shortcut below makes some of them irrelevant.
  const denyRe = deny.length > 0 ? compileList(deny) : undefined;
  const allowRe = allow.length > 0 ? compileList(allow) : undefined;

  if (allowRe === undefined || deny.some(matchesAll)) return allowNone;
  const allowEverything = allow.some(matchesAll);
  if (denyRe === undefined) {
    // The common default `allow: ["*"], deny: []`: no glob work at all per call.
    if (allowEverything) return allowAll;
    return (name) => allowRe.test(prepareName(name));
  }
  if (allowEverything) return (name) => !denyRe.test(prepareName(name));
  return (name) => {
    const prepared = prepareName(name);
    return !denyRe.test(prepared) && allowRe.test(prepared);
  };
}
