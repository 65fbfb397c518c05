// Tool families: tools of one server whose names extend another of its tool names by trailing
// words (`get_shelf`, `get_shelf_by_date`, `get_shelf_v2`) are variants of one operation. A tool's
// family is its server with the shortest such name (2+ words), else its own name. Only a name that
// is a tool makes a family: a prefix several names merely share (`n8n_…`, `TwilioApiV2010--Create…`)
// is a namespace or a verb, not one operation. Kept as counts, so it follows upserts and removals.

const SEP = '\u0000';

export class Families {
  /** Per server, how many of its tools bear each name (as joined lower-case words). */
  private readonly names = new Map<string, Map<string, number>>();
  private readonly wordsOf = new Map<string, { server: string; words: string[] }>();
  /**
   * The families already worked out, by tool. A search asks for the family of each of its hundred
   * candidates; any change of names may change families, so it empties the memo (while an index
   * is being filled no search has filled it, and emptying an empty Map costs nothing).
   */
  private readonly known = new Map<string, string>();

  add(key: string, server: string, words: readonly string[]): void {
    const w = words.map((x) => x.toLowerCase());
    if (this.known.size > 0) this.known.clear();
    this.wordsOf.set(key, { server, words: w });
    let names = this.names.get(server);
    if (names === undefined) this.names.set(server, (names = new Map()));
    const name = w.join(SEP);
    names.set(name, (names.get(name) ?? 0) + 1);
  }

  delete(key: string): void {
    const had = this.wordsOf.get(key);
    if (had === undefined) return;
    if (this.known.size > 0) this.known.clear();
    this.wordsOf.delete(key);
    const names = this.names.get(had.server)!;
    const name = had.words.join(SEP);
    const n = names.get(name)! - 1;
    if (n > 0) names.set(name, n);
    else names.delete(name);
    if (names.size === 0) this.names.delete(had.server);
  }

  /** The family a tool belongs to, as an opaque string (equal strings, one family). */
  of(key: string): string {
    const known = this.known.get(key);
    if (known !== undefined) return known;
    const had = this.wordsOf.get(key);
    if (had === undefined) return key;
    const family = this.find(had);
    this.known.set(key, family);
    return family;
  }

  private find(had: { server: string; words: string[] }): string {
    const names = this.names.get(had.server)!;
    for (let n = 2; n < had.words.length; n++) {
      const prefix = had.words.slice(0, n).join(SEP);
      if (names.has(prefix)) return had.server + SEP + prefix;
    }
    return had.server + SEP + had.words.join(SEP);
  }
}
