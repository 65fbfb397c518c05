// Attacks that tried to read across clients and profiles, past policy, or out of a server
// (issue "Hardening", items 9-12, 14-16, and the sanitizer's fields).

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FINGERPRINTS } from '../fixtures/servers/poisoned-fields-payloads.mjs';
import { HttpClient, breached, fixture, held, node, q, rawHttp, startGateway, stdioServer, withGateway } from './lib.mjs';

const PROFILES = `clients:
  - name: alice
    token: alice-token
    tools: ["pub__*"]
  - name: bob
    token: bob-token
    tools: ["priv__*"]
`;

export const leaks = [
  {
    name: "another client replays a client's SSE stream with its Last-Event-ID",
    item: 'resume',
    async run({ cli }) {
      const yaml = `${PROFILES}servers:\n${stdioServer('pub', 'hostile.mjs')}${stdioServer('priv', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const alice = new HttpClient(gw.url, { token: 'alice-token' });
        const bob = new HttpClient(gw.url, { token: 'bob-token' });
        await alice.initialize();
        await bob.initialize();
        // A progress token makes Alice's answer an SSE stream, whose events carry ids.
        const answered = await alice.request('tools/call', { name: 'pub__deep_progress', arguments: { depth: 1 } }, { progressToken: 'p1' });
        const ids = [...answered.text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
        if (ids.length === 0) return breached('no event ids to try (the answer was not a resumable stream)');
        // Alice's session named with Bob's token: refused before any replay.
        const theirs = await rawHttp(gw.url, { method: 'GET', headers: { ...bob.headers({ accept: 'text/event-stream', 'last-event-id': ids[0] }), 'mcp-session-id': alice.session } });
        if (theirs.status !== 403) return breached(`Bob resumed in Alice's session: HTTP ${theirs.status}`);
        // Bob's own session with Alice's id: a fresh stream, nothing of hers.
        const stream = bob.openStream({ 'last-event-id': ids[0] });
        try {
          await bob.call('priv__log_after', { message: 'bob-marker' });
          await stream.next((m) => m.params?.data === 'bob-marker');
          const leaked = stream.messages.filter((m) => m.method === 'notifications/progress' || m.id !== undefined);
          return leaked.length === 0 ? held("Alice's event ids replay nothing in Bob's session, and her session is 403 to him") : breached(`Bob got ${leaked.length} of Alice's events`);
        } finally {
          stream.close();
        }
      });
    },
  },
  {
    name: 'log lines reach clients of other profiles',
    item: 11,
    async run({ cli }) {
      const yaml = `${PROFILES}servers:\n${stdioServer('pub', 'hostile.mjs')}${stdioServer('priv', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const alice = new HttpClient(gw.url, { token: 'alice-token' });
        const bob = new HttpClient(gw.url, { token: 'bob-token' });
        await alice.initialize();
        await bob.initialize();
        const aliceStream = alice.openStream();
        const bobStream = bob.openStream();
        try {
          // Both streams are open once each has received a message pushed to it.
          await alice.call('pub__log_after', { message: 'alice-ready' });
          await aliceStream.next((m) => m.params?.data === 'alice-ready');
          await bob.call('priv__log_after', { message: 'bob-ready' });
          await bobStream.next((m) => m.params?.data === 'bob-ready');
          // Bob's log lines: one during his call, one after it (belonging to no request).
          await bob.call('priv__log', { level: 'error', message: 'bob-during-call' });
          await bob.call('priv__log_after', { message: 'bob-background' });
          await bobStream.next((m) => m.params?.data === 'bob-background');
          // A marker pushed to Alice after them: whatever leaked to her came before it.
          await alice.call('pub__log_after', { message: 'alice-marker' });
          await aliceStream.next((m) => m.params?.data === 'alice-marker');
          const leaked = aliceStream.messages.filter((m) => /bob-/.test(JSON.stringify(m)));
          return leaked.length === 0 ? held("alice heard none of bob's server's log lines") : breached(`alice received ${leaked.length} of bob's log lines`);
        } finally {
          aliceStream.close();
          bobStream.close();
        }
      });
    },
  },
  {
    name: 'instructions include servers the profile cannot see',
    item: 12,
    async run({ cli }) {
      const yaml = `${PROFILES}servers:\n${stdioServer('pub', 'hostile.mjs', ['--instructions', 'Public server notes.'])}${stdioServer('priv', 'hostile.mjs', ['--instructions', 'PRIVATE-ONLY-FOR-BOB'])}`;
      return withGateway(cli, yaml, async (gw) => {
        const alice = new HttpClient(gw.url, { token: 'alice-token' });
        const bob = new HttpClient(gw.url, { token: 'bob-token' });
        const a = (await alice.initialize())?.instructions ?? '';
        const b = (await bob.initialize())?.instructions ?? '';
        return !a.includes('PRIVATE-ONLY') && b.includes('PRIVATE-ONLY') && a.includes('Public server notes')
          ? held("alice's instructions carry only the servers she sees")
          : breached(`alice's instructions: ${JSON.stringify(a).slice(0, 200)}`);
      });
    },
  },
  {
    name: "a dying server's stderr reaches the client",
    item: 14,
    async run({ cli }) {
      const secret = 'sk-live-TOKEN-9f8e7d at /home/alice/.config/secret.json';
      return withGateway(cli, `servers:\n${stdioServer('bad', 'hostile.mjs')}`, async (gw) => {
        const c = new HttpClient(gw.url);
        await c.initialize();
        const r = await c.call('bad__die', { secret });
        const told = JSON.stringify(r.response ?? {});
        await gw.waitForStderr(/sk-live-TOKEN/, 10_000).catch(() => undefined);
        const inLog = gw.lines.some((l) => l.includes('sk-live-TOKEN'));
        if (told.includes('sk-live-TOKEN') || told.includes('/home/alice')) return breached(`the client was told: ${told.slice(0, 200)}`);
        return r.response?.error?.data?.server === 'bad' && inLog
          ? held('the client got the code and the server name; the stderr line is in the gateway log only')
          : breached(`answer: ${told.slice(0, 200)}; in log: ${inLog}`);
      });
    },
  },
  {
    name: "stdio servers inherit the gateway's secrets",
    item: 15,
    async run({ cli }) {
      return withGateway(
        cli,
        `servers:\n${stdioServer('bad', 'hostile.mjs')}`,
        async (gw) => {
          const c = new HttpClient(gw.url);
          await c.initialize();
          const token = (await c.call('bad__env', { name: 'REMOTE_API_TOKEN' })).response?.result?.content?.[0]?.text;
          const home = (await c.call('bad__env', { name: 'HOME' })).response?.result?.content?.[0]?.text;
          return token === '(unset)' && home !== '(unset)' ? held('the child saw HOME but not REMOTE_API_TOKEN') : breached(`the child saw REMOTE_API_TOKEN=${token}`);
        },
        { env: { REMOTE_API_TOKEN: 'remote-secret-123' } },
      );
    },
  },
  {
    name: 'binding 0.0.0.0 turns the Host check off',
    item: 10,
    async run({ cli }) {
      return withGateway(
        cli,
        `servers:\n${stdioServer('bad', 'hostile.mjs')}`,
        async (gw) => {
          const port = new URL(gw.url).port;
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
          const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
          const evil = await rawHttp(gw.url, { headers: { ...headers, host: `evil.example:${port}` }, body });
          const local = await rawHttp(gw.url, { headers, body });
          return evil.status === 403 && local.status === 200 ? held('Host evil.example got 403 on a 0.0.0.0 bind') : breached(`Host evil.example got ${evil.status}`);
        },
        { args: ['--http', '0.0.0.0:0'] },
      );
    },
  },
  {
    name: 'the guard runs before policy (denied tools audited)',
    item: 9,
    async run({ cli }) {
      const gwYaml = (audit) =>
        `sanitize:\n  auditLog: ${q(audit)}\nservers:\n  - name: p\n    command: ${q(node)}\n    args: [${q(fixture('poisoned.mjs'))}]\n    tools:\n      deny: ["important", "hidden_tags"]\n`;
      const gw = await startGateway({ cli, yaml: gwYaml('audit.jsonl') });
      const audit = path.join(gw.dir, 'audit.jsonl');
      let text = '';
      try {
        const c = new HttpClient(gw.url);
        await c.initialize();
        await c.request('tools/list', {});
      } finally {
        // A graceful stop closes (flushes) the audit log; read it just before the folder goes.
        gw.child.kill('SIGTERM');
        await gw.exited;
        text = safeRead(audit);
        await gw.stop();
      }
      // Allowed poisoned tools are audited; the denied ones must not be.
      if (!text.includes('ansi_colors')) return breached('no audit entry at all (the allowed poisoned tools should have some)');
      const denied = text.split('\n').filter((l) => /"item":"(important|hidden_tags)"/.test(l));
      return denied.length === 0 ? held('denied tools left no audit entries; allowed ones did') : breached(`${denied.length} audit entries for denied tools`);
    },
  },
  {
    name: 'capability-gated tools vanish (roots never declared)',
    item: 16,
    async run({ cli }) {
      const everything = path.join(path.dirname(fixture('x')), '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
      const entry = (name, extra = '') => `  - name: ${name}\n    command: ${q(node)}\n    args: [${q(everything)}, "stdio"]\n${extra}`;
      const yaml = `servers:\n${entry('shared')}${entry('own', '    isolation: per-session\n')}`;
      const check = await runCheck(cli, yaml);
      const names = (check?.tools ?? []).map((t) => t.name);
      const missing = ['shared__get-roots-list', 'own__get-roots-list'].filter((n) => !names.includes(n));
      return check && missing.length === 0 ? held('get-roots-list is listed for shared and per-session servers') : breached(`missing: ${missing.join(', ') || '(check failed)'}`);
    },
  },
  {
    name: 'injections in fields the sanitizer never cleaned',
    item: 'sanitizer',
    async run({ cli }) {
      const fingerprints = FINGERPRINTS;
      const yaml = `sanitize:\n  results: true\nservers:\n  - name: pf\n    command: ${q(node)}\n    args: [${q(fixture('poisoned-fields.mjs'))}]\n`;
      return withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url);
        const init = await c.initialize();
        const seen = [
          JSON.stringify(init?.instructions ?? ''),
          JSON.stringify((await c.request('tools/list', {})).response),
          JSON.stringify((await c.request('resources/list', {})).response),
          JSON.stringify((await c.request('resources/templates/list', {})).response),
          JSON.stringify((await c.call('pf__report', {})).response),
        ].join('\n');
        const through = fingerprints.filter((f) => seen.includes(f) || seen.includes(JSON.stringify(f).slice(1, -1)));
        return fingerprints.length > 0 && through.length === 0 ? held(`none of ${fingerprints.length} payload kinds reached the client`) : breached(`reached the client: ${through.join(' | ')}`);
      });
    },
  },
];

