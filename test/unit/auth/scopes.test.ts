import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { covers, scopeKey, selectInitialScopes, stepUpScopes, union } from '../../../src/outbound/auth/scopes.js';

describe('scope selection (MCP Scope Selection Strategy)', () => {
  it('configured scopes win, then the challenge, then the PRM scopes_supported', () => {
    expect(selectInitialScopes({ configured: ['a'], challenged: ['b'], prmSupported: ['c'] })).toEqual(['a']);
    expect(selectInitialScopes({ challenged: ['b'], prmSupported: ['c', 'd'] })).toEqual(['b']);
    expect(selectInitialScopes({ prmSupported: ['c', 'd'] })).toEqual(['c', 'd']);
  });

  it('omits the scope parameter when nothing says which scopes', () => {
    expect(selectInitialScopes({})).toBeUndefined();
    expect(selectInitialScopes({ challenged: [], prmSupported: [], asSupported: ['offline_access'] })).toBeUndefined();
  });

  it('adds offline_access only when the AS lists it (SEP-2207)', () => {
    expect(selectInitialScopes({ challenged: ['mcp'], asSupported: ['openid', 'offline_access'] })).toEqual(['mcp', 'offline_access']);
    expect(selectInitialScopes({ challenged: ['mcp'], asSupported: ['openid'] })).toEqual(['mcp']);
  });

  it('step-up asks for the union of what was asked and what is challenged', () => {
    expect(stepUpScopes(['mcp:basic'], ['mcp:write'])).toEqual(['mcp:basic', 'mcp:write']);
    expect(stepUpScopes(undefined, ['x'])).toEqual(['x']);
  });

  it('union: keeps every scope once, first-seen order, and covers both inputs', () => {
    const scopes = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 8 });
    fc.assert(
      fc.property(scopes, scopes, (x, y) => {
        const u = union(x, y);
        expect(new Set(u).size).toBe(u.length);
        expect(covers(u, x) && covers(u, y)).toBe(true);
        expect(u.every((s) => x.includes(s) || y.includes(s))).toBe(true);
        expect(scopeKey(u)).toBe(scopeKey(union(y, x)));
      }),
    );
  });
});
