import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerChallenge, parseWwwAuthenticate } from '../../../src/outbound/auth/challenge.js';
import { bearerChallengeHeader } from '../../../src/inbound/auth/challenge.js';

describe('WWW-Authenticate parsing', () => {
  it('reads the spec examples: resource_metadata and scope on 401, insufficient_scope on 403', () => {
    expect(bearerChallenge('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource",\n                         scope="files:read"')).toEqual({
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      scope: ['files:read'],
    });
    expect(
      bearerChallenge(
        'Bearer error="insufficient_scope", scope="files:read files:write user:profile", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: ['files:read', 'files:write', 'user:profile'],
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      errorDescription: 'Additional file write permission required',
    });
  });

  it('finds the Bearer challenge among several, with token params, escapes and odd case', () => {
    const cs = parseWwwAuthenticate('Basic realm="x, y", NEGOTIATE abc123==, bEaReR Scope=read error="a\\"b"');
    expect(cs.map((c) => c.scheme)).toEqual(['basic', 'negotiate', 'bearer']);
    expect(cs[0]!.params.realm).toBe('x, y');
    expect(cs[1]!.token68).toBe('abc123==');
    expect(bearerChallenge('Basic realm="x", Bearer scope=read error="a\\"b"')).toEqual({ scope: ['read'], error: 'a"b' });
  });

  it('no header or no Bearer challenge gives undefined', () => {
    expect(bearerChallenge(undefined)).toBeUndefined();
    expect(bearerChallenge('')).toBeUndefined();
    expect(bearerChallenge('Basic realm="api"')).toBeUndefined();
    expect(bearerChallenge('Bearer')).toEqual({});
  });

  it('never throws, whatever a server sends', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => void parseWwwAuthenticate(s)));
  });

  it('what the inbound side writes, the outbound side reads back exactly', () => {
    // RFC 6749 scope-token characters: %x21 / %x23-5B / %x5D-7E.
    const scopeChar = fc
      .integer({ min: 0x21, max: 0x7e })
      .filter((c) => c !== 0x22 && c !== 0x5c)
      .map((c) => String.fromCharCode(c));
    const scope = fc.array(fc.string({ unit: scopeChar, minLength: 1, maxLength: 12 }), { maxLength: 5 });
    // fc.webUrl costs seconds per hundred: build URLs from cheap parts instead.
    const url = fc.tuple(fc.constantFrom('https://mcp.example.com', 'http://127.0.0.1:8080'), fc.string({ maxLength: 20 })).map(([o, p]) => `${o}/${encodeURIComponent(p)}?q=${encodeURIComponent(p)}`);
    const text = fc.string({ maxLength: 40 }).map((s) => s.replace(/[\x00-\x1f\x7f]/g, ''));
    fc.assert(
      fc.property(url, fc.constantFrom(undefined, 'invalid_token', 'insufficient_scope'), text, scope, (url, error, description, scopes) => {
        const header = bearerChallengeHeader({ resourceMetadata: url, ...(error ? { error } : {}), ...(description ? { description } : {}), scope: scopes });
        const parsed = bearerChallenge(header)!;
        expect(parsed.resourceMetadata).toBe(url);
        expect(parsed.error).toBe(error);
        expect(parsed.errorDescription).toBe(description || undefined);
        expect(parsed.scope ?? []).toEqual([...new Set(scopes)]);
      }),
    );
  });
});
