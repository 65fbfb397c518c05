// Adoption: a request names a session this replica does not hold. With sessions shared through a
// state store, its record is looked up; a session initialized on another replica (or before this
// one restarted) is opened here from it and serves the request. Unknown: 404 as always, so the
// client initializes again. Store unreachable: 503 with Retry-After, never 404 (it may well exist).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { SessionRecord } from '../state/store.js';
import { Refusal, limitHeaders } from './http-reply.js';
import { SessionEntry } from './http-session.js';
import type { SessionRoutesHost } from './http-session-routes.js';

/** The session `id` adopted from its record, or undefined after answering 403/404/503. */
export async function adopt(host: SessionRoutesHost, req: IncomingMessage, res: ServerResponse, id: string, principal: string | undefined): Promise<SessionEntry | undefined> {
  const records = host.records!;
  // An opener that cannot restore a session (a test's) adopts nothing.
  const found = host.opener.restoreSession === undefined ? 'not-found' : await records.lookup(id);
  if (found === 'down') {
    host.refuse(req, res, 503, Refusal.storeDown, limitHeaders(1000));
    return undefined;
  }
  if (found === 'not-found') {
    host.refuse(req, res, 404, Refusal.sessionNotFound);
    return undefined;
  }
  // Before anything is opened: a guessed id of another principal's session costs it nothing.
  if (found.principal !== principal) {
    host.refuse(req, res, 403, Refusal.wrongClient);
    return undefined;
  }
  if (host.isClosed) {
    host.refuse(req, res, 503, Refusal.shuttingDown, limitHeaders(1000));
    return undefined;
  }
  // Two requests for it may have raced here: the first one adopted it.
  const held = host.sessions.byId.get(id);
  if (held !== undefined) return held;
  const holder = host.sessions.principals.holding(found.holder, found.principal === undefined);
  if (host.sessions.admit(holder, Date.now()) !== 'ok') {
    host.logger.warn({ sessionId: id }, 'refused to adopt a session: no room (limits.maxSessions, limits.perPrincipal.sessions)');
    host.refuse(req, res, 503, Refusal.tooManySessions, limitHeaders(1000));
    return undefined;
  }
  let entry: SessionEntry;
  try {
    entry = new SessionEntry(host.opener, host.streams, host.logger, principal, false, { holder, principals: host.sessions.principals }, found);
  } catch (err) {
    host.logger.error({ err }, 'restoreSession threw');
    host.refuse(req, res, 500, Refusal.internalError);
    return undefined;
  }
  host.hold(entry);
  records.attach(entry);
  host.logger.debug({ sessionId: id, from: found.replica }, 'session adopted from the state store');
  void resubscribe(host, entry, found);
  return entry;
}

/**
 * Resource subscriptions are held upstream by the replica that took them: taken again here only
 * when that replica is gone, so no update reaches the client twice.
 */
async function resubscribe(host: SessionRoutesHost, entry: SessionEntry, record: SessionRecord): Promise<void> {
  if (record.subscriptions.length === 0 || !(await host.records!.ownerGone(record))) return;
  for (const uri of record.subscriptions) {
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: `resubscribe-${uri}`, method: 'resources/subscribe', params: { uri } };
    const reply = await entry.session.handle(request);
    if (reply !== undefined && 'error' in reply) host.logger.warn({ sessionId: entry.id, uri }, 'a subscription of an adopted session could not be taken again');
  }
}
