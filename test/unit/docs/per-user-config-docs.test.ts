// The configuration examples of docs/per-user-credentials.md load as written and mean what the page
// says: each YAML block parses, and its servers are per-user of the kind the text around it names.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';

const page = readFileSync(new URL('../../../docs/per-user-credentials.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const env = { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret', TRACKER_ORG: 'org', CONNECT_CLIENT_SECRET: 'connect' };
const load = (text: string) => parseConfig(text, { baseDir: '/srv', env });

describe('docs/per-user-credentials.md examples', () => {
  it('has the four configuration examples', () => {
    expect(blocks).toHaveLength(4);
  });

  it('loads each, with the per-user kind the page describes', () => {
    // The credentials block's login is at the listen.auth issuer, which the page's own block leaves out.
    const [github, stdio, tracker, credentials] = blocks.map((b, i) => load(i === 3 ? `listen: { auth: { issuer: "https://login.example.com" } }\n${b}` : b));
    expect(github!.servers[0]).toMatchObject({ name: 'github', perUser: { kind: 'oauth' }, auth: { grant: 'authorization_code' } });
    expect(stdio!.servers[0]).toMatchObject({ kind: 'stdio', perUser: { kind: 'secrets', secrets: [{ name: 'GITHUB_TOKEN' }] }, env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${user.GITHUB_TOKEN}' } });
    expect(tracker!.servers[0]).toMatchObject({ perUser: { kind: 'secrets' }, headers: { Authorization: 'Bearer ${user.TRACKER_API_KEY}', 'X-Org': 'org' } });
    expect(credentials!.credentials).toMatchObject({ linkTtlMs: 600_000, publicUrl: 'https://gateway.example.com', connections: { perUser: 16, total: 256, idleTimeoutMs: 600_000 } });
  });
});
