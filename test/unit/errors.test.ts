import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError, GatewayErrorCode } from '../../src/errors.js';

describe('gateway error codes', () => {
  it('are all documented in docs/errors.md, and nothing undocumented is there', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.values(GatewayErrorCode).sort());
  });

  it('cross the inbound boundary with their stable code and the server name', () => {
    const e = new GatewayError('SERVER_TIMEOUT', 'slow did not answer', { server: 'slow' }).toJsonRpc();
    expect(e).toEqual({ code: -32603, message: 'slow did not answer', data: { code: 'SERVER_TIMEOUT', server: 'slow' } });
  });
});
