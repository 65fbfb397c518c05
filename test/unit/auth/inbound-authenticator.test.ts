import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../../src/outbound/auth/challenge.js';
import { createOAuthAuthenticator } from '../../../src/inbound/auth/index.js';

let http: Server;
let issuer: string;
let good: CryptoKey;
let evil: CryptoKey;
const hits = { metadata: 0, jwks: 0 };
const resourceUrl = 'https://gw.example.com/mcp';
const prmUrl = 'https://gw.example.com/.well-known/oauth-protected-resource/mcp';

beforeAll(async () => {
  const g = await generateKeyPair('RS256', { extractable: true });
  good = g.privateKey;
  evil = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(g.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  http = createServer((req, res) => {
    if (req.url === '/.well-known/oauth-authorization-server') {
      hits.metadata++;
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    }
    if (req.url === '/jwks') {
      hits.jwks++;
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ keys: [jwk] }));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => http.close(() => r())));

const now = () => Math.floor(Date.now() / 1000);
async function token(claims: JWTPayload = {}, key: CryptoKey = good): Promise<string> {
  return new SignJWT({ scope: 'mcp:read mcp:write', sub: 'alice', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer((claims.iss as string) ?? issuer)
    .setAudience((claims.aud as string) ?? resourceUrl)
    .setIssuedAt()
    .setExpirationTime((claims.exp as number) ?? now() + 300)
    .sign(key);
}

const auth = () => createOAuthAuthenticator({ issuer, requiredScopes: ['mcp:read'] }, { resourceUrl });

describe('inbound authenticator: JWT access tokens', () => {
  it('accepts a token from our issuer, for us, in date, with the scopes; JWKS discovered once and cached', async () => {
    const a = auth();
    const before = { ...hits };
    for (let i = 0; i < 5; i++) {
      const r = await a(`Bearer ${await token()}`);
      expect(r).toMatchObject({ ok: true, principal: 'alice', scopes: ['mcp:read', 'mcp:write'] });
    }
    expect(hits.metadata - before.metadata).toBe(1);
    expect(hits.jwks - before.jwks).toBe(1);
  });

  it('no token: 401 naming the PRM and the scopes to ask for, without an error code', async () => {
    for (const header of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer']) {
      const r = await auth()(header);
      expect(r).toMatchObject({ ok: false, status: 401 });
      const c = bearerChallenge((r as { wwwAuthenticate: string }).wwwAuthenticate)!;
      expect(c).toEqual({ resourceMetadata: prmUrl, scope: ['mcp:read'] });
    }
  });

  const bad: [string, () => Promise<string>, RegExp][] = [
    ['another audience', () => token({ aud: 'https://other.example.com/mcp' }), /not for this resource/],
    ['expired beyond the clock skew', () => token({ exp: now() - 120 }), /expired/],
    ['not yet valid', () => token({ nbf: now() + 600 }), /not yet valid/],
    ['another issuer', () => token({ iss: 'https://evil.example.com' }), /another issuer/],
    ['a bad signature', () => token({}, evil), /signature/],
    ['not a JWT (no introspection configured)', async () => 'opaque-token-value', /not a JWT/],
  ];
  for (const [name, make, why] of bad) {
    it(`${name}: 401 invalid_token with the PRM URL`, async () => {
      const t = await make();
      const r = await auth()(`Bearer ${t}`);
      expect(r).toMatchObject({ ok: false, status: 401 });
      const header = (r as { wwwAuthenticate: string }).wwwAuthenticate;
      expect(bearerChallenge(header)).toMatchObject({ resourceMetadata: prmUrl, error: 'invalid_token', errorDescription: expect.stringMatching(why) });
      expect(header).not.toContain(t);
    });
  }

  it('tolerates clock skew within the configured window', async () => {
    expect((await auth()(`Bearer ${await token({ exp: now() - 20 })}`)).ok).toBe(true);
    const strict = createOAuthAuthenticator({ issuer, clockToleranceSec: 0 }, { resourceUrl });
    expect((await strict(`Bearer ${await token({ exp: now() - 20 })}`)).ok).toBe(false);
  });

  it('a missing required scope: 403 insufficient_scope with the scopes needed', async () => {
    const r = await auth()(`Bearer ${await token({ scope: 'mcp:write' })}`);
    expect(r).toMatchObject({ ok: false, status: 403 });
    expect(bearerChallenge((r as { wwwAuthenticate: string }).wwwAuthenticate)).toMatchObject({ error: 'insufficient_scope', scope: ['mcp:read'], resourceMetadata: prmUrl });
  });

  it('scopes also come from an `scp` array; the principal falls back to client_id', async () => {
    const r = await auth()(`Bearer ${await token({ scope: undefined, scp: ['mcp:read'], sub: undefined, client_id: 'robot' })}`);
    expect(r).toMatchObject({ ok: true, principal: 'robot', scopes: ['mcp:read'] });
  });

  it('a configured jwksUrl skips discovery; an unreachable AS is a 503, not a challenge', async () => {
    const before = hits.metadata;
    const direct = createOAuthAuthenticator({ issuer, jwksUrl: `${issuer}/jwks` }, { resourceUrl });
    expect((await direct(`Bearer ${await token()}`)).ok).toBe(true);
    expect(hits.metadata).toBe(before);
    const down = createOAuthAuthenticator({ issuer: 'http://127.0.0.1:1' }, { resourceUrl });
    const r = await down(`Bearer ${await token({ iss: 'http://127.0.0.1:1' })}`);
    expect(r).toMatchObject({ ok: false, status: 503 });
    expect('wwwAuthenticate' in r).toBe(false);
  });
});

describe('inbound authenticator: opaque tokens by introspection (RFC 7662)', () => {
  function introspection(reply: Record<string, unknown> | number) {
    const calls: { auth: string | null; body: URLSearchParams }[] = [];
    const fetchFn = async (_url: string | URL, init?: RequestInit) => {
      calls.push({ auth: new Headers(init?.headers).get('authorization'), body: new URLSearchParams(String(init?.body)) });
      return typeof reply === 'number' ? new Response('', { status: reply }) : Response.json(reply);
    };
    const a = createOAuthAuthenticator(
      { issuer, requiredScopes: ['mcp:read'], introspection: { url: `${issuer}/introspect`, clientId: 'gw', clientSecret: 's3cret' } },
      { resourceUrl, fetch: fetchFn },
    );
    return { a, calls };
  }

  it('an active token for us is accepted and cached briefly (one introspection call)', async () => {
    const { a, calls } = introspection({ active: true, iss: issuer, aud: resourceUrl, scope: 'mcp:read', sub: 'bob', exp: now() + 600 });
    expect(await a('Bearer opaque-1')).toMatchObject({ ok: true, principal: 'bob' });
    expect(await a('Bearer opaque-1')).toMatchObject({ ok: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.auth).toBe(`Basic ${Buffer.from('gw:s3cret').toString('base64')}`);
    expect(calls[0]!.body.get('token')).toBe('opaque-1');
  });

  it('inactive, or for another audience: 401; introspection down: 503', async () => {
    expect(await introspection({ active: false }).a('Bearer x')).toMatchObject({ ok: false, status: 401 });
    expect(await introspection({ active: true, aud: 'https://other/mcp', scope: 'mcp:read' }).a('Bearer x')).toMatchObject({ ok: false, status: 401 });
    expect(await introspection(500).a('Bearer x')).toMatchObject({ ok: false, status: 503 });
  });
});
