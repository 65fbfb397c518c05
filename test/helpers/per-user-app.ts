// The gateway in-process with a credential store and a stand-in for the connect pages, listening
// on 127.0.0.1 port 0 over HTTP: how the per-user tests run it. The App is returned to close.

import { stringify } from 'yaml';
import { App } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/types.js';
import { silentLogger } from '../../src/log.js';
import type { ConnectAsker } from '../../src/router/connect-ask.js';
import type { CredentialStore } from '../../src/state/credentials.js';

/** A config given as an object (as a YAML file would hold it), parsed for the HTTP face. */
export function httpConfig(config: Record<string, unknown>): GatewayConfig {
  return parseConfig(stringify(config), { baseDir: process.cwd(), env: {}, httpFace: true });
}

export async function listenWithCredentials(config: GatewayConfig, credentials: CredentialStore, connectAsker: ConnectAsker): Promise<{ app: App; url: string }> {
  const app = new App(config, silentLogger(), { credentials, connectAsker });
  await app.start();
  const url = (await app.listen({ http: { host: '127.0.0.1', port: 0 } }))!;
  return { app, url };
}
