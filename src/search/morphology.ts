// Word forms the stemmer leaves apart: derivations and abbreviations whose index term is a prefix
// of the other's ("relationship" → relat(ions), "repo" → repositori, "config" → configur), and
// misspellings one edit away ("serach" → search). The vocabulary is kept bucketed by first
// characters and by length, so a look-up costs a bucket, not a scan; buckets follow add/delete.

/** Shortest term, and length of the shared start, for two terms to count as one word's forms. */
export const MIN_FORM = 4;
/** Shortest term that may be a misspelling: shorter words are one edit away from too many. */
export const MIN_TYPO = 5;

export class PrefixVocabulary {
  private readonly buckets = new Map<string, Set<string>>();
  private readonly lengths = new Map<number, Set<string>>();

  add(term: string): void {
    if (term.length < MIN_FORM) return;
    let same = this.lengths.get(term.length);
    if (same === undefined) this.lengths.set(term.length, (same = new Set()));
    same.add(term);
    const key = term.slice(0, MIN_FORM);
    let set = this.buckets.get(key);
    if (set === undefined) this.buckets.set(key, (set = new Set()));
    set.add(term);
  }

  delete(term: string): void {
    if (term.length < MIN_FORM) return;
    const same = this.lengths.get(term.length);
    same?.delete(term);
    if (same?.size === 0) this.lengths.delete(term.length);
    const key = term.slice(0, MIN_FORM);
    const set = this.buckets.get(key);
    if (set === undefined) return;
    set.delete(term);
    if (set.size === 0) this.buckets.delete(key);
  }

  /**
   * Vocabulary terms, other than `term`, of which `term` is a prefix or that are a prefix of
   * `term`, both at least MIN_FORM long, in code-unit order (deterministic).
   */
  forms(term: string): string[] {
    if (term.length < MIN_FORM) return [];
    const out: string[] = [];
    for (const t of this.buckets.get(term.slice(0, MIN_FORM)) ?? []) {
      if (t !== term && (t.startsWith(term) || term.startsWith(t))) out.push(t);
    }
    return out.sort();
  }

  /**
   * Vocabulary terms one edit (insertion, deletion, substitution or swap of neighbours) from
   * `term`, both at least MIN_TYPO long, in code-unit order.
   */
  typos(term: string): string[] {
    if (term.length < MIN_TYPO) return [];
    const out: string[] = [];
    for (let len = term.length - 1; len <= term.length + 1; len++) {
      if (len < MIN_TYPO) continue;
      for (const t of this.lengths.get(len) ?? []) if (t !== term && oneEdit(term, t)) out.push(t);
    }
    return out.sort();
  }
}

/** True when a and b differ by exactly one insertion, deletion, substitution or adjacent swap. */
export function oneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  const d = b.length - a.length;
  if (d > 1) return false;
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === b.length) return false; // equal
  const sameFrom = (x: number, y: number): boolean => {
    while (x < a.length) if (a.charCodeAt(x++) !== b.charCodeAt(y++)) return false;
    return true;
  };
  if (d === 1) return sameFrom(i, i + 1);
  if (sameFrom(i + 1, i + 1)) return true;
  return i + 1 < a.length && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(i + 2, i + 2);
}
