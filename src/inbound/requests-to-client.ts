// Requests the gateway sends to a client on a server's behalf (sampling, elicitation, roots):
// our own ids towards the client, a pending map and cancellation. The capability check the spec
// requires before sending is protocol/capabilities.ts.

import { GatewayError, RpcError } from '../errors.js';
import type { JsonObject } from '../protocol/json.js';
import { ErrorCode, isErrorResponse, type JsonRpcId, type JsonRpcMessage, type JsonRpcResponse } from '../protocol/jsonrpc.js';

interface Waiting {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/** The requests this session sends its client, on servers' behalf: our ids, the pending map. */
export class RequestsToClient {
  private next = 1;
  private readonly waiting = new Map<JsonRpcId, Waiting>();
  /**
   * Starts every id: with sessions shared by replicas, it names this replica (`sb-<replica>-`), so
   * an answer POSTed to another replica is told apart and passed on to the one that asked.
   */
  prefix = 'sb-';

  /** Sends `method` to the client through `send`; resolves with its result. */
  request(send: (m: JsonRpcMessage) => void, method: string, params: JsonObject | undefined, signal?: AbortSignal): Promise<JsonObject> {
    // A prefix of our own keeps these ids apart from anything a client might guess.
    const id = `${this.prefix}${this.next++}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiting.delete(id)) return;
        send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the server' } });
        reject(new GatewayError('CANCELLED', `${method} was cancelled by the server`));
      };
      this.waiting.set(id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  /** Settles the request a client response answers; false if it answers nothing we asked. */
  settle(response: JsonRpcResponse): boolean {
    const id = response.id;
    const w = id === null ? undefined : this.waiting.get(id);
    if (!w) return false;
    this.waiting.delete(id!);
    if (isErrorResponse(response)) w.reject(RpcError.of(response.error));
    else w.resolve(response.result);
    return true;
  }

  /** Whether `id` is one another replica made (`sb-<replica>-<n>`, not our prefix): its answer belongs there. */
  elsewhere(id: JsonRpcId | null): boolean {
    return typeof id === 'string' && id.startsWith('sb-') && !id.startsWith(this.prefix);
  }

  /** The session ended: everything still waiting fails. */
  closeAll(): void {
    for (const w of this.waiting.values()) w.reject(new RpcError(ErrorCode.InternalError, 'the client session ended before answering'));
    this.waiting.clear();
  }
}
