// The OpenTelemetry side of tracing, loaded only when traces are on (see tracing.ts): a tracer
// whose spans go through a batch processor to an OTLP/HTTP exporter, both configured by the
// standard OTEL_* variables, and W3C trace context read from and written to `_meta`. No context
// manager: the parent travels in the request itself, so nothing async-local is needed.

import { DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, diag, trace, type Attributes, type Span, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from '../log.js';
import { GATEWAY_NAME, GATEWAY_VERSION } from '../protocol/mcp.js';
import { META } from '../protocol/stateless.js';
import type { ObservedSession, TraceSink, TraceSpan } from './observer.js';
import type { Outcome } from './outcome.js';
import type { OtlpProtocol } from './tracing.js';
import type { JsonObject } from '../protocol/json.js';

type Meta = Record<string, unknown>;

const getter: TextMapGetter<Meta> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return typeof v === 'string' ? v : undefined;
  },
};
const setter: TextMapSetter<Meta> = { set: (carrier, key, value) => void (carrier[key] = value) };
const propagator = new W3CTraceContextPropagator();

const isMeta = (v: unknown): v is Meta => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Span names and target attributes stay short: a client chooses these strings. */
const MAX_TARGET = 128;

/** `{mcp.method.name} {target}` (OpenTelemetry's MCP conventions), target the tool or prompt name. */
function targetOf(method: string, params: JsonObject | undefined): string | undefined {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  const name = params?.name;
  return typeof name === 'string' ? name.slice(0, MAX_TARGET) : undefined;
}

function attributesOf(method: string, params: JsonObject | undefined, target: string | undefined): Attributes {
  const a: Attributes = { 'mcp.method.name': method };
  if (target !== undefined) a[method === 'tools/call' ? 'gen_ai.tool.name' : 'gen_ai.prompt.name'] = target;
  if (method === 'tools/call') a['gen_ai.operation.name'] = 'execute_tool';
  const uri = params?.uri;
  if (typeof uri === 'string') a['mcp.resource.uri'] = uri.slice(0, 2048);
  return a;
}

type ExporterModule = { OTLPTraceExporter: new () => SpanExporter };

async function exporterFor(protocol: OtlpProtocol): Promise<SpanExporter> {
  // Only the exporter asked for is loaded (the protobuf one brings protobufjs). Both are CommonJS:
  // bundled, a dynamic import may hand the exports over as `default`.
  const mod = (protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto')) as Partial<ExporterModule> & {
    default?: ExporterModule;
  };
  const Exporter = mod.OTLPTraceExporter ?? mod.default!.OTLPTraceExporter;
  // It reads OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself.
  return new Exporter();
}

export async function createTraceSink(protocol: OtlpProtocol, logger: Logger): Promise<TraceSink> {
  // The SDK's own complaints (an unreachable collector) go to our log, on stderr, never stdout.
  const log = logger.child({ component: 'otel' });
  diag.setLogger(
    { error: (m, ...a) => log.warn({ detail: a.map(String) }, m), warn: (m, ...a) => log.warn({ detail: a.map(String) }, m), info: () => {}, debug: () => {}, verbose: () => {} },
    DiagLogLevel.WARN,
  );
  // Service name switchboard unless OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': GATEWAY_NAME, 'service.version': GATEWAY_VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
  // The batch processor reads OTEL_BSP_*; the sampler OTEL_TRACES_SAMPLER (default: parent-based, always on).
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(await exporterFor(protocol))] });
  const tracer = provider.getTracer(GATEWAY_NAME, GATEWAY_VERSION);

  return {
    inbound(session: ObservedSession, request, headers) {
      const params = request.params;
      const meta = params?._meta;
      // _meta is MCP's carrier and wins; the HTTP header is W3C's, for clients that set only that.
      const carried = isMeta(meta) && typeof meta.traceparent === 'string' ? meta : headers && typeof headers.traceparent === 'string' ? (headers as Meta) : undefined;
      const parent = carried ? propagator.extract(ROOT_CONTEXT, carried, getter) : ROOT_CONTEXT;
      const target = targetOf(request.method, params);
      const attributes = attributesOf(request.method, params, target);
      attributes['mcp.session.id'] = session.id;
      // A 2026-07-28 request names its revision itself; its stateless session has none.
      const version = session.protocolVersion ?? (isMeta(meta) ? meta[META.protocolVersion] : undefined);
      if (typeof version === 'string') attributes['mcp.protocol.version'] = version.slice(0, MAX_TARGET);
      attributes['jsonrpc.request.id'] = String(request.id);
      const span = tracer.startSpan(target ? `${request.method} ${target}` : request.method, { kind: SpanKind.SERVER, attributes }, parent);
      // This request's own context replaces the client's: calls it causes are children of this span.
      if (params && (meta === undefined || isMeta(meta))) {
        // Absent or a Meta: the condition above.
        const carrier = (params._meta ??= {}) as Meta;
        delete carrier.tracestate;
        propagator.inject(trace.setSpan(parent, span), carrier, setter);
      }
      return span;
    },

    outbound(server, method, params) {
      const meta = params?._meta;
      const parent = isMeta(meta) ? propagator.extract(ROOT_CONTEXT, meta, getter) : ROOT_CONTEXT;
      const target = targetOf(method, params);
      const attributes = attributesOf(method, params, target);
      attributes['switchboard.server'] = server;
      const span = tracer.startSpan(target ? `${method} ${target}` : method, { kind: SpanKind.CLIENT, attributes }, parent);
      // A copy: the client's request (and a retry on another server) keeps its own context.
      const carrier: Meta = isMeta(meta) ? { ...meta } : {};
      delete carrier.tracestate;
      propagator.inject(trace.setSpan(parent, span), carrier, setter);
      return { span, params: { ...params, _meta: carrier } };
    },

    end(s: TraceSpan, outcome: Outcome) {
      const span = s as Span;
      if (outcome.label !== 'ok') {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', outcome.label === 'error' && outcome.code !== undefined ? String(outcome.code) : outcome.label);
        if (outcome.code !== undefined) span.setAttribute('rpc.response.status_code', String(outcome.code));
      }
      span.end();
    },

    async shutdown() {
      await provider.shutdown().catch((err: unknown) => log.warn({ err: String(err) }, 'flushing spans failed'));
    },
  };
}
