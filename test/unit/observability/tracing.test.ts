import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traceHeaders } from '../../../src/outbound/observing.js';
import { tracingChoice } from '../../../src/observability/tracing.js';

describe('tracingChoice (the standard OTEL_* variables)', () => {
  it('is off by default', () => {
    expect(tracingChoice({})).toMatchObject({ on: false });
  });

  it('turns on with an OTLP endpoint, over http/protobuf unless a protocol is named', () => {
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ on: true, protocol: 'http/protobuf' });
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ on: true, protocol: 'http/json' });
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toEqual({
      on: true,
      protocol: 'http/protobuf',
    });
  });

  it('turns on with OTEL_TRACES_EXPORTER=otlp alone (the exporter then uses its default endpoint)', () => {
    expect(tracingChoice({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({ on: true, protocol: 'http/protobuf' });
    expect(tracingChoice({ OTEL_TRACES_EXPORTER: ' OTLP , console' })).toMatchObject({ on: true });
  });

  it('stays off when told so, whatever else is set', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracingChoice({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({ on: false });
    expect(tracingChoice({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toMatchObject({ on: false });
  });

  it('refuses what it cannot do, and says why', () => {
    expect(tracingChoice({ OTEL_TRACES_EXPORTER: 'console' })).toMatchObject({ on: false, problem: true, why: expect.stringContaining('stdout') });
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatchObject({ on: false, problem: true });
  });
});

describe('traceHeaders', () => {
  const msg = (meta: Record<string, unknown>) => ({ jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { _meta: meta } });
  const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('copies a valid traceparent (and tracestate) from _meta', () => {
    expect(traceHeaders(msg({ traceparent: parent, tracestate: 'a=1,b=2' }))).toEqual({ traceparent: parent, tracestate: 'a=1,b=2' });
    expect(traceHeaders({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeUndefined();
  });

  it('never lets header syntax through', () => {
    expect(traceHeaders(msg({ traceparent: `${parent}\r\nx-evil: 1` }))).toBeUndefined();
    expect(traceHeaders(msg({ traceparent: parent, tracestate: 'a=1\r\nx: 2' }))).toEqual({ traceparent: parent });
    expect(traceHeaders(msg({ traceparent: 42 }))).toBeUndefined();
  });

  it('gives only values a header can carry as they are, whatever a client puts in _meta', () => {
    const near = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constant(parent),
      fc.string().map((tail) => `${parent}${tail}`),
    );
    fc.assert(
      fc.property(near, fc.option(fc.string({ unit: 'binary' }), { nil: undefined }), (traceparent, tracestate) => {
        const headers = traceHeaders(msg({ traceparent, tracestate }));
        if (headers === undefined) return;
        expect(headers.traceparent).toBe(traceparent);
        if (headers.tracestate !== undefined) expect(headers.tracestate).toBe(tracestate);
        for (const value of Object.values(headers)) expect(value).toMatch(/^[\x20-\x7e]+$/);
      }),
    );
  });
});
