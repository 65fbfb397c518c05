// takeSharedKey: with the store down at start the gateway still starts, and signs with the
// store's shared key once the store answers (a replica started during a Redis outage).
import { describe, expect, it } from 'vitest';
import { takeSharedKey } from '../../../src/app/shared-key.js';
import { silentLogger } from '../../../src/log.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import type { StateStore, StoreHealth } from '../../../src/state/store.js';

function flaky(): StateStore & { up(): void; listening: Promise<void> } {
  const inner = new MemoryStore();
  let health: StoreHealth = 'down';
  const listeners = new Set<(h: StoreHealth) => void>();
  let heard!: () => void;
  const listening = new Promise<void>((resolve) => (heard = resolve));
  return Object.assign(Object.create(inner) as StateStore, {
    listening,
    onHealth(listener: (h: StoreHealth) => void) {
      listeners.add(listener);
      heard();
      return () => listeners.delete(listener);
    },
    sharedKey: () => (health === 'up' ? inner.sharedKey() : Promise.reject(new Error('down'))),
    up() {
      health = 'up';
      for (const l of [...listeners]) l(health);
    },
  });
}

describe('takeSharedKey', () => {
  it('starts with the store down and takes the shared key when it is up', async () => {
    const store = flaky();
    const used: string[] = [];
    const took = new Promise<void>((resolve) => {
      void takeSharedKey(store, (_key, keyId) => (used.push(keyId), resolve()), silentLogger());
    });
    // It started (did not wait for the store) and listens for the store coming back.
    await store.listening;
    expect(used).toEqual([]);
    store.up();
    await took;
    expect(used).toEqual([(await store.sharedKey()).keyId]);
  });

  it('takes it at once when the store is up', async () => {
    const store = new MemoryStore();
    const used: string[] = [];
    await takeSharedKey(store, (_key, keyId) => used.push(keyId), silentLogger());
    expect(used).toEqual([(await store.sharedKey()).keyId]);
  });
});
