// One stateless-revision request (2026-07-28) served by a server of an earlier revision, whose
// requests to the client (elicitation, sampling, roots) cannot travel as requests any more:
// each is parked under a key of ours and handed to the client in an input_required result; the
// client's retry carries the answers (MRTR, basic/patterns/mrtr). Requests a server sends
// together are gathered into one round, so a server that asks three things at once gets all
// three answers from one retry.

import type { JsonObject } from '../protocol/json.js';
import { RpcError } from '../errors.js';
import { ErrorCode, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import { missingCapability } from '../protocol/capabilities.js';

/** A server request waits this long for siblings before the round is handed to the client. */
const GATHER_MS = 20;
/** …but no longer than this after the first one. */
const GATHER_MAX_MS = 200;

interface Leg {
  method: string;
  params: JsonObject | undefined;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

export class InputBridge {
  /** Where messages about the request go: the current round's channel (none between rounds). */
  related: ((message: JsonRpcMessage) => void) | undefined;
  progress: ((params: JsonObject) => void) | undefined;
  /** Capabilities a server request needed and this round's client lacked (for -32021). */
  readonly refused = new Set<string>();
  private readonly waiting = new Map<string, Leg>();
  private nextKey = 0;
  private gatherTimer: NodeJS.Timeout | undefined;
  private gatherStarted = 0;
  private wake: (() => void) | undefined;

  constructor(
    /** The capabilities of the round being served (each retry carries its own). */
    public capabilities: JsonObject,
  ) {}

  /** A server's request to the client: answered when a retry carries its key's response. */
  park(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject> {
    const lacking = missingCapability(this.capabilities, method, params);
    if (lacking !== undefined) {
      // What a client that lacks the capability answers; the call's outcome may become -32021.
      this.refused.add(lacking);
      return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `the client did not declare the ${lacking} capability`));
    }
    const key = `${method.slice(0, method.indexOf('/'))}-${this.nextKey++}`;
    return new Promise((resolve, reject) => {
      const leg: Leg = { method, params, resolve, reject };
      this.waiting.set(key, leg);
      signal.addEventListener(
        'abort',
        () => {
          if (this.waiting.delete(key)) reject(new RpcError(ErrorCode.InternalError, 'the server cancelled its request'));
        },
        { once: true },
      );
      this.gather();
    });
  }

  private gather(): void {
    const now = Date.now();
    if (this.gatherTimer === undefined) this.gatherStarted = now;
    clearTimeout(this.gatherTimer);
    const wait = Math.max(0, Math.min(GATHER_MS, this.gatherStarted + GATHER_MAX_MS - now));
    this.gatherTimer = setTimeout(() => {
      this.gatherTimer = undefined;
      if (this.waiting.size > 0) this.wake?.();
    }, wait);
  }

  /** Resolves once the client's input is needed (at once if some is owed and none is gathering). */
  inputNeeded(): Promise<'input'> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve('input');
      };
      if (this.waiting.size > 0 && this.gatherTimer === undefined) this.wake();
    });
  }

  /** Stops listening for input (the call finished first). */
  settle(): void {
    this.wake = undefined;
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
  }

  /** The round's input requests: every server request still unanswered, by key. */
  inputRequests(): Record<string, { method: string; params: JsonObject }> {
    const out: Record<string, { method: string; params: JsonObject }> = {};
    for (const [key, leg] of this.waiting) out[key] = { method: leg.method, params: leg.params ?? {} };
    return out;
  }

  /**
   * A retry's answers. Keys not asked for are ignored; asked keys left out are asked again.
   * An answer that is not a result object fails the whole retry (nothing is taken from it), so the
   * client can retry with a correct one.
   */
  answer(responses: unknown): void {
    if (responses === undefined) return;
    if (responses === null || typeof responses !== 'object' || Array.isArray(responses)) {
      throw new RpcError(ErrorCode.InvalidParams, 'params.inputResponses must be an object of results by key');
    }
    const given = responses as Record<string, unknown>;
    for (const key of this.waiting.keys()) {
      if (!(key in given)) continue;
      const r = given[key];
      if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new RpcError(ErrorCode.InvalidParams, `params.inputResponses.${key} must be a result object`);
    }
    for (const [key, leg] of [...this.waiting]) {
      if (!(key in given)) continue;
      this.waiting.delete(key);
      // Checked above: every answer taken is a result object.
      leg.resolve(given[key] as JsonObject);
    }
  }

  /** The call is abandoned: every parked request fails back to the server. */
  failAll(why: string): void {
    this.settle();
    for (const leg of this.waiting.values()) leg.reject(new RpcError(ErrorCode.InternalError, why));
    this.waiting.clear();
  }
}
