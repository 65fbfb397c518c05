// Picks the HTTP transport for a server URL. `auto` speaks Streamable HTTP and, if the very first
// POST (initialize) fails with 400/404/405, falls back to legacy HTTP+SSE (the spec's
// backwards-compatibility rule). Invariant: once a choice is made it never changes.

import { GatewayError, describeError } from '../errors.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../transport.js';
import { httpStatusError, type HttpTransportKind } from './http-common.js';
import { LegacySseTransport, type LegacySseTransportOptions } from './http-legacy-sse.js';
import { StreamableHttpTransport } from './http-streamable.js';

export { redactUrl } from './http-common.js';
export type { HttpLogger, HttpTransportKind, HttpTransportOptions } from './http-common.js';
export { LegacySseTransport, type LegacySseTransportOptions } from './http-legacy-sse.js';
export { StreamableHttpTransport } from './http-streamable.js';

export interface CreateHttpTransportOptions extends LegacySseTransportOptions {
  transport: 'auto' | HttpTransportKind;
}

/** A transport that also says which wire protocol it speaks (for logs and `switchboard check`). */
export type HttpTransport = Transport & { readonly kind: HttpTransportKind };

export function createHttpTransport(options: CreateHttpTransportOptions): HttpTransport {
  switch (options.transport) {
    case 'streamable-http':
      return new StreamableHttpTransport(options);
    case 'sse':
      return new LegacySseTransport(options);
    case 'auto':
      return new AutoHttpTransport(options);
  }
}

/** Statuses after which the spec says a client should try the old HTTP+SSE transport. */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

export class AutoHttpTransport implements Transport {
  /** Where the transport in use delivers (given to start). */
  private sink: TransportSink = NO_SINK;
  private inner: HttpTransport;
  /** Settles when the first send has decided the transport; later sends wait behind it. */
  private decided?: Promise<void>;
  private closed = false;
  /** The probe being closed after the fallback: its close is not ours. */
  private detached?: HttpTransport;

  constructor(private readonly options: LegacySseTransportOptions) {
    this.inner = new StreamableHttpTransport(options);
  }

  /** 'streamable-http' until (and unless) the first POST made us fall back to 'sse'. */
  get kind(): HttpTransportKind {
    return this.inner.kind;
  }

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return this.inner.start(this.sinkFor(this.inner));
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.decided === undefined) {
      const first = this.sendFirst(message);
      this.decided = first.then(
        () => {},
        () => {},
      );
      return first;
    }
    await this.decided;
    return this.inner.send(message);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.inner.close();
  }

  private async sendFirst(message: JsonRpcMessage): Promise<void> {
    try {
      await this.inner.send(message);
      return;
    } catch (err) {
      if (!(err instanceof GatewayError) || err.status === undefined || !FALLBACK_STATUSES.has(err.status) || this.closed) throw err;
      const streamable = this.inner;
      // Detach first: closing the probe must not look like the connection closing.
      this.detached = streamable;
      await streamable.close().catch(() => {});
      const legacy = new LegacySseTransport(this.options);
      this.inner = legacy;
      try {
        await legacy.start(this.sinkFor(legacy));
      } catch (legacyErr) {
        // Neither worked: report both, keeping the POST's status for the caller.
        throw httpStatusError(err.status, `${err.message}; legacy SSE fallback failed: ${describeError(legacyErr)}`);
      }
      if (this.closed) {
        await legacy.close();
        throw new GatewayError('CONNECTION_CLOSED', 'transport closed during fallback to legacy SSE');
      }
      await legacy.send(message);
    }
  }

  /** A sink that forwards only while `t` is the transport in use (made once per transport). */
  private sinkFor(t: HttpTransport): TransportSink {
    return {
      message: (m, relatedTo) => {
        if (this.inner === t) this.sink.message(m, relatedTo);
      },
      error: (e) => {
        if (this.inner === t) this.sink.error(e);
      },
      close: (r) => {
        if (this.inner === t && this.detached !== t) this.sink.close(r);
      },
      fail: (id, e) => {
        if (this.inner === t) this.sink.fail(id, e);
      },
      text: (text, relatedTo) => (this.inner === t ? this.sink.text?.(text, relatedTo) : undefined),
    };
  }
}
