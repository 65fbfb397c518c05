// The contract between an inbound endpoint (stdio, HTTP) and the client sessions behind it.
// Endpoints own bytes, framing and HTTP semantics; sessions own MCP semantics. EndpointSession is
// the part of a ClientSession an endpoint uses (tests give endpoints fakes of it); SessionOpener
// is what opens them (the app).

import type { Cancellation } from '../jsonrpc/cancellation.js';
import type { SplicedResponse } from '../jsonrpc/raw.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/jsonrpc.js';

/** What a session answers a request with: a response, or one already serialised (passed through). */
export type Reply = JsonRpcResponse | SplicedResponse;
import type { ByteBudget } from './budget.js';
import type { CallShare } from './context.js';
import type { SessionMessage, SessionRecord } from '../state/store.js';

/** The part of a session's record (state/store.ts) the session itself knows. */
export type SessionFields = Pick<SessionRecord, 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'profile' | 'logLevel' | 'subscriptions'>;

export interface EndpointSession {
  /** Stable id; on HTTP it is the Mcp-Session-Id. */
  readonly id: string;
  /**
   * Whom the endpoint authenticated for it, when that is narrower than its profile (an OAuth
   * token's subject): state the gateway hands this client is bound to it.
   */
  principal?: string;
  /** The user per-user servers' credentials belong to (router Session.user): set by the face with the principal. */
  user?: string;
  /** The revision agreed in `initialize`, undefined before it. */
  readonly protocolVersion: string | undefined;
  /** Bytes this session's requests and answers may hold at once (limits.sessionBytesInFlight). */
  readonly budget: ByteBudget;
  /** Requests being handled now. */
  readonly inFlightCount: number;
  /**
   * Handles one message from the client. For a request, resolves with its response (never
   * rejects: failures become error responses). `related` receives messages tied to this request
   * (progress, server-to-client requests) before the response; on HTTP they go on the POST's SSE
   * stream. `abort` cancels the request (a stateless HTTP client closing its stream); `headers`
   * are a stateless HTTP request's (checked against the body where the revision says so); `share`
   * is the principal's share of calls in flight (HTTP), which a code-mode run's nested calls take.
   * Notifications and responses resolve undefined.
   */
  handle(
    message: JsonRpcMessage,
    related?: (message: JsonRpcMessage) => void,
    abort?: Cancellation,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
    share?: CallShare,
  ): Promise<Reply | undefined>;
  /** Ends the session: pending work is abandoned, nothing more is pushed. Idempotent. */
  close(): void;
  /** What its record in the state store holds (stateful sessions of the HTTP face). */
  recordFields?(): SessionFields;
  /** Told when that record changes (log level, subscriptions). */
  recordChanged?: (patch: Partial<SessionRecord>) => void;
  /** Another replica changed the record: the local copy follows. */
  applyPatch?(patch: Partial<SessionRecord>): void;
  /** Shared by replicas: ids it sends name `replica`; what belongs to another replica goes to `elsewhere`. */
  joinCluster?(replica: string, elsewhere: (message: SessionMessage) => void): void;
  /** What another replica passed on ('answer', 'cancel'). */
  fromElsewhere?(message: SessionMessage): void;
}

export interface SessionOpener {
  /**
   * Creates a session for a new client. `push` delivers messages not tied to a request
   * (list_changed, logging, resource updates); on HTTP they go on the GET stream.
   * `principal` names the client profile the endpoint authenticated (HTTP token, stdio default);
   * `parent` is the budget the session's own draws on (its principal's; default the gateway's).
   */
  openSession(push: (message: JsonRpcMessage) => void, principal?: string, parent?: ByteBudget): EndpointSession;
  /**
   * The session that serves one profile's stateless-revision HTTP requests (2026-07-28), which
   * carry no session id: long-lived, pushes nothing, and its requests' ids are not unique.
   */
  openStatelessSession(principal?: string): EndpointSession;
  /**
   * Opens, on this replica, a session initialized elsewhere, from its record: a request for it
   * came here (no sticky sessions). Absent: sessions are not shared.
   */
  restoreSession?(record: SessionRecord, push: (message: JsonRpcMessage) => void, principal?: string, parent?: ByteBudget): EndpointSession;
  /** Id of the key the sessions' cursors and state tokens are signed with (in their records). */
  readonly keyId?: string;
  /** The whole gateway's budget (limits.totalBytesInFlight); messages without a session yet count here. */
  readonly budget: ByteBudget;
}
