// The pure parts of speaking 2026-07-28: what a server/discover answer or failure says of a
// server's era, and the `_meta` every request carries (the envelope for modern servers, trace
// keys for both eras).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { statefulParams, statelessParams } from '../../../src/outbound/envelope.js';
import { judgeDiscover, judgeProbeFailure } from '../../../src/outbound/era.js';

const ok = (result: unknown) => ({ jsonrpc: '2.0' as const, id: 1, result: result as Record<string, any> });
const err = (code: number, data?: unknown) => ({ jsonrpc: '2.0' as const, id: 1, error: { code, message: 'm', ...(data === undefined ? {} : { data }) } });

describe('judgeDiscover', () => {
  it('a DiscoverResult naming 2026-07-28 is modern; one without supportedVersions but with capabilities too', () => {
    expect(judgeDiscover(ok({ supportedVersions: ['2026-07-28'], capabilities: {} }))).toMatchObject({ kind: 'stateless', version: '2026-07-28' });
    expect(judgeDiscover(ok({ capabilities: { tools: {} } }))).toMatchObject({ kind: 'stateless' });
  });

  it('-32022 naming our revision asks again; naming only stateful revisions is legacy; naming none we speak is a refusal', () => {
    expect(judgeDiscover(err(-32022, { supported: ['2026-07-28'], requested: 'x' }))).toEqual({ kind: 'retry', version: '2026-07-28' });
    expect(judgeDiscover(err(-32022, { supported: ['2025-06-18'] }))).toMatchObject({ kind: 'stateful' });
    expect(judgeDiscover(err(-32022, { supported: ['2027-01-01'] }))).toMatchObject({ kind: 'refused' });
    expect(judgeDiscover(err(-32022))).toMatchObject({ kind: 'refused' });
  });

  it('-32020 and -32021 are a modern server refusing us; any other error, or a result that is no DiscoverResult, is legacy', () => {
    expect(judgeDiscover(err(-32020))).toMatchObject({ kind: 'refused' });
    expect(judgeDiscover(err(-32021))).toMatchObject({ kind: 'refused' });
    for (const code of [-32601, -32602, -32600, -32000, -32603, 1]) expect(judgeDiscover(err(code)).kind).toBe('stateful');
    expect(judgeDiscover(ok({}))).toMatchObject({ kind: 'stateful' });
    expect(judgeDiscover(ok({ supportedVersions: ['2025-11-25'], capabilities: {} }))).toMatchObject({ kind: 'stateful' });
  });
});

describe('judgeProbeFailure', () => {
  const status = (s: number) => new GatewayError('HTTP_ERROR', `→ ${s}`, { status: s });
  it('stdio: silence is legacy, an exit is legacy and needs a new process', () => {
    expect(judgeProbeFailure(new GatewayError('SERVER_TIMEOUT', 't'), 'stdio')).toBe('stateful');
    expect(judgeProbeFailure(new GatewayError('CONNECTION_CLOSED', 'c'), 'stdio')).toBe('exited');
  });

  it('HTTP: a 4xx without a modern error is legacy; auth, 5xx, timeouts and network failures decide nothing', () => {
    for (const s of [400, 404, 405, 406, 415]) expect(judgeProbeFailure(status(s), 'http'), String(s)).toBe('stateful');
    for (const s of [401, 403, 500, 502, 503]) expect(judgeProbeFailure(status(s), 'http'), String(s)).toBe('undecided');
    expect(judgeProbeFailure(new GatewayError('SERVER_TIMEOUT', 't'), 'http')).toBe('undecided');
    expect(judgeProbeFailure(new GatewayError('HTTP_ERROR', 'ECONNREFUSED'), 'http')).toBe('undecided');
    expect(judgeProbeFailure(new GatewayError('PROTOCOL_ERROR', 'html'), 'http')).toBe('stateful');
    expect(judgeProbeFailure(new Error('?'), 'http')).toBe('undecided');
  });
});

const base = { protocolVersion: '2026-07-28', clientCapabilities: { roots: {} } };
const ENVELOPE_KEYS = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/logLevel'];

describe('statelessParams', () => {
  it('always carries our envelope, keeps every other key of the request and of its _meta', () => {
    const key = fc.string().filter((k) => !ENVELOPE_KEYS.includes(k) && k !== '__proto__');
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.jsonValue()),
        fc.dictionary(
          key.filter((k) => k !== '_meta'),
          fc.jsonValue(),
        ),
        fc.option(fc.constantFrom('debug', 'error')),
        (meta, params, level) => {
          const out = statelessParams({ ...params, _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': 'forged' } }, base, level === null ? undefined : { logLevel: level });
          expect(out._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
          expect(out._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ roots: {} });
          expect(out._meta['io.modelcontextprotocol/clientInfo']).toMatchObject({ name: 'switchboard' });
          expect(out._meta['io.modelcontextprotocol/logLevel']).toBe(level ?? undefined);
          for (const [k, v] of Object.entries(meta)) expect(out._meta[k]).toEqual(v);
          for (const [k, v] of Object.entries(params)) expect(out[k]).toEqual(v);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("uses the request's client capabilities and trace over the connection's, and the connection's log level when the request names none", () => {
    const out = statelessParams(undefined, { ...base, logLevel: 'info' }, { clientCapabilities: {}, trace: { traceparent: 'tp', tracestate: 'ts' } });
    expect(out).toEqual({
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'switchboard', version: expect.any(String) },
        'io.modelcontextprotocol/logLevel': 'info',
        traceparent: 'tp',
        tracestate: 'ts',
      },
    });
  });
});

describe('statefulParams', () => {
  it('adds the trace keys to _meta and nothing else; without trace the params are the same object', () => {
    const params = { name: 't', _meta: { progressToken: 'p' } };
    expect(statefulParams(params)).toBe(params);
    expect(statefulParams(params, { clientCapabilities: { sampling: {} }, logLevel: 'debug' })).toBe(params);
    expect(statefulParams(params, { trace: { traceparent: 'tp', baggage: 'b' } })).toEqual({ name: 't', _meta: { progressToken: 'p', traceparent: 'tp', baggage: 'b' } });
    expect(params._meta).toEqual({ progressToken: 'p' });
    expect(statefulParams(undefined, { trace: { tracestate: 'ts' } })).toEqual({ _meta: { tracestate: 'ts' } });
  });
});
