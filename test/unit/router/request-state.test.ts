// Sealed requestState tokens: what a client sends back is either exactly what we minted, or
// refused — whatever it changes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RequestStateSeal, isGatewayState, paramsDigest } from '../../../src/router/request-state.js';

const claims = fc.record({ id: fc.uuid(), principal: fc.string(), method: fc.constantFrom('tools/call', 'prompts/get', 'resources/read'), digest: fc.base64String(), exp: fc.nat() });

describe('RequestStateSeal', () => {
  it('opens what it sealed', () => {
    const seal = new RequestStateSeal();
    fc.assert(
      fc.property(claims, (c) => {
        expect(seal.open(seal.seal(c))).toEqual(c);
      }),
    );
  });

  it('refuses a token with any one character changed, added or removed', () => {
    const seal = new RequestStateSeal();
    fc.assert(
      fc.property(claims, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), fc.constantFrom('change', 'insert', 'delete'), (c, at, ch, how) => {
        const token = seal.seal(c);
        const i = at % token.length;
        const altered = how === 'change' ? token.slice(0, i) + ch + token.slice(i + 1) : how === 'insert' ? token.slice(0, i) + ch + token.slice(i) : token.slice(0, i) + token.slice(i + 1);
        fc.pre(altered !== token);
        expect(seal.open(altered)).toBeUndefined();
      }),
    );
  });

  it('refuses another process’s tokens', () => {
    const c = { id: 'a', principal: '', method: 'tools/call', digest: 'd', exp: 1 };
    expect(new RequestStateSeal().open(new RequestStateSeal().seal(c))).toBeUndefined();
  });

  it('tells its own tokens from a server’s', () => {
    expect(isGatewayState(new RequestStateSeal().seal({ id: 'a', principal: '', method: 'm', digest: 'd', exp: 0 }))).toBe(true);
    expect(isGatewayState('v1.abc.def')).toBe(false);
    expect(isGatewayState(undefined)).toBe(false);
  });
});

describe('paramsDigest', () => {
  it('ignores the round’s own fields and key order, not the arguments', () => {
    const a = paramsDigest({ name: 't', arguments: { x: 1, y: [1, 2] } });
    expect(paramsDigest({ arguments: { y: [1, 2], x: 1 }, name: 't', inputResponses: { k: {} }, requestState: 's', _meta: { any: 1 } })).toBe(a);
    expect(paramsDigest({ name: 't', arguments: { x: 2, y: [1, 2] } })).not.toBe(a);
    expect(paramsDigest({ name: 't', arguments: { x: 1, y: [2, 1] } })).not.toBe(a);
  });
});
