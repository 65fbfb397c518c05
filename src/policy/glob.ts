// Compiles parsed globs (glob-parse.ts) into anchored RegExps, one per list. Invariant: matching
// is linear in the input: each alternative is pieces joined by `*`, every piece between two stars
// has a fixed width, and each `*` but the last commits atomically to its leftmost match.

import { GlobError, parseGlob, type Atom, type GlobNode } from './glob-parse.js';

export { GlobError, type Atom } from './glob-parse.js';

/** Star-free brace alternatives kept inline in the regex as `(?:a|b)`. */
interface Group {
  kind: 'group';
  options: Part[][];
}
type Part = Atom | Group;

/**
 * Braces multiply (`{a,b}{c,d}...`); a glob with more combinations than this is refused rather
 * than compiled into a huge regex. Real rules stay far below it.
 */
export const MAX_ALTERNATIVES = 1024;
/** V8 refuses a regex with about 65k capture groups; larger lists are split into several. */
const MAX_GROUPS_PER_REGEX = 16_384;

/** How many brace-free globs a parsed glob stands for (duplicates counted). */
function combinations(nodes: readonly GlobNode[]): number {
  let n = 1;
  for (const node of nodes) {
    if (node.kind === 'alt') n *= node.options.reduce((sum, o) => sum + combinations(o), 0);
    if (n > MAX_ALTERNATIVES) return n; // stop before the product can overflow
  }
  return n;
}

const hasStar = (nodes: readonly GlobNode[]): boolean => nodes.some((n) => n.kind === 'star' || (n.kind === 'alt' && n.options.some(hasStar)));

const grouped = (nodes: readonly GlobNode[]): Part[] => nodes.map((n) => (n.kind === 'alt' ? { kind: 'group', options: n.options.map(grouped) } : n));

/** Sequences of parts: braces holding a `*` are expanded (they move the stars), others stay groups. */
function shape(nodes: readonly GlobNode[]): Part[][] {
  let results: Part[][] = [[]];
  for (const node of nodes) {
    if (node.kind !== 'alt') for (const r of results) r.push(node);
    else if (!node.options.some(hasStar)) for (const r of results) r.push(grouped([node])[0]!);
    else {
      const tails = node.options.flatMap(shape);
      results = results.flatMap((r) => tails.map((t) => r.concat(t)));
    }
  }
  return results;
}

/** Every brace-free expansion of star-free parts. */
function flatten(parts: readonly Part[]): Atom[][] {
  let results: Atom[][] = [[]];
  for (const p of parts) {
    if (p.kind !== 'group') for (const r of results) r.push(p);
    else {
      const tails = p.options.flatMap(flatten);
      results = results.flatMap((r) => tails.map((t) => r.concat(t)));
    }
  }
  return results;
}

/** Width in UTF-16 units, or undefined when alternatives differ in width. */
function widthOf(parts: readonly Part[]): number | undefined {
  let w = 0;
  for (const p of parts) {
    if (p.kind !== 'group') w += 1;
    else {
      const widths = new Set(p.options.map(widthOf));
      if (widths.size !== 1 || widths.has(undefined)) return undefined;
      w += [...widths][0]!;
    }
  }
  return w;
}

/** A middle piece as fixed-width variants: each variable-width group splits by width. */
function fixedWidth(piece: readonly Part[]): Part[][] {
  let results: Part[][] = [[]];
  for (const p of piece) {
    if (p.kind !== 'group' || widthOf([p]) !== undefined) {
      for (const r of results) r.push(p);
      continue;
    }
    const byWidth = new Map<number, Atom[][]>();
    for (const option of flatten([p])) byWidth.set(option.length, [...(byWidth.get(option.length) ?? []), option]);
    const tails = [...byWidth.values()].map((opts): Part[] => (opts.length === 1 ? opts[0]! : [{ kind: 'group', options: opts }]));
    results = results.flatMap((r) => tails.map((t) => r.concat(t)));
  }
  return results;
}

/** Splits at stars, fixes the width of middle pieces, and joins the variants back up. */
function linearizable(parts: readonly Part[]): Part[][] {
  const pieces: Part[][] = [[]];
  for (const p of parts) {
    if (p.kind === 'star') pieces.push([]);
    else pieces[pieces.length - 1]!.push(p);
  }
  let results: Part[][] = [pieces[0]!];
  pieces.slice(1).forEach((piece, i) => {
    const variants = i < pieces.length - 2 ? fixedWidth(piece) : [piece];
    results = results.flatMap((r) => variants.map((v) => [...r, { kind: 'star' } as const, ...v]));
  });
  return results;
}

