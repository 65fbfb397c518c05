// Word forms the stemmer leaves apart: derivations and abbreviations whose index term is a prefix
// of the other's ("relationship" → relat(ions), "repo" → repositori, "config" → configur).
// (Misspellings are spelling.ts's.) The vocabulary is kept bucketed by first characters, so a
// look-up costs a bucket, not a scan; buckets follow add/delete.

/** Shortest term, and length of the shared start, for two terms to count as one word's forms. */
export const MIN_FORM = 4;

export class PrefixVocabulary {
  private readonly buckets = new Map<string, Set<string>>();

  add(term: string): void {
    if (term.length < MIN_FORM) return;
    const key = term.slice(0, MIN_FORM);
    let set = this.buckets.get(key);
    if (set === undefined) this.buckets.set(key, (set = new Set()));
    set.add(term);
  }

  delete(term: string): void {
    if (term.length < MIN_FORM) return;
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
}
