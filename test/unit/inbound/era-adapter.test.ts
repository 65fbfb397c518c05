// The inbound era adapter (inbound/stateless-request.ts): ClientSession asks it once which era a
// request is in, and answers through it. A stateful request passes untouched (no envelope, no
// dressing, its own error codes); a stateless one gets its envelope, or the refusal HTTP maps.

import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src/protocol/jsonrpc.js';
import { META } from '../../../src/protocol/stateless.js';
import { admit, answerIn, errorIn, inEra, isAnswer, methodNotFound, refusalKind } from '../../../src/inbound/stateless-request.js';

const envelopeMeta = (extra: Record<string, unknown> = {}) => ({
  _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: { roots: {} }, ...extra },
});

describe('admit: the era of a request, once', () => {
  it('a stateful request has no envelope; on a stateless session it is refused', () => {
    expect(admit(1, 'tools/list', {}, false)).toBeUndefined();
    const refused = admit(1, 'tools/list', {}, true);
    expect(refused !== undefined && isAnswer(refused) && 'error' in refused && refused.error.code).toBe(ErrorCode.InvalidRequest);
  });

  it('a stateless request gets its envelope; server/discover claims the revision without one and is refused for it', () => {
    const admitted = admit(2, 'tools/list', envelopeMeta({ [META.logLevel]: 'info' }), false);
    expect(admitted).toMatchObject({ protocolVersion: '2026-07-28', clientCapabilities: { roots: {} }, logLevel: 'info' });
    expect(isAnswer(admitted!)).toBe(false);
    const bare = admit(3, 'server/discover', {}, false)!;
    expect(isAnswer(bare) && 'error' in bare && bare.error.code).toBe(ErrorCode.InvalidParams);
    expect(refusalKind(bare)).toBe('request');
  });

  it("a stateful-only method in the stateless revision is not found there (a 'method' refusal: HTTP 404)", () => {
    const refused = admit(4, 'resources/subscribe', envelopeMeta(), false)!;
    expect(isAnswer(refused) && 'error' in refused && refused.error.code).toBe(ErrorCode.MethodNotFound);
    expect(refusalKind(refused)).toBe('method');
  });
});

describe('answering in the request’s era', () => {
  const envelope = { protocolVersion: '2026-07-28', clientCapabilities: {}, trace: {} };

  it('methods of the stateless revision only are not found for a stateful request', () => {
    expect(inEra('subscriptions/listen', undefined)).toBe(false);
    expect(inEra('subscriptions/listen', envelope)).toBe(true);
    expect(inEra('tools/call', undefined)).toBe(true);
    expect(refusalKind(methodNotFound(5, 'x/y', undefined))).toBeUndefined();
    expect(refusalKind(methodNotFound(5, 'x/y', envelope))).toBe('method');
  });

  it('a result is dressed for a stateless request only; an error keeps its code unless the revision retired it', () => {
    expect(answerIn(6, 'tools/call', { content: [] }, undefined, false)).toEqual({ jsonrpc: '2.0', id: 6, result: { content: [] } });
    expect(answerIn(6, 'tools/call', { content: [] }, envelope, false).result).toMatchObject({ content: [], resultType: 'complete' });
    const notFound = () => ({ jsonrpc: '2.0' as const, id: 7, error: { code: ErrorCode.ResourceNotFound, message: 'gone' } });
    expect(errorIn(notFound(), undefined)).toMatchObject({ error: { code: ErrorCode.ResourceNotFound } });
    expect(errorIn(notFound(), envelope)).toMatchObject({ error: { code: ErrorCode.InvalidParams } });
  });
});
