// The Redis store's health: 'up' while both its connections (commands, pub/sub) are ready and the
// last heartbeat got through, 'down' otherwise. One value, told once per change, however many
// connection events (error, reconnecting, ready) a flapping Redis produces.

import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Subscription } from 'rxjs';
import type { StoreHealth } from './store.js';

export class RedisHealth {
  private readonly commands = new BehaviorSubject(false);
  private readonly pubsub = new BehaviorSubject(false);
  /** A timed-out heartbeat means down even when the socket looks open (a Redis that stopped answering). */
  private readonly heartbeat = new BehaviorSubject(true);
  private readonly health = new BehaviorSubject<StoreHealth>('down');
  private readonly wiring: Subscription;

  constructor() {
    this.wiring = combineLatest([this.commands, this.pubsub, this.heartbeat])
      .pipe(
        map(([c, p, h]): StoreHealth => (c && p && h ? 'up' : 'down')),
        distinctUntilChanged(),
      )
      .subscribe(this.health);
  }

  get value(): StoreHealth {
    return this.health.value;
  }

  setCommands(ready: boolean): void {
    if (this.commands.value !== ready) this.commands.next(ready);
  }

  setPubSub(ready: boolean): void {
    if (this.pubsub.value !== ready) this.pubsub.next(ready);
  }

  setHeartbeat(ok: boolean): void {
    if (this.heartbeat.value !== ok) this.heartbeat.next(ok);
  }

  /** Calls `listener` on every change from now on (not with the current value). */
  onChange(listener: (health: StoreHealth) => void): () => void {
    let first = true;
    const sub = this.health.subscribe((h) => {
      if (first) first = false;
      else listener(h);
    });
    return () => sub.unsubscribe();
  }

  /** Resolves when the health is 'up', or after `ms` (false then). */
  whenUp(ms: number): Promise<boolean> {
    if (this.health.value === 'up') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      const stop = this.onChange((h) => h === 'up' && done(true));
      const done = (up: boolean) => {
        clearTimeout(timer);
        stop();
        resolve(up);
      };
    });
  }

  close(): void {
    this.wiring.unsubscribe();
    this.health.complete();
  }
}
