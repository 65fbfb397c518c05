// The two OAuth walk-throughs of docs/oauth.md, run as written: its YAML blocks and its commands,
// with only the fixed ports swapped for free ones (9400: the demo authorization server, 8809: the
// protected gateway). If the page drifts from what the gateway does, this fails.

import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, exited, gatewayMain, LineCollector, nodeBin, repoRoot, spawnTracked, trackDir } from '../helpers/index.js';
import { followRedirects } from '../fixtures/oauth/browser.js';

const doc = await readFile(path.join(repoRoot, 'docs/oauth.md'), 'utf8');

/** The fenced blocks of one section of docs/oauth.md, by language. */
function blocks(heading: string, lang: string): string[] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/oauth.md has no "## ${heading}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

let dir: string;
let issuer: string;
let protectedUrl: string;
const env = () => ({ ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), SWITCHBOARD_NO_BROWSER: '1', SWITCHBOARD_LOG_LEVEL: 'info' });

function run(args: string[]) {
  const child = spawnTracked(nodeBin, args, { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = new LineCollector(child.stderr);
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  return { child, stderr, done: exited(child).then(async ({ code }) => (await stderr.ended(), { code, stdout, stderr: stderr.text })) };
}

beforeAll(async () => {
  // "at the root of the checkout": the files sit beside node_modules, test/ and dist/.
  dir = trackDir(await mkdtemp(path.join(os.tmpdir(), 'sb-readme-')));
  for (const name of ['node_modules', 'dist', 'test']) await symlink(path.join(repoRoot, name), path.join(dir, name));
  const as = run(['test/fixtures/oauth/demo-as.mjs', '--port', '0']);
  issuer = /issuer (http:\/\/\S+)/.exec(await as.stderr.waitForLine(/demo authorization server: issuer/, 15_000))![1]!;

  const [protectedYaml] = blocks('Put Switchboard behind your identity provider', 'yaml');
  expect(protectedYaml).toContain('issuer: http://127.0.0.1:9400');
  await writeFile(path.join(dir, 'protected.yaml'), protectedYaml!.replace('http://127.0.0.1:9400', issuer).replace('port: 8809', 'port: 0'));
  const gw = run([gatewayMain, 'serve', '-c', 'protected.yaml']);
  protectedUrl = /listening on (http:\/\/\S+?)"/.exec(await gw.stderr.waitForLine(/listening on http/, 15_000))![1]!;
}, 30_000);

afterAll(cleanup);

const post = (body: unknown, token?: string) =>
  fetch(protectedUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe('docs/oauth.md: Put Switchboard behind your identity provider', () => {
  it('401 with the metadata URL, the metadata itself, then a client-credentials token gets in', async () => {
    const sh = blocks('Put Switchboard behind your identity provider', 'sh')[0]!;
    expect(sh).toContain('-d resource=http://127.0.0.1:8809/mcp http://127.0.0.1:9400/token');
    const refused = await post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL(protectedUrl).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:read"`);
    const prm = await (await fetch(`${new URL(protectedUrl).origin}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: protectedUrl, authorization_servers: [issuer] });
    const token = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('demo-agent:demo-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp:read', resource: protectedUrl }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } }, access_token);
    expect(init.status).toBe(200);
  });
});

describe('docs/oauth.md: Connect a remote server that needs login', () => {
  it('check → login → check → serve → status → logout, with the outputs the page shows', async () => {
    const [remoteYaml] = blocks('Connect a remote server that needs login', 'yaml');
    expect(remoteYaml).toContain('url: http://127.0.0.1:8809/mcp');
    await writeFile(path.join(dir, 'remote.yaml'), remoteYaml!.replace('http://127.0.0.1:8809/mcp', protectedUrl));
    const sh = blocks('Connect a remote server that needs login', 'sh')[0]!;
    const commands = sh.split('\n').filter((l) => l.startsWith('node dist/main.js'));
    const argv = (line: string) =>
      line
        .replace(/\s*#.*$/, '')
        .replace(/\s*&$/, '')
        .split(/\s+/)
        .slice(1);
    const [check, login, , serve, status, logout] = commands.map(argv);

    const before = await run(check!).done;
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/notes\s+needs-login.*Run: switchboard login notes/);

    const l = run(login!);
    const url = /by opening: (\S+)/.exec(await l.stderr.waitForLine(/Authorize Switchboard .* by opening: /, 15_000))![1]!;
    await followRedirects(url); // what the page's curl -sL -b/-c line does
    expect((await l.done).code).toBe(0);

    const after = await run(check!).done;
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/notes\s+ready.*OAuth ok, token expires in 60m, scopes mcp:read/);

    // `serve` binds the config's listen (8808 by default); here a free port, and status asks there.
    const gw = run([...serve!, '--http', '127.0.0.1:0']);
    const where = new URL(/listening on (http:\/\/\S+?)"/.exec(await gw.stderr.waitForLine(/listening on http/, 15_000))![1]!).host;
    const s = await run([...status!, '--http', where]).done;
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/notes: connected .*OAuth ok, token expires in \d+m, scopes mcp:read/);
    gw.child.kill('SIGTERM');
    await gw.done;

    const out = await run(logout!).done;
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Logged out of "notes"');
  });
});
