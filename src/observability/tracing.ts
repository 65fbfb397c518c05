// Whether to trace, read from the standard OTEL_* variables, and the lazy start of the SDK. Off by
// default: without an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp nothing of OpenTelemetry is even
// loaded, so tracing costs nothing when off. Pure decision here; tracing-sdk.ts does the rest.

import type { Logger } from '../log.js';
import type { TraceSink } from './observer.js';

export type OtlpProtocol = 'http/json' | 'http/protobuf';

export type TracingChoice = { on: true; protocol: OtlpProtocol } | { on: false; why: string; problem?: boolean };

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * Reads the OpenTelemetry environment: traces go out over OTLP/HTTP when OTEL_TRACES_EXPORTER
 * names otlp, or, with it unset, when an OTLP endpoint is given. OTEL_SDK_DISABLED=true and
 * OTEL_TRACES_EXPORTER=none win. The protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else
 * OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf (the specification's default); grpc is refused.
 */
export function tracingChoice(env: Readonly<Record<string, string | undefined>>): TracingChoice {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return { on: false, why: 'OTEL_SDK_DISABLED=true' };
  const exporters = list(env.OTEL_TRACES_EXPORTER);
  if (exporters.includes('none')) return { on: false, why: 'OTEL_TRACES_EXPORTER=none' };
  if (exporters.length > 0 && !exporters.includes('otlp')) {
    return { on: false, why: `OTEL_TRACES_EXPORTER=${exporters.join(',')}: only otlp is supported (console would write on stdout, which is the protocol in stdio mode)`, problem: true };
  }
  const endpoint = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim();
  if (exporters.length === 0 && endpoint === '') return { on: false, why: 'no OTLP endpoint configured' };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim().toLowerCase();
  if (protocol === 'http/json' || protocol === 'http/protobuf') return { on: true, protocol };
  return { on: false, why: `OTLP protocol ${JSON.stringify(protocol)} is not supported (use http/protobuf or http/json)`, problem: true };
}

/**
 * Starts tracing when the environment asks for it: resolves with the sink, or undefined (off, or
 * the SDK could not start: said in the log, and the gateway serves on untraced).
 */
export async function startTracing(env: Readonly<Record<string, string | undefined>>, logger: Logger): Promise<TraceSink | undefined> {
  const choice = tracingChoice(env);
  if (!choice.on) {
    if (choice.problem) logger.warn(`traces off: ${choice.why}`);
    return undefined;
  }
  try {
    const { createTraceSink } = await import('./tracing-sdk.js');
    const sink = await createTraceSink(choice.protocol, logger);
    logger.info({ protocol: choice.protocol }, 'traces on: exporting spans over OTLP');
    return sink;
  } catch (err) {
    logger.error({ err: String(err) }, 'traces off: the OpenTelemetry SDK did not start');
    return undefined;
  }
}
