// GET + Last-Event-ID on a session shared through a state store: the stream that id belongs to
// picks up where the client lost it, on whichever replica the GET reached. The session's GET
// stream resumes as the GET stream (409 if one is open here); a POST's stream resumes as a stream
// of its own that ends with the request's response. An id the store does not know for this session
// (evicted, another session's, made up) replays nothing: the GET opens as a fresh one.
//
// A POST's stream whose serving replica died is answered here, once: the claim is taken over
// (settleCall) and the stream ends with an error saying the call may or may not have run.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, errorResponse } from '../protocol/jsonrpc.js';
import { GatewayErrorCode } from '../errors.js';
import type { StoredEvent } from '../state/store.js';
import { serializeMessage } from '../jsonrpc/ndjson.js';
import type { SessionRecords } from './http-records.js';
import { Refusal } from './http-reply.js';
import { GET_STREAM, type SessionEntry } from './http-session.js';
import { SseStream } from './http-sse.js';
import { ResumedStream } from './http-stored-stream.js';
import type { SessionRoutesHost } from './http-session-routes.js';

/** The error a client gets for a call whose replica stopped while serving it. */
export const REPLICA_STOPPED = 'Internal error: the gateway replica serving this request stopped before answering; the call may or may not have run';

/** Resumes the stream `lastEventId` belongs to; `open` opens a fresh GET stream when there is none to resume. */
export async function resume(
  host: SessionRoutesHost,
  req: IncomingMessage,
  res: ServerResponse,
  entry: SessionEntry,
  lastEventId: string,
  open: (replay?: readonly StoredEvent[]) => void,
): Promise<void> {
  const records = entry.records!;
  // Events appended while the store is read are heard here too, so none falls between the two.
  const heard: StoredEvent[] = [];
  const stopHearing = entry.collect((event) => heard.push(event));
  let found: Awaited<ReturnType<typeof records.store.eventsAfter>>;
  try {
    found = await records.store.eventsAfter(entry.id, lastEventId);
  } catch (err) {
    records.failed(err);
    found = undefined;
  }
  stopHearing();
  if (res.destroyed || entry.closed) return;
  if (found === undefined) {
    host.logger.debug({ sessionId: entry.id }, 'Last-Event-ID unknown to the store: nothing to replay');
    return open();
  }
  const { stream, events } = found;
  if (stream === GET_STREAM) {
    if (entry.hasOpenGetStream()) return host.refuse(req, res, 409, Refusal.streamConflict);
    const after = heard.filter((e) => e.stream === GET_STREAM);
    return open([...events, ...after.filter((e) => !events.some((r) => r.id === e.id))]);
  }
  const sse = new SseStream(res, entry.nextStreamId(), entry.id, entry.registry, host.options.writeBufferBytes);
  const resumed = new ResumedStream(stream, sse, true);
  entry.holdResumed(resumed, res);
  for (const event of heard) if (event.stream === stream) resumed.live(event);
  resumed.replay(events);
  if (!resumed.isOpen) return;
  // The replica serving the call may die while the client waits here: looked at again now and then.
  // With no claim at two looks in a row the call was answered at or before the client's id (a
  // client resuming after the response): nothing more will come, so the stream ends. One look is
  // not enough: the owner settles the claim just before it appends the response.
  let unclaimed = false;
  const look = async () => {
    if ((await answerForTheDead(records, entry, stream, sse)) !== 'unclaimed') return void (unclaimed = false);
    if (unclaimed) sse.end();
    unclaimed = true;
  };
  const watch = setInterval(() => void look(), OWNER_CHECK_MS);
  watch.unref();
  res.once('close', () => clearInterval(watch));
  await look();
}

/** How often a resumed stream checks that the replica serving its call is still alive. */
const OWNER_CHECK_MS = 5_000;

/** The claim on `stream` is held by a replica that is gone: the stream ends with one error for its request. 'unclaimed' when nobody holds it. */
async function answerForTheDead(records: SessionRecords, entry: SessionEntry, stream: string, sse: SseStream): Promise<'unclaimed' | undefined> {
  const { store } = records;
  try {
    const claim = await store.callClaim(entry.id, stream);
    if (claim === undefined) return 'unclaimed';
    if (claim.replica === store.replicaId || (await store.isAlive(claim.replica))) return;
    if (!(await store.settleCall(entry.id, stream))) return;
    const data = serializeMessage(errorResponse(claim.requestId, ErrorCode.InternalError, REPLICA_STOPPED, { code: GatewayErrorCode.REPLICA_STOPPED }));
    // Appended like any event: this stream (and any other resumption of it) writes it and ends.
    await store.appendEvent(entry.id, stream, data).catch((err: unknown) => {
      records.failed(err);
      sse.sendData(data);
      sse.end();
    });
  } catch (err) {
    records.failed(err);
  }
}
