// The Redis store's pub/sub side: one subscriber connection per process, one channel per session
// some listener here holds, messages as JSON. Subscribing twice to a session shares one SUBSCRIBE;
// the last listener leaving sends UNSUBSCRIBE, and a new subscriber waits until it is confirmed.

import type { Logger } from '../log.js';
import type { SessionMessage } from './store.js';

type Listener = (message: SessionMessage) => void;

/** What of node-redis's client this needs (the duplicated connection in subscriber mode). */
export interface Subscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
}

interface Channel {
  readonly listeners: Set<Listener>;
  /** The SUBSCRIBE, confirmed or not yet. */
  readonly ready: Promise<unknown>;
}

export class RedisChannels {
  private readonly channels = new Map<string, Channel>();
  /** UNSUBSCRIBEs not yet confirmed, by session. */
  private readonly leaving = new Map<string, Promise<void>>();

  constructor(
    private readonly sub: Subscriber,
    private readonly channelOf: (sessionId: string) => string,
    /** Runs a command as the store does: rejected at once while it is down. */
    private readonly call: <T>(op: () => Promise<T>) => Promise<T>,
    private readonly log?: Logger,
  ) {}

  async subscribe(sessionId: string, listener: Listener): Promise<() => void> {
    let channel = this.channels.get(sessionId);
    if (channel === undefined) {
      // node-redis drops a channel's new listeners when the UNSUBSCRIBE sent before them is confirmed.
      await this.leaving.get(sessionId);
      channel = this.channels.get(sessionId);
    }
    if (channel === undefined) {
      const entry: Channel = { listeners: new Set(), ready: this.call(() => this.sub.subscribe(this.channelOf(sessionId), (text) => this.deliver(sessionId, text))) };
      this.channels.set(sessionId, (channel = entry));
      entry.ready.catch(() => {
        if (this.channels.get(sessionId) === entry) this.channels.delete(sessionId);
      });
    }
    // A second subscriber waits for the same SUBSCRIBE: it hears nothing published before it is in place.
    await channel.ready;
    // Its last listener left (and UNSUBSCRIBE went) while this one waited: start again.
    if (this.channels.get(sessionId) !== channel) return this.subscribe(sessionId, listener);
    channel.listeners.add(listener);
    const held = channel;
    return () => {
      held.listeners.delete(listener);
      if (held.listeners.size > 0 || this.channels.get(sessionId) !== held) return;
      this.channels.delete(sessionId);
      // Best effort: while down, node-redis has already forgotten the channel and will not resubscribe it.
      const leaving = this.sub
        .unsubscribe(this.channelOf(sessionId))
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          if (this.leaving.get(sessionId) === leaving) this.leaving.delete(sessionId);
        });
      this.leaving.set(sessionId, leaving);
    };
  }

  /** Forgets every listener (the store is closing). */
  clear(): void {
    this.channels.clear();
  }

  private deliver(sessionId: string, text: string): void {
    const channel = this.channels.get(sessionId);
    if (channel === undefined) return;
    let message: SessionMessage;
    try {
      message = JSON.parse(text) as SessionMessage;
      // A patch's cleared keys came as null (no record field is ever null): undefined again, as sent.
      if (message.kind === 'patched') message = { kind: 'patched', patch: Object.fromEntries(Object.entries(message.patch).map(([k, v]) => [k, v ?? undefined])) };
    } catch {
      this.log?.debug({ sessionId }, 'state store: dropped a message that is not JSON');
      return;
    }
    for (const listener of [...channel.listeners]) listener(message);
  }
}
