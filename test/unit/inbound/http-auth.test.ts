import { describe, expect, it } from 'vitest';
import { bearerAuthenticator } from '../../../src/inbound/http-auth.js';

describe('bearerAuthenticator', () => {
  const auth = bearerAuthenticator([{ name: 'a', token: 'tok-a' }, { name: 'b', token: 'tok-b' }, { name: 'stdio-only' }])!;

  it('names the profile whose token is presented', () => {
    expect(auth('Bearer tok-a')).toBe('a');
    expect(auth('bearer   tok-b ')).toBe('b');
  });

  it('refuses anything else', () => {
    for (const h of [undefined, '', 'Bearer', 'Bearer tok-c', 'Basic tok-a', 'Bearer tok-a extra', 'tok-a', 'Bearer TOK-A']) expect(auth(h)).toBeNull();
  });

  it('is off when no profile has a token', () => {
    expect(bearerAuthenticator([{ name: 'x' }])).toBeUndefined();
    expect(bearerAuthenticator([])).toBeUndefined();
  });
});
