// What a ServerConnection does for a server that speaks 2026-07-28: every request with the
// envelope (the router's, else the connection's defaults and last logging/setLevel), the stateful
// era's methods answered here, a HeaderMismatch answered by listing the tools and retrying once,
// the tools' x-mcp-header index (HTTP), and the listen stream. Invariant: nothing here applies
// to a stateful-era server; the connection calls in only while its era is stateless (the
// stateful era's side is era-side.ts, with the shape both share).

import type { JsonObject } from '../protocol/json.js';
import type { ServerConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import type { Peer, PeerAnswer } from '../jsonrpc/peer.js';
import type { Logger } from '../log.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { ListKind } from '../protocol/mcp.js';
import { statelessParams, type EnvelopeBase } from './envelope.js';
import type { EraSide } from './era-side.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { fetchAll, type FetchedList, type ListBounds, type Requester } from './list-fetch.js';
import { Listener } from './listen.js';
import { screenTools, type ParamHeader } from './mcp-headers.js';
import { answeredHere, isHeaderMismatch, listenFilter, untagged, type LocalCalls } from './stateless-calls.js';
import type { ForwardOptions } from './server-connection-types.js';

export interface StatelessHost<O> {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** The capabilities the connection declares: the envelope's default. */
  readonly clientCapabilities: JsonObject;
  /** Whether the connection keeps the server's lists (then it listens for their changes). */
  readonly keepsLists: boolean;
  protocolVersion(): string;
  capabilities(): JsonObject;
  /** The connection's open peer while it speaks 2026-07-28, else undefined. */
  peer(): Peer<O> | undefined;
  subscribedUris(): ReadonlySet<string>;
  /** The bounds of a fetch of the server's tools now (list-fetch.ts). */
  bounds(): ListBounds;
  subscribe(uri: unknown): Promise<void>;
  unsubscribe(uri: unknown): Promise<void>;
}

export class StatelessSide<O> implements EraSide<O> {
  readonly era = 'stateless' as const;
  /** The listen stream's filter: the connection re-listens. */
  readonly subscriptions = ResourceSubscriptions.byListen;
  readonly listener: Listener<O>;
  /** The level of the router's last logging/setLevel: requests that name none carry it. */
  private logLevel?: string;
  /** Each tool's x-mcp-header parameters, for the Mcp-Param-* headers of its calls (HTTP). */
  private toolHeaders = new Map<string, readonly ParamHeader[]>();
  private readonly localCalls: LocalCalls;

  constructor(private readonly host: StatelessHost<O>) {
    this.listener = new Listener<O>({
      logger: host.logger,
      peer: () => host.peer(),
      filter: () => listenFilter(host.capabilities(), host.keepsLists, host.subscribedUris()),
      params: (filter) => statelessParams({ notifications: filter }, this.base()),
    });
    this.localCalls = {
      setLogLevel: (level) => (this.logLevel = level),
      subscribe: (uri) => host.subscribe(uri),
      unsubscribe: (uri) => host.unsubscribe(uri),
    };
  }

  /** For the HTTP transport: a tool's annotated parameters. */
  readonly paramHeaders = (tool: string): readonly ParamHeader[] | undefined => this.toolHeaders.get(tool);

  forward(peer: Peer<O>, method: string, params: JsonObject | undefined, options: ForwardOptions<O>): Promise<PeerAnswer> {
    return answeredHere(method, params, this.localCalls) ?? this.send(peer, method, params, options);
  }

  /** 2026-07-28 defines no notification from clients but cancellation (which the Peer sends). */
  notifies(method: string): boolean {
    return method === 'notifications/cancelled';
  }

  fetch(peer: Peer<O>, kind: ListKind, bounds: ListBounds, previous?: FetchedList): Promise<FetchedList> {
    if (kind === 'tools') return this.loadTools(peer, bounds, previous);
    return fetchAll(this.requester(peer), kind, bounds, this.host.config.name, previous);
  }

  /** Opened before the lists are fetched, so a change made meanwhile is not missed (it refetches). */
  opened(): void {
    void this.listener.refresh().catch((err) => this.host.logger.warn({ err: describeError(err) }, 'opening the listen stream failed'));
  }

  ready(): void {}

  /** What list fetches go through: the Peer, with the envelope first. */
  requester(peer: Peer<O>): Requester {
    return { requestRaw: (method, params, options) => peer.requestRaw(method, statelessParams(params, this.base()), options) };
  }

  /**
   * Every page of tools/list. Over HTTP each tool's x-mcp-header parameters are indexed for its
   * calls' headers, and a tool whose annotations are invalid is dropped (the spec: clients MUST
   * exclude it), with a warning.
   */
  async loadTools(peer: Peer<O>, bounds: ListBounds, previous?: FetchedList): Promise<FetchedList> {
    const c = this.host.config;
    const fetched = await fetchAll(this.requester(peer), 'tools', bounds, c.name, previous);
    if (c.kind !== 'http') return fetched;
    const screened = screenTools(fetched.items);
    for (const d of screened.dropped) this.host.logger.warn({ tool: d.name.slice(0, 128), problem: d.problem }, 'tool dropped: invalid x-mcp-header annotation');
    this.toolHeaders = screened.headers;
    return { ...fetched, items: screened.kept };
  }

  /** A server notification as the connection should see it, or undefined when it is the listener's business or from a stale stream. */
  receive(n: JsonRpcNotification): JsonRpcNotification | undefined {
    return this.listener.accept(n) ? untagged(n) : undefined;
  }

  private async send(peer: Peer<O>, method: string, params: JsonObject | undefined, options: ForwardOptions<O>): Promise<PeerAnswer> {
    const stamped = statelessParams(params, this.base(), options.envelope);
    const answer = await peer.requestRaw(method, stamped, options);
    if (method !== 'tools/call' || this.host.config.kind !== 'http' || !isHeaderMismatch(answer)) return answer;
    // The spec's advice on HeaderMismatch: the tool's x-mcp-header annotations may have changed
    // (or, on a connection that fetches no lists, were never known): list the tools, retry once.
    await this.loadTools(peer, this.host.bounds()).catch(() => undefined);
    return peer.requestRaw(method, stamped, options);
  }

  private base(): EnvelopeBase {
    return { protocolVersion: this.host.protocolVersion(), clientCapabilities: this.host.clientCapabilities, logLevel: this.logLevel };
  }
}
