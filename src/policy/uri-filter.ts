// Resource allow/deny filters that judge canonical URIs (uri.ts), with globs normalised the same
// way, so `FILE:///srv/*`, `file://localhost/srv/*` and `file:///srv/*` are one rule, and no
// re-spelling of a URI (case, escapes, `/./`, `..`, `localhost`, default port) slips past a deny.
//
// How a URI glob is normalised (after brace expansion, on its literal characters; wildcards stay):
//   - a glob without wildcards is canonicalised exactly like a URI
//   - the scheme (before the first literal `:`; with wildcards only if `//` follows, as in
//     `*://Example.com/*`) is lower-cased; with no scheme, a leading run of scheme characters is
//   - after `scheme://` up to the next literal `/` or `?`: the host (after any literal `@`) is
//     lower-cased; a wildcard-free authority is canonicalised (file `localhost` and default
//     ports dropped); `file:/x` reads as `file:///x`
//   - escapes and characters outside RFC 3986 get their canonical spelling, judged per component
//     (path up to a literal `?`, then query); `?` and classes match ONE character of the
//     canonical form, so a raw space in a server's URI is three (`%20`); classes are not changed
//   - in the path, `//` is merged and `.`/`..` segments resolved while no wildcard precedes
// With `fileCase: insensitive` a second set of the same globs, case-folded (uri-case.ts), judges
// the folded form of `file:` URIs; every other scheme keeps the case-sensitive set.
// A glob that can never match a canonical URI is an invalid glob, because a dead deny rule must
// not look like protection: `/./` or `/../` after a wildcard, `..` above the root or after `//`, a literal `#`,
// `\` outside a query, `%2F` `%5C` in a path or authority, `%00`, `%25` before an escape, a query on `file:`,
// a default port after a wildcard host, or a wildcard-free glob that canonicalUri refuses.

import type { UriFilterRules } from './rules.js';
import { foldAtoms, foldUriText, type FileCase } from './uri-case.js';
import { matchesAll } from './filter.js';
import { char, type Atom } from './glob-parse.js';
import { compileGlobList } from './glob.js';
import { canonicalEscape, canonicalRaw, canonicalUri, DEFAULT_PORTS, isDotSegment, schemeRules, STRICT_PATHS, type UriComponent } from './uri.js';

const lit = (a: Atom | undefined, c: string): boolean => a?.kind === 'char' && a.char === c;
const isHex = (a: Atom | undefined): a is { kind: 'char'; char: string } => a?.kind === 'char' && /^[0-9A-Fa-f]$/.test(a.char);
const textOf = (atoms: readonly Atom[]): string | undefined => (atoms.every((a) => a.kind === 'char') ? atoms.map((a) => (a as { char: string }).char).join('') : undefined);
const chars = (text: string): Atom[] => text.split('').map(char);
const lower = (atoms: readonly Atom[]): Atom[] => atoms.map((a) => (a.kind === 'char' ? char(a.char.toLowerCase()) : a));
function never(why: string): never {
  throw new Error(`can never match a canonical URI: ${why}`);
}

/** Canonical spelling of the literal characters of a run of atoms within one component. */
function canonicalRun(atoms: readonly Atom[], component: UriComponent): Atom[] {
  const out: Atom[] = [];
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.kind !== 'char') {
      out.push(a);
    } else if (a.char === '%' && isHex(atoms[i + 1]) && isHex(atoms[i + 2])) {
      const hex = (atoms[i + 1] as { char: string }).char + (atoms[i + 2] as { char: string }).char;
      i += 2;
      if (hex === '00') never('an encoded NUL');
      if ((component === 'path' || component === 'strict-path') && /^(2F|5C)$/i.test(hex)) never('an encoded / or \\ in a path');
      out.push(...chars(canonicalEscape(hex, component)));
    } else if (a.char === '#') {
      never('a # (URIs with a fragment are refused)');
    } else if (a.char === '\\' && component !== 'query' && component !== 'unknown') {
      never('a backslash outside a query');
    } else if (a.char === ';' && component === 'strict-path') {
      never('a ; in a file: or http(s) path (such URIs are refused; a literal ; is %3B)');
    } else {
      const next = atoms[i + 1];
      const pair = /[\uD800-\uDBFF]/.test(a.char) && next?.kind === 'char' && /[\uDC00-\uDFFF]/.test(next.char);
      if (!pair && /[\uD800-\uDFFF]/.test(a.char))
        out.push(a); // a lone surrogate: it just never matches
      else out.push(...chars(canonicalRaw(pair ? a.char + (next as { char: string }).char : a.char, component)));
      if (pair) i++;
    }
  }
  if (out.some((a, k) => lit(a, '%') && lit(out[k + 1], '2') && lit(out[k + 2], '5') && isHex(out[k + 3]) && isHex(out[k + 4]))) {
    never('double percent-encoding (%25 before an escape)');
  }
  return out;
}

