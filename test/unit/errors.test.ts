import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthError, AuthErrorCode, GatewayError, GatewayErrorCode, type LimitScope, limitStatus, REFUSAL_STATUS, RefusalError, RpcError, SwitchboardError, toJsonRpcError } from '../../src/errors.js';
import { ErrorCode } from '../../src/protocol/jsonrpc.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const srcDir = new URL('../../src/', import.meta.url).pathname;
const sources = (readdirSync(srcDir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && f !== 'errors.ts')
  .map((f) => readFileSync(path.join(srcDir, f), 'utf8'))
  .join('\n');

describe('gateway error codes (one table, auth codes included)', () => {
  it('are all documented in docs/errors.md, and nothing undocumented is there', () => {
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.values(GatewayErrorCode).sort());
    // The doc cannot lose the outbound OAuth codes without this failing.
    for (const code of Object.values(AuthErrorCode)) expect(documented).toContain(code);
  });

  it('are each thrown somewhere (a documented code nothing raises is a lie)', () => {
    // Spelled as a string ('SERVER_TIMEOUT') or by name (AuthErrorCode.AUTH_FAILED).
    const unused = Object.values(GatewayErrorCode).filter((code) => !sources.includes(`'${code}'`) && !sources.includes(`ErrorCode.${code}`));
    expect(unused).toEqual([]);
  });

  it('cross the inbound boundary with their stable code and the server name', () => {
    const e = new GatewayError('SERVER_TIMEOUT', 'slow did not answer', { server: 'slow' }).toJsonRpc();
    expect(e).toEqual({ code: -32603, message: 'slow did not answer', data: { code: 'SERVER_TIMEOUT', server: 'slow' } });
  });
});

describe('the error family', () => {
  it('has one base: every kind of gateway error is a SwitchboardError', () => {
    const auth = new AuthError(AuthErrorCode.AUTH_REQUIRED, 'files', 'login needed', { scopes: ['files:read'] });
    for (const err of [new GatewayError('CANCELLED', 'x'), auth, new RpcError(-32602, 'x'), new RefusalError(-32020, 'x', 'request')]) {
      expect(err).toBeInstanceOf(SwitchboardError);
    }
    expect(auth).toBeInstanceOf(GatewayError);
    // A refusal is not a server's error: code that relays RpcErrors must not catch it.
    expect(new RefusalError(-32601, 'x', 'method')).not.toBeInstanceOf(RpcError);
  });

  it('an AuthError crosses a boundary like any gateway error, naming the server and the scopes', () => {
    const auth = new AuthError(AuthErrorCode.AUTH_REQUIRED, 'files', 'login needed', { scopes: ['files:read'] });
    expect(toJsonRpcError(auth)).toEqual({ code: -32603, message: 'login needed', data: { code: 'AUTH_REQUIRED', server: 'files', scopes: ['files:read'] } });
    expect(auth).toMatchObject({ name: 'AuthError', code: 'AUTH_REQUIRED', server: 'files', scopes: ['files:read'] });
  });

  it('maps to HTTP from the one table: limits 429/503 by whose limit, refusals 400/404, the rest 200', () => {
    expect(new GatewayError('LIMIT_EXCEEDED', 'x', { limit: 'session' }).httpStatus()).toBe(429);
    expect(new GatewayError('LIMIT_EXCEEDED', 'x', { limit: 'principal' }).httpStatus()).toBe(429);
    expect(new GatewayError('LIMIT_EXCEEDED', 'x', { limit: 'server' }).httpStatus()).toBe(503);
    expect(limitStatus(undefined)).toBe(503);
    // data.limit of an error a server relayed can be anything: never a status the table lacks.
    expect(limitStatus('toString' as LimitScope)).toBe(503);
    expect(limitStatus('weird' as LimitScope)).toBe(503);
    expect(new RefusalError(-32020, 'x', 'request').httpStatus()).toBe(400);
    expect(new RefusalError(-32601, 'x', 'method').httpStatus()).toBe(REFUSAL_STATUS.method);
    expect(new GatewayError('SERVER_TIMEOUT', 'x').httpStatus()).toBeUndefined();
    expect(new RpcError(-32602, 'x').httpStatus()).toBeUndefined();
  });

  it('a refusal and a relayed error become JSON-RPC errors as they are; anything else, -32603', () => {
    expect(toJsonRpcError(new RefusalError(-32021, 'needs tasks', 'request', { requiredCapabilities: {} }))).toEqual({ code: -32021, message: 'needs tasks', data: { requiredCapabilities: {} } });
    expect(toJsonRpcError(new RpcError(-32602, 'Unknown tool'))).toEqual({ code: -32602, message: 'Unknown tool' });
    expect(toJsonRpcError(new TypeError('oops'))).toEqual({ code: -32603, message: 'Internal error: oops' });
  });
});

describe('JSON-RPC error codes', () => {
  it('are all documented in docs/errors.md, and nothing undocumented is there', () => {
    const documented = [...doc.matchAll(/^\| `(-\d+)` \|/gm)].map((m) => Number(m[1]));
    expect(documented.sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
