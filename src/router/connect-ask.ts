// Asking a user to connect a per-user server (issue 33): the link to the gateway's connect page
// goes to the client as a URL elicitation, in the form its era and capabilities allow, and the call
// waits until a credential is stored. The connect pages (src/connect/) implement ConnectAsker; the
// router may not import them. Invariants: the URL goes only to the client of the request that
// needs it; `elicitation/complete` only to the session that got the elicitation; a decline,
// cancel or expiry ends the call with an error naming the server, and nothing is retried.

import { GatewayError, RpcError } from '../errors.js';
import type { Cancellation } from '../jsonrpc/cancellation.js';
import { type JsonObject, valueAt } from '../protocol/json.js';
import { ErrorCode } from '../protocol/jsonrpc.js';
import type { RequestOwner, Session } from './session.js';

export interface ConnectLink {
  url: string;
  elicitationId: string;
  /** Epoch ms after which the link no longer works. */
  expiresAt: number;
  message: string;
}

export interface ConnectAsker {
  /** A fresh single-use, short-lived link for `user` to connect `server` (its elicitationId names this request's ask). */
  link(user: string, server: string): Promise<ConnectLink>;
  /** Resolves once `user` has a credential for `server` stored by a connect on any replica (or already has one); rejects when `signal` aborts. */
  connected(user: string, server: string, signal: AbortSignal): Promise<void>;
}

/** What an ask can do with a request: the three ways the spec offers, by what the client declared. */
export type AskWay = 'elicit' | 'input' | 'error';

/** How `owner`'s client can be asked: a URL elicitation now, an input round (2026-07-28), or only the -32042 error. */
export function askWay(owner: RequestOwner): AskWay {
  if (!valueAt(owner.client.clientCapabilities, 'elicitation', 'url')) return 'error';
  if (owner.inputs !== undefined) return 'input';
  return owner.client.unaskable === undefined ? 'elicit' : 'error';
}

/** The spec's URLElicitationRequiredError for `link`, its message naming the URL for a person to open. */
export function urlElicitationRequired(server: string, link: ConnectLink): RpcError {
  const elicitation = { mode: 'url', elicitationId: link.elicitationId, url: link.url, message: link.message };
  return new RpcError(ErrorCode.URLElicitationRequired, `Server "${server}" needs you to connect your account first: open ${link.url} , then call again.`, { elicitations: [elicitation] });
}

/**
 * The asks in progress. Parallel calls of one session's user to one server share one ask (one
 * elicitation, not three); a request of the stateless revision has its own input round, so its ask
 * is its own.
 */
export class ConnectAsks {
  private readonly shared = new Map<string, { done: Promise<void>; waiters: number; stop: AbortController }>();

