// The Skills extension (SEP-2640) through the gateway, over both eras: two hand-written skill
// servers (skills.mjs) whose skills collide by name, one with a denied skill and a poisoned one.
// The official SDK v1 client (2025-11-25) and the v2 client pinned to 2026-07-28 each see the
// extension declared, one merged and namespaced list paged by the gateway, skills/get and
// resources/read routed back to the right server, the denied skill nowhere, the poison cleaned.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, runCli, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';
import { connectStatelessHttp } from '../helpers/stateless-client.js';

afterAll(cleanup);

const SKILLS = 'io.modelcontextprotocol/skills';
const anyResult = z.object({}).passthrough();
const TAG_CHARS = /[\u{E0000}-\u{E007F}]/u;

/** What the test needs of a client, whatever its SDK and era. */
interface SkillClient {
  /** The code of "resource not found" in the client's era (2026-07-28 says -32602 Invalid params). */
  notFound: number;
  /** Whether list results carry the 2026-07-28 caching attributes (ttlMs, cacheScope). */
  cacheHints: boolean;
  extensions(): Record<string, unknown> | undefined;
  request(method: string, params: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

const CLIENTS: Array<{ label: string; connect(url: string): Promise<SkillClient> }> = [
  {
    label: 'SDK v1 client (2025-11-25)',
    async connect(url) {
      const client = await connectHttpClient(url);
      return {
        notFound: -32002,
        cacheHints: false,
        extensions: () => (client.getServerCapabilities() as any)?.extensions,
        request: (method, params) => client.request({ method, params } as any, anyResult),
        close: () => client.close(),
      };
    },
  },
  {
    label: 'SDK v2 client (2026-07-28)',
    async connect(url) {
      const { client } = await connectStatelessHttp(url);
      return {
        notFound: -32602,
        cacheHints: true,
        extensions: () => (client.getServerCapabilities() as any)?.extensions,
        request: (method, params) => client.request({ method, params } as any, anyResult as any),
        close: () => client.close(),
      };
    },
  },
];

let gw: HttpGateway;

beforeAll(async () => {
  gw = await startGateway(
    yamlServers(
      [
        fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow,refunds', '--poison']),
        // b's refunds is denied by b's own resource rules: it must be neither listed, got nor read.
        fixtureServer('b', 'skills', ['--name', 'b', '--skills', 'git-workflow,refunds'], { resources: { deny: ['skill://refunds/**'] } }),
      ],
      { naming: { mode: 'on-conflict' }, catalog: { pageSize: 2 }, sanitize: { results: false } },
    ),
  );
});

async function listAll(client: SkillClient): Promise<any[]> {
  const skills: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request('skills/list', cursor === undefined ? {} : { cursor });
    // SEP-2640: in 2026-07-28 skills/list carries the list-caching attributes, as tools/list does.
    expect(page.ttlMs).toBe(client.cacheHints ? 0 : undefined);
    skills.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  expect(pages).toBeGreaterThan(1);
  return skills;
}

describe.each(CLIENTS)('skills through the gateway: $label', ({ connect }) => {
  it('declares the extension and lists every server’s skills, namespaced and paged', async () => {
    const client = await connect(gw.url);
    expect(client.extensions()?.[SKILLS]).toEqual({});
    const skills = await listAll(client);
    const byUri = new Map(skills.map((s) => [s.uri, s]));
    expect([...byUri.keys()].sort()).toEqual(['a+skill://git-workflow/SKILL.md', 'a+skill://helper/SKILL.md', 'a+skill://refunds/SKILL.md', 'b+skill://git-workflow/SKILL.md']);
    // The clashing name is prefixed per server, as a clashing tool's is; the frontmatter stays the server's.
    expect(byUri.get('a+skill://git-workflow/SKILL.md')._meta[SKILLS]).toEqual({ name: 'a__git-workflow', server: 'a' });
    expect(byUri.get('b+skill://git-workflow/SKILL.md')._meta[SKILLS]).toEqual({ name: 'b__git-workflow', server: 'b' });
    expect(byUri.get('a+skill://refunds/SKILL.md')._meta[SKILLS].name).toBe('refunds');
    expect(byUri.get('b+skill://git-workflow/SKILL.md').frontmatter.name).toBe('git-workflow');
    // Every file of the manifest is in the same namespace, digests passed on as the server gave them.
    for (const r of byUri.get('b+skill://git-workflow/SKILL.md').resources) {
      expect(r.uri).toMatch(/^b\+skill:\/\/git-workflow\//);
      expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    await client.close();
  });

  it('routes skills/get and resources/read back to the server that serves the skill', async () => {
    const client = await connect(gw.url);
    const got = await client.request('skills/get', { uri: 'b+skill://git-workflow/SKILL.md' });
    expect(got.skill.uri).toBe('b+skill://git-workflow/SKILL.md');
    expect(got.skill._meta[SKILLS].server).toBe('b');
    const read = await client.request('resources/read', { uri: 'b+skill://git-workflow/SKILL.md' });
    expect(read.contents[0].text).toContain('Served by b');
    const notes = await client.request('resources/read', { uri: 'a+skill://git-workflow/references/NOTES.md' });
    expect(notes.contents[0].text).toBe('Notes of git-workflow on a.\n');
    await client.close();
  });

  it('pages with the gateway’s signed cursors: a cursor it did not make is -32602', async () => {
    const client = await connect(gw.url);
    const first = await client.request('skills/list', {});
    expect(first.nextCursor).toEqual(expect.any(String));
    // The unsigned offset the first version used, and the first page's cursor with a byte changed.
    await expect(client.request('skills/list', { cursor: 's1' })).rejects.toMatchObject({ code: -32602 });
    const forged = `${first.nextCursor.slice(0, -2)}${first.nextCursor.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(client.request('skills/list', { cursor: forged })).rejects.toMatchObject({ code: -32602 });
    // A tools/list cursor is not a skills/list cursor.
    const tools = await client.request('tools/list', {});
    if (tools.nextCursor !== undefined) await expect(client.request('skills/list', { cursor: tools.nextCursor })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('hides a denied skill from skills/get and resources/read too', async () => {
    const client = await connect(gw.url);
    // SEP-2640: skills/get of a URI that is no skill the client may get is -32602 in every era.
    await expect(client.request('skills/get', { uri: 'b+skill://refunds/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('skills/get', { uri: 'b+skill://nothing-here/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('skills/get', { uri: 'nobody+skill://x/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request('resources/read', { uri: 'b+skill://refunds/SKILL.md' })).rejects.toMatchObject({ code: client.notFound });
    await client.close();
  });

  // sanitize.results is off in this config: a SKILL.md is cleaned all the same.
  it('cleans a poisoned skill’s description and SKILL.md text', async () => {
    const client = await connect(gw.url);
    const got = await client.request('skills/get', { uri: 'a+skill://helper/SKILL.md' });
    expect(got.skill.frontmatter.description).toMatch(/^Helps\./);
    expect(got.skill.frontmatter.description).not.toMatch(TAG_CHARS);
    const read = await client.request('resources/read', { uri: 'a+skill://helper/SKILL.md' });
    expect(read.contents[0].text).toContain('Be helpful.');
    expect(read.contents[0].text).not.toMatch(TAG_CHARS);
    await client.close();
  });
});

describe('skill pinning', () => {
  it('holds back a skill whose entry changed since `switchboard lock`, and only that server’s', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-skills-'));
    const lockFile = path.join(dir, 'switchboard.lock');
    const config = (version: string) =>
      yamlServers([fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow', '--version', version]), fixtureServer('b', 'skills', ['--name', 'b', '--skills', 'refunds'])], {
        pinning: { lockFile },
      });
    const locked = await runCli(['lock'], config('1'));
    expect(locked.code).toBe(0);
    expect(locked.stdout).toMatch(/a: 0 tools, 1 skills pinned/);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
    expect(lock.servers.a.skills['skill://git-workflow/SKILL.md']).toMatch(/^sha256:[0-9a-f]{64}$/);

    // a's SKILL.md changed (version 2): its digest no longer matches the pin. `check` says so…
    const checked = await runCli(['check', '--json'], config('2'));
    const rows = JSON.parse(checked.stdout).skills;
    expect(rows).toEqual([
      { name: 'a__git-workflow', server: 'a', uri: 'a+skill://git-workflow/SKILL.md', original: 'skill://git-workflow/SKILL.md', held: 'changed' },
      { name: 'b__refunds', server: 'b', uri: 'b+skill://refunds/SKILL.md', original: 'skill://refunds/SKILL.md' },
    ]);
    const text = await runCli(['check'], config('2'));
    expect(text.stdout).toMatch(/Skills \(2\)[^\n]*\n\s+a__git-workflow\s+a\s+a\+skill:\/\/git-workflow\/SKILL\.md\s+HELD \(changed\)/);
    // …and the gateway holds it back.
    const changed = await startGateway(config('2'));
    const client = await connectHttpClient(changed.url);
    const listed = (await client.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    expect(listed.skills.map((s: any) => s.uri)).toEqual(['b+skill://refunds/SKILL.md']);
    await expect(client.request({ method: 'skills/get', params: { uri: 'a+skill://git-workflow/SKILL.md' } } as any, anyResult)).rejects.toMatchObject({ code: -32602 });
    // Its SKILL.md and its other files are held back with it; b's, unchanged, are read.
    await expect(client.request({ method: 'resources/read', params: { uri: 'a+skill://git-workflow/SKILL.md' } } as any, anyResult)).rejects.toMatchObject({ code: -32002 });
    await expect(client.request({ method: 'resources/read', params: { uri: 'a+skill://git-workflow/references/NOTES.md' } } as any, anyResult)).rejects.toMatchObject({ code: -32002 });
    expect(((await client.request({ method: 'resources/read', params: { uri: 'b+skill://refunds/SKILL.md' } } as any, anyResult)) as any).contents[0].text).toContain('Served by b');
    expect(((await client.request({ method: 'resources/read', params: { uri: 'b+skill://refunds/references/NOTES.md' } } as any, anyResult)) as any).contents[0].text).toBe('Notes of refunds on b.\n');
    await changed.waitForStderr(/skill held back by the lock file/);
    await client.close();

    // Unchanged, the same skill is there.
    const same = await startGateway(config('1'));
    const again = await connectHttpClient(same.url);
    const all = (await again.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    expect(all.skills.map((s: any) => s.uri).sort()).toEqual(['a+skill://git-workflow/SKILL.md', 'b+skill://refunds/SKILL.md']);
    await again.close();
  });
});

describe('digests through the gateway', () => {
  it('a skill’s files read through it match the digests and sizes of its entry, CRLF, BOM and all (SEP-2640 Integrity)', async () => {
    // sanitize.results on: every file is cleaned, and clean files must come out byte for byte.
    const gw2 = await startGateway(yamlServers([fixtureServer('w', 'skills', ['--name', 'w', '--skills', 'refunds', '--windows'])], { sanitize: { results: true } }));
    for (const { connect } of CLIENTS) {
      const client = await connect(gw2.url);
      const [entry] = (await client.request('skills/list', {})).skills;
      expect(entry.resources.length).toBe(2);
      for (const file of entry.resources) {
        const text: string = (await client.request('resources/read', { uri: file.uri })).contents[0].text;
        if (file.uri.endsWith('/SKILL.md')) expect(text.startsWith('\uFEFF---\r\n')).toBe(true);
        expect(Buffer.byteLength(text, 'utf8')).toBe(file.size);
        expect(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`).toBe(file.digest);
      }
      await client.close();
    }
  });
});

describe('skill pinning under newTools: hold', () => {
  it('holds back every file of a skill the lock file has never seen; a pinned one stays readable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-skills-'));
    const lockFile = path.join(dir, 'switchboard.lock');
    const servers = (skills: string) => [fixtureServer('a', 'skills', ['--name', 'a', '--skills', skills])];
    expect((await runCli(['lock'], yamlServers(servers('git-workflow'), { pinning: { lockFile } }))).code).toBe(0);
    // The server now also serves `refunds`, which nobody pinned.
    const held = await startGateway(yamlServers(servers('git-workflow,refunds'), { pinning: { lockFile, newTools: 'hold' } }));
    const client = await connectHttpClient(held.url);
    const listed = (await client.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    expect(listed.skills.map((s: any) => s.uri)).toEqual(['a+skill://git-workflow/SKILL.md']);
    for (const file of ['SKILL.md', 'references/NOTES.md']) {
      await expect(client.request({ method: 'resources/read', params: { uri: `a+skill://refunds/${file}` } } as any, anyResult)).rejects.toMatchObject({ code: -32002 });
      const read = (await client.request({ method: 'resources/read', params: { uri: `a+skill://git-workflow/${file}` } } as any, anyResult)) as any;
      expect(read.contents[0].text).toContain('git-workflow');
    }
    await client.close();
  });
});

