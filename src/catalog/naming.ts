// Exposed names for merged tools and prompts: `<prefix><separator><name>`, fitted to a rule set.
// Invariants: every output matches the rules (1..maxLength allowed chars) for any input; outputs of
// one call are unique; in 'always' mode a name depends only on (prefix, separator, name, rules);
// given namespaces, no server gets a name in another server's `<prefix><separator>` namespace.

import { createHash } from 'node:crypto';
import type { NamingMode } from '../config/types.js';

/** What the MCP spec recommends for tool names. */
export const SPEC_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export interface NameRules {
  /** Matches ONE allowed character, e.g. `/[A-Za-z0-9_.-]/`. Must allow `[a-z2-7]` and `_`. */
  allowed: RegExp;
  maxLength: number;
}

export const SPEC_NAME_RULES: NameRules = Object.freeze({ allowed: /[A-Za-z0-9_.-]/, maxLength: 128 });
/** Model APIs (OpenAI, Anthropic function names) reject `.` and cap at 64. */
export const MODEL_API_NAME_RULES: NameRules = Object.freeze({ allowed: /[A-Za-z0-9_-]/, maxLength: 64 });

export interface NamingOptions {
  separator: string;
  mode: NamingMode;
  /** Default SPEC_NAME_RULES. */
  rules?: NameRules;
  /**
   * Names no item may get (the gateway's own tools, e.g. search_tools): an item whose name would
   * be one of them gets a hash suffix instead, like any other clash.
   */
  reserved?: ReadonlySet<string>;
  /**
   * server → prefix of every enabled server, those without items too. A name that starts with
   * another server's `<prefix><separator>` is never given to a server: a profile allowed `gh__*`
   * must reach gh alone, whatever other servers list and in whatever order (see assignNames).
   */
  namespaces?: ReadonlyMap<string, string>;
}

export interface NameRequest {
  server: string;
  /** `""` means no prefix and no separator. */
  prefix: string;
  /** The server's original name; any string. */
  name: string;
}

/*
 * Fitting scheme (documented for users, keep in sync with the README):
 *  - a candidate that is already valid is returned unchanged;
 *  - otherwise every disallowed character becomes `_`, the result is cut so that `-<hash>` fits,
 *    and `-<hash>` is appended, where <hash> is 8 chars of base32(sha256(original candidate)).
 *    The hash is what keeps `x__a/b` (-> `x__a_b-k2m...`) apart from a real `x__a_b`, and two
 *    long names with a common head apart from each other;
 *  - if nothing readable is left (empty candidate), the result is `_<hash>`.
 * Clash suffixes (see assignNames) use the same `-<hash>` shape on top of an already fitted name.
 */
const HASH_LENGTH = 8;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const MARKER = '-';
const REPLACEMENT = '_';

interface CompiledRules {
  one: RegExp;
  full: RegExp;
  maxLength: number;
  marker: string;
}

// Rules objects are few and long-lived (usually the two constants); compile each once.
const compiled = new WeakMap<NameRules, CompiledRules>();

function compileRules(rules: NameRules): CompiledRules {
  const hit = compiled.get(rules);
  if (hit) return hit;
  const { allowed, maxLength } = rules;
  // Room for at least one readable char plus `-<hash>`; smaller limits would leave so few
  // possible names that the clash loop in makeUnique might never find a free one.
  if (!Number.isSafeInteger(maxLength) || maxLength < HASH_LENGTH + 2) {
    throw new RangeError(`NameRules.maxLength must be an integer >= ${HASH_LENGTH + 2}, got ${maxLength}`);
  }
  // Drop g/y: a stateful regex (lastIndex) would make per-character tests order-dependent.
  const flags = allowed.flags.replace(/[gy]/g, '');
  const one = new RegExp(`^(?:${allowed.source})$`, flags);
  const full = new RegExp(`^(?:${allowed.source}){1,${maxLength}}$`, flags);
  for (const ch of BASE32 + REPLACEMENT) {
    if (!one.test(ch)) throw new Error(`NameRules.allowed must allow "${ch}" (used by hash suffixes)`);
  }
  // `-` reads best as "the gateway added this"; fall back to `_` for rules without it.
  const result = { one, full, maxLength, marker: one.test(MARKER) ? MARKER : REPLACEMENT };
  compiled.set(rules, result);
  return result;
}

