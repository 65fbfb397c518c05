// Audit entries of the connect pages (credential.connect, credential.denied): who, which server,
// which kind of credential, how. Never a secret, a token or a link. Each entry carries its time
// in `why`, as the audit log writes an identical entry once per process and every connect counts.

import type { ConnectAudit } from './types.js';

export function auditCredential(audit: ConnectAudit | undefined, what: 'connect' | 'denied', user: string, server: string, kind: string, via: string, at: number): void {
  audit?.record({ server, kind: `credential.${what}`, item: user, field: kind, change: what === 'connect' ? 'stored' : 'refused', why: `via ${via} at ${new Date(at).toISOString()}` });
}