describe('a server that pages its skills past the gateway’s bound', () => {
  it('gives the first 20 pages, and says in the log that the rest are left out', async () => {
    // The fixture answers one skill a page: 21 skills are 21 pages.
    const names = Array.from({ length: 21 }, (_, i) => `s${i + 1}`);
    const many = await startGateway(yamlServers([fixtureServer('a', 'skills', ['--name', 'a', '--skills', names.join(',')])]));
    const client = await connectHttpClient(many.url);
    const listed = (await client.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    expect(listed.skills.map((s: any) => s.frontmatter.name)).toEqual(names.slice(0, 20));
    await many.waitForStderr(/the server had more pages than the gateway reads/);
    // A skill left out of the listing is still got by its URI (SEP-2640: skills/get answers for every skill).
    expect(((await client.request({ method: 'skills/get', params: { uri: 'a+skill://s21/SKILL.md' } } as any, anyResult)) as any).skill.frontmatter.name).toBe('s21');
    await client.close();
  });
});

describe('SEP-2640’s per-skill limits', () => {
  it('passes a skill past 512 files on, warns in the log, and `check` marks it', async () => {
    const config = yamlServers([fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow', '--oversized'])]);
    const over = await startGateway(config);
    const client = await connectHttpClient(over.url);
    const listed = (await client.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    const bulk = listed.skills.find((s: any) => s.uri === 'a+skill://bulk/SKILL.md');
    expect(bulk.resources).toHaveLength(513);
    await over.waitForStderr(/past SEP-2640's per-skill limits/);
    await client.close();
    const checked = await runCli(['check', '--json'], config);
    const rows = JSON.parse(checked.stdout).skills;
    expect(rows.find((r: any) => r.original === 'skill://bulk/SKILL.md').over).toBe('513 files (the limit is 512)');
    expect(rows.find((r: any) => r.original === 'skill://git-workflow/SKILL.md').over).toBeUndefined();
    const text = await runCli(['check'], config);
    expect(text.stdout).toMatch(/a\+skill:\/\/bulk\/SKILL\.md\s+OVER LIMITS \(513 files/);
  });
});

describe('a per-session server’s skills', () => {
  it('are listed from its catalog connection; skills/get and reads answer on each session’s own', async () => {
    const isolated = await startGateway(yamlServers([fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow'], { isolation: 'per-session' })]));
    const one = await connectHttpClient(isolated.url);
    const two = await connectHttpClient(isolated.url);
    for (const client of [one, two]) {
      const listed = (await client.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
      expect(listed.skills.map((s: any) => s.uri)).toEqual(['a+skill://git-workflow/SKILL.md']);
      const got = (await client.request({ method: 'skills/get', params: { uri: 'a+skill://git-workflow/SKILL.md' } } as any, anyResult)) as any;
      expect(got.skill._meta[SKILLS]).toEqual({ name: 'a__git-workflow', server: 'a' });
      const read = (await client.request({ method: 'resources/read', params: { uri: 'a+skill://git-workflow/references/NOTES.md' } } as any, anyResult)) as any;
      expect(read.contents[0].text).toBe('Notes of git-workflow on a.\n');
    }
    await one.close();
    await two.close();
  });
});

describe('a client profile’s resource rules', () => {
  it('hide a skill from that client: not listed, not got, not read; another client sees it; a server listing no resources is judged the same', async () => {
    const env = { LIMITED_TOKEN: 'limited-token-1', FULL_TOKEN: 'full-token-2' };
    const profiled = await startGateway(
      yamlServers([fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow,refunds']), fixtureServer('u', 'skills', ['--name', 'u', '--skills', 'pdf', '--unlisted'])], {
        clients: [
          { name: 'limited', token: '${LIMITED_TOKEN}', resources: { deny: ['a+skill://refunds/**'] } },
          { name: 'full', token: '${FULL_TOKEN}' },
        ],
      }),
      { env },
    );
    const limited = await connectHttpClient(profiled.url, { headers: { authorization: `Bearer ${env.LIMITED_TOKEN}` } });
    const listed = (await limited.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    // u lists no resources at all (nothing of it is in the profile's lists): its skills are judged by the resource rules all the same.
    expect(listed.skills.map((s: any) => s.uri)).toEqual(['a+skill://git-workflow/SKILL.md', 'u+skill://pdf/SKILL.md']);
    expect(((await limited.request({ method: 'skills/get', params: { uri: 'u+skill://pdf/SKILL.md' } } as any, anyResult)) as any).skill.frontmatter.name).toBe('pdf');
    expect(((await limited.request({ method: 'resources/read', params: { uri: 'u+skill://pdf/SKILL.md' } } as any, anyResult)) as any).contents[0].text).toContain('Served by u');
    await expect(limited.request({ method: 'skills/get', params: { uri: 'a+skill://refunds/SKILL.md' } } as any, anyResult)).rejects.toMatchObject({ code: -32602 });
    await expect(limited.request({ method: 'resources/read', params: { uri: 'a+skill://refunds/SKILL.md' } } as any, anyResult)).rejects.toMatchObject({ code: -32002 });
    const full = await connectHttpClient(profiled.url, { headers: { authorization: `Bearer ${env.FULL_TOKEN}` } });
    const all = (await full.request({ method: 'skills/list', params: {} } as any, anyResult)) as any;
    expect(all.skills.map((s: any) => s.uri)).toEqual(['a+skill://git-workflow/SKILL.md', 'a+skill://refunds/SKILL.md', 'u+skill://pdf/SKILL.md']);
    await limited.close();
    await full.close();
  });
});
