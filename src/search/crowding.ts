// One server must not fill the whole result list on the strength of one shared word: past its
// first `free` tools in score order, each further tool of the same server is damped by `decay`
// more. Servers the request names are exempt (the user asked for them). Likewise each further
// member of one name family (families.ts) by `familyDecay`, named server or not: variants of one
// operation are one answer. Order within a server is kept; the result is a new list of candidates (scores changed), not yet sorted.

import { before, type Candidate } from './top.js';

export function spreadServers(
  candidates: readonly Candidate[],
  serverOf: (key: string) => string,
  decay: number,
  free: number,
  exempt: ReadonlyMap<string, number>,
  familyOf?: (key: string) => string,
  familyDecay = 1,
): readonly Candidate[] {
  if (decay >= 1 && familyDecay >= 1) return candidates;
  // The ranking's own order (top.ts), so "first tools of a server" means what the results show.
  const sorted = [...candidates].sort((a, b) => (before(a.score, a.key, b.score, b.key) ? -1 : before(b.score, b.key, a.score, a.key) ? 1 : 0));
  const seen = new Map<string, number>();
  const kin = new Map<string, number>();
  return sorted.map((c) => {
    const server = serverOf(c.key);
    const n = seen.get(server) ?? 0;
    seen.set(server, n + 1);
    let score = c.score;
    if (familyOf !== undefined && familyDecay < 1) {
      const family = familyOf(c.key);
      const k = kin.get(family) ?? 0;
      kin.set(family, k + 1);
      if (k > 0) score *= familyDecay ** k;
    }
    if (n >= free && !exempt.has(server)) score *= decay ** (n - free + 1);
    return score === c.score ? c : { key: c.key, score };
  });
}
