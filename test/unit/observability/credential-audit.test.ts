// Credential events in the audit trail (issue 33): typed entries credential.connect|refresh|revoke|
// denied naming the user, the server, the credential kind and what did it, written every time they
// happen (unlike findings, which a catalog rebuild repeats), and never carrying a secret.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditCredential, createAuditLog, credentialEntry } from '../../../src/observability/audit.js';
import { RecentAudit } from '../../../src/observability/recent-audit.js';

const quiet = { warn: () => {}, error: () => {} };

describe('credential audit entries', () => {
  it('shapes an event with user, server, kind and via', () => {
    expect(credentialEntry('connect', { user: 'alice', server: 'github', kind: 'oauth', via: 'connect-page' })).toEqual({
      server: 'github',
      kind: 'credential.connect',
      item: 'alice',
      change: 'connected',
      why: 'via connect-page',
      user: 'alice',
      credential: 'oauth',
      via: 'connect-page',
    });
    expect(credentialEntry('denied', { user: 'bob', server: 'github', via: 'call', why: 'the user declined to connect' })).toMatchObject({
      kind: 'credential.denied',
      why: 'the user declined to connect',
    });
  });

  it('writes each event to the file, repeats included, as JSON lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-credaudit-'));
    try {
      const file = join(dir, 'audit.jsonl');
      const audit = createAuditLog({ file, logger: quiet });
      auditCredential(audit, 'revoke', { user: 'alice', server: 'github', via: 'cli' });
      auditCredential(audit, 'revoke', { user: 'alice', server: 'github', via: 'cli' });
      await audit.close();
      const lines = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ server: 'github', kind: 'credential.revoke', user: 'alice', via: 'cli', change: 'revoked' });
      expect(typeof lines[0]!.time).toBe('string');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is shown on the dashboard each time, while findings still are once', () => {
    const recent = new RecentAudit();
    const event = credentialEntry('refresh', { user: 'alice', server: 'github', kind: 'oauth', via: 'refresh' });
    expect([recent.add(event), recent.add(event)]).toEqual([true, true]);
    const finding = { server: 's', kind: 'tool', item: 't', change: 'c', why: 'w' };
    expect([recent.add(finding), recent.add(finding)]).toEqual([true, false]);
    expect(recent.latest()[1]).toMatchObject({ user: 'alice', via: 'refresh', credential: 'oauth' });
  });
});
