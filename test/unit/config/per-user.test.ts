// Per-user servers in the config (issue 33): `auth.perUser` and `${user.NAME}` in headers or env
// make a server per-user (normalized as server.perUser), the `${user.NAME}` text is kept for the
// connection opener to fill, and every rule that keeps the shape unambiguous has its error text.

import { describe, expect, it } from 'vitest';
import { fillUserRefs, userRefNames } from '../../../src/config/types.js';
import { parse, problemsOf } from './helpers.js';

const server = (yaml: string) => parse(`servers:\n  - ${yaml}\n`).servers[0]!;

describe('per-user servers', () => {
  it('is not per-user without perUser or ${user.NAME}: the common case is unchanged', () => {
    expect(server('{ name: a, url: "https://a.example/mcp", headers: { X-Key: k }, auth: { type: oauth } }').perUser).toBeUndefined();
    expect(server('{ name: a, command: node, env: { A: b } }').perUser).toBeUndefined();
  });

  it('reads auth.perUser on an HTTP server as per-user OAuth, keeping every other OAuth key', () => {
    const s = server('{ name: gh, url: "https://api.example/mcp", auth: { type: oauth, perUser: true, clientId: sb, scopes: [repo] } }');
    expect(s.perUser).toEqual({ kind: 'oauth' });
    expect(s.kind === 'http' && s.auth).toMatchObject({ type: 'oauth', perUser: true, clientId: 'sb', scopes: ['repo'], grant: 'authorization_code' });
  });

  it('gives a per-user login with a client secret the authorization_code grant, not the machine one a secret implies otherwise', () => {
    const s = server('{ name: gh, url: "https://api.example/mcp", auth: { type: oauth, perUser: true, clientId: sb, clientSecret: s3 } }');
    expect(s.kind === 'http' && s.auth?.grant).toBe('authorization_code');
    const shared = server('{ name: gh, url: "https://api.example/mcp", auth: { type: oauth, clientId: sb, clientSecret: s3 } }');
    expect(shared.kind === 'http' && shared.auth?.grant).toBe('client_credentials');
  });

  it('reads ${user.NAME} in headers as per-user secrets, described by userSecrets, with the text left for the opener', () => {
    const s = server(
      '{ name: api, url: "https://api.example/mcp", headers: { Authorization: "Bearer ${user.API_KEY}", X-Team: "${user.TEAM}-${user.API_KEY}" }, userSecrets: { API_KEY: "Your API key" } }',
    );
    expect(s.perUser).toEqual({ kind: 'secrets', secrets: [{ name: 'API_KEY', description: 'Your API key' }, { name: 'TEAM' }] });
    expect(s.kind === 'http' && s.headers).toEqual({ Authorization: 'Bearer ${user.API_KEY}', 'X-Team': '${user.TEAM}-${user.API_KEY}' });
  });

  it('reads ${user.NAME} in a stdio env, and in the Claude Desktop shape too', () => {
    const s = server('{ name: gh, command: github-mcp, env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${user.GITHUB_TOKEN}", HOME_DIR: "${HOME_DIR:-/tmp}" } }');
    expect(s.perUser).toEqual({ kind: 'secrets', secrets: [{ name: 'GITHUB_TOKEN' }] });
    expect(s.kind === 'stdio' && s.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: '${user.GITHUB_TOKEN}', HOME_DIR: '/tmp' });
    const claude = parse(
      'mcpServers:\n  gh: { command: x, env: { T: "${user.T}" }, userSecrets: { T: token } }\n  remote: { type: http, url: "https://r.example/mcp", auth: { type: oauth, perUser: true } }\n',
    ).servers;
    expect(claude.map((c) => c.perUser)).toEqual([{ kind: 'secrets', secrets: [{ name: 'T', description: 'token' }] }, { kind: 'oauth' }]);
  });

  it('keeps an escaped $${user.X} literal: not a reference, and a literal ${user.X} once normalized', () => {
    const s = server('{ name: a, command: node, env: { LITERAL: "$${user.X}" } }');
    expect(s.perUser).toBeUndefined();
    expect(s.kind === 'stdio' && s.env).toEqual({ LITERAL: '${user.X}' });
    // Beside a real reference the escape stays encoded; the fill decodes it.
    const mixed = server('{ name: a, command: node, env: { V: "${user.Y} $${user.X}" } }');
    expect(mixed.perUser).toEqual({ kind: 'secrets', secrets: [{ name: 'Y' }] });
    expect(mixed.kind === 'stdio' && fillUserRefs(mixed.env.V!, { Y: 'y' }).value).toBe('y ${user.X}');
  });
});

