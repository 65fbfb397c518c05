// Glob syntax (documented in filter.ts) → a small tree: literal UTF-16 units, `*`, `?`, classes
// and brace alternatives. Invariant: every syntax error is a GlobError quoting the glob, so config
// problems can point at the very glob that is wrong; nothing here builds a regex.

/** One UTF-16 unit, `*`, `?`, or a class of UTF-16 units (`ranges` are inclusive code units). */
export type Atom = { kind: 'char'; char: string } | { kind: 'star' } | { kind: 'one' } | { kind: 'class'; negated: boolean; ranges: readonly (readonly [number, number])[] };

/** A parsed glob: atoms and `{a,b}` alternatives (each option again a sequence). */
export type GlobNode = Atom | { kind: 'alt'; options: GlobNode[][] };

export class GlobError extends Error {
  constructor(glob: string, reason: string) {
    super(`invalid glob ${JSON.stringify(glob)}: ${reason}`);
    this.name = 'GlobError';
  }
}

export const STAR: Atom = { kind: 'star' };
export const ONE: Atom = { kind: 'one' };
export const char = (c: string): Atom => ({ kind: 'char', char: c });

/** Parses a glob; throws a bare reason string, which parseGlob wraps with the glob. */
class Parser {
  private i = 0;
  constructor(private readonly glob: string) {}

  parse(): GlobNode[] {
    const nodes = this.sequence(0);
    if (this.i < this.glob.length) throw new Error('unreachable: parser stopped early');
    return nodes;
  }

  /** Up to the end, or (inside braces, depth > 0) up to an unconsumed `,` or `}`. */
  private sequence(depth: number): GlobNode[] {
    const out: GlobNode[] = [];
    const g = this.glob;
    while (this.i < g.length) {
      const c = g[this.i]!;
      if (depth > 0 && (c === ',' || c === '}')) return out;
      this.i++;
      if (c === '\\') {
        // A trailing backslash has nothing to escape: it is itself.
        out.push(char(this.i < g.length ? g[this.i++]! : '\\'));
      } else if (c === '*') out.push(STAR);
      else if (c === '?') out.push(ONE);
      else if (c === '[') out.push(this.charClass());
      else if (c === ']') throw new Error('Missing opening "[" for "]" (write "\\]" for a literal bracket)');
      else if (c === '{') out.push(...this.brace(depth));
      else out.push(char(c));
    }
    return out;
  }

  /** After `{`. Without a top-level comma the braces are literal text, as in bash. */
  private brace(depth: number): GlobNode[] {
    const options = [this.sequence(depth + 1)];
    while (this.glob[this.i] === ',') {
      this.i++;
      options.push(this.sequence(depth + 1));
    }
    if (this.glob[this.i] !== '}') throw new Error('Missing closing "}" (write "\\{" for a literal brace)');
    this.i++;
    return options.length === 1 ? [char('{'), ...options[0]!, char('}')] : [{ kind: 'alt', options }];
  }

  /** After `[`. A `]` first (after any negation) is a member; `[` is always a member (no POSIX classes). */
  private charClass(): Atom {
    const g = this.glob;
    let negated = false;
    if (g[this.i] === '!' || g[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const ranges: [number, number][] = [];
    let first = true;
    let afterRange = false;
    for (;;) {
      if (this.i >= g.length) throw new Error('Missing closing "]" (write "\\[" for a literal bracket)');
      if (g[this.i] === ']' && !first) {
        this.i++;
        return { kind: 'class', negated, ranges };
      }
      first = false;
      const start = this.member();
      // As in regex classes, a `-` right after a range, or before the closing `]`, is a member.
      if (!(afterRange && start === 0x2d) && g[this.i] === '-' && this.i + 1 < g.length && g[this.i + 1] !== ']') {
        this.i++;
        const end = this.member();
        if (end < start) throw new Error(`invalid range "${String.fromCharCode(start)}-${String.fromCharCode(end)}" in a class`);
        ranges.push([start, end]);
        afterRange = true;
      } else {
        ranges.push([start, start]);
        afterRange = false;
      }
    }
  }

  private member(): number {
    const g = this.glob;
    if (g[this.i] === '\\') this.i++;
    if (this.i >= g.length) throw new Error('Missing closing "]" (write "\\[" for a literal bracket)');
    return g.charCodeAt(this.i++);
  }
}

export function parseGlob(glob: string): GlobNode[] {
  try {
    return new Parser(glob).parse();
  } catch (err) {
    throw new GlobError(glob, (err as Error).message);
  }
}
