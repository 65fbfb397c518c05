// Calls waiting for a client's input between rounds (see input-bridge.ts), each named by a sealed
// requestState. A token resumes its call once, from the same session, for the same method and
// params, before it expires; an expired call is cancelled on its server. Bounded in number.

import type { JsonObject } from '../protocol/json.js';
import { randomUUID } from 'node:crypto';
import { RpcError } from '../errors.js';
import type { RawResponse } from '../jsonrpc/raw.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import type { InputBridge } from './input-bridge.js';
import { RequestStateSeal, paramsDigest } from './request-state.js';
import type { Session } from './session.js';

/**
 * The outcome of a handler, settled (so a parked call never rejects unobserved). A forwarded
 * result may still be the server's raw answer (its bytes as read; bridged-request.ts tells it
 * apart with isRawResponse and parses it when splicing cannot serve).
 */
export type Outcome = { ok: true; result: JsonObject | RawResponse } | { ok: false; error: unknown };

export interface ParkedCall {
  session: Session;
  bridge: InputBridge;
  work: Promise<Outcome>;
  /** Cancels the call on its server. */
  cancel(): void;
  method: string;
  /**
   * The first round's params. Their digest is taken when the call parks, not when it starts:
   * hashing every request's params cost ~2 µs, and most calls never need input.
   */
  params: JsonObject;
}

interface Entry {
  call: ParkedCall;
  timer: NodeJS.Timeout;
}

/** A client gets this long to answer a round. */
export const ROUND_TTL_MS = 5 * 60_000;
/** Calls parked at once across the gateway; beyond it the oldest is abandoned. */
export const MAX_PARKED = 10_000;

export class ParkedCalls {
  private readonly byId = new Map<string, Entry>();
  private readonly seal: RequestStateSeal;

  constructor(key?: Buffer) {
    this.seal = new RequestStateSeal(key);
  }

  /** Parks `call`; answers the requestState that resumes it. */
  park(call: ParkedCall): string {
    if (this.byId.size >= MAX_PARKED) {
      const [oldest] = this.byId.keys();
      this.expire(oldest!, 'too many calls wait for client input');
    }
    const id = randomUUID();
    const timer = setTimeout(() => this.expire(id, 'the client did not answer in time'), ROUND_TTL_MS);
    timer.unref();
    this.byId.set(id, { call, timer });
    return this.seal.seal({ id, principal: call.session.profile?.name ?? '', method: call.method, digest: paramsDigest(call.params), exp: Date.now() + ROUND_TTL_MS });
  }

  /**
   * The call `state` resumes, taken out of the table once `accept` (which may throw to refuse the
   * retry, leaving the token valid) has passed; throws -32602 for any token that names none.
   */
  take(state: string, session: Session, method: string, digest: string, accept: (call: ParkedCall) => void): ParkedCall {
    const claims = this.seal.open(state);
    const entry = claims ? this.byId.get(claims.id) : undefined;
    const call = entry?.call;
    if (!claims || !call || claims.exp < Date.now() || call.session !== session || claims.principal !== (session.profile?.name ?? '') || claims.method !== method || claims.digest !== digest) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
    }
    accept(call);
    clearTimeout(entry.timer);
    this.byId.delete(claims.id);
    return call;
  }

  /** A session ended: its parked calls are cancelled. */
  dropSession(session: Session): void {
    for (const [id, entry] of this.byId) if (entry.call.session === session) this.expire(id, 'the client session ended');
  }

  /** Shutting down: every parked call is cancelled. */
  clear(): void {
    for (const id of [...this.byId.keys()]) this.expire(id, 'the gateway is shutting down');
  }

  get size(): number {
    return this.byId.size;
  }

  private expire(id: string, why: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.byId.delete(id);
    entry.call.bridge.failAll(why);
    entry.call.cancel();
  }
}