function safeRead(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** `switchboard check --json` on a config; the parsed report, or undefined when it failed to run. */
async function runCheck(cli, yaml) {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const os = await import('node:os');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-attack-'));
  writeFileSync(path.join(dir, 'c.yaml'), yaml);
  try {
    const out = await new Promise((resolve) => {
      const child = spawn(node, [cli, 'check', '--json', '-c', path.join(dir, 'c.yaml')], { stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('exit', () => resolve(text));
    });
    return JSON.parse(out);
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A root with public/ok.txt and secret.txt, for the URI-spelling attack. */
async function fileTree() {
  const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const root = mkdtempSync(path.join(os.tmpdir(), 'switchboard-files-'));
  mkdirSync(path.join(root, 'public'));
  writeFileSync(path.join(root, 'public', 'ok.txt'), 'public text');
  writeFileSync(path.join(root, 'secret.txt'), 'TOP-SECRET-CONTENT');
  return root;
}

leaks.push({
  name: 'resource policy bypassed by re-spelling the URI',
  item: 8,
  async run({ cli }) {
    const root = await fileTree();
    const base = `file://${root}`;
    const entry = (name, rules) => `  - name: ${name}\n    command: ${q(node)}\n    args: [${q(fixture('files.mjs'))}, "--root", ${q(root)}]\n    resources: ${rules}\n`;
    // An allow-list server, a deny-list server, and a client profile with its own deny rule.
    const yaml =
      `clients:\n  - name: c\n    token: c-token\n    resources: { deny: [${q(`${base}/secret*`)}, ${q(`guarded+${base}/secret*`)}] }\n` +
      `servers:\n${entry('allowed', `{ allow: [${q(`${base}/public/*`)}] }`)}${entry('denied', `{ deny: [${q(`${base}/secret*`)}] }`)}`;
    const spellings = [
      `${base}/public/../secret.txt`,
      `${base}/public/%2e%2e/secret.txt`,
      `${base}/public/%2E%2E/secret.txt`,
      `FILE://${root}/secret.txt`,
      `${base}/%73ecret.txt`,
      `${base}/./secret.txt`,
      `file://localhost${root}/secret.txt`,
      `file://LOCALHOST${root}/public/../secret.txt`,
      `${base}//secret.txt`,
      `${root}/secret.txt`,
    ];
    try {
      return await withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url, { token: 'c-token' });
        await c.initialize();
        const leaked = [];
        for (const uri of spellings) {
          const r = await c.request('resources/read', { uri });
          if (JSON.stringify(r.response ?? '').includes('TOP-SECRET')) leaked.push(uri.replace(root, '<root>'));
        }
        const ok = await c.request('resources/read', { uri: `${base}/public/ok.txt` });
        const served = JSON.stringify(ok.response ?? '').includes('public text');
        return leaked.length === 0 && served
          ? held(`none of ${spellings.length} spellings read the secret; the public file reads`)
          : breached(`read the secret via: ${leaked.join(', ') || '(none)'}; public file served: ${served}`);
      });
    } finally {
      const { rmSync } = await import('node:fs');
      rmSync(root, { recursive: true, force: true });
    }
  },
});

leaks.push({
  name: 'a tool points a profile at a UI resource its policy denies',
  item: 'apps',
  async run({ cli }) {
    // Alice may use every tool but read no app UI; Bob may read it. The server's UI tool points at its ui:// page.
    const yaml = `clients:\n  - name: alice\n    token: alice-token\n    resources: { deny: ["ui://**"] }\n  - name: bob\n    token: bob-token\nservers:\n${stdioServer('clash', 'app-clash.mjs')}`;
    return withGateway(cli, yaml, async (gw) => {
      const pointer = async (token) => {
        const c = new HttpClient(gw.url, { token });
        await c.initialize();
        const tools = (await c.request('tools/list', {})).response?.result?.tools ?? [];
        const tool = tools.find((t) => t.name === 'clash__get-time');
        return {
          listed: tool !== undefined,
          ui: JSON.stringify(tool?._meta ?? {}).match(/ui:\/\/[^"]*/)?.[0],
          read: (await c.request('resources/read', { uri: 'ui://clash+get-time/mcp-app.html' })).response,
        };
      };
      const alice = await pointer('alice-token');
      const bob = await pointer('bob-token');
      const bobServed = bob.ui === 'ui://clash+get-time/mcp-app.html' && Array.isArray(bob.read?.result?.contents);
      return alice.listed && alice.ui === undefined && alice.read?.error && bobServed
        ? held("alice's tool list names no UI she may not read (the tool stays, its read is refused); bob's keeps the pointer")
        : breached(`alice sees the tool: ${alice.listed}, its UI pointer: ${alice.ui ?? '(none)'}, her read refused: ${Boolean(alice.read?.error)}; bob served: ${bobServed}`);
    });
  },
});
