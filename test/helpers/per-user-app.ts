// The gateway in-process for the per-user tests: with a credential store and a stand-in for the
// connect pages, listening on 127.0.0.1 port 0 over HTTP; or only the HTTP endpoint serving the
// connect pages. What is returned is for the test to close.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { stringify } from 'yaml';
import { App } from '../../src/app/app.js';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/types.js';
import { silentLogger } from '../../src/log.js';
import type { ConnectAsker } from '../../src/router/connect-ask.js';
import { startHttpEndpoint } from '../../src/inbound/http-endpoint.js';
import type { SessionOpener } from '../../src/inbound/session-opener.js';
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

/**
 * The gateway's HTTP endpoint serving only its /connect/ pages through `connector` (the MCP side
 * is never reached by the tests that use it), on 127.0.0.1 port 0.
 */
export function serveConnectPages(connector: { handle(req: IncomingMessage, res: ServerResponse): void }) {
  return startHttpEndpoint({} as SessionOpener, {
    host: '127.0.0.1',
    port: 0,
    path: '/mcp',
    allowedOrigins: [],
    maxMessageBytes: 1_000_000,
    prefixPage: { prefix: '/connect/', serve: (req, res) => connector.handle(req, res) },
  });
}
