// What the HTTP endpoint keeps per MCP session: the EndpointSession, its single GET stream, a
// bounded backlog of pushes made while no GET stream is open, and the POST exchanges still in
// flight (so DELETE and close() can finish them, http-exchange.ts). With a state store, the
// session's record and its streams' events live there too: it follows what other replicas say.

import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { HttpEndpointLogger } from './http-endpoint-options.js';
import { serializeMessage } from '../jsonrpc/ndjson.js';
import { Slots } from '../jsonrpc/churn.js';
import { SseStream } from './http-sse.js';
import type { Holding, Principals } from './principals.js';
import type { EndpointSession, SessionOpener } from './session-opener.js';
import type { SessionRecords } from './http-records.js';
import type { SessionMessage, SessionRecord, StoredEvent } from '../state/store.js';
import { ResumedStream } from './http-stored-stream.js';
import type { PostExchange } from './http-exchange.js';

/** Pushes kept while no GET stream is open; beyond this the oldest go (list_changed etc. are idempotent hints). */
export const MAX_BACKLOG = 100;

/** The name of a session's GET stream in the store (a POST's stream is named `<replica>.<n>`). */
export const GET_STREAM = 'get';

export class SessionEntry {
  /** Given to the opener as the session's `push`; bound once per session. */
  readonly push = (message: JsonRpcMessage): void => this.deliver(message);
  readonly session: EndpointSession;
  /** Each at its `slot`. Not a Set: exchanges come and go with every request (see jsonrpc/churn.ts). */
  readonly exchanges = new Slots<PostExchange>();
  closed = false;
  private getStream: SseStream | undefined;
  /** Pushes (or, with a store, the GET stream's stored events) kept while no GET stream is open here. */
  private backlog: (JsonRpcMessage | StoredEvent)[] = [];
  /** With a store: the GET stream open here, writing the session's GET events as they are appended. */
  private getEvents: ResumedStream | undefined;
  /** POST streams resumed here (GET + Last-Event-ID), by name: they write what is appended to them. */
  private readonly resumed = new Map<string, ResumedStream>();
  /** Resumptions reading the store now: they hear every event meanwhile (see http-resume.ts). */
  private readonly collectors = new Set<(event: StoredEvent) => void>();
  private streamCount = 0;
  /** When the client last did work (for the idle sweep and shedding): a ping is not work. */
  lastWork = Date.now();
  /** Whether the client ever opened a GET stream: one that never did (a CLI client, a script) is reaped sooner when idle. */
  hadGetStream = false;
  /** The principal whose share of sessions this one takes (none for a stateless entry). */
  readonly holder: Holding | undefined;
  private readonly principals: Principals | undefined;
  /** The state store's link, while the session is shared through one (stateful sessions only). */
  records: SessionRecords | undefined;
  /** When the record's TTL was last pushed out (SessionRecords.refresh). */
  refreshedAt = 0;
  /** Stops hearing the store's messages about this session. */
  unfollow: (() => void) | undefined;
  /** Another replica ended the session: the endpoint forgets it (set when the endpoint holds it). */
  dropped: ((entry: SessionEntry) => void) | undefined;

  /** Opens the session; throws what openSession throws. */
  constructor(
    opener: SessionOpener,
    readonly registry: Slots<SseStream>,
    readonly logger: HttpEndpointLogger,
    /** The client profile that opened the session: every later request must present the same. */
    readonly principal?: string,
    /** Serves stateless-revision requests: no Mcp-Session-Id, no GET stream, no idle expiry. */
    readonly stateless = false,
    /** Whose share of sessions it takes, from now until it is terminated. */
    charge?: { holder: Holding; principals: Principals },
    /** The record of a session initialized on another replica, to serve here. */
    record?: SessionRecord,
  ) {
    const parent = charge?.principals.budgetOf(charge.holder);
    if (stateless) this.session = opener.openStatelessSession(principal);
    else if (record !== undefined && opener.restoreSession !== undefined) this.session = opener.restoreSession(record, this.push, principal, parent);
    else this.session = opener.openSession(this.push, principal, parent);
    this.holder = charge?.holder;
    this.principals = charge?.principals;
    if (this.holder !== undefined) this.holder.sessions++;
  }

  get id(): string {
    return this.session.id;
  }

  /** The Mcp-Session-Id replies carry: none for stateless requests. */
  get headerId(): string | undefined {
    return this.stateless ? undefined : this.session.id;
  }

  /** The client did some work (anything but a ping): the session is not idle. */
  touch(): void {
    this.lastWork = Date.now();
    if (this.records !== undefined) this.records.refresh(this, this.lastWork);
  }

  /** What another replica (or this one) said about the session through the store. */
  heard(message: SessionMessage): void {
    if (this.closed) return;
    if (message.kind === 'ended') {
      this.dropped?.(this);
      this.terminate();
    } else if (message.kind === 'patched') this.session.applyPatch?.(message.patch);
    else if (message.kind === 'event') this.heardEvent(message.event);
    else this.session.fromElsewhere?.(message);
  }