function canonicalAuthorityAtoms(atoms: readonly Atom[], scheme: string | undefined, rules: string): Atom[] {
  const literal = textOf(atoms);
  if (literal !== undefined && scheme !== undefined) {
    // Exactly what canonicalUri does to it: case, `localhost`, ports.
    const probe = canonicalUri(`${scheme}://${literal}/`);
    if (!probe.ok) never(`its authority: the URI ${probe.reason}`);
    return chars(probe.uri.slice(scheme.length + 3, -1));
  }
  const text = atoms.map((a) => (a.kind === 'char' ? a.char : '\0')).join('');
  if (/%(2F|5C)/i.test(text)) never('an encoded / or \\ in the authority (such URIs are refused)');
  const port = /:(\d*)$/.exec(textOf(atoms.slice(atoms.findLastIndex((a) => a.kind !== 'char') + 1)) ?? '');
  if (port && (port[1] === '' || Number(port[1]) === DEFAULT_PORTS[rules])) never('an empty or default port (canonical URIs drop it)');
  const at = atoms.findLastIndex((a) => lit(a, '@'));
  const userinfo = at >= 0 ? [...canonicalRun(atoms.slice(0, at), 'userinfo'), char('@')] : [];
  return [...userinfo, ...canonicalRun(atoms.slice(at + 1), 'host')];
}

/** Splits at literal `/`; the first element is what precedes the first `/`. */
function splitSlashes(atoms: readonly Atom[]): Atom[][] {
  const segments: Atom[][] = [[]];
  for (const a of atoms) {
    if (lit(a, '/')) segments.push([]);
    else segments[segments.length - 1]!.push(a);
  }
  return segments;
}

/**
 * A path starting with a literal `/`, as canonicalPath would leave it: `//` merged and dot
 * segments resolved while no wildcard precedes. After a wildcard `//` stays (the wildcard may
 * have reached a query), but `/./` and `/../` never appear anywhere in a canonical URI.
 */
function canonicalPathAtoms(atoms: readonly Atom[], wildcardBefore: boolean, rules: string): Atom[] {
  const kept: Atom[][] = [];
  let wild = wildcardBefore;
  let trailingSlash = false;
  let emptySegment = false;
  const segments = splitSlashes(atoms).slice(1);
  segments.forEach((raw, i) => {
    const segment = canonicalRun(raw, STRICT_PATHS.has(rules) ? 'strict-path' : 'path');
    const text = textOf(segment);
    const last = i === segments.length - 1;
    if (text !== undefined && isDotSegment(text)) {
      if (wild) never('a dot segment after a wildcard');
      if (text !== '.' && text !== '..') never('a dot segment with ;parameters');
      if (text === '..' && emptySegment) never('// before .. (such URIs are refused)');
      if (text === '..' && kept.pop() === undefined) never('.. above the root');
      trailingSlash = last;
    } else if (text === '' && !wild) {
      emptySegment ||= !last;
      trailingSlash = last;
    } else {
      kept.push(segment);
      trailingSlash = false;
      wild ||= text === undefined;
    }
  });
  const out: Atom[] = [];
  for (const segment of kept) out.push(char('/'), ...segment);
  if (kept.length === 0 || trailingSlash) out.push(char('/'));
  return out;
}

