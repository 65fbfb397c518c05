// The CLI's OAuth parts that need no server: parsing `login`/`logout`, choosing the login target,
// and how status/check describe a server's OAuth state.

import { describe, expect, it } from 'vitest';
import { UsageError, parseCli } from '../../../src/cli/args.js';
import { LoginUsageError, describeLogin, loginTarget } from '../../../src/cli/login.js';
import { authNote, describeServer, isDown } from '../../../src/cli/report.js';
import { parseConfig } from '../../../src/config/load.js';
import type { ServerSummary } from '../../../src/outbound/summary.js';

const config = parseConfig(
  `servers:
  - { name: notes, url: "https://mcp.example.com/mcp", auth: { type: oauth, scopes: [read], tokenFile: t.json } }
  - { name: plain, url: "https://other.example.com/mcp" }
  - { name: local, command: node }
`,
  { baseDir: '/cfg', env: {} },
);

describe('switchboard login / logout arguments', () => {
  it('take exactly one server name', () => {
    expect(parseCli(['login', 'notes', '-c', 'x.yaml'])).toMatchObject({ command: 'login', server: 'notes', config: 'x.yaml' });
    expect(parseCli(['logout', 'notes'])).toMatchObject({ command: 'logout', server: 'notes' });
    expect(() => parseCli(['login'])).toThrow(UsageError);
    expect(() => parseCli(['logout', 'a', 'b'])).toThrow(/logout expects the name of one server/);
  });
});

describe('loginTarget', () => {
  it('is the HTTP server with its OAuth settings (any HTTP server: OAuth may start on a challenge)', () => {
    expect(loginTarget(config, 'notes')).toEqual({
      name: 'notes',
      url: 'https://mcp.example.com/mcp',
      auth: { type: 'oauth', scopes: ['read'], tokenFile: '/cfg/t.json', grant: 'authorization_code' },
    });
    expect(loginTarget(config, 'plain')).toEqual({ name: 'plain', url: 'https://other.example.com/mcp' });
  });

  it('names the HTTP servers there are when given another name', () => {
    expect(() => loginTarget(config, 'nope')).toThrow(new LoginUsageError('no server named "nope" (HTTP servers in the config: notes, plain)'));
    expect(() => loginTarget(config, 'local')).toThrow(/"local" is a stdio server/);
  });

  it("refuses a per-user server: a shared login would be nobody's, each user connects", () => {
    const perUser = parseConfig(
      'servers:\n  - { name: gh, url: "https://gh.example/mcp", auth: { type: oauth, perUser: true } }\n  - { name: api, url: "https://api.example/mcp", headers: { K: "${user.K}" } }\n',
      { baseDir: '/cfg', env: {} },
    );
    for (const name of ['gh', 'api']) expect(() => loginTarget(perUser, name)).toThrow(`"${name}" is per-user: each user connects on the gateway's connect page`);
  });
});

describe('what status and check say about OAuth', () => {
  const now = 1_000_000_000_000;
  const server = (extra: Partial<ServerSummary>): ServerSummary => ({
    name: 'notes',
    state: 'ready',
    transport: 'streamable-http',
    protocolVersion: '2025-11-25',
    tools: 2,
    prompts: 0,
    resources: 0,
    resourceTemplates: 0,
    ...extra,
  });

  it('ok: the expiry and the scopes', () => {
    expect(authNote(server({ auth: { status: 'ok', expiresAt: now + 42 * 60_000, scopes: ['a', 'b'] } }), now)).toBe('OAuth ok, token expires in 42m, scopes a b');
    expect(authNote(server({ auth: { status: 'ok', expiresAt: now - 1 } }), now)).toBe('OAuth ok, token expired (renewed on next use)');
    expect(authNote(server({}), now)).toBeUndefined();
  });

  it('needs-login: down, with the command to run', () => {
    const s = server({ state: 'needs-login', problem: 'Server "notes" needs an OAuth login: no token yet. Run: switchboard login notes', auth: { status: 'needs-login' } });
    expect(isDown(s)).toBe(true);
    expect(describeServer(s)).toBe('notes: needs login — Server "notes" needs an OAuth login: no token yet. Run: switchboard login notes');
    expect(authNote(s)).toBe('OAuth needs-login, run: switchboard login notes');
  });

  it('describeLogin prints issuer, scopes and expiry, never a token', () => {
    const text = describeLogin('notes', { status: 'ok', issuer: 'https://as.example', scopes: ['read'], expiresAt: now + 3_600_000 }, now);
    expect(text).toBe(`Logged in to "notes" at https://as.example.\n  scopes: read\n  access token valid until ${new Date(now + 3_600_000).toISOString()} (60 min); the gateway renews it itself\n`);
  });
});
