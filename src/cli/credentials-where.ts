// Where per-user credentials live and whether a key to open them is at hand, as `switchboard check`
// and `switchboard users` say it: paths, the Redis address (password hidden), key ids. Never a key,
// a token or a secret.

import type { GatewayConfig } from '../config/types.js';
import { describeError } from '../errors.js';
import { defaultCredentialFile } from '../state/credential-file.js';
import { loadKeyring } from '../state/credential-keys.js';
import { credentialKeyFile } from '../state/open-credentials.js';
import { describeRedisUrl } from '../state/redis-url.js';

export interface CredentialsWhere {
  /** `file /path/credentials.json` or `redis at host:port (...)`. */
  store: string;
  /** Where the key comes from and its id, or why there is none. */
  key: string;
  /** Whether a key opens records now (false: none yet, or unusable). */
  keyAvailable: boolean;
}

export async function credentialsWhere(config: Pick<GatewayConfig, 'state' | 'credentials'>, env: NodeJS.ProcessEnv = process.env): Promise<CredentialsWhere> {
  const redis = config.state.redis;
  const file = config.credentials.file ?? defaultCredentialFile(env);
  const store = redis !== undefined ? `redis at ${describeRedisUrl(redis)}` : `file ${file}`;
  const keyFile = credentialKeyFile(file, config.credentials.keyFile);
  const fromEnv = env.SWITCHBOARD_CREDENTIALS_KEY !== undefined && env.SWITCHBOARD_CREDENTIALS_KEY.trim() !== '';
  try {
    const keyring = await loadKeyring({ env, keyFile, create: false });
    const older = keyring.ids.length - 1;
    const source = fromEnv ? 'SWITCHBOARD_CREDENTIALS_KEY' : `key file ${keyFile}`;
    return { store, key: `${source} (key id ${keyring.currentId}${older > 0 ? `, ${older} older` : ''})`, keyAvailable: true };
  } catch (err) {
    if (!fromEnv && (err as NodeJS.ErrnoException).code === 'ENOENT') {
      // The file backend makes its key on first start; replicas sharing Redis must be given one.
      const key =
        redis === undefined
          ? `none yet: the gateway makes ${keyFile} on first start (or set SWITCHBOARD_CREDENTIALS_KEY)`
          : `missing: with state.redis every replica needs the same key, in SWITCHBOARD_CREDENTIALS_KEY or ${keyFile}`;
      return { store, key, keyAvailable: false };
    }
    return { store, key: `unusable: ${describeError(err)}`, keyAvailable: false };
  }
}
