// Which transport a server's pipe is: the stdio child, the 2026-07-28 Streamable HTTP transport,
// or the stateful-era HTTP transports (Streamable HTTP with the auto fallback to HTTP+SSE). Each
// module is loaded on first use: execa, undici and the SSE parser cost start-up time and memory
// that a configuration without such servers never needs.

import type { ServerConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import type { Transport } from '../transport.js';
import type { ServerAuth } from './auth/types.js';
import type { PipeKind } from './handshake.js';
import type { ParamHeader } from './mcp-headers.js';

export interface TransportOptions {
  logger: Logger;
  maxMessageBytes?: number;
  maxDepth?: number;
  writeBufferBytes?: number;
  /** stateless-http: the revision every request speaks. */
  version?: string;
  /** stateless-http: a tool's x-mcp-header parameters. */
  paramHeaders?: (tool: string) => readonly ParamHeader[] | undefined;
  /** HTTP: the server's OAuth client state (its token on every request, 401/403 handled). */
  auth?: ServerAuth;
}

/** The stdio transport module, imported once (by the first stdio server to connect). */
let stdioModule: Promise<typeof import('./stdio-transport.js')> | undefined;
const loadStdio = () => (stdioModule ??= import('./stdio-transport.js'));

export async function createTransport(c: ServerConfig, kind: PipeKind, o: TransportOptions): Promise<Transport> {
  const { logger, maxMessageBytes, maxDepth } = o;
  if (c.kind === 'stdio') {
    const { StdioTransport } = await loadStdio();
    return new StdioTransport({ command: c.command, args: c.args, env: c.env, inheritEnv: c.inheritEnv, cwd: c.cwd, logger, maxMessageBytes, maxDepth, writeBufferBytes: o.writeBufferBytes });
  }
  if (kind === 'stateless-http') {
    const { StatelessHttpTransport } = await import('./http-stateless.js');
    return new StatelessHttpTransport({ url: c.url, headers: c.headers, logger, maxMessageBytes, maxDepth, protocolVersion: o.version!, paramHeaders: o.paramHeaders, auth: o.auth });
  }
  const { createHttpTransport } = await import('./http-auto.js');
  return createHttpTransport({ url: c.url, headers: c.headers, transport: c.transport, logger, maxMessageBytes, maxDepth, auth: o.auth });
}
