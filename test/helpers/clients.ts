// Connected official-SDK clients (name "test-client"), tracked for cleanup().
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { LineCollector, trackClosable, trackPid } from './processes.js';

export interface ConnectOptions {
  /** Client capabilities to declare in initialize (e.g. { roots: { listChanged: true }, sampling: {} }). */
  capabilities?: ClientCapabilities;
  /** clientInfo.name (default "test-client"). */
  name?: string;
  /** Other SDK Client options (capabilities above wins). */
  clientOptions?: ClientOptions;
  /**
   * Runs before connect(): register request handlers (roots/list, sampling/createMessage,
   * elicitation/create) and notification handlers here so nothing sent right after
   * initialize is missed.
   */
  setup?: (client: Client) => void;
  /** Timeout for the initialize request (SDK default 60 s). */
  timeoutMs?: number;
}

export interface HttpConnectOptions extends ConnectOptions {
  /** 'streamable' (default) or the legacy 2024-11-05 'sse' transport. */
  transport?: 'streamable' | 'sse';
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
}

function newClient(options: ConnectOptions): Client {
  const client = new Client({ name: options.name ?? 'test-client', version: '1.0.0' }, { ...options.clientOptions, capabilities: options.capabilities ?? options.clientOptions?.capabilities ?? {} });
  options.setup?.(client);
  return client;
}

async function connect(client: Client, transport: Transport, options: ConnectOptions): Promise<Client> {
  trackClosable(client);
  try {
    await client.connect(transport, options.timeoutMs === undefined ? undefined : { timeout: options.timeoutMs });
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return client;
}

/** A client connected over Streamable HTTP (or legacy SSE with { transport: 'sse' }). */
export async function connectHttpClient(url: string | URL, options: HttpConnectOptions = {}): Promise<Client> {
  const requestInit = options.headers ? { headers: options.headers } : undefined;
  const transport =
    options.transport === 'sse'
      ? new SSEClientTransport(new URL(url), { requestInit }) // requestInit headers reach the GET too
      : new StreamableHTTPClientTransport(new URL(url), { requestInit });
  return connect(newClient(options), transport, options);
}

const stderrByClient = new WeakMap<Client, LineCollector>();

/**
 * A client that spawns `params` with StdioClientTransport. stderr defaults to 'pipe' and is
 * always drained; read it with stdioStderr(client). The child's pid is tracked for cleanup().
 */
export async function connectStdioClient(params: StdioServerParameters, options: ConnectOptions = {}): Promise<Client> {
  const transport = new StdioClientTransport({ stderr: 'pipe', ...params });
  const client = newClient(options);
  // The stderr stream exists before start() when stderr is 'pipe'.
  const collector = new LineCollector(transport.stderr as Readable | null);
  stderrByClient.set(client, collector);
  const connecting = connect(client, transport, options);
  // start() has spawned the process synchronously by the time connect() awaits.
  if (transport.pid !== null) trackPid(transport.pid);
  try {
    return await connecting;
  } catch (err) {
    // Failed handshakes are usually explained on the server's stderr: attach it.
    await collector.ended(500);
    if (err && typeof err === 'object') Object.assign(err, { stderr: collector.text });
    throw err;
  }
}

/** The stderr of a stdio client's server process (lines so far, and waitForLine). */
export function stdioStderr(client: Client): LineCollector {
  const collector = stderrByClient.get(client);
  if (!collector) throw new Error('not a client from connectStdioClient()');
  return collector;
}

/** The pid of a stdio client's server process, or null. */
export function stdioPid(client: Client): number | null {
  const transport = client.transport;
  return transport instanceof StdioClientTransport ? transport.pid : null;
}
