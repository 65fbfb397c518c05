// Tells people what the catalog's guard stage did: every sanitizer change, blocked item and held
// tool goes to the audit log (which drops repeats), and held tools get one warning per change of
// the held set, not one per rebuild.

import type { GuardReport } from '../catalog/guard.js';
import type { Logger } from '../log.js';
import type { AuditLog } from './audit.js';

export class GuardReporter {
  private lastHeld = '';

  constructor(
    private readonly audit: AuditLog,
    private readonly logger: Logger,
  ) {}

  report(report: GuardReport): void {
    for (const f of report.findings) this.audit.record({ server: f.server, kind: f.kind, item: f.item, field: f.finding.field, change: f.finding.change, why: f.finding.why });
    for (const b of report.blocked) this.audit.record({ server: b.server, kind: b.kind, item: b.item, change: 'blocked', why: b.why });
    for (const h of report.held) {
      const why =
        h.reason === 'changed'
          ? 'definition differs from the lock file'
          : h.reason === 'unpinned'
            ? 'the lock file predates pinning of execution and _meta.ui, which this tool has: check it, then run switchboard lock'
            : 'not in the lock file, and pinning.newTools is hold';
      this.audit.record({ server: h.server, kind: 'pin', item: h.name, change: 'held', why });
    }
    const held = report.held.map((h) => `${h.server}/${h.name} (${h.reason})`).join(', ');
    if (held === this.lastHeld) return;
    this.lastHeld = held;
    if (held) this.logger.warn(`tools held back until the lock is updated (switchboard lock): ${held}`);
  }
}
