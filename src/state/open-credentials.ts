// The one way the gateway gets its CredentialStore: the keyring from the environment or the key
// file, records in the credentials file by default, in the scale-out store's Redis when the
// StateStore is the Redis one (so every replica sees every connect).

import { defaultCredentialFile, FileCredentialBackend } from './credential-file.js';
import { type Keyring, loadKeyring } from './credential-keys.js';
import { type CredentialStore, type SealedBackend, SealedCredentialStore } from './credentials.js';
import type { StateStore } from './store.js';

export interface OpenCredentialsOptions {
  /** The gateway's StateStore: when it is the Redis one, credentials live there too. */
  readonly store?: StateStore;
  /** The file backend's file (default: defaultCredentialFile()). */
  readonly file?: string;
  /** The key file when SWITCHBOARD_CREDENTIALS_KEY is unset (default: credentials.key beside the file). */
  readonly keyFile?: string;
  /** Write a new key file when there is no key at all (the file backend's first start; never with Redis). */
  readonly createKey?: boolean;
  /** A keyring made by the caller (tests, `switchboard users rotate`): wins over env and key file. */
  readonly keyring?: Keyring;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => number;
}

/** Whether `store` can hold credentials itself (the Redis store): duck-typed so memory never loads Redis code. */
function redisBackendOf(store: StateStore | undefined): SealedBackend | undefined {
  const candidate = store as (StateStore & { credentialBackend?: () => SealedBackend }) | undefined;
  return candidate?.kind === 'redis' && typeof candidate.credentialBackend === 'function' ? candidate.credentialBackend() : undefined;
}

/** The key file the store reads when SWITCHBOARD_CREDENTIALS_KEY is unset: `keyFile`, else credentials.key beside `file`. */
export function credentialKeyFile(file: string, keyFile?: string): string {
  return keyFile ?? `${file.replace(/\.json$/, '')}.key`;
}

export async function openCredentialStore(options: OpenCredentialsOptions = {}): Promise<CredentialStore> {
  const env = options.env ?? process.env;
  const file = options.file ?? defaultCredentialFile(env);
  const redis = redisBackendOf(options.store);
  // With Redis, replicas on different hosts must share one key: a key each one made for itself
  // would seal records the others cannot open. So a key is made only for the file backend.
  const keyring = options.keyring ?? (await loadKeyring({ env, keyFile: credentialKeyFile(file, options.keyFile), create: redis === undefined && options.createKey === true }));
  return new SealedCredentialStore(redis ?? new FileCredentialBackend(file), keyring, options.now);
}