  /** An event appended to one of the session's streams: written here if that stream is open here. */
  private heardEvent(event: StoredEvent): void {
    for (const collect of this.collectors) collect(event);
    if (event.stream !== GET_STREAM) {
      const resumed = this.resumed.get(event.stream);
      if (resumed !== undefined) resumed.live(event);
      return;
    }
    if (this.getEvents?.isOpen === true) return this.getEvents.live(event);
    this.keep(event);
  }

  /** Hears every event until the returned function is called (a resumption reading the store). */
  collect(listener: (event: StoredEvent) => void): () => void {
    this.collectors.add(listener);
    return () => this.collectors.delete(listener);
  }

  /** A POST stream resumed here: it writes that stream's events until it ends. */
  holdResumed(stream: ResumedStream, res: ServerResponse): void {
    this.resumed.set(stream.name, stream);
    res.once('close', () => {
      if (this.resumed.get(stream.name) === stream) this.resumed.delete(stream.name);
    });
  }

  /** Whether a request of it is being served. */
  get busy(): boolean {
    return this.exchanges.size > 0 || this.session.inFlightCount > 0;
  }

  /** How long the session has been idle at `now`: 0 while a request or its GET stream is open. */
  idleSince(now: number): number {
    if (this.busy || this.hasOpenGetStream()) return 0;
    return now - this.lastWork;
  }

  /** Stream ids are per session, so `<streamId>-<seq>` event ids never repeat within it. */
  nextStreamId(): string {
    return (this.streamCount++).toString(36);
  }

  hasOpenGetStream(): boolean {
    return this.getStream?.isOpen === true;
  }

  /**
   * Turns `res` into the session's GET stream and flushes the backlog into it; resumed with
   * Last-Event-ID (`replay`: what the store kept after it), the stored events replace the backlog.
   */
  openGetStream(res: ServerResponse, maxBufferedBytes?: number, replay?: readonly StoredEvent[]): void {
    this.touch();
    this.hadGetStream = true;
    const stream = new SseStream(res, this.nextStreamId(), this.id, this.registry, maxBufferedBytes);
    // The stream's end is activity too: the idle clock starts from when the client left.
    res.once('close', () => this.touch());
    this.getStream = stream;
    // Headers plus a first line right away, so the client knows the stream is up.
    stream.comment('stream open');
    const pending = this.backlog;
    this.backlog = [];
    if (this.records !== undefined) {
      const events = (this.getEvents = new ResumedStream(GET_STREAM, stream, false));
      // Resumed, the store's replay (with what came during it) replaces what was kept here.
      if (replay === undefined) for (const kept of pending) if ('stream' in kept) events.live(kept);
      events.replay(replay ?? []);
      // Messages the store could not take (it was down) go out as they are, after.
      for (const kept of pending) if (!('stream' in kept)) stream.send(kept);
      return;
    }
    for (let i = 0; i < pending.length; i++) {
      if (!stream.send(pending[i] as JsonRpcMessage)) {
        this.backlog = pending.slice(i);
        return;
      }
    }
  }

  private deliver(message: JsonRpcMessage): void {
    if (this.closed) return;
    const records = this.records;
    // Through the store: the GET stream may be open on another replica, or resumed later.
    if (records?.up) {
      records.store.appendEvent(this.id, GET_STREAM, serializeMessage(message)).catch((err: unknown) => {
        records.failed(err);
        this.deliverHere(message);
      });
      return;
    }
    this.deliverHere(message);
  }

  private deliverHere(message: JsonRpcMessage): void {
    if (this.closed) return;
    if (this.getStream !== undefined) {
      if (this.getStream.send(message)) return;
      this.getStream = undefined;
    }
    this.keep(message);
  }

  private keep(kept: JsonRpcMessage | StoredEvent): void {
    if (this.backlog.length >= MAX_BACKLOG) {
      this.backlog.shift();
      this.logger.debug({ sessionId: this.id, limit: MAX_BACKLOG }, 'no GET stream: oldest pushed message dropped');
    }
    this.backlog.push(kept);
  }

  /** Ends everything: GET stream, in-flight exchanges, the session itself. Idempotent. */
  terminate(): void {
    if (this.closed) return;
    this.closed = true;
    this.unfollow?.();
    this.getStream?.end();
    this.getStream = undefined;
    for (const stream of this.resumed.values()) stream.end();
    this.resumed.clear();
    this.backlog = [];
    for (const exchange of this.exchanges.values()) exchange.abandon();
    this.exchanges.clear();
    this.session.close();
    if (this.holder !== undefined) {
      this.holder.sessions--;
      this.principals!.release(this.holder);
    }
  }
}
