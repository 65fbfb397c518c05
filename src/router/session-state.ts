// What the gateway keeps per client session on servers' behalf: the sessions attached, their
// resource subscriptions, the task ids exposed to them, servers' requests in flight to them (the
// relay), calls parked between input rounds and the signed requestState, and their log levels.
// Released in one place when a session ends. Knows no connection but those it is handed.

import type { UriJudge } from '../catalog/relayed-uris.js';
import type { GatewayConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import type { JsonRpcParams, JsonRpcResult } from '../protocol/jsonrpc.js';
import { mostVerbose } from '../protocol/mcp.js';
import type { NotificationRoutes } from './notification-routes.js';
import { ParkedCalls } from './parked-calls.js';
import { StateWrapper } from './request-state.js';
import { ServerRequestRelay } from './server-request-relay.js';
import type { Connection, RequestOwner, Session } from './session.js';
import { Subscriptions } from './subscriptions.js';
import { TaskIds } from './task-ids.js';

export interface SessionStateDeps {
  /** The key of everything a client hands back (listen.stateKey's, else random): shared with the cursors. */
  key: Buffer;
  logger: Logger;
  config: () => GatewayConfig;
  /** Whether `session` may still hear of `uri` on `connection` (exposed to it as `exposedUri`), by the rules in force. */
  mayHear: (session: Session, connection: Connection, uri: string, exposedUri: string) => boolean;
  /** The judge of resource URIs `server` names to `session`. */
  uriJudge: (session: Session, server: string) => UriJudge | undefined;
  /** Tells the servers the most verbose level some session wants (the registry does). */
  tellLevel: (level: string) => Promise<void>;
}

export class SessionState {
  readonly subscriptions: Subscriptions;
  readonly tasks = new TaskIds();
  /** Calls of stateless-revision clients waiting for their input between rounds. */
  parked: ParkedCalls;
  /** Wraps 2026 servers' requestState on its way to 2026 clients (same key as cursors and parked calls). */
  states: StateWrapper;
  /** Servers' requests to clients, relayed to the session they belong to. */
  readonly relay: ServerRequestRelay;
  /** Where servers' own notifications go (notification-routes.ts). */
  readonly routes: NotificationRoutes;
  private readonly sessions = new Set<Session>();

  constructor(private readonly deps: SessionStateDeps) {
    this.states = new StateWrapper(deps.key);
    this.parked = new ParkedCalls(deps.key);
    this.subscriptions = new Subscriptions({ limits: () => deps.config().limits, mayHear: deps.mayHear });
    this.relay = new ServerRequestRelay(
      deps.logger,
      () => this.sessions.size,
      deps.uriJudge,
      (session) => session?.profile?.roots ?? deps.config().roots,
    );
    this.routes = { sessions: this.sessions, subscriptions: this.subscriptions, tasks: this.tasks, relay: this.relay, logger: deps.logger };
  }

  /** Signs with `key` from now on (the router's useKey: at start, before anything is parked or wrapped). */
  useKey(key: Buffer): void {
    this.states = new StateWrapper(key);
    this.parked = new ParkedCalls(key);
  }

  attach(session: Session): void {
    this.sessions.add(session);
  }

  /**
   * Forgets everything held for `session`. `unsubscribe`: tell servers its subscriptions ended
   * (moot at shutdown, when every connection is about to close).
   */
  release(session: Session, unsubscribe: boolean): void {
    this.sessions.delete(session);
    if (unsubscribe) this.subscriptions.dropSession(session);
    this.tasks.dropSession(session);
    this.relay.dropSession(session);
    this.parked.dropSession(session);
  }

  get count(): number {
    return this.sessions.size;
  }

  all(): Iterable<Session> {
    return this.sessions;
  }

  /**
   * Asks the client that owns a request something on its server's behalf, as if the server had
   * sent the request itself (a 2026-07-28 server's input requests, for a client of the stateful era).
   */
  askClient(connection: Connection, method: string, params: JsonRpcParams | undefined, owner: RequestOwner, signal: AbortSignal): Promise<JsonRpcResult> {
    return this.relay.relay(connection, { jsonrpc: '2.0', id: 0, method, params }, owner, signal);
  }

  /** A session set its log level: servers are told the most verbose level any session wants. */
  async logLevelChanged(): Promise<void> {
    const wanted = mostVerbose([...this.sessions].map((s) => s.logLevel));
    if (wanted) await this.deps.tellLevel(wanted);
  }

  /** Shutdown: parked calls are dropped. */
  close(): void {
    this.parked.clear();
  }
}