/** A brace-free URI glob → the same glob for canonical URIs; throws when it can never match. */
export function canonicalUriGlob(atoms: Atom[]): Atom[] {
  const whole = textOf(atoms);
  if (whole !== undefined) {
    const c = canonicalUri(whole);
    if (!c.ok) never(`the URI ${c.reason}`);
    return chars(c.uri);
  }
  const schemeChar = (a: Atom | undefined): boolean => a?.kind === 'char' && /^[A-Za-z0-9+.-]$/.test(a.char);
  // The scheme: what precedes the first literal `:`, if that is all scheme characters. With
  // wildcards in it (`*://Example.com/*`) it counts only when a literal `//` follows.
  const i = atoms.findIndex((a) => lit(a, ':'));
  const head = i < 0 ? [] : atoms.slice(0, i);
  const wildHead = textOf(head) === undefined;
  if (i <= 0 || !head.every((a) => a.kind !== 'char' || schemeChar(a)) || (wildHead && !(lit(atoms[i + 1], '/') && lit(atoms[i + 2], '/')))) {
    // Every URI starts with its scheme, so a leading literal run of scheme characters is one.
    let run = 0;
    while (schemeChar(atoms[run])) run++;
    return [...lower(atoms.slice(0, run)), ...canonicalRun(atoms.slice(run), 'unknown')];
  }
  const schemeAtoms = lower(atoms.slice(0, i));
  const scheme = textOf(schemeAtoms);
  const rules = scheme === undefined ? '' : schemeRules(scheme);
  let rest = atoms.slice(i + 1);
  const out: Atom[] = [...schemeAtoms, char(':')];

  let hierarchical = lit(rest[0], '/');
  if (lit(rest[0], '/') && lit(rest[1], '/')) {
    let end = 2;
    while (end < rest.length && !lit(rest[end], '/') && !lit(rest[end], '?')) end++;
    out.push(char('/'), char('/'), ...canonicalAuthorityAtoms(rest.slice(2, end), scheme, rules));
    rest = rest.slice(end);
    hierarchical = true;
  } else if (rules === 'file' && lit(rest[0], '/')) {
    out.push(char('/'), char('/'));
  }
  const q = rest.findIndex((a) => lit(a, '?'));
  const path = q < 0 ? rest : rest.slice(0, q);
  if (hierarchical && lit(path[0], '/')) {
    out.push(
      ...canonicalPathAtoms(
        path,
        out.some((a) => a.kind !== 'char'),
        rules,
      ),
    );
  } else {
    const opaque = canonicalRun(path, hierarchical ? 'path' : 'opaque');
    const dots = splitSlashes(opaque).some((segment) => isDotSegment(textOf(segment) ?? ''));
    if (dots && !hierarchical) never('a dot segment in a path without a root');
    out.push(...opaque);
  }
  if (q >= 0) {
    if (rules === 'file') never('a query on a file URI (those are refused)');
    out.push(char('?'), ...canonicalRun(rest.slice(q + 1), 'query'));
  }
  return out;
}

const allowAll = (): boolean => true;
const allowNone = (): boolean => false;

/** The filter of rules that judge nothing (every URI passes as it is): what needs no checking. */
export const ALLOW_EVERY_URI: (uri: string) => boolean = allowAll;
/** One list of globs, for canonical URIs and, where file rules ignore case, for folded `file:` URIs. */
function compileUriGlobs(globs: readonly string[], fileCase: FileCase | undefined): { test(uri: string): boolean; file(folded: string): boolean } | undefined {
  if (globs.length === 0) return undefined;
  const test = compileGlobList(globs, canonicalUriGlob);
  const file = fileCase === 'insensitive' ? compileGlobList(globs, (atoms) => foldAtoms(canonicalUriGlob(atoms))) : test;
  return { test, file };
}

/**
 * A predicate over resource URIs: canonicalUri, then deny globs, then allow globs (all normalised
 * as above). A refused URI is denied. With `fileCase: insensitive`, a `file:` URI (also a
 * namespaced `x+file:` one) and the globs are compared case-folded (uri-case.ts). Shortcut:
 * `allow: ["*"], deny: []` judges nothing and allows every URI as it is, refused ones included
 * (there is no rule to bypass). Throws on an invalid glob: `invalid glob "<glob>": <reason>`.
 */
export function compileUriFilter(rules: UriFilterRules): (uri: string) => boolean {
  const denied = compileUriGlobs(rules.deny, rules.fileCase);
  const allowed = compileUriGlobs(rules.allow, rules.fileCase);
  if (allowed === undefined || rules.deny.some(matchesAll)) return allowNone;
  const allowEverything = rules.allow.some(matchesAll);
  if (denied === undefined && allowEverything) return allowAll;
  const folds = rules.fileCase === 'insensitive';
  return (uri) => {
    const c = canonicalUri(uri);
    if (!c.ok) return false;
    if (folds && schemeRules(c.uri.slice(0, c.uri.indexOf(':'))) === 'file') {
      const folded = foldUriText(c.uri);
      return !denied?.file(folded) && (allowEverything || allowed.file(folded));
    }
    return !denied?.test(c.uri) && (allowEverything || allowed.test(c.uri));
  };
}
