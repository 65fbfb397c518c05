import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchProfile, prmPaths, protectedResourceMetadata, resourceMetadataUrl } from '../../../src/inbound/auth/index.js';
import { globMatch } from '../../../src/inbound/auth/profiles.js';

describe('protected resource metadata (RFC 9728)', () => {
  it('names the resource, our AS, header bearer tokens, and the scopes (never offline_access)', () => {
    expect(protectedResourceMetadata('https://gw.example.com/mcp', { issuer: 'https://as.example.com', requiredScopes: ['mcp:read', 'offline_access'], resourceName: 'Switchboard' })).toEqual({
      resource: 'https://gw.example.com/mcp',
      authorization_servers: ['https://as.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:read'],
      resource_name: 'Switchboard',
    });
    expect(protectedResourceMetadata('https://gw.example.com/mcp', { issuer: 'https://as' })).not.toHaveProperty('scopes_supported');
  });

  it('is served path-suffixed first, then at the root', () => {
    expect(prmPaths('https://gw.example.com/mcp')).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
    expect(prmPaths('https://gw.example.com/')).toEqual(['/.well-known/oauth-protected-resource']);
    expect(resourceMetadataUrl('https://gw.example.com:8443/a/mcp')).toBe('https://gw.example.com:8443/.well-known/oauth-protected-resource/a/mcp');
  });
});

describe('client profiles matched by claims', () => {
  const clients = [
    { name: 'admins', match: { group: ['ops', 'admins'] } },
    { name: 'writers', match: { scope: ['mcp:read', 'mcp:write'] } },
    { name: 'bots', match: { sub: 'svc-*' } },
    { name: 'token-only' },
    { name: 'empty', match: {} },
  ];

  it('first matching profile in config order; every stated condition must hold', () => {
    expect(matchProfile({ sub: 'alice', groups: ['ops'], scope: 'mcp:read mcp:write' }, clients)?.name).toBe('admins');
    expect(matchProfile({ sub: 'alice', scope: 'mcp:write mcp:read' }, clients)?.name).toBe('writers');
    expect(matchProfile({ sub: 'alice', scope: 'mcp:read' }, clients)).toBeUndefined();
    expect(matchProfile({ sub: 'svc-indexer' }, clients)?.name).toBe('bots');
    expect(matchProfile({ sub: 'svc' }, clients)).toBeUndefined();
    expect(matchProfile({ sub: 'x', groups: 'admins' }, clients)?.name).toBe('admins');
    expect(matchProfile({ sub: 'x', scope: 'mcp:read', groups: ['ops'] }, [{ name: 'both', match: { group: 'ops', scope: 'mcp:write' } }])).toBeUndefined();
  });

  it('sub globs: without * only equality; * matches any run; regex characters are literal', () => {
    const noStar = fc.string().map((s) => s.replace(/\*/g, ''));
    fc.assert(fc.property(noStar, fc.string(), (p, v) => globMatch(p, v) === (p === v)));
    fc.assert(fc.property(noStar, noStar, fc.string(), (a, b, mid) => globMatch(`${a}*${b}`, `${a}${mid}${b}`)));
    expect(globMatch('a.b', 'axb')).toBe(false);
    expect(globMatch('user(1)*', 'user(1)-x')).toBe(true);
  });
});

describe('static bearer tokens beside OAuth', () => {
  it('a static token names its profile without asking the AS; anything else goes to OAuth and its claims pick the profile', async () => {
    const { combineAuthenticators } = await import('../../../src/inbound/auth/index.js');
    const { bearerAuthenticator } = await import('../../../src/inbound/http-auth.js');
    const oauthCalls: (string | undefined)[] = [];
    const oauth = async (h: string | undefined) => {
      oauthCalls.push(h);
      return h === 'Bearer jwt-for-alice'
        ? { ok: true as const, claims: { sub: 'alice', groups: ['ops'] }, principal: 'alice', scopes: [] }
        : { ok: false as const, status: 401 as const, wwwAuthenticate: 'Bearer resource_metadata="x"', error: 'bad' };
    };
    const identify = combineAuthenticators(bearerAuthenticator([{ name: 'ci', token: 'static-ci-token' }]), oauth, [{ name: 'ops', match: { group: 'ops' } }]);
    expect(await identify('Bearer static-ci-token')).toMatchObject({ ok: true, via: 'static', profile: 'ci' });
    expect(oauthCalls).toEqual([]);
    expect(await identify('Bearer jwt-for-alice')).toMatchObject({ ok: true, via: 'oauth', profile: 'ops', principal: 'alice' });
    expect(await identify('Bearer nope')).toMatchObject({ ok: false, status: 401 });
    expect(await identify(undefined)).toMatchObject({ ok: false, status: 401 });
  });
});
