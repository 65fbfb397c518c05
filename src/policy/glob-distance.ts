// How far a glob is from matching a name: the fewest single-character edits (insert, delete,
// substitute) to the name that make the glob match it, `*` matching any run for free and `?` any
// one character. For "did you mean" only: other glob syntax counts as its literal characters.

/** The edit distance from `glob` to the nearest string it matches, against `name`. */
export function globDistance(glob: string, name: string): number {
  const n = name.length;
  // prev[j]: the cost of matching the glob's first i characters against name[0, j).
  let prev = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 0; i < glob.length; i++) {
    const g = glob[i]!;
    const next = new Array<number>(n + 1);
    if (g === '*') {
      // Any run of the name for free: the best over every shorter prefix.
      next[0] = prev[0]!;
      for (let j = 1; j <= n; j++) next[j] = Math.min(prev[j]!, next[j - 1]!);
    } else {
      next[0] = prev[0]! + 1;
      for (let j = 1; j <= n; j++) {
        const same = g === '?' || g === name[j - 1];
        next[j] = Math.min(prev[j - 1]! + (same ? 0 : 1), prev[j]! + 1, next[j - 1]! + 1);
      }
    }
    prev = next;
  }
  return prev[n]!;
}

/**
 * The name closest to matching `glob`, if one is close enough to be a likely typo: at most a
 * third of the glob's literal characters edited (at least one). Ties go to the first name.
 */
export function closestName(glob: string, names: Iterable<string>): string | undefined {
  const literal = glob.replace(/[*?]/g, '').length;
  const limit = Math.max(1, Math.floor(literal / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of names) {
    const d = globDistance(glob, name);
    if (d > 0 && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}
