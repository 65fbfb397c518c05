// `switchboard check` with per-user servers: it has no user to connect as, so it lists them as
// per-user (kind, secret names), never spawns or connects them with the raw ${user.NAME} text, says
// where credentials live and whether a key opens them, and never prints a value.

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fixture, runCli, trackDir } from '../helpers/index.js';

let dir: string;
beforeAll(() => {
  dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-check-per-user-')));
});
afterAll(cleanup);

const config = (marker: string) => `
credentials: { file: ${path.join(dir, 'credentials.json')} }
servers:
  - name: echo
    command: node
    args: [${JSON.stringify(fixture('echo'))}]
  - name: tracker
    command: node
    # Were check to spawn it, the marker file would exist.
    args: ["-e", "require('fs').writeFileSync(process.env.MARK, process.env.TOKEN)"]
    env: { MARK: ${JSON.stringify(marker)}, TOKEN: "Bearer \${user.TRACKER_TOKEN}" }
    userSecrets: { TRACKER_TOKEN: "Your tracker token" }
  - name: github
    # Nothing listens here: connecting would fail check.
    url: http://127.0.0.1:9/mcp
    auth: { type: oauth, perUser: true }
`;

describe('switchboard check with per-user servers', () => {
  it('reports them as per-user without spawning or connecting them, and passes', async () => {
    const marker = path.join(dir, 'spawned');
    const r = await runCli(['check'], config(marker), { SWITCHBOARD_CREDENTIALS_KEY: '' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(marker), 'the per-user stdio server was spawned').toBe(false);
    expect(r.stdout).toMatch(/^ {2}tracker +secrets TRACKER_TOKEN +per-user: connects per user$/m);
    expect(r.stdout).toMatch(/^ {2}github +oauth \(each user logs in\) +per-user: connects per user$/m);
    expect(r.stdout).toContain(`credentials: file ${path.join(dir, 'credentials.json')}`);
    expect(r.stdout).toContain(`key: none yet: the gateway makes ${path.join(dir, 'credentials.key')} on first start`);
    expect(r.stdout).toMatch(/^ {2}echo +ready/m);
    expect(r.stdout).toContain('none: every enabled server connected (per-user servers connect per user)');
    // No listen.auth and no client token: no HTTP client has a user to use them as.
    expect(r.stdout).toContain(
      "per-user servers: no HTTP client has a user (neither listen.auth nor a client token is configured): over HTTP nobody can use per-user servers; over stdio they are local's",
    );
  });

  it('has no such warning once clients have tokens (the profile of each token is a user)', async () => {
    const r = await runCli(['check', '--json'], `clients: [{ name: ann, token: ann-token-0123456789 }]\n${config(path.join(dir, 'spawned-4'))}`, { SWITCHBOARD_CREDENTIALS_KEY: '' });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { warnings: { where: string }[] }).warnings.filter((w) => w.where === 'per-user servers')).toEqual([]);
  });

  it('says which key opens credentials (its id, never the key), and JSON carries the same', async () => {
    const key = Buffer.alloc(32, 3).toString('base64');
    const r = await runCli(['check', '--json'], config(path.join(dir, 'spawned-2')), { SWITCHBOARD_CREDENTIALS_KEY: key });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { perUser: { servers: unknown[]; credentials: { key: string; keyAvailable: boolean } } };
    expect(report.perUser.servers).toEqual([
      { name: 'tracker', kind: 'secrets', secrets: ['TRACKER_TOKEN'], connection: 'per-user: connects per user' },
      { name: 'github', kind: 'oauth', connection: 'per-user: connects per user' },
    ]);
    expect(report.perUser.credentials).toMatchObject({ keyAvailable: true });
    expect(report.perUser.credentials.key).toMatch(/^SWITCHBOARD_CREDENTIALS_KEY \(key id [0-9a-f]{16}\)$/);
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('fails on a key file others can read: the gateway would refuse it', async () => {
    const keyFile = path.join(dir, 'open.key');
    writeFileSync(keyFile, `${Buffer.alloc(32, 4).toString('base64')}\n`, { mode: 0o644 });
    const r = await runCli(['check'], `credentials: { keyFile: ${keyFile} }\n${config(path.join(dir, 'spawned-3')).replace(/^credentials:.*$/m, '')}`, { SWITCHBOARD_CREDENTIALS_KEY: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/credentials: no usable key for file .*readable only by its owner/);
  });
});