describe('per-user rules', () => {
  const messages = (yaml: string) => problemsOf(yaml).map((p) => `${p.path}: ${p.message}`);

  it('refuses the client_credentials grant with perUser: a machine grant is nobody’s user', () => {
    expect(messages('servers:\n  - { name: a, url: "https://a.example/mcp", auth: { type: oauth, perUser: true, grant: client_credentials } }\n')).toEqual([
      "servers[0].auth.grant: is client_credentials, a machine login, which is nobody's user: per-user OAuth (perUser: true) needs authorization_code (each user logs in)",
    ]);
  });

  it('refuses tokenFile and redirectPort with perUser: tokens go to the credential store, logins return to the connect page', () => {
    const found = messages('servers:\n  - { name: a, url: "https://a.example/mcp", auth: { type: oauth, perUser: true, tokenFile: t.json, redirectPort: 8000 } }\n');
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^servers\[0\]\.auth\.tokenFile: does not apply with perUser: true/);
    expect(found[1]).toMatch(/^servers\[0\]\.auth\.redirectPort: does not apply with perUser: true/);
  });

  it('refuses both kinds on one server', () => {
    expect(messages('servers:\n  - { name: a, url: "https://a.example/mcp", headers: { K: "${user.K}" }, auth: { type: oauth, perUser: true } }\n')).toEqual([
      'servers[0].auth.perUser: is true, and headers or env also use ${user.K}: a server is per-user one way, its own OAuth login or secrets the user gives, not both',
    ]);
  });

  it('refuses isolation: per-session on a per-user server, of either kind', () => {
    const expected = 'is per-session, but the server is per-user: per-user servers get one connection per user (drop isolation)';
    expect(messages('servers:\n  - { name: a, command: x, env: { K: "${user.K}" }, isolation: per-session }\n')).toEqual([`servers[0].isolation: ${expected}`]);
    expect(messages('servers:\n  - { name: a, url: "https://a.example/mcp", auth: { type: oauth, perUser: true }, isolation: per-session }\n')).toEqual([`servers[0].isolation: ${expected}`]);
  });

  it('refuses a userSecrets name no header or env value uses, but not a reference left undescribed', () => {
    expect(messages('servers:\n  - { name: a, command: x, env: { K: "${user.K}", L: "${user.L}" }, userSecrets: { K: key, TYPO: t } }\n')).toEqual([
      "servers[0].userSecrets.TYPO: no ${user.TYPO} in this server's env values uses it: describe only the secrets the server reads",
    ]);
    expect(messages('servers:\n  - { name: a, url: "https://a.example/mcp", userSecrets: { K: key } }\n')).toEqual([
      "servers[0].userSecrets.K: no ${user.K} in this server's headers values uses it: describe only the secrets the server reads",
    ]);
  });

  it('refuses a userSecrets key that cannot be a reference name, and an empty description', () => {
    expect(problemsOf('servers:\n  - { name: a, command: x, env: { K: "${user.K}" }, userSecrets: { "1K": key, K: "" } }\n').map((p) => p.path)).toEqual(
      expect.arrayContaining(['servers[0].userSecrets.1K', 'servers[0].userSecrets.K']),
    );
  });

  it.each([
    ['url', 'servers:\n  - { name: a, url: "https://${user.HOST}/mcp" }\n', 'servers[0].url'],
    ['args', 'servers:\n  - { name: a, command: x, args: ["--token=${user.T}"] }\n', 'servers[0].args[0]'],
    ['command', 'servers:\n  - { name: a, command: "${user.BIN}" }\n', 'servers[0].command'],
    ['cwd', 'servers:\n  - { name: a, command: x, cwd: "/home/${user.NAME}" }\n', 'servers[0].cwd'],
    ['another section', 'listen: { host: "${user.H}" }\n', 'listen.host'],
  ])('refuses ${user.X} in %s, saying where it is allowed', (_, yaml, path) => {
    const found = problemsOf(yaml).filter((p) => p.path === path);
    expect(found.map((p) => p.message)).toContainEqual(expect.stringContaining("only a server's headers values (HTTP) or env values (stdio) may use"));
  });

  it('refuses ${user. in a header or variable name, which nothing fills', () => {
    expect(messages('servers:\n  - { name: a, url: "https://a.example/mcp", headers: { "X-${user.K}": v } }\n')).toEqual([
      'servers[0].headers["X-${user.K}"]: has ${user. in its name: a per-user secret goes in the header\'s value, not its name',
    ]);
  });

  it('refuses a ${user.X} with a default, or unclosed, as malformed', () => {
    expect(messages('servers:\n  - { name: a, command: x, env: { K: "${user.K:-none}" } }\n')).toEqual(["servers[0].env.K: ${user.K} takes no default: it is the user's own secret"]);
    expect(messages('servers:\n  - { name: a, command: x, env: { K: "${user.K" } }\n')).toEqual(['servers[0].env.K: ${user.K is missing its closing }']);
  });

  it('never repeats a value in these messages', () => {
    const found = problemsOf(
      'servers:\n  - { name: a, url: "https://a.example/mcp", headers: { K: "hunter2 ${user.K}" }, auth: { type: oauth, perUser: true, clientSecret: hunter2 }, isolation: per-session }\n',
    );
    expect(found.length).toBeGreaterThan(0);
    expect(JSON.stringify(found)).not.toContain('hunter2');
  });
});

describe('userRefNames and fillUserRefs', () => {
  it('names each reference once, in order, skipping escapes', () => {
    expect(userRefNames('${user.B} ${user.A} ${user.B} $${user.C} $$${user.D}')).toEqual(['B', 'A']);
  });

  it('fills references, decodes escapes, and names the secrets it had no value for', () => {
    expect(fillUserRefs('Bearer ${user.T} $${user.T} ${user.U}', { T: 'tok' })).toEqual({ value: 'Bearer tok ${user.T} ', missing: ['U'] });
    // A value is inserted as it is: a `${user.X}` inside a secret is not filled again.
    expect(fillUserRefs('${user.A}${user.B}', { A: '${user.B}', B: 'b' }).value).toBe('${user.B}b');
  });
});
