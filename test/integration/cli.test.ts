// The CLI as a script would use it: exit codes, output on stdout, problems with their paths.

import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, fixture, fixtureServer, nodeBin, repoRoot, runCli, startGateway, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

describe('switchboard check', () => {
  it('prints the merged catalog and exits 0 when every server connected', async () => {
    const r = await runCli(['check'], yamlServers([fixtureServer('echo', 'echo'), fixtureServer('pages', 'paginated', ['--tools', '7'])]));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/echo__echo\s+echo\s+echo/);
    expect(r.stdout).toMatch(/pages__t_6\s+pages\s+t_6/);
    expect(r.stdout).toContain('every enabled server connected');
  });

  it('exits 1 and names the server that failed', async () => {
    const r = await runCli(['check', '--json'], yamlServers([fixtureServer('echo', 'echo'), fixtureServer('broken', 'misbehaving', ['--exit-on-start'])]));
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.tools).toContainEqual({ name: 'echo__echo', server: 'echo', original: 'echo' });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0].server).toBe('broken');
    expect(report.problems[0].problem).toMatch(/exited with code 1/);
  });

  it('exits 2 on an invalid config, one line per problem with its path', async () => {
    const r = await runCli(['check'], 'servers:\n  - name: ok\n    command: node\n  - name: Bad Name\n    url: ftp://x\n  - name: ok\n    command: node\n');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/servers\[1\]\.name/);
    expect(r.stderr).toMatch(/servers\[1\]\.url/);
    expect(r.stderr).toMatch(/servers\[2\]\.name/);
  });

  it('exits 2 with a clear message when the config file does not exist', async () => {
    const r = await runCli(['check', '-c', '/nonexistent/switchboard.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nonexistent\/switchboard\.yaml/);
  });

  it('checks the default config that npm start serves, from any folder, with a line per server and no spurious warning', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'switchboard-cwd-'));
    const r = await runCli(['check', '--json'], undefined, {}, elsewhere);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.servers.map((s: any) => [s.name, s.state])).toEqual([
      ['everything', 'ready'],
      ['memory', 'ready'],
      ['files', 'ready'],
    ]);
    // Progress on stderr, plain lines off a terminal: each server connecting, then connected.
    for (const name of ['everything', 'memory', 'files']) {
      expect(r.stderr).toContain(`${name}: connecting\n`);
      expect(r.stderr).toMatch(new RegExp(`^${name}: connected \\(stdio, `, 'm'));
    }
    // check closing while server-everything's list_changed refetch ran gave both of these.
    expect(r.stderr).not.toMatch(/refetching \w+ failed/);
    expect(r.stderr).not.toMatch(/response for unknown id/);
  });

  it('reads a whole claude_desktop_config.json, its own settings and all', async () => {
    const desktop = {
      globalShortcut: 'Alt+Space',
      preferences: { menuBarEnabled: false },
      mcpServers: { echo: { command: nodeBin, args: [fixture('echo')] } },
    };
    const r = await runCli(['check', '--json'], JSON.stringify(desktop, null, 2), {}, repoRoot, 'claude_desktop_config.json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).tools).toContainEqual({ name: 'echo__echo', server: 'echo', original: 'echo' });
    expect(r.stderr).toMatch(/reading its mcpServers, ignoring globalShortcut, preferences/);
  });
});

describe('switchboard status', () => {
  it('shows the state of each server of a running gateway', async () => {
    const config = yamlServers([fixtureServer('good', 'echo'), fixtureServer('gone', 'misbehaving', ['--exit-on-start'])]);
    const gw = await startGateway(config);
    const port = new URL(gw.url).port;
    const r = await runCli(['status', '--json', '--http', `127.0.0.1:${port}`], config);
    expect(r.code).toBe(1); // one server is down
    const s = JSON.parse(r.stdout);
    const states = Object.fromEntries(s.servers.map((x: any) => [x.name, x.state]));
    expect(states.good).toBe('ready');
    expect(['backing-off', 'connecting']).toContain(states.gone);
    expect(s.sessions).toBe(0);
    const text = await runCli(['status', '--http', `127.0.0.1:${port}`], config);
    expect(text.stdout).toMatch(/good: connected/);
    expect(text.stdout).toMatch(/gone: down, reconnecting/);
  });

  it('takes the URL serve printed, from a folder with no config', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('good', 'echo')]));
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'switchboard-cwd-'));
    const r = await runCli(['status', gw.url], undefined, {}, elsewhere);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/good: connected/);
  });

  it('says unauthorised, not "no gateway", when the gateway wants a token', async () => {
    const gw = await startGateway(yamlServers([fixtureServer('good', 'echo')], { clients: [{ name: 'ops', token: 'ops-token', operator: true }] }));
    const r = await runCli(['status', gw.url]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/answered 401, unauthorised: set SWITCHBOARD_TOKEN/);
    expect(r.stderr).not.toMatch(/no gateway answered/);
    const ok = await runCli(['status', gw.url], undefined, { SWITCHBOARD_TOKEN: 'ops-token' });
    expect(ok.code).toBe(0);
  });

  it('says so when no gateway answers', async () => {
    const r = await runCli(['status', '--http', '127.0.0.1:9'], yamlServers([]));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no gateway answered at http:\/\/127\.0\.0\.1:9\/status/);
  });
});

describe('switchboard (usage)', () => {
  it('explains itself and exits 2 on an unknown command', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
    expect(r.stderr).toContain('switchboard serve');
  });
});