  constructor(
    /** The connect pages, once there are any (undefined: per-user servers cannot be connected from here). */
    private readonly asker: () => ConnectAsker | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once `user` has connected `server` (the caller then opens the connection); rejects with the error the client gets. */
  ask(owner: RequestOwner & { readonly cancellation?: Cancellation }, user: string, server: string): Promise<void> {
    const asker = this.asker();
    if (asker === undefined) {
      return Promise.reject(new GatewayError('CONNECT_REQUIRED', `server "${server}" needs a per-user credential and this gateway has no connect pages to get one`, { server }));
    }
    const way = askWay(owner);
    if (way === 'input') return withCancel(owner.cancellation, (signal) => this.viaInput(asker, owner, user, server, signal));
    if (way === 'error') return this.viaError(asker, owner.session, owner.inputs === undefined, user, server);
    const key = `${owner.session.id}\u0000${user}\u0000${server}`;
    let flight = this.shared.get(key);
    if (flight === undefined) {
      const stop = new AbortController();
      const done = this.viaElicitation(asker, owner, user, server, stop.signal);
      const entry = { done, waiters: 0, stop };
      this.shared.set(key, entry);
      const clear = () => this.shared.get(key) === entry && this.shared.delete(key);
      done.then(clear, clear);
      flight = entry;
    }
    return this.join(flight, owner.cancellation);
  }

  /** One more call waiting on a shared ask: the ask stops only when every call waiting on it is cancelled. */
  private join(flight: { done: Promise<void>; waiters: number; stop: AbortController }, cancellation: Cancellation | undefined): Promise<void> {
    flight.waiters++;
    return new Promise<void>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        off?.();
        if (--flight.waiters === 0) flight.stop.abort();
      };
      const off = cancellation?.onCancel(() => {
        leave();
        reject(new GatewayError('CANCELLED', 'the request was cancelled while waiting for the connect'));
      });
      flight.done.then(
        () => (leave(), resolve()),
        (err: unknown) => (leave(), reject(err)),
      );
    });
  }

  /** 2025-11-25 with elicitation.url: the elicitation on the request's channel; accept → wait for the connect → complete. */
  private async viaElicitation(asker: ConnectAsker, owner: RequestOwner, user: string, server: string, signal: AbortSignal): Promise<void> {
    const link = await asker.link(user, server);
    const params = { mode: 'url', message: link.message, url: link.url, elicitationId: link.elicitationId };
    const answer = await owner.session.requestClient('elicitation/create', params, owner.related, signal);
    refusedUnlessAccepted(server, answer);
    await this.until(asker, user, server, link, signal);
    owner.session.send({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: link.elicitationId } });
  }

  /** 2026-07-28: the same elicitation as an input round (no elicitationId in that revision); the retry's accept → wait for the connect. */
  private async viaInput(asker: ConnectAsker, owner: RequestOwner, user: string, server: string, signal: AbortSignal): Promise<void> {
    const link = await asker.link(user, server);
    const answer = await owner.inputs!.park('elicitation/create', { mode: 'url', message: link.message, url: link.url }, signal);
    refusedUnlessAccepted(server, answer);
    await this.until(asker, user, server, link, signal);
  }

  /**
   * A client that cannot be asked now: -32042 with the URL. A 2025-11-25 session still hears
   * `elicitation/complete` once the user connects (bounded by the link's expiry), so a client that
   * shows the URL knows when to call again.
   */
  private async viaError(asker: ConnectAsker, session: Session, stateful: boolean, user: string, server: string): Promise<never> {
    const link = await asker.link(user, server);
    if (stateful) {
      const stop = new AbortController();
      this.until(asker, user, server, link, stop.signal).then(
        () => session.send({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: link.elicitationId } }),
        () => undefined,
      );
    }
    throw urlElicitationRequired(server, link);
  }

  /** Waits for the credential, no longer than the link lives. */
  private until(asker: ConnectAsker, user: string, server: string, link: ConnectLink, signal: AbortSignal): Promise<void> {
    const bound = new AbortController();
    const timer = setTimeout(() => bound.abort(), Math.max(0, link.expiresAt - this.now()));
    const stop = () => bound.abort();
    signal.addEventListener('abort', stop, { once: true });
    return asker.connected(user, server, bound.signal).then(
      () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      },
      (err: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        if (signal.aborted) throw new GatewayError('CANCELLED', 'the request was cancelled while waiting for the connect', { server });
        if (bound.signal.aborted) throw new GatewayError('CONNECT_REQUIRED', `the link to connect server "${server}" expired before the connect completed; call again for a new one`, { server });
        throw err;
      },
    );
  }
}

/** A decline or cancel (or an answer that is not an accept) ends the call: the user chose not to connect. */
function refusedUnlessAccepted(server: string, answer: JsonObject): void {
  const action = answer.action;
  if (action === 'accept') return;
  const what = action === 'decline' ? 'declined' : action === 'cancel' ? 'cancelled' : 'did not accept';
  throw new GatewayError('CONNECT_REQUIRED', `the user ${what} connecting server "${server}", which needs a per-user credential`, { server });
}

/** Runs `work` with a signal that aborts when the request is cancelled. */
function withCancel(cancellation: Cancellation | undefined, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const off = cancellation?.onCancel(() => stop.abort());
  const done = work(stop.signal);
  done.then(
    () => off?.(),
    () => off?.(),
  );
  return done;
}
