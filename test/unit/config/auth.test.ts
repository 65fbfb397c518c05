// Config: the OAuth keys. `auth` on an HTTP server (the gateway as an OAuth client), `listen.auth`
// (the gateway as a protected resource) and `clients[].match` (a profile chosen by token claims).

import { describe, expect, it } from 'vitest';
import type { HttpServerConfig } from '../../../src/config/types.js';
import { BASE, linesOf, parse } from './helpers.js';

const server = (yaml: string) => parse(yaml).servers[0] as HttpServerConfig;

describe('servers[].auth', () => {
  it('is absent unless given: OAuth then starts only on a Bearer challenge', () => {
    expect(server('servers: [{ name: r, url: "https://mcp.example.com/mcp" }]').auth).toBeUndefined();
  });

  it('`auth: oauth` is OAuth with everything discovered', () => {
    expect(server('servers: [{ name: r, url: "https://mcp.example.com/mcp", auth: oauth }]').auth).toEqual({ type: 'oauth' });
  });

  it('a mapping keeps its settings, resolves the token file against the config folder and says the grant', () => {
    const auth = server(`
servers:
  - name: r
    url: https://mcp.example.com/mcp
    auth: { type: oauth, clientId: sb, scopes: [mcp:read, mcp:write], redirectPort: 8765, tokenFile: state/tokens.json }
`).auth;
    expect(auth).toEqual({ type: 'oauth', clientId: 'sb', scopes: ['mcp:read', 'mcp:write'], redirectPort: 8765, tokenFile: `${BASE}/state/tokens.json`, grant: 'authorization_code' });
  });

  it('a client secret means the client credentials grant, unless the grant is named', () => {
    const yaml = (extra: string) => `servers: [{ name: r, url: "https://mcp.example.com/mcp", auth: { type: oauth, clientId: m2m, clientSecret: "\${SECRET}"${extra} } }]`;
    expect((parse(yaml(''), { SECRET: 's' }).servers[0] as HttpServerConfig).auth?.grant).toBe('client_credentials');
    expect((parse(yaml(', grant: authorization_code'), { SECRET: 's' }).servers[0] as HttpServerConfig).auth?.grant).toBe('authorization_code');
  });

  it('works in the Claude Desktop shape too', () => {
    const config = parse('mcpServers: { remote: { type: http, url: "https://mcp.example.com/mcp", auth: oauth } }');
    expect((config.servers[0] as HttpServerConfig).auth).toEqual({ type: 'oauth' });
  });

  it.each([
    ['servers: [{ name: s, command: node, auth: oauth }]', 'servers[0].auth: only applies to HTTP servers (url)'],
    ['servers: [{ name: r, url: "https://x.example/mcp", auth: basic }]', 'servers[0].auth'],
    [
      'servers: [{ name: r, url: "https://x.example/mcp", auth: { type: oauth, clientMetadataUrl: "http://x.example/c.json" } }]',
      'servers[0].auth.clientMetadataUrl: must be an https:// URL with a path',
    ],
    ['servers: [{ name: r, url: "https://x.example/mcp", auth: { type: oauth, scopes: ["a b"] } }]', 'servers[0].auth.scopes[0]: must be a scope token'],
    ['servers: [{ name: r, url: "https://x.example/mcp", auth: { type: oauth, redirectPort: 70000 } }]', 'servers[0].auth.redirectPort'],
    ['servers: [{ name: r, url: "https://x.example/mcp", auth: { type: oauth, clientSecrt: x } }]', 'servers[0].auth'],
  ])('%s → %s', (yaml, line) => {
    expect(linesOf(yaml).some((l) => l.startsWith(line))).toBe(true);
  });
});

describe('listen.auth', () => {
  it('is absent by default: static tokens only', () => {
    expect(parse('{}').listen.auth).toBeUndefined();
  });

  it('fills its defaults', () => {
    expect(parse('listen: { auth: { issuer: "https://login.example.com" } }').listen.auth).toEqual({ issuer: 'https://login.example.com', requiredScopes: [], clockTolerance: 60 });
  });

  it('keeps every setting', () => {
    const auth = parse(
      `
listen:
  auth:
    issuer: https://login.example.com/tenant
    resource: https://gw.example.com/mcp
    audience: [https://gw.example.com/mcp, api://gw]
    jwksUrl: https://login.example.com/keys
    requiredScopes: [mcp]
    scopesSupported: [mcp, mcp:admin]
    introspection: { url: "https://login.example.com/introspect", clientId: gw, clientSecret: "\${S}" }
    clockTolerance: 5
`,
      { S: 'secret' },
    ).listen.auth;
    expect(auth).toEqual({
      issuer: 'https://login.example.com/tenant',
      resource: 'https://gw.example.com/mcp',
      audience: ['https://gw.example.com/mcp', 'api://gw'],
      jwksUrl: 'https://login.example.com/keys',
      requiredScopes: ['mcp'],
      scopesSupported: ['mcp', 'mcp:admin'],
      introspection: { url: 'https://login.example.com/introspect', clientId: 'gw', clientSecret: 'secret' },
      clockTolerance: 5,
    });
  });

  it.each([
    ['listen: { auth: {} }', 'listen.auth.issuer'],
    ['listen: { auth: { issuer: "not a url" } }', 'listen.auth.issuer: must be an http:// or https:// URL'],
    ['listen: { auth: { issuer: "https://i.example", introspection: { url: "https://i.example/x" } } }', 'listen.auth.introspection.clientId'],
  ])('%s → %s', (yaml, line) => {
    expect(linesOf(yaml).some((l) => l.startsWith(line))).toBe(true);
  });
});

describe('clients[].match', () => {
  const withAuth = 'listen: { auth: { issuer: "https://login.example.com" } }\n';

  it('selects OAuth principals: a profile with a match needs no token', () => {
    const config = parse(`${withAuth}clients: [{ name: readers, match: { scope: mcp:read } }, { name: admins, match: { group: [admins, ops], sub: "u-*" } }]`);
    expect(config.clients.map((c) => c.match)).toEqual([{ scope: 'mcp:read' }, { group: ['admins', 'ops'], sub: 'u-*' }]);
  });

  it('needs listen.auth, and at least one condition', () => {
    expect(linesOf('clients: [{ name: readers, match: { scope: mcp:read } }]')).toContain('clients[0].match: matches OAuth tokens, but listen.auth is not set: no token can be matched');
    expect(linesOf(`${withAuth}clients: [{ name: readers, match: {} }]`)).toContain('clients[0].match: has no condition (scope, sub or group): it would match nobody');
  });

  it('still refuses a profile with neither token nor match that stdio does not serve', () => {
    expect(linesOf(`${withAuth}clients: [{ name: lost }]`)).toContain(
      'clients[0]: has no token, so no HTTP request can select it: give it a token (or a match, with listen.auth), or serve it on stdio (stdio.client)',
    );
  });
});