function isValid(name: string, c: CompiledRules): boolean {
  // Length is checked in code units too, so a `u`-flagged class cannot smuggle in longer strings.
  return name.length >= 1 && name.length <= c.maxLength && c.full.test(name);
}

/** 8 base32 chars (40 bits) of sha256; UTF-16LE input so that distinct JS strings never collide
 *  by encoding (UTF-8 would map every lone surrogate to U+FFFD). */
function shortHash(input: string): string {
  const bytes = createHash('sha256').update(input, 'utf16le').digest();
  let out = '';
  let acc = 0;
  let bits = 0;
  for (let i = 0; out.length < HASH_LENGTH; i++) {
    acc = (acc << 8) | bytes[i]!;
    bits += 8;
    while (bits >= 5 && out.length < HASH_LENGTH) {
      bits -= 5;
      out += BASE32[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/** Replaces disallowed code points and keeps at most `budget` code units, never splitting a pair. */
function readablePart(candidate: string, budget: number, c: CompiledRules): string {
  let out = '';
  for (const ch of candidate) {
    const piece = c.one.test(ch) ? ch : REPLACEMENT;
    if (out.length + piece.length > budget) break;
    out += piece;
  }
  return out;
}

/** `<readable>-<hash>`, cut to fit; the readable part may already be valid or not. */
function withHash(readable: string, hash: string, c: CompiledRules): string {
  const head = readablePart(readable, c.maxLength - HASH_LENGTH - 1, c);
  return head === '' ? REPLACEMENT + hash : head + c.marker + hash;
}

function fit(candidate: string, c: CompiledRules): string {
  return isValid(candidate, c) ? candidate : withHash(candidate, shortHash(candidate), c);
}

/** Makes one raw candidate valid: replaces disallowed chars, shortens with a hash suffix. Deterministic. */
export function fitName(candidate: string, rules: NameRules = SPEC_NAME_RULES): string {
  return fit(candidate, compileRules(rules));
}

/**
 * Exposed names, parallel to `items`. Always valid per rules, always unique; undefined for an
 * item withheld because its name could only be in another server's namespace.
 *
 * 'always': `fitName(prefix + separator + name)` (just `name` when prefix is `""`).
 * 'on-conflict': `fitName(name)`, unless items from two or more DIFFERENT servers share that
 *   fitted plain name; then every item in that group is prefixed as in 'always'. Adding a server
 *   can therefore rename tools in this mode; that is its documented trade-off.
 * Namespaces: a name in another server's namespace (the longest `<prefix><separator>` it starts
 *   with is not its own server's: an unprefixed `gh__create_issue` of server `evil`) gets its own
 *   server's prefix (`evil__gh__create_issue`); a server with prefix "" cannot, and its item is
 *   withheld. This runs before clashes are settled, so it does not depend on the order of servers.
 * Remaining duplicates (shared empty prefixes, a server listing a name twice, prefix/name splits
 *   that concatenate alike): the first in input order keeps the name; each later one gets
 *   `-<hash of (server, name, occurrence, attempt)>`.
 */
export function assignNames(items: readonly NameRequest[], options: NamingOptions): (string | undefined)[] {
  const c = compileRules(options.rules ?? SPEC_NAME_RULES);
  const prefixed = (it: NameRequest): string => {
    // Once per request object, rules and separator: the catalog hands in the same request for an
    // unchanged item at every rebuild (catalog/build.ts), so most names are not fitted again.
    const memo = it as Memo;
    const hit = memo[FITTED];
    if (hit && hit.c === c && hit.separator === options.separator && hit.prefix === it.prefix && hit.name === it.name) return hit.base;
    const base = fit(it.prefix === '' ? it.name : it.prefix + options.separator + it.name, c);
    memo[FITTED] = { c, separator: options.separator, prefix: it.prefix, name: it.name, base };
    return base;
  };

  let base: string[];
  switch (options.mode) {
    case 'always':
      base = items.map(prefixed);
      break;
    case 'on-conflict': {
      const plain = items.map((it) => {
        const memo = it as Memo;
        const hit = memo[PLAIN];
        if (hit && hit.c === c && hit.name === it.name) return hit.plain;
        const fitted = fit(it.name, c);
        memo[PLAIN] = { c, name: it.name, plain: fitted };
        return fitted;
      });
      const serversByName = new Map<string, Set<string>>();
      plain.forEach((n, i) => {
        let servers = serversByName.get(n);
        if (!servers) serversByName.set(n, (servers = new Set()));
        servers.add(items[i]!.server);
      });
      base = plain.map((n, i) => (serversByName.get(n)!.size > 1 ? prefixed(items[i]!) : n));
      break;
    }
    default:
      throw new Error(`unknown naming mode: ${String(options.mode)}`);
  }
  const foreign = foreignTo(options);
  const placed = base.map((n, i): string | undefined => {
    const it = items[i]!;
    if (!foreign(n, it.server)) return n;
    const own = it.prefix === '' ? undefined : prefixed(it);
    return own !== undefined && !foreign(own, it.server) ? own : undefined;
  });
  return makeUnique(items, placed, c, foreign, options.reserved);
}

/** Whether `name` lies in the namespace of a server other than `server` (the longest prefix wins). */
function foreignTo(options: NamingOptions): (name: string, server: string) => boolean {
  if (!options.namespaces) return () => false;
  const spaces = [...options.namespaces]
    .filter(([, prefix]) => prefix !== '')
    .map(([server, prefix]) => ({ server, start: prefix + options.separator }))
    .sort((a, b) => b.start.length - a.start.length);
  return (name, server) => {
    const owner = spaces.find((s) => name.startsWith(s.start));
    return owner !== undefined && owner.server !== server;
  };
}

/** Attempts at a clash suffix that lands outside other servers' namespaces, before withholding. */
const MAX_FOREIGN_ATTEMPTS = 16;

// A request's last fitted names, kept on the request itself (a property read is cheaper than a
// WeakMap lookup, and there is one per tool per rebuild); checked against what they came from.
const PLAIN = Symbol('plain');
const FITTED = Symbol('fitted');
type Memo = NameRequest & {
  [PLAIN]?: { c: CompiledRules; name: string; plain: string };
  [FITTED]?: { c: CompiledRules; separator: string; prefix: string; name: string; base: string };
};

function makeUnique(
  items: readonly NameRequest[],
  base: readonly (string | undefined)[],
  c: CompiledRules,
  foreign: (name: string, server: string) => boolean,
  reserved?: ReadonlySet<string>,
): (string | undefined)[] {
  const out = new Array<string | undefined>(base.length);
  // Pass 1 reserves every name's first holder, so that a clash suffix given to a later item can
  // never push out an item whose own name was unique (keeps unrelated names stable).
  const taken = new Set<string>(reserved);
  const losers: number[] = [];
  base.forEach((n, i) => {
    if (n === undefined) out[i] = undefined;
    else if (taken.has(n)) losers.push(i);
    else {
      taken.add(n);
      out[i] = n;
    }
  });
  if (losers.length === 0) return out;

  // The occurrence counter makes (server, name, occurrence) distinct for every item, so two
  // listings of the same name by one server still get different hash inputs.
  const occurrence = new Array<number>(items.length);
  const seen = new Map<string, number>();
  items.forEach((it, i) => {
    const key = JSON.stringify([it.server, it.name]);
    const n = seen.get(key) ?? 0;
    occurrence[i] = n;
    seen.set(key, n + 1);
  });

  for (const i of losers) {
    const it = items[i]!;
    // A suffixed name could itself be taken (a real tool named like it, or a hash collision), or
    // reach into a namespace (`g` + `-<hash>` with a server prefixed `g` and separator `-`).
    for (let attempt = 0, outside = 0; ; attempt++) {
      const hash = shortHash(JSON.stringify([it.server, it.name, occurrence[i], attempt]));
      const candidate = withHash(base[i]!, hash, c);
      if (foreign(candidate, it.server)) {
        if (++outside < MAX_FOREIGN_ATTEMPTS) continue;
        out[i] = undefined;
        break;
      }
      if (!taken.has(candidate)) {
        taken.add(candidate);
        out[i] = candidate;
        break;
      }
    }
  }
  return out;
}
