import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError, GatewayErrorCode } from '../../src/errors.js';
import { ErrorCode } from '../../src/protocol/jsonrpc.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const srcDir = new URL('../../src/', import.meta.url).pathname;
const sources = (readdirSync(srcDir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && f !== 'errors.ts')
  .map((f) => readFileSync(path.join(srcDir, f), 'utf8'))
  .join('\n');

describe('gateway error codes', () => {
  it('are all documented in docs/errors.md, and nothing undocumented is there', () => {
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.values(GatewayErrorCode).sort());
  });

  it('are each thrown somewhere (a documented code nothing raises is a lie)', () => {
    const unused = Object.values(GatewayErrorCode).filter((code) => !sources.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });

  it('cross the inbound boundary with their stable code and the server name', () => {
    const e = new GatewayError('SERVER_TIMEOUT', 'slow did not answer', { server: 'slow' }).toJsonRpc();
    expect(e).toEqual({ code: -32603, message: 'slow did not answer', data: { code: 'SERVER_TIMEOUT', server: 'slow' } });
  });
});

describe('JSON-RPC error codes', () => {
  it('are all documented in docs/errors.md, and nothing undocumented is there', () => {
    const documented = [...doc.matchAll(/^\| `(-\d+)` \|/gm)].map((m) => Number(m[1]));
    expect(documented.sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
