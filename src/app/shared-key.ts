// The key cursors and requestState tokens are signed with, when replicas share a state store and
// listen.stateKey is not set: the store's shared key, so a cursor one replica issued pages on
// another. With the store down at start the gateway serves anyway and takes the key when it answers.

import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';

/** Gives `use` the store's shared key now, or as soon as the store is up again. */
export async function takeSharedKey(state: StateStore, use: (key: Buffer, keyId: string) => void, logger: Logger): Promise<void> {
  const adopt = async () => {
    const { key, keyId } = await state.sharedKey();
    use(key, keyId);
  };
  try {
    await adopt();
  } catch (err) {
    // New sessions get 503 until the store answers; until then cursors (of stateless requests)
    // are signed with this process's own key, and another replica asks their client to restart paging.
    logger.warn({ err: String(err) }, 'state store unreachable at start: the shared signing key is taken when it answers');
    let taken = false;
    const stop = state.onHealth((health) => {
      if (health !== 'up' || taken) return;
      taken = true;
      queueMicrotask(() => stop());
      adopt().catch((e: unknown) => {
        taken = false;
        logger.warn({ err: String(e) }, 'state store: the shared signing key is not readable yet');
      });
    });
  }
}
