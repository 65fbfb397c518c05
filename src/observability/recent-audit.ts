// The latest distinct audit entries, newest last, for the dashboard. Catalog rebuilds repeat the
// same findings: an entry already seen is not added again (like the audit log itself), and both
// the entries kept and the keys remembered are bounded.

import type { AuditEntry, AuditLog } from './audit.js';

export interface RecentEntry extends AuditEntry {
  /** When it was first seen (ms since the epoch). */
  time: number;
}

export class RecentAudit {
  private readonly seen = new Set<string>();
  private readonly entries: RecentEntry[] = [];

  constructor(
    private readonly keep = 100,
    private readonly remember = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds the entry unless an identical one was seen; says whether it was new. */
  add(entry: AuditEntry): boolean {
    const clean: AuditEntry = { server: String(entry.server), kind: String(entry.kind), item: String(entry.item), change: String(entry.change), why: String(entry.why) };
    if (entry.field !== undefined) clean.field = String(entry.field);
    for (const k of ['user', 'credential', 'via'] as const) if (entry[k] !== undefined) clean[k] = String(entry[k]);
    // A credential event (credential.connect, ...) happens each time; a finding is shown once.
    if (!clean.kind.startsWith('credential.')) {
      const key = JSON.stringify([clean.server, clean.kind, clean.item, clean.field, clean.change, clean.why]);
      if (this.seen.has(key)) return false;
      if (this.seen.size >= this.remember) this.seen.delete(this.seen.values().next().value!);
      this.seen.add(key);
    }
    this.entries.push({ ...clean, time: this.now() });
    if (this.entries.length > this.keep) this.entries.shift();
    return true;
  }

  /** Newest first. */
  latest(limit = this.keep): RecentEntry[] {
    return this.entries.slice(-limit).reverse();
  }
}

/** An audit log that also tells `observe` about every entry it is given. */
export function tapAudit(log: AuditLog, observe: (entry: AuditEntry) => void): AuditLog {
  return {
    record(entry) {
      observe(entry);
      log.record(entry);
    },
    close: () => log.close(),
  };
}
