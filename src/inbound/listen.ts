// One subscriptions/listen stream (2026-07-28): the notifications a client asked for and the
// gateway can honour, each tagged with the listen request's id, on that request's own channel.
// It ends when the client closes it (HTTP stream closed, or notifications/cancelled on stdio), when
// its session closes, or when the gateway shuts down (then with the request's result).

import { KINDS, type ListKind } from '../protocol/mcp.js';
import { META } from '../protocol/stateless.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification } from '../protocol/jsonrpc.js';
import type { CatalogView } from '../catalog/view.js';
import type { Subscriber } from '../router/subscriptions.js';
import { servedList } from './served.js';

/** What a client asks a listen stream for (the request's `notifications`), as honoured. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** The filter field that asks for each list's list_changed. */
const FILTER_FIELD: Record<ListKind, keyof ListenFilter> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
  resourceTemplates: 'resourcesListChanged',
};

export class Listen implements Subscriber {
  /** Per kind, the hash of the list last seen through this stream: list_changed only on a real change. */
  private readonly seen = new Map<ListKind, string>();
  private ended = false;
  private finish!: () => void;
  /** Resolves when the gateway ends the stream (not when the client does: that is a cancellation). */
  readonly endedByGateway = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(
    readonly id: JsonRpcId,
    readonly filter: ListenFilter,
    private readonly channel: (message: JsonRpcMessage) => void,
    view: CatalogView,
  ) {
    for (const kind of Object.keys(FILTER_FIELD) as ListKind[]) if (filter[FILTER_FIELD[kind]]) this.seen.set(kind, servedList(view, kind).hash);
  }

  /** Sends `notification` tagged with this stream's subscription id. */
  send(notification: JsonRpcNotification): void {
    if (this.ended) return;
    const params = notification.params ?? {};
    // Whatever `_meta` the notification has is spread as before: the type says only what the code knew.
    const meta = params._meta as object | undefined;
    this.channel({ jsonrpc: '2.0', method: notification.method, params: { ...params, _meta: { ...meta, [META.subscriptionId]: this.id } } });
  }

  acknowledge(): void {
    this.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: this.filter } });
  }

  /** The catalog changed: list_changed for each asked-for list that looks different through `view`. */
  listsChanged(kinds: readonly ListKind[], view: CatalogView): void {
    const methods = new Set<string>();
    for (const kind of kinds) {
      const before = this.seen.get(kind);
      if (before === undefined) continue;
      const hash = servedList(view, kind).hash;
      if (hash === before) continue;
      this.seen.set(kind, hash);
      methods.add(KINDS[kind].listChanged);
    }
    for (const method of methods) this.send({ jsonrpc: '2.0', method });
  }

  /** The gateway ends the stream (shutting down): the listen request then answers its result. */
  end(): void {
    this.finish();
  }

  /** Nothing more is sent (the stream is over, whoever ended it). */
  close(): void {
    this.ended = true;
  }
}
