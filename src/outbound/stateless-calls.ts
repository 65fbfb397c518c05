// What a connection to a 2026-07-28 server does differently with the router's requests and the
// server's notifications: the stateful era's methods it answers or translates itself, the listen
// filter it asks for, HeaderMismatch detection, and stripping the listen stream's tag. Pure.

import { type JsonObject, valueAt } from '../protocol/json.js';
import { RpcError } from '../errors.js';
import type { PeerAnswer } from '../jsonrpc/peer.js';
import { isRawResponse, parseRawResponse } from '../jsonrpc/raw.js';
import { ErrorCode, errorResponse, isErrorResponse, type JsonRpcNotification } from '../protocol/jsonrpc.js';
import { META } from '../protocol/stateless.js';
import type { ListenFilter } from './listen.js';

export interface LocalCalls {
  setLogLevel(level: string | undefined): void;
  subscribe(uri: unknown): Promise<void>;
  unsubscribe(uri: unknown): Promise<void>;
}

const done = (): PeerAnswer => ({ jsonrpc: '2.0', id: 0, result: {} });
const failed = (err: unknown): PeerAnswer => {
  if (err instanceof RpcError) return errorResponse(0, err.code, err.message, err.data);
  throw err;
};

/**
 * Stateful-era methods a 2026-07-28 server does not have: ping (nothing to check: every request
 * stands alone), logging/setLevel (the level goes on each request), resources/subscribe and
 * unsubscribe (the listen filter). The answer has id 0: callers put their own.
 */
export function answeredHere(method: string, params: JsonObject | undefined, calls: LocalCalls): Promise<PeerAnswer> | undefined {
  switch (method) {
    case 'ping':
      return Promise.resolve(done());
    case 'logging/setLevel':
      calls.setLogLevel(typeof params?.level === 'string' ? params.level : undefined);
      return Promise.resolve(done());
    case 'resources/subscribe':
      return calls.subscribe(params?.uri).then(done, failed);
    case 'resources/unsubscribe':
      return calls.unsubscribe(params?.uri).then(done, failed);
    default:
      return undefined;
  }
}

/** The listen filter: the list changes the server announces (when we keep lists), and the subscribed URIs it offers updates for. */
export function listenFilter(capabilities: JsonObject, keepsLists: boolean, uris: ReadonlySet<string>): ListenFilter | undefined {
  const f: ListenFilter = {};
  if (keepsLists) {
    if (valueAt(capabilities, 'tools', 'listChanged')) f.toolsListChanged = true;
    if (valueAt(capabilities, 'prompts', 'listChanged')) f.promptsListChanged = true;
    if (valueAt(capabilities, 'resources', 'listChanged')) f.resourcesListChanged = true;
  }
  if (valueAt(capabilities, 'resources', 'subscribe') && uris.size > 0) f.resourceSubscriptions = [...uris].sort();
  return Object.keys(f).length > 0 ? f : undefined;
}

/** A notification without the listen stream's tag: our subscription id means nothing past this connection. */
export function untagged(n: JsonRpcNotification): JsonRpcNotification {
  const meta = n.params?._meta;
  if (meta === null || typeof meta !== 'object' || !(META.subscriptionId in meta)) return n;
  const { [META.subscriptionId]: _tag, ...rest } = meta;
  const params: JsonObject = { ...n.params };
  if (Object.keys(rest).length > 0) params._meta = rest;
  else delete params._meta;
  return { ...n, params };
}

/** Whether an answer is a HeaderMismatch error (-32020); a raw answer is parsed only when it is an error. */
export function isHeaderMismatch(answer: PeerAnswer): boolean {
  if (isRawResponse(answer)) {
    if (!answer.isError) return false;
    try {
      answer = parseRawResponse(answer);
    } catch {
      return false;
    }
  }
  return isErrorResponse(answer) && answer.error?.code === ErrorCode.HeaderMismatch;
}
