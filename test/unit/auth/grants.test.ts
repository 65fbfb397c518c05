import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { prepareAuthorization, redeemCode, type GrantContext } from '../../../src/outbound/auth/grants.js';

const issuer = 'http://127.0.0.1:4000';
const as: oauth.AuthorizationServer = {
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ['S256'],
};

function ctx(over: Partial<oauth.AuthorizationServer> = {}, tokenReply?: Record<string, unknown>) {
  const tokenRequests: URLSearchParams[] = [];
  const c: GrantContext = {
    as: { ...as, ...over },
    id: { client: { client_id: 'cid', token_endpoint_auth_method: 'none' }, auth: oauth.None(), source: 'dynamic', clientId: 'cid' },
    resource: 'http://127.0.0.1:3000/mcp',
    insecure: true,
    fetch: async (_url, init) => {
      tokenRequests.push(new URLSearchParams(String(init?.body)));
      return Response.json(tokenReply ?? { access_token: 'at', token_type: 'Bearer', expires_in: 60, refresh_token: 'rt', scope: 'a b' });
    },
    now: () => 1_000,
  };
  return { c, tokenRequests };
}

describe('authorization request', () => {
  it('carries PKCE S256, state, the RFC 8707 resource, and the scopes; no scope parameter when none chosen', async () => {
    const { c } = ctx();
    const p = await prepareAuthorization(c, 'http://127.0.0.1:9/callback', ['a', 'b']);
    const q = p.url.searchParams;
    expect(`${p.url.origin}${p.url.pathname}`).toBe(`${issuer}/authorize`);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('cid');
    expect(q.get('redirect_uri')).toBe('http://127.0.0.1:9/callback');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toBe(await oauth.calculatePKCECodeChallenge(p.verifier));
    expect(q.get('state')).toBe(p.state);
    expect(q.get('resource')).toBe('http://127.0.0.1:3000/mcp');
    expect(q.get('scope')).toBe('a b');
    expect((await prepareAuthorization(c, 'http://127.0.0.1:9/callback', undefined)).url.searchParams.has('scope')).toBe(false);
  });

  it('refuses an AS that does not advertise S256 PKCE', async () => {
    await expect(prepareAuthorization(ctx({ code_challenge_methods_supported: undefined }).c, 'http://127.0.0.1:9/callback', undefined)).rejects.toThrow(/PKCE/);
    await expect(prepareAuthorization(ctx({ code_challenge_methods_supported: ['plain'] }).c, 'http://127.0.0.1:9/callback', undefined)).rejects.toThrow(/PKCE/);
  });
});

describe('authorization response (RFC 9207 iss, state) and code redemption', () => {
  const callback = (p: { state: string }, extra: Record<string, string>) => new URLSearchParams({ code: 'c0de', state: p.state, ...extra });

  it('redeems with the verifier, redirect URI and resource, and keeps what the AS granted', async () => {
    const { c, tokenRequests } = ctx({ authorization_response_iss_parameter_supported: true });
    const p = await prepareAuthorization(c, 'http://127.0.0.1:9/callback', ['a']);
    const t = await redeemCode(c, p, callback(p, { iss: issuer }), ['a']);
    expect(tokenRequests[0]!.get('grant_type')).toBe('authorization_code');
    expect(tokenRequests[0]!.get('code_verifier')).toBe(p.verifier);
    expect(tokenRequests[0]!.get('resource')).toBe('http://127.0.0.1:3000/mcp');
    expect(tokenRequests[0]!.get('redirect_uri')).toBe('http://127.0.0.1:9/callback');
    expect(t).toMatchObject({ accessToken: 'at', refreshToken: 'rt', expiresAt: 61_000, scopes: ['a', 'b'], requestedScopes: ['a'], issuer, grant: 'authorization_code' });
  });

  const cases: [string, Partial<oauth.AuthorizationServer>, Record<string, string>, boolean][] = [
    ['advertised and present', { authorization_response_iss_parameter_supported: true }, { iss: issuer }, true],
    ['not advertised and absent', {}, {}, true],
    ['advertised but missing', { authorization_response_iss_parameter_supported: true }, {}, false],
    ['wrong issuer', { authorization_response_iss_parameter_supported: true }, { iss: 'https://evil.example.com' }, false],
    ['present though not advertised, mismatched', {}, { iss: 'https://evil.example.com' }, false],
    ['a normalization-equivalent variant (trailing slash)', { authorization_response_iss_parameter_supported: true }, { iss: `${issuer}/` }, false],
  ];
  for (const [name, meta, extra, accepted] of cases) {
    it(`iss ${name}: ${accepted ? 'accepted' : 'rejected before any token request'}`, async () => {
      const { c, tokenRequests } = ctx(meta);
      const p = await prepareAuthorization(c, 'http://127.0.0.1:9/callback', undefined);
      const run = redeemCode(c, p, callback(p, extra), undefined);
      if (accepted) await expect(run).resolves.toMatchObject({ accessToken: 'at' });
      else await expect(run).rejects.toThrow(/iss/);
      expect(tokenRequests).toHaveLength(accepted ? 1 : 0);
    });
  }

  it('rejects a wrong state, and an error response, without redeeming', async () => {
    const { c, tokenRequests } = ctx();
    const p = await prepareAuthorization(c, 'http://127.0.0.1:9/callback', undefined);
    await expect(redeemCode(c, p, new URLSearchParams({ code: 'x', state: 'other' }), undefined)).rejects.toThrow(/state/);
    await expect(redeemCode(c, p, new URLSearchParams({ error: 'access_denied', state: p.state }), undefined)).rejects.toThrow();
    expect(tokenRequests).toHaveLength(0);
  });
});
