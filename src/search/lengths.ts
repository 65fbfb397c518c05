// Field lengths summed per group of documents (a server's tools), kept exact under add and
// delete (integer sums), so an index can normalise a document's length partly against its own
// group's average: how long descriptions run is a server's house style, not a tool's content.

export class GroupLengths {
  private readonly sums = new Map<string, { n: number; total: number[] }>();

  constructor(private readonly fields: number) {}

  add(group: string, lens: readonly number[]): void {
    let g = this.sums.get(group);
    if (g === undefined) this.sums.set(group, (g = { n: 0, total: new Array<number>(this.fields).fill(0) }));
    g.n++;
    for (let f = 0; f < this.fields; f++) g.total[f]! += lens[f] ?? 0;
  }

  remove(group: string, lens: readonly number[]): void {
    const g = this.sums.get(group);
    if (g === undefined) return;
    g.n--;
    for (let f = 0; f < this.fields; f++) g.total[f]! -= lens[f] ?? 0;
    if (g.n <= 0) this.sums.delete(group);
  }

  /** Average length of field f over the group's documents (0 for an unknown group). */
  average(group: string, f: number): number {
    const g = this.sums.get(group);
    return g === undefined || g.n === 0 ? 0 : g.total[f]! / g.n;
  }
}
