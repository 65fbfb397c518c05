// resources/directory/read (SEP-2640 "Directory Listing") through the gateway, over both eras:
// skill server `a` implements it (directoryRead: true, two children a page), `b` does not, `c`
// does and clashes with a's non-skill docs://manual tree. The
// official SDK v1 client (2025-11-25) and the v2 client pinned to 2026-07-28 each see directoryRead
// declared; list a skill's folder with namespaced children, descend into subfolders and read a
// child file; page with the gateway's wrapped cursor, which is refused for another directory; get
// -32602 for b's folders without b ever receiving the call; and, under a profile that denies a
// subfolder, neither see it listed nor read it. A gateway of b alone declares no directoryRead.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, runCli, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';
import { connectStatelessHttp } from '../helpers/stateless-client.js';

afterAll(cleanup);

const SKILLS = 'io.modelcontextprotocol/skills';
const READ = 'resources/directory/read';
const anyResult = z.object({}).passthrough();
const TAG_CHARS = /[\u{E0000}-\u{E007F}]/u;
const TOKENS = { FULL_TOKEN: 'full-token-1', LIMITED_TOKEN: 'limited-token-2' };

interface DirClient {
  extensions(): Record<string, unknown> | undefined;
  request(method: string, params: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

const CLIENTS: Array<{ label: string; connect(url: string, token: string): Promise<DirClient> }> = [
  {
    label: 'SDK v1 client (2025-11-25)',
    async connect(url, token) {
      const client = await connectHttpClient(url, { headers: { authorization: `Bearer ${token}` } });
      return {
        extensions: () => (client.getServerCapabilities() as any)?.extensions,
        request: (method, params) => client.request({ method, params } as any, anyResult),
        close: () => client.close(),
      };
    },
  },
  {
    label: 'SDK v2 client (2026-07-28)',
    async connect(url, token) {
      const { client } = await connectStatelessHttp(url, { headers: { authorization: `Bearer ${token}` } });
      return {
        extensions: () => (client.getServerCapabilities() as any)?.extensions,
        request: (method, params) => client.request({ method, params } as any, anyResult as any),
        close: () => client.close(),
      };
    },
  },
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-skills-dir-'));
/** The directory URIs each fixture received, in order (skills.mjs --calls). */
const callsFile = { a: path.join(dir, 'a-calls'), b: path.join(dir, 'b-calls') };
function received(server: 'a' | 'b'): string[] {
  // No file yet: the fixture has received no directory read.
  if (!existsSync(callsFile[server])) return [];
  const lines = readFileSync(callsFile[server], 'utf8').split('\n');
  return lines.filter(Boolean).map((l) => JSON.parse(l));
}

/** a: two children a page, a poisoned skill, and a child in b's namespace among docs://manual's. */
const SERVER_A = ['--name', 'a', '--skills', 'git-workflow', '--poison', '--directory', '--dir-page', '2', '--spoof-child', 'b+skill://git-workflow/SKILL.md'];

let gw: HttpGateway;

beforeAll(async () => {
  gw = await startGateway(
    yamlServers(
      [
        fixtureServer('a', 'skills', [...SERVER_A, '--calls', callsFile.a]),
        // c serves the same docs://manual tree as a: its URIs are namespaced `c+` on the clash.
        fixtureServer('c', 'skills', ['--name', 'c', '--skills', 'pdf', '--directory']),
        // b answers directory reads if one reaches it (--calls), but never declared directoryRead.
        fixtureServer('b', 'skills', ['--name', 'b', '--skills', 'git-workflow', '--calls', callsFile.b]),
      ],
      {
        clients: [
          { name: 'full', token: '${FULL_TOKEN}' },
          { name: 'limited', token: '${LIMITED_TOKEN}', resources: { deny: ['a+skill://git-workflow/templates/regional', 'a+skill://git-workflow/templates/regional/**'] } },
        ],
      },
    ),
    { env: TOKENS },
  );
});

/** Every page of a directory, and how many pages it took. */
async function readAll(client: DirClient, uri: string): Promise<{ children: any[]; pages: number; cursors: string[] }> {
  const children: any[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request(READ, cursor === undefined ? { uri } : { uri, cursor });
    children.push(...page.resources);
    cursor = page.nextCursor;
    if (cursor !== undefined) cursors.push(cursor);
    pages++;
  } while (cursor !== undefined && pages < 10);
  return { children, pages, cursors };
}

const summary = (children: any[]) => children.map((c) => [c.uri, c.mimeType]);

describe.each(CLIENTS)('resources/directory/read through the gateway: $label', ({ connect }) => {
  it('declares directoryRead, lists a skill’s folder namespaced and paged, and descends into its subfolders', async () => {
    const client = await connect(gw.url, TOKENS.FULL_TOKEN);
    expect(client.extensions()?.[SKILLS]).toEqual({ directoryRead: true });
    const root = await readAll(client, 'a+skill://git-workflow');
    // Three children at two a page: the server's cursor went out wrapped and came back to it.
    expect(root.pages).toBe(2);
    expect(root.cursors[0]).not.toMatch(/^page-/);
    expect(summary(root.children)).toEqual([
      ['a+skill://git-workflow/references', 'inode/directory'],
      ['a+skill://git-workflow/SKILL.md', 'text/markdown'],
      ['a+skill://git-workflow/templates', 'inode/directory'],
    ]);
    const templates = await readAll(client, 'a+skill://git-workflow/templates');
    expect(summary(templates.children)).toEqual([
      ['a+skill://git-workflow/templates/invoice.md', 'text/markdown'],
      ['a+skill://git-workflow/templates/purchase-order.md', 'text/markdown'],
      ['a+skill://git-workflow/templates/regional', 'inode/directory'],
    ]);
    const regional = await readAll(client, 'a+skill://git-workflow/templates/regional');
    expect(summary(regional.children)).toEqual([['a+skill://git-workflow/templates/regional/eu.md', 'text/markdown']]);
    expect(regional.pages).toBe(1);
    // A listed child is readable as it is spelled.
    const eu = await client.request('resources/read', { uri: regional.children[0].uri });
    expect(eu.contents[0].text).toBe('EU template of git-workflow.\n');
    await client.close();
  });

  it('spells a non-skill folder’s children as resources/list spells that server’s URIs', async () => {
    const client = await connect(gw.url, TOKENS.FULL_TOKEN);
    // a listed docs://manual/intro.md first: its URIs stay as they are. The child a names in b's
    // namespace (--spoof-child) would be read from b: it is dropped.
    const ofA = await readAll(client, 'docs://manual');
    expect(summary(ofA.children)).toEqual([
      ['docs://manual/chapters', 'inode/directory'],
      ['docs://manual/intro.md', 'text/markdown'],
    ]);
    // c's clashed, so c's folder is reached as c+docs://…, and so are its children, listed or not.
    const ofC = await readAll(client, 'c+docs://manual');
    expect(summary(ofC.children)).toEqual([
      ['c+docs://manual/chapters', 'inode/directory'],
      ['c+docs://manual/intro.md', 'text/markdown'],
    ]);
    const chapters = await readAll(client, 'c+docs://manual/chapters');
    expect(summary(chapters.children)).toEqual([['c+docs://manual/chapters/one.md', 'text/markdown']]);
    const one = await client.request('resources/read', { uri: 'c+docs://manual/chapters/one.md' });
    expect(one.contents[0].text).toBe('Chapter one of c.\n');
    await client.close();
  });

  it('refuses a cursor replayed for another directory, and one it never issued', async () => {
    const client = await connect(gw.url, TOKENS.FULL_TOKEN);
    const first = await client.request(READ, { uri: 'a+skill://git-workflow' });
    expect(typeof first.nextCursor).toBe('string');
    const before = received('a').length;
    await expect(client.request(READ, { uri: 'a+skill://git-workflow/templates', cursor: first.nextCursor })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request(READ, { uri: 'a+skill://git-workflow', cursor: 'page-2' })).rejects.toMatchObject({ code: -32602 });
    // A directory cursor is no resources/list cursor, and a list's cursor no directory's.
    await expect(client.request('resources/list', { cursor: first.nextCursor })).rejects.toMatchObject({ code: -32602 });
    // Neither reached the server.
    expect(received('a').length).toBe(before);
    await client.close();
  });

  it('answers -32602 for a server that did not declare directoryRead, and unknown folders, without calling b', async () => {
    const client = await connect(gw.url, TOKENS.FULL_TOKEN);
    await expect(client.request(READ, { uri: 'b+skill://git-workflow' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request(READ, { uri: 'zz+skill://git-workflow' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.request(READ, { uri: 'a+skill://no-such-skill' })).rejects.toMatchObject({ code: -32602 });
    expect(received('b')).toEqual([]);
    // The unknown folder of a did reach a, which said it has none: the gateway refused nothing there.
    expect(received('a')).toContain('skill://no-such-skill');
    await client.close();
  });

  it('cleans the text of the children it shows', async () => {
    const client = await connect(gw.url, TOKENS.FULL_TOKEN);
    const helper = await client.request(READ, { uri: 'a+skill://helper' });
    const skillFile = helper.resources.find((c: any) => c.uri === 'a+skill://helper/SKILL.md');
    expect(skillFile.description).toMatch(/^Helps\./);
    expect(skillFile.description).not.toMatch(TAG_CHARS);
    await client.close();
  });

  it('under a profile that denies a subfolder: not listed, not read, never asked of the server', async () => {
    const client = await connect(gw.url, TOKENS.LIMITED_TOKEN);
    const templates = await readAll(client, 'a+skill://git-workflow/templates');
    expect(summary(templates.children)).toEqual([
      ['a+skill://git-workflow/templates/invoice.md', 'text/markdown'],
      ['a+skill://git-workflow/templates/purchase-order.md', 'text/markdown'],
    ]);
    const before = received('a').length;
    await expect(client.request(READ, { uri: 'a+skill://git-workflow/templates/regional' })).rejects.toMatchObject({ code: -32602 });
    expect(received('a').length).toBe(before);
    await client.close();
  });
});

describe('a skill the lock file holds back', () => {
  it('is not browsed: its folder and its subfolders answer -32602; an unchanged skill’s are listed', async () => {
    const lockDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-skills-dir-lock-'));
    const lockFile = path.join(lockDir, 'switchboard.lock');
    const config = (version: string) =>
      yamlServers(
        [
          fixtureServer('a', 'skills', ['--name', 'a', '--skills', 'git-workflow', '--directory', '--version', version]),
          fixtureServer('c', 'skills', ['--name', 'c', '--skills', 'pdf', '--directory']),
        ],
        { pinning: { lockFile } },
      );
    expect((await runCli(['lock'], config('1'))).code).toBe(0);
    const held = await startGateway(config('2'));
    const client = await connectHttpClient(held.url);
    const request = (uri: string) => client.request({ method: READ, params: { uri } } as any, anyResult) as Promise<any>;
    for (const uri of ['a+skill://git-workflow', 'a+skill://git-workflow/templates', 'a+skill://git-workflow/templates/regional']) {
      await expect(request(uri)).rejects.toMatchObject({ code: -32602 });
    }
    expect((await request('c+skill://pdf/templates')).resources.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('a gateway whose servers do not implement directory reads', () => {
  it('declares the extension without directoryRead', async () => {
    const only = await startGateway(yamlServers([fixtureServer('b', 'skills', ['--name', 'b', '--skills', 'git-workflow'])]));
    const v1 = await connectHttpClient(only.url);
    expect((v1.getServerCapabilities() as any)?.extensions?.[SKILLS]).toEqual({});
    await v1.close();
    const { client: v2 } = await connectStatelessHttp(only.url);
    expect((v2.getServerCapabilities() as any)?.extensions?.[SKILLS]).toEqual({});
    await v2.close();
  });
});
