// The local user of a stdio gateway and a per-user server (issue 33): the built gateway under the
// official SDK v1 client over stdio, a per-user stdio server whose process gets the user's TOKEN in
// its env, a real credentials file sealed with the key from the environment. Nobody has connected:
// the server lists no tool, so no call can hand out a connect link; `switchboard users connect`
// (the built CLI) is the local user's first connect, and the running gateway lists the tools as
// soon as the file changes. After `switchboard users revoke local`, the next call asks for a new
// connect by URL elicitation to the connect pages on a loopback listener, which Debian's chromium
// fills in; the call then answers with the new token.
// Skipped (with a notice) where Debian's chromium is not installed: CHROMIUM_PATH overrides.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JS, shared with the attack suite
import { walkConnectPage } from '../fixtures/oauth/connect-browser.mjs';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { cleanup, connectStdioClient, fixture, nodeBin, runCli, stdioGatewayParams, stdioStderr, trackDir, yamlServers } from '../helpers/index.js';
import { usersConnect } from '../helpers/users-connect.js';

if (!CHROMIUM) process.stderr.write('per-user-stdio: no chromium (apt-get install chromium, or set CHROMIUM_PATH); skipped\n');

const KEY = randomBytes(32).toString('base64');
const FIRST = `first-token-${randomBytes(8).toString('hex')}`;
const SECOND = `second-token-${randomBytes(8).toString('hex')}`;
const THIRD = `third-token-${randomBytes(8).toString('hex')}`;

let dir: string;
let yaml: string;
let configFile: string;
let client: Client;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let browser: BrowserContext;
/** Each tools/list_changed the client heard, and who waits for the next one. */
let toolsChanged = 0;
const changeWaiters: (() => void)[] = [];
const asked: { mode: string; url: string; elicitationId: string }[] = [];
const completed: string[] = [];
const completionWaiters: (() => void)[] = [];
const walks: Promise<{ status: number; text: string }>[] = [];
/** How the person answers a connect link: in the browser, or by typing the secret into `switchboard users connect`. */
let answerBy: 'browser' | 'terminal' = 'browser';
const terminalConnects: ReturnType<typeof usersConnect>['done'][] = [];

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;
const toolNames = async () => (await client.listTools()).tools.map((t) => t.name);

/** Resolves once the gateway has logged `n` lines matching `re`. */
const loggedTimes = (re: RegExp, n: number) =>
  new Promise<void>((resolve) => {
    const log = stdioStderr(client);
    const check = () => {
      if (log.lines.filter((l) => re.test(l)).length < n) return;
      log.off('line', check);
      resolve();
    };
    log.on('line', check);
    check();
  });
const LISTING_GONE = /"server":"proc".*listing credential is gone/;

/** Resolves at the next tools/list_changed after this call. */
const nextToolsChange = () => new Promise<void>((resolve) => changeWaiters.push(resolve));
/** Resolves once `id`'s notifications/elicitation/complete has arrived. */
const completion = (id: string) =>
  new Promise<void>((resolve) => {
    const check = () => (completed.includes(id) ? resolve() : completionWaiters.push(check));
    check();
  });

beforeAll(async () => {
  if (!CHROMIUM) return;
  dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-per-user-stdio-')));
  yaml = yamlServers([{ name: 'proc', command: nodeBin, args: [fixture('per-user-stdio.mjs')], env: { TOKEN: '${user.TOKEN}' }, userSecrets: { TOKEN: 'your token for proc' } }], {
    credentials: { file: path.join(dir, 'credentials.json'), linkTtl: '60s' },
    sanitize: { auditLog: path.join(dir, 'audit.jsonl') },
  });
  configFile = path.join(dir, 'switchboard.yaml');
  writeFileSync(configFile, yaml);
  chromium = await launchChromium();
  browser = await chromium.browser.createBrowserContext();
  client = await connectStdioClient(stdioGatewayParams(yaml, { env: { SWITCHBOARD_CREDENTIALS_KEY: KEY, SWITCHBOARD_LOG_LEVEL: 'info', SWITCHBOARD_LOG_FORMAT: 'json' } }), {
    capabilities: { elicitation: { url: {} } },
    setup: (c) => {
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        toolsChanged++;
        for (const f of changeWaiters.splice(0)) f();
      });
      c.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
        completed.push(n.params.elicitationId);
        for (const f of completionWaiters.splice(0)) f();
      });
      // The person opens the link in their browser and types the secret; accept only means "I opened it".
      c.setRequestHandler(ElicitRequestSchema, async (req) => {
        const p = req.params as unknown as { mode: string; url: string; elicitationId: string };
        asked.push(p);
        if (answerBy === 'browser') walks.push(walkConnectPage(browser, p.url, { secrets: { TOKEN: SECOND } }));
        else terminalConnects.push(usersConnect(['proc'], configFile, { SWITCHBOARD_CREDENTIALS_KEY: KEY }, `TOKEN=${THIRD}\n`).done);
        return { action: 'accept' };
      });
    },
  });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await chromium?.close();
  await cleanup();
});

