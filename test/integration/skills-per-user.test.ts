// Skills (SEP-2640) of a per-user server (issue 33's `${user.NAME}`): one stdio process per user,
// its SKILL.md naming the user whose secret started it. The skills are listed from the listing
// connection (as its tools are); skills/get and reads reach each user's own process; a user who
// never connected is asked to connect (-32042 to a client without URL elicitation), as a tool call
// would ask, and nothing of another user's answers for them.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import type { CredentialStore } from '../../src/state/credentials.js';
import { openCredentialStore } from '../../src/state/open-credentials.js';
import { cleanup, fixture, nodeBin, trackClosable } from '../helpers/index.js';
import { FakeConnectPages } from '../helpers/connect-pages.js';
import { httpConfig, listenWithCredentials } from '../helpers/per-user-app.js';

const TOKENS = { alice: 'alice-gateway-token', bob: 'bob-gateway-token', carol: 'carol-gateway-token' };
const anyResult = z.object({}).passthrough();

let app: App;
let url: string;
let store: CredentialStore;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-skills-per-user-'));
  store = await openCredentialStore({ file: join(dir, 'credentials.json'), env: { SWITCHBOARD_CREDENTIALS_KEY: randomBytes(32).toString('base64') } });
  await store.put('profile:alice', 'sk', { kind: 'secrets', values: { OWNER: 'alice' } });
  await store.put('profile:bob', 'sk', { kind: 'secrets', values: { OWNER: 'bob' } });
  const config = httpConfig({
    listen: { host: '127.0.0.1', port: 0 },
    clients: Object.entries(TOKENS).map(([name, token]) => ({ name, token })),
    servers: [{ name: 'sk', command: nodeBin, args: [fixture('skills.mjs'), '--name', 'sk', '--skills', 'git-workflow'], env: { SKILL_OWNER: '${user.OWNER}' } }],
    credentials: { linkTtl: '60s' },
  });
  ({ app, url } = await listenWithCredentials(config, store, new FakeConnectPages(store)));
}, 30_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await cleanup();
});

async function client(user: keyof typeof TOKENS) {
  const c = trackClosable(new Client({ name: `${user}-client`, version: '1.0.0' }, { capabilities: {} }));
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKENS[user]}` } } }));
  return { request: (method: string, params: Record<string, unknown>) => c.request({ method, params } as any, anyResult) as Promise<any> };
}

describe('a per-user server’s skills', () => {
  it('are listed for every user, and each user’s skills/get and reads reach their own process', async () => {
    for (const user of ['alice', 'bob'] as const) {
      const c = await client(user);
      const listed = await c.request('skills/list', {});
      expect(listed.skills.map((s: any) => s.uri)).toEqual(['sk+skill://git-workflow/SKILL.md']);
      const got = await c.request('skills/get', { uri: 'sk+skill://git-workflow/SKILL.md' });
      expect(got.skill._meta['io.modelcontextprotocol/skills']).toEqual({ name: 'sk__git-workflow', server: 'sk' });
      const read = await c.request('resources/read', { uri: 'sk+skill://git-workflow/SKILL.md' });
      expect(read.contents[0].text).toContain(`Served by sk, version 1 for ${user}.`);
    }
  });

  it('ask a user who never connected to connect, and answer nothing of another user’s', async () => {
    const carol = await client('carol');
    // Listed (the listing connection's), but not read or got with anyone else's credential.
    expect((await carol.request('skills/list', {})).skills).toHaveLength(1);
    for (const [method, uri] of [
      ['resources/read', 'sk+skill://git-workflow/SKILL.md'],
      ['skills/get', 'sk+skill://git-workflow/SKILL.md'],
    ] as const) {
      const err = await carol.request(method, { uri }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32042 });
      expect((err as any).data.elicitations[0].url).toMatch(/\/connect\/sk\b/);
    }
  });
});
