// SSE streams of a stateful session whose events go through the state store, so that a client
// that lost one resumes it with GET + Last-Event-ID on any replica. StoredStream is the writing
// side (a POST's stream, where the request is served): each event is appended, then written with
// the store's id, strictly in the order added. ResumedStream is a GET that picks a stream up after
// an id: what the store kept after it, then the events still being appended, wherever.

import type { StoredEvent } from '../state/store.js';
import type { SessionRecords } from './http-records.js';
import type { SseStream } from './http-sse.js';

export class StoredStream {
  /** Appends and writes one after the other: ids and the client's order agree. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly records: SessionRecords,
    private readonly sessionId: string,
    /** The stream's name within the session, unique in the cluster (replica id, then a counter). */
    readonly name: string,
    private readonly sse: SseStream,
  ) {}

  /**
   * Stores `data` (one line of JSON, or '' for a priming event), then writes it with its id. The
   * store failing, it is written without one: the client still gets it, only not resumably. Too
   * large to keep, the store keeps a stand-in: `data` itself is written here, with the stand-in's id.
   */
  add(data: string): void {
    this.chain = this.chain.then(() => this.write(data));
  }

  /** add()'s work, for a step of after() (which must not add: that would queue behind itself). Never rejects. */
  write(data: string): Promise<unknown> {
    const { records, sessionId, name, sse } = this;
    return records.store.appendEvent(sessionId, name, data).then(
      (event) => sse.sendEvent(event.id, data),
      (err: unknown) => {
        records.failed(err);
        if (data !== '') sse.sendData(data);
      },
    );
  }

  /** Runs `step` after everything added so far has been stored and written. */
  after(step: () => unknown): void {
    this.chain = this.chain.then(step).catch(this.records.failed);
  }
}

/** Whether stored `data` is a JSON-RPC response: the last event of a POST's stream. */
export function isFinal(data: string): boolean {
  if (data === '') return false;
  try {
    const message = JSON.parse(data) as { method?: unknown };
    return message.method === undefined;
  } catch {
    return false;
  }
}

/**
 * A stream resumed after `lastEventId`: live events that arrive while the stored ones are read
 * wait, and are written after them unless they were among them (no event twice, none lost).
 */
export class ResumedStream {
  private waiting: StoredEvent[] | undefined = [];
  /**
   * Ids the store's replay wrote whose live copy has not come yet: it can reach us after the read
   * that returned the event (Redis pub/sub lags the stream it was appended to) and must not be
   * written twice. Each id goes when its copy comes; never more than the replay (maxEvents).
   */
  private readonly seen = new Set<string>();

  constructor(
    readonly name: string,
    private readonly sse: SseStream,
    /** This stream ends with the POST's response (a GET stream never ends by itself). */
    private readonly endsWithResponse: boolean,
  ) {}

  get isOpen(): boolean {
    return this.sse.isOpen;
  }

  /** What the store kept after the id: written first. */
  replay(events: readonly StoredEvent[]): void {
    for (const event of events) {
      this.seen.add(event.id);
      this.write(event);
    }
    const live = this.waiting ?? [];
    this.waiting = undefined;
    for (const event of live) if (!this.seen.delete(event.id)) this.write(event);
  }

  /** An event of this stream appended now (here or on another replica). */
  live(event: StoredEvent): void {
    if (this.waiting !== undefined) this.waiting.push(event);
    else if (!this.seen.delete(event.id)) this.write(event);
  }

  end(): void {
    this.sse.end();
  }

  private write(event: StoredEvent): void {
    this.sse.sendEvent(event.id, event.data);
    if (this.endsWithResponse && isFinal(event.data)) this.sse.end();
  }
}