describe.skipIf(!CHROMIUM)('per-user stdio server, the local user of a stdio gateway', () => {
  it('lists no tool of the server before anybody connects: no call could ask for a connect; its problem says to run users connect', async () => {
    expect(await toolNames()).not.toContain('proc__whoami');
    // No page to open before a call hands out a link (no public URL): the problem names the CLI, not a URL.
    await loggedTimes(/proc: needs-connect — no user has connected it yet: run switchboard users connect proc"/, 1);
  });

  it('users connect from the terminal: the running gateway hears the file change, lists the tool, the call carries the token', async () => {
    const changed = nextToolsChange();
    const r = await usersConnect(['proc'], configFile, { SWITCHBOARD_CREDENTIALS_KEY: KEY }, `TOKEN=${FIRST}\n`).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("stored local's secrets for proc; a running gateway picks them up at once\n");
    await changed;
    expect(await toolNames()).toContain('proc__whoami');
    expect(text(await client.callTool({ name: 'proc__whoami', arguments: {} }))).toMatch(new RegExp(`^token:${FIRST} `));
    expect(asked).toEqual([]);
  });

  it('after users revoke local (the only user), the tool stays listed; the next call asks by URL elicitation for the loopback connect page, which the browser fills; the call answers with the new token', async () => {
    const revoked = await runCli(['users', 'revoke', 'local', 'proc'], yaml, { SWITCHBOARD_CREDENTIALS_KEY: KEY });
    expect([revoked.code, revoked.stdout]).toEqual([0, "revoked local's credential for proc\n"]);
    // The gateway heard the revoke and let the listing connection go (nobody else can list with theirs) ...
    await loggedTimes(LISTING_GONE, 1);
    // ... yet the tool it listed is still there to call: otherwise nothing could ask the local user to connect.
    expect(await toolNames()).toContain('proc__whoami');
    const r = await client.callTool({ name: 'proc__whoami', arguments: {} }, undefined, { timeout: 60_000 });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.mode).toBe('url');
    expect(new URL(asked[0]!.url).hostname).toBe('127.0.0.1');
    expect(new URL(asked[0]!.url).pathname).toBe('/connect/proc');
    expect(asked[0]!.url).not.toContain(FIRST);
    const walk = await walks[0]!;
    expect(walk.status, walk.text).toBe(200);
    expect(text(r)).toMatch(new RegExp(`^token:${SECOND} `));
    await completion(asked[0]!.elicitationId);
    expect(toolsChanged).toBeGreaterThan(0);
  });

  it('a call waiting on an accepted link goes on when the user connects with users connect instead of the page', async () => {
    const revoked = await runCli(['users', 'revoke', 'local', 'proc'], yaml, { SWITCHBOARD_CREDENTIALS_KEY: KEY });
    expect(revoked.code, revoked.stderr).toBe(0);
    await loggedTimes(LISTING_GONE, 2);
    answerBy = 'terminal';
    const r = await client.callTool({ name: 'proc__whoami', arguments: {} }, undefined, { timeout: 60_000 });
    expect(asked).toHaveLength(2);
    const connected = await terminalConnects[0]!;
    expect(connected.code, connected.stderr).toBe(0);
    expect(text(r)).toMatch(new RegExp(`^token:${THIRD} `));
    await completion(asked[1]!.elicitationId);
  });
});
