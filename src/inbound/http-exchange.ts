// One POSTed request of a session and the HTTP reply it gets: plain JSON unless a related message
// (progress, a request to the client) comes before the response, then SSE. With a state store,
// that SSE stream is resumable: claimed, primed, each event stored before it is written, and the
// response written once (by whoever wins settleCall).

import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/jsonrpc.js';
import { ErrorCode, errorResponse } from '../protocol/jsonrpc.js';
import { serializeMessage } from '../jsonrpc/ndjson.js';
import { overBudget, type ByteBudget } from './budget.js';
import { isSplicedResponse } from '../jsonrpc/raw.js';
import { Cancellation } from '../jsonrpc/cancellation.js';
import { refusalKind } from './stateless-request.js';
import { REFUSAL_STATUS } from '../errors.js';
import { Refusal, bodyBytes, replyJson, replyMessage, statusOf, type MessageBody } from './http-reply.js';
import { SseStream, chunksText } from './http-sse.js';
import type { Reply } from './session-opener.js';
import type { CallShare } from './context.js';
import type { SessionEntry } from './http-session.js';
import { StoredStream } from './http-stored-stream.js';

const OK: { status: number; headers?: undefined } = { status: 200 };

/** The first revision whose clients expect a priming event (an id, empty data) on a POST's stream: SEP-1699. */
const PRIMING_SINCE = '2025-11-25';

/** One POSTed request and the HTTP reply it gets. */
export class PostExchange {
  /** Given to session.handle; bound once per request (the contract wants a function). */
  readonly related = (message: JsonRpcMessage): void => this.sendRelated(message);
  private stream: SseStream | undefined;
  /** With a store: the stream's events go through it (resumable on any replica). */
  private stored: StoredStream | undefined;
  /** The request answered, for its claim in the store. */
  private requestId: JsonRpcRequest['id'] = null as never;
  private done = false;
  /** Where the session keeps this exchange until it finishes. */
  private slot: number | undefined;
  /** Stateless requests only: the client closing its stream cancels the request (2026-07-28). */
  private readonly abort: Cancellation | undefined;
  /** False for a ping: answering one does not make the session look used. */
  private work = true;

  constructor(
    private readonly res: ServerResponse,
    private readonly entry: SessionEntry,
    private readonly maxBufferedBytes?: number,
    /** A stateless request's headers, for the session to check against its body. */
    private readonly headers?: Readonly<Record<string, string | string[] | undefined>>,
    /** What the answer's bytes are held against, if not the session's budget (a stateless request's principal's). */
    private readonly budget?: ByteBudget,
    /** The principal's calls in flight, for the nested calls of a code-mode run. */
    private readonly share?: CallShare,
  ) {
    this.slot = entry.exchanges.add(this);
    if (entry.stateless) {
      // Our Cancellation, not an AbortController: its signal and listeners cost ~4 µs a request.
      const abort = (this.abort = new Cancellation());
      res.once('close', () => {
        if (!this.done) abort.cancel();
      });
    }
  }

  /** The whole exchange for an ordinary request. */
  async run(request: JsonRpcRequest): Promise<void> {
    if (request.method === 'ping') this.work = false;
    this.requestId = request.id;
    this.finish(await this.obtain(request));
  }

  /** Asks the session; a rejection or a missing response (both contract breaches) become an error response. */
  async obtain(request: JsonRpcRequest): Promise<Reply> {
    try {
      const response = await this.entry.session.handle(request, this.related, this.abort, this.headers, this.share);
      if (response !== undefined) return response;
      this.entry.logger.error({ sessionId: this.entry.id, method: request.method }, 'session returned no response to a request');
    } catch (err) {
      this.entry.logger.error({ sessionId: this.entry.id, method: request.method, err }, 'session.handle rejected');
    }
    return errorResponse(request.id, ErrorCode.InternalError, 'Internal error');
  }

