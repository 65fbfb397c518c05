// Gateway replicas in one process for scale-out tests: N apps with the same config, each on its
// own HTTP port at 127.0.0.1, sharing one MemoryStore (each its own replica of it), and a fetch
// that sends each request to the next replica in turn: a round-robin balancer without affinity.
import { App } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/log.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore } from '../../src/state/store.js';

export interface Replica {
  app: App;
  url: string;
  store: StateStore;
}

export interface Replicas {
  replicas: Replica[];
  /** Round robin over the replicas, whatever URL it is given (its path and query are kept). */
  fetch: typeof fetch;
  /** A fetch that always goes to replica `i`. */
  to(i: number): typeof fetch;
  /** The URL clients are given: the first replica's (the fetch rewrites the port). */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts `n` replicas of `yaml` sharing a MemoryStore, or the stores `stores` makes (one per
 * replica), or (`'config'`) each the store its config names (`state.redis`).
 */
export async function startReplicas(yaml: string, n = 2, stores?: ((i: number, first: MemoryStore) => StateStore) | 'config'): Promise<Replicas> {
  const first = new MemoryStore();
  const replicas: Replica[] = [];
  for (let i = 0; i < n; i++) {
    const given = stores === 'config' ? undefined : (stores?.(i, first) ?? (i === 0 ? first : new MemoryStore({ shareWith: first })));
    const app = new App(parseConfig(yaml, { baseDir: process.cwd(), env: {} }), silentLogger(), { stateStore: given });
    await app.start();
    const url = (await app.listen({ http: { host: '127.0.0.1', port: 0 } }))!;
    replicas.push({ app, url, store: app.state! });
  }
  const to =
    (i: number): typeof fetch =>
    (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      target.port = new URL(replicas[i]!.url).port;
      return fetch(target, init);
    };
  let next = 0;
  return {
    replicas,
    url: replicas[0]!.url,
    to,
    fetch: (input, init) => to(next++ % replicas.length)(input, init),
    close: async () => {
      await Promise.allSettled(replicas.map((r) => r.app.close()));
    },
  };
}
