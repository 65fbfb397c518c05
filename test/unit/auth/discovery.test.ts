import { describe, expect, it } from 'vitest';
import { asMetadataUrls, canonicalResource, discover, prmWellKnownUrls, resourceCovers } from '../../../src/outbound/auth/discovery.js';

/** An in-process web: path → JSON body; every request is recorded in order. */
function web(routes: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchFn = async (input: string | URL) => {
    const url = String(input);
    asked.push(url);
    if (!(url in routes)) return new Response('not found', { status: 404 });
    return Response.json(routes[url]);
  };
  return { fetchFn, asked };
}

const asDoc = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ['S256'],
  response_types_supported: ['code'],
});

describe('discovery URLs (MCP authorization server discovery)', () => {
  it('PRM: path-aware first, then the root', () => {
    expect(prmWellKnownUrls('https://ex.com/public/mcp')).toEqual(['https://ex.com/.well-known/oauth-protected-resource/public/mcp', 'https://ex.com/.well-known/oauth-protected-resource']);
    expect(prmWellKnownUrls('https://ex.com/')).toEqual(['https://ex.com/.well-known/oauth-protected-resource']);
  });

  it('AS metadata: RFC 8414 path insertion, OIDC path insertion, OIDC path appending', () => {
    expect(asMetadataUrls('https://auth.ex.com/tenant1')).toEqual([
      'https://auth.ex.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.ex.com/.well-known/openid-configuration/tenant1',
      'https://auth.ex.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(asMetadataUrls('https://auth.ex.com')).toEqual(['https://auth.ex.com/.well-known/oauth-authorization-server', 'https://auth.ex.com/.well-known/openid-configuration']);
  });

  it('canonical resource: no fragment, no trailing slash on an empty path', () => {
    expect(canonicalResource('HTTPS://MCP.Example.com/#x')).toBe('https://mcp.example.com');
    expect(canonicalResource('https://mcp.example.com/server/mcp')).toBe('https://mcp.example.com/server/mcp');
  });

  it('a PRM resource must cover the server URL: same origin, path prefix on segment boundaries', () => {
    expect(resourceCovers('https://a.com/mcp', 'https://a.com/mcp')).toBe(true);
    expect(resourceCovers('https://a.com', 'https://a.com/mcp')).toBe(true);
    expect(resourceCovers('https://a.com/mc', 'https://a.com/mcp')).toBe(false);
    expect(resourceCovers('https://evil.example.com/mcp', 'http://127.0.0.1:3000/mcp')).toBe(false);
  });
});

describe('discover()', () => {
  const server = 'http://127.0.0.1:3000/mcp';

  it('uses resource_metadata from the challenge and asks nothing else of the server', async () => {
    const { fetchFn, asked } = web({
      'http://127.0.0.1:3000/custom/prm.json': { resource: server, authorization_servers: ['http://127.0.0.1:4000'] },
      'http://127.0.0.1:4000/.well-known/oauth-authorization-server': asDoc('http://127.0.0.1:4000'),
    });
    const d = await discover(server, 'http://127.0.0.1:3000/custom/prm.json', fetchFn);
    expect(asked).toEqual(['http://127.0.0.1:3000/custom/prm.json', 'http://127.0.0.1:4000/.well-known/oauth-authorization-server']);
    expect(d.resource).toBe(server);
    expect(d.as.issuer).toBe('http://127.0.0.1:4000');
  });

  it('without a header: path-aware PRM, then root PRM; then the AS in the spec order down to path appending', async () => {
    const { fetchFn, asked } = web({
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource': { resource: 'http://127.0.0.1:3000', authorization_servers: ['http://127.0.0.1:4000/tenant1'], scopes_supported: ['a', 'b'] },
      'http://127.0.0.1:4000/tenant1/.well-known/openid-configuration': asDoc('http://127.0.0.1:4000/tenant1'),
    });
    const d = await discover(server, undefined, fetchFn);
    expect(asked).toEqual([
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp',
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource',
      'http://127.0.0.1:4000/.well-known/oauth-authorization-server/tenant1',
      'http://127.0.0.1:4000/.well-known/openid-configuration/tenant1',
      'http://127.0.0.1:4000/tenant1/.well-known/openid-configuration',
    ]);
    expect(d.resource).toBe('http://127.0.0.1:3000');
    expect(d.scopesSupported).toEqual(['a', 'b']);
  });

  it('refuses a PRM that names another resource, before contacting any AS', async () => {
    const { fetchFn, asked } = web({
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp': { resource: 'https://evil.example.com/mcp', authorization_servers: ['http://127.0.0.1:4000'] },
    });
    await expect(discover(server, undefined, fetchFn)).rejects.toThrow(/another resource/);
    expect(asked).toHaveLength(1);
  });

  it('refuses AS metadata whose issuer is not identical to the one asked about (RFC 8414 §3.3)', async () => {
    const { fetchFn } = web({
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp': { resource: server, authorization_servers: ['http://127.0.0.1:4000'] },
      'http://127.0.0.1:4000/.well-known/oauth-authorization-server': asDoc('https://attacker.example.com'),
    });
    await expect(discover(server, undefined, fetchFn)).rejects.toThrow(/issuer/);
  });

  it('refuses plain http to anything but a loopback host', async () => {
    const { fetchFn } = web({});
    await expect(discover('http://mcp.example.com/mcp', undefined, fetchFn)).rejects.toThrow(/https/);
    await expect(discover(server, 'http://evil.example.com/prm', fetchFn)).rejects.toThrow(/https/);
  });

  it('a server without PRM (2025-03-26): its origin is the AS, and default endpoints when even that has no metadata', async () => {
    const { fetchFn } = web({});
    const d = await discover(server, undefined, fetchFn);
    expect(d.resource).toBe(server);
    expect(d.as.authorization_endpoint).toBe('http://127.0.0.1:3000/authorize');
    expect(d.as.token_endpoint).toBe('http://127.0.0.1:3000/token');
  });
});