  /**
   * Sends the response: last event of the SSE stream if one was opened, else a JSON body.
   * `tagSession` false leaves out Mcp-Session-Id (a failed initialize gets no session).
   */
  finish(response: Reply, tagSession = true): void {
    if (this.slot !== undefined) this.entry.exchanges.remove(this.slot, this);
    this.slot = undefined;
    if (this.done) return;
    this.done = true;
    if (this.work) this.entry.touch();
    const passed = isSplicedResponse(response);
    const stored = this.stored;
    if (stored !== undefined) {
      const { store } = this.entry.records!;
      const data = passed ? chunksText(response.chunks) : serializeMessage(response);
      // Answered once: by us, unless a replica that took us for dead answered for us already.
      stored.after(() =>
        store.settleCall(this.entry.id, stored.name).then(
          (won) => won && stored.write(data),
          () => stored.write(data),
        ),
      );
      stored.after(() => this.stream!.end());
      return;
    }
    if (this.stream !== undefined) {
      if (passed) this.stream.sendChunks(response.chunks);
      else this.stream.send(response);
      this.stream.end();
      return;
    }
    let body: MessageBody = passed ? response : serializeMessage(response);
    // A server's answer passed through is never one of our refusals: 200.
    let reply = passed ? OK : statusOf(response);
    const refused = passed ? undefined : refusalKind(response);
    if (refused !== undefined) reply = { status: REFUSAL_STATUS[refused] };
    // The answer holds its bytes against the session's budget until it is written out; one that
    // does not fit is replaced by a refusal rather than queued.
    const budget = this.budget ?? this.entry.session.budget;
    const size = bodyBytes(body);
    const full = budget.take(size);
    if (full) {
      const e = overBudget(full, size).toJsonRpc();
      const refusal = { jsonrpc: '2.0' as const, id: response.id, error: { code: e.code, message: e.message, data: e.data } };
      body = serializeMessage(refusal);
      reply = statusOf(refusal);
    } else {
      this.res.once('close', () => budget.give(size));
    }
    replyMessage(this.res, body, tagSession ? this.entry.headerId : undefined, reply.status, reply.headers);
  }

  /** The session is gone before the response came: end the stream, or answer 404 like any later request. */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    if (this.stream !== undefined) this.stream.end();
    else replyJson(this.res, 404, Refusal.sessionNotFound);
  }

  /**
   * With a store up, this POST's stream goes through it: claimed (so the request is answered once,
   * see finish), opened with a priming event for clients of 2025-11-25 (earlier clients may not
   * expect an event without data), each event stored before it is written.
   */
  private storeStream(): void {
    const { entry } = this;
    const records = entry.records;
    if (records === undefined || !records.up || entry.stateless) return;
    const name = `${records.store.replicaId}.${this.stream!.streamId}`;
    const stored = (this.stored = new StoredStream(records, entry.id, name, this.stream!));
    stored.after(() => records.store.claimCall(entry.id, name, this.requestId));
    if ((entry.session.protocolVersion ?? '') >= PRIMING_SINCE) stored.add('');
  }

  private sendRelated(message: JsonRpcMessage): void {
    const method = (message as { method?: unknown }).method;
    if (this.done) {
      this.entry.logger.debug({ sessionId: this.entry.id, method }, 'related message after the response: dropped');
      return;
    }
    if (this.stream === undefined) {
      // Client already gone: nothing to switch. Not a cancellation (spec); the session carries on.
      if (this.res.destroyed) return;
      this.stream = new SseStream(this.res, this.entry.nextStreamId(), this.entry.headerId, this.entry.registry, this.maxBufferedBytes);
      this.storeStream();
    }
    if (this.stored !== undefined) return this.stored.add(serializeMessage(message));
    if (!this.stream.send(message)) {
      this.entry.logger.debug({ sessionId: this.entry.id, method }, 'client left the POST stream: related message dropped');
    }
  }
}
