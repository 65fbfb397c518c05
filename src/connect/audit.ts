// Audit entries of the connect pages (credential.connect, credential.denied): who, which server,
// which kind of credential, how; through the audit log's one helper for credential events (never
// deduplicated). Never a secret, a token or a link.

import { auditCredential as record, type AuditLog } from '../observability/audit.js';

export function auditCredential(audit: Pick<AuditLog, 'record'> | undefined, what: 'connect' | 'denied', user: string, server: string, kind: 'oauth' | 'secrets', via: string, why?: string): void {
  if (audit !== undefined) record(audit, what, { user, server, kind, via, ...(why === undefined ? {} : { why }) });
}
