// Client profiles matched by token claims: one profile serves many users. A profile matches when
// every condition it states holds: `scope` (all listed scopes granted), `sub` (equal, or a glob
// with `*`), `group` (any listed group in the `groups` claim). First match in config order wins.

import type { Claims } from './types.js';

export interface ProfileMatch {
  scope?: string | string[];
  sub?: string;
  group?: string | string[];
}

export interface ClaimProfile {
  name: string;
  match?: ProfileMatch;
}

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Scopes from `scope` (space-separated, RFC 9068) or `scp` (array or string, common in the wild). */
export function scopesOf(claims: Claims): string[] {
  const raw = claims.scope ?? claims.scp;
  const parts = typeof raw === 'string' ? raw.split(/\s+/) : Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  return [...new Set(parts.filter((s) => s.length > 0))];
}

export function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return re.test(value);
}

export function profileMatches(claims: Claims, match: ProfileMatch): boolean {
  const scopes = list(match.scope);
  const groups = list(match.group);
  if (scopes.length === 0 && groups.length === 0 && match.sub === undefined) return false; // an empty match is a config slip, not "everyone"
  if (scopes.length > 0) {
    const have = new Set(scopesOf(claims));
    if (!scopes.every((s) => have.has(s))) return false;
  }
  if (match.sub !== undefined && (typeof claims.sub !== 'string' || !globMatch(match.sub, claims.sub))) return false;
  if (groups.length > 0) {
    const g = claims.groups;
    const have = Array.isArray(g) ? g : typeof g === 'string' ? [g] : [];
    if (!groups.some((x) => have.includes(x))) return false;
  }
  return true;
}

/** The first profile whose `match` holds for these claims, or undefined. */
export function matchProfile<P extends ClaimProfile>(claims: Claims, clients: readonly P[]): P | undefined {
  return clients.find((c) => c.match !== undefined && profileMatches(claims, c.match));
}