const keyOf = (parts: readonly Part[]): string =>
  parts
    .map((a) => (a.kind === 'char' ? a.char : a.kind === 'class' ? `\0[${+a.negated}${a.ranges.join(';')}]` : a.kind === 'group' ? `\0{${a.options.map(keyOf).join('\0,')}\0}` : `\0${a.kind}`))
    .join('\u0001');

/** Runs of `*` become one `*` (same language, no adjacent stars in the regex); duplicates go. */
function dedupe<T extends Part>(list: readonly (readonly T[])[]): T[][] {
  const seen = new Map<string, T[]>();
  for (const parts of list) {
    const collapsed = parts.filter((a, i) => !(a.kind === 'star' && parts[i - 1]?.kind === 'star'));
    seen.set(keyOf(collapsed), collapsed);
  }
  return [...seen.values()];
}

function checkedParse(glob: string): GlobNode[] {
  const nodes = parseGlob(glob);
  if (combinations(nodes) > MAX_ALTERNATIVES) throw new GlobError(glob, `more than ${MAX_ALTERNATIVES} alternatives in braces`);
  return nodes;
}

/** The brace-free alternatives of a glob, deduplicated; throws GlobError on bad syntax or too many. */
export function expandGlob(glob: string): Atom[][] {
  return dedupe(shape(checkedParse(glob)).flatMap(flatten));
}

const unit = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

function partSource(a: Part): string {
  switch (a.kind) {
    case 'char':
      return /[A-Za-z0-9_]/.test(a.char) ? a.char : unit(a.char.charCodeAt(0));
    case 'one':
      return '[\\s\\S]';
    case 'class':
      return `[${a.negated ? '^' : ''}${a.ranges.map(([s, e]) => (s === e ? unit(s) : `${unit(s)}-${unit(e)}`)).join('')}]`;
    case 'group':
      return `(?:${a.options.map((o) => o.map(partSource).join('')).join('|')})`;
    case 'star':
      return '[\\s\\S]*';
  }
}

/**
 * `p0*p1*...*pk` as regex source. A middle piece has a fixed width, so its leftmost occurrence is
 * as good as any later one (what follows starts with `*`): `(?=([\s\S]*?p))\N` finds it and, a
 * lookahead being atomic, never revisits it. Only the last `*` backtracks, over one piece.
 */
function alternativeSource(parts: readonly Part[], nextGroup: () => number): string {
  const last = parts.findLastIndex((p) => p.kind === 'star');
  let source = '';
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.kind !== 'star' || i === last) {
      source += partSource(p);
      continue;
    }
    let end = i + 1;
    while (parts[end]!.kind !== 'star') end++;
    const g = nextGroup();
    source += `(?=([\\s\\S]*?${parts
      .slice(i + 1, end)
      .map(partSource)
      .join('')}))(?:\\${g})`;
    i = end - 1;
  }
  return source;
}

const starCount = (parts: readonly Part[]): number => parts.reduce((n, a) => n + (a.kind === 'star' ? 1 : 0), 0);

/** Anchored regexes (usually exactly one) that together match what any alternative matches. */
export function compileAlternatives(alternatives: readonly (readonly Part[])[], maxGroups = MAX_GROUPS_PER_REGEX): RegExp[] {
  const regexes: RegExp[] = [];
  let sources: string[] = [];
  let groups = 0;
  const flush = () => {
    if (sources.length > 0) regexes.push(new RegExp(`^(?:${sources.join('|')})$`));
    sources = [];
    groups = 0;
  };
  for (const parts of dedupe(alternatives.flatMap(linearizable))) {
    if (groups + starCount(parts) > maxGroups) flush();
    sources.push(alternativeSource(parts, () => ++groups));
  }
  flush();
  return regexes;
}

/**
 * A predicate for "matches any glob of the list". `transform` rewrites each brace-free
 * alternative (URI globs normalise their literals there); it may throw an Error with a reason.
 */
export function compileGlobList(globs: readonly string[], transform?: (atoms: Atom[]) => Atom[]): (text: string) => boolean {
  const alternatives = globs.flatMap((glob): Part[][] => {
    if (!transform) return shape(checkedParse(glob));
    try {
      return expandGlob(glob).map(transform);
    } catch (err) {
      if (err instanceof GlobError) throw err;
      throw new GlobError(glob, (err as Error).message);
    }
  });
  const regexes = compileAlternatives(alternatives);
  if (regexes.length === 0) return () => false;
  if (regexes.length === 1) {
    const re = regexes[0]!;
    return (text) => re.test(text);
  }
  return (text) => regexes.some((re) => re.test(text));
}
