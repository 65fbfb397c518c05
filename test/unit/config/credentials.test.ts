// The `credentials` section: defaults (so a config without it needs nothing new), paths resolved
// against the config's folder, durations read like every other one, and the bounds refused.

import { describe, expect, it } from 'vitest';
import { BASE, parse, problemsOf } from './helpers.js';

describe('credentials', () => {
  it('has the agreed defaults when absent', () => {
    expect(parse('servers: []').credentials).toEqual({
      file: undefined,
      keyFile: undefined,
      publicUrl: undefined,
      linkTtlMs: 600_000,
      localUser: 'local',
      login: undefined,
      connections: { perUser: 16, total: 256, idleTimeoutMs: 600_000 },
    });
  });

  it('resolves paths against the config folder, reads durations, and drops a trailing / of publicUrl', () => {
    const c = parse(
      `listen: { auth: { issuer: "https://login.example.com" } }
credentials:
  file: creds/credentials.json
  keyFile: /etc/switchboard/credentials.key
  publicUrl: https://gw.example.com/team-a/
  linkTtl: 5m
  localUser: ann
  login: { clientId: switchboard-connect, clientSecret: "\${LOGIN_SECRET}" }
  connections: { perUser: 4, total: 40, idleTimeout: 90s }
`,
      { LOGIN_SECRET: 's3' },
    ).credentials;
    expect(c).toEqual({
      file: `${BASE}/creds/credentials.json`,
      keyFile: '/etc/switchboard/credentials.key',
      publicUrl: 'https://gw.example.com/team-a',
      linkTtlMs: 300_000,
      localUser: 'ann',
      login: { clientId: 'switchboard-connect', clientSecret: 's3', scopes: ['openid'] },
      connections: { perUser: 4, total: 40, idleTimeoutMs: 90_000 },
    });
  });

  it.each([
    ['https://gw.example.com/?a=1', 'a query'],
    ['https://gw.example.com/#x', 'a fragment'],
    ['https://ann:pw@gw.example.com', 'user:password'],
    ['ftp://gw.example.com', 'not http(s)'],
    ['gw.example.com', 'not a URL'],
  ])('refuses publicUrl %s (%s)', (url) => {
    const found = problemsOf(`credentials: { publicUrl: "${url}" }\n`);
    expect(found).toEqual([{ path: 'credentials.publicUrl', message: 'must be an http:// or https:// URL without query, fragment or user:password, like https://gateway.example.com' }]);
  });

  it('refuses bounds below 1, a zero duration, a local user with a space, and a per-user bound above the total', () => {
    expect(problemsOf('credentials: { connections: { perUser: 0 } }').map((p) => p.path)).toEqual(['credentials.connections.perUser']);
    expect(problemsOf('credentials: { connections: { total: 0 } }').map((p) => p.path)).toEqual(['credentials.connections.total']);
    expect(problemsOf('credentials: { linkTtl: 0s }').map((p) => p.path)).toEqual(['credentials.linkTtl']);
    expect(problemsOf('credentials: { localUser: "a b" }').map((p) => p.path)).toEqual(['credentials.localUser']);
    expect(problemsOf('credentials: { connections: { perUser: 10, total: 5 } }')).toEqual([
      { path: 'credentials.connections.perUser', message: 'is more than total: one user cannot hold more per-user connections than all users together' },
    ]);
  });

  it('refuses a connect-page login without listen.auth, whose issuer it logs in at', () => {
    expect(problemsOf('credentials: { login: { clientId: c } }')).toEqual([
      { path: 'credentials.login', message: "needs listen.auth: the connect page's login is at that issuer, the one users already log in to the gateway with" },
    ]);
    expect(parse('listen: { auth: { issuer: "https://login.example.com" } }\ncredentials: { login: { clientId: c } }').credentials.login).toEqual({
      clientId: 'c',
      clientSecret: undefined,
      scopes: ['openid'],
    });
  });

  it('refuses an unknown key, as every section does', () => {
    expect(problemsOf('credentials: { keyfile: k }').map((p) => p.path)).toEqual(['credentials.keyfile']);
  });
});
