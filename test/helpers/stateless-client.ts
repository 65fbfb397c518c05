// The official SDK v2 client (@modelcontextprotocol/client 2.x) connected to a URL or a stdio
// command, pinned to 2026-07-28, in 'auto' mode (probe with server/discover, fall back to
// initialize) or in legacy mode. Embedded input requests (elicitation, sampling, roots) are
// answered by canned handlers that record what was asked. Clients are tracked for cleanup().
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities, ElicitResult, LoggingLevel, Root } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import { LineCollector, trackClosable, trackPid } from './processes.js';

export const STATELESS_VERSION = '2026-07-28';
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';

/** 'modern' pins 2026-07-28 (no fallback); 'auto' probes and may land on either era; 'legacy' is the 2025 handshake. */
export type NegotiationMode = 'modern' | 'auto' | 'legacy';

export interface StatelessConnectOptions {
  mode?: NegotiationMode;
  /** Declared on every request (default { elicitation: {}, sampling: {}, roots: {} }). */
  capabilities?: ClientCapabilities;
  /** clientInfo.name (default "modern-test-client"). */
  name?: string;
  /** Answers to elicitation/create (default: accept with `elicitContent`). */
  elicit?: (params: { message: string; requestedSchema?: unknown }) => ElicitResult | Promise<ElicitResult>;
  /** Content for the default elicitation answer (default { name: 'Ada', color: 'teal', confirm: true, topic: 'owls' }). */
  elicitContent?: Record<string, string | number | boolean | string[]>;
  /** Text the default sampling answer carries (default "Paris"). */
  sampledText?: string;
  /** Roots the default roots/list answer lists (default file:///tmp/modern-root). */
  roots?: Root[];
  /** Probe / request timeout for connect (SDK default 60 s). */
  timeoutMs?: number;
  /** Headers sent on every HTTP request (e.g. the user's `authorization`). */
  headers?: Record<string, string>;
}

export interface AskedInput {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: unknown;
}

export interface StatelessClient {
  client: Client;
  /** Every embedded input request the client answered, in order. */
  asked: AskedInput[];
  /** The server's stderr (stdio only). */
  stderr?: LineCollector;
}

const DEFAULT_CONTENT = { name: 'Ada', color: 'teal', confirm: true, topic: 'owls' };

function newClient(options: StatelessConnectOptions): StatelessClient {
  const mode = options.mode ?? 'modern';
  const capabilities = options.capabilities ?? { elicitation: {}, sampling: {}, roots: {} };
  const client = new Client(
    { name: options.name ?? 'modern-test-client', version: '1.0.0' },
    {
      capabilities,
      versionNegotiation: {
        mode: mode === 'modern' ? { pin: STATELESS_VERSION } : mode,
        ...(options.timeoutMs === undefined ? {} : { probe: { timeoutMs: options.timeoutMs } }),
      },
    },
  );
  const asked: AskedInput[] = [];
  // The SDK refuses a handler for a capability the client does not declare.
  if (capabilities.elicitation)
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push({ method: 'elicitation/create', params: request.params });
      const params = request.params as { message: string; requestedSchema?: unknown };
      return options.elicit ? options.elicit(params) : { action: 'accept', content: options.elicitContent ?? DEFAULT_CONTENT };
    });
  if (capabilities.sampling)
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push({ method: 'sampling/createMessage', params: request.params });
      return { role: 'assistant', content: { type: 'text', text: options.sampledText ?? 'Paris' }, model: 'canned-model' };
    });
  if (capabilities.roots)
    client.setRequestHandler('roots/list', async (request) => {
      asked.push({ method: 'roots/list', params: request.params });
      return { roots: options.roots ?? [{ uri: 'file:///tmp/modern-root', name: 'modern root' }] };
    });
  return { client, asked };
}

async function connect(modern: StatelessClient, transport: StreamableHTTPClientTransport | StdioClientTransport, options: StatelessConnectOptions) {
  trackClosable(modern.client);
  try {
    await modern.client.connect(transport, options.timeoutMs === undefined ? undefined : { timeout: options.timeoutMs });
  } catch (err) {
    await modern.client.close().catch(() => {});
    throw err;
  }
  return modern;
}

/** A v2 client over Streamable HTTP. */
export async function connectStatelessHttp(url: string | URL, options: StatelessConnectOptions = {}): Promise<StatelessClient> {
  const modern = newClient(options);
  return connect(modern, new StreamableHTTPClientTransport(new URL(url), options.headers ? { requestInit: { headers: options.headers } } : undefined), options);
}

export interface StdioCommand {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * A v2 client that spawns `command` over stdio; stderr is collected. In 'auto' mode the SDK
 * probes in a short-lived sibling process spawned from the same command (and reaps it).
 */
export async function connectStatelessStdio(command: StdioCommand, options: StatelessConnectOptions = {}): Promise<StatelessClient> {
  const modern = newClient(options);
  const transport = new StdioClientTransport({ ...command, stderr: 'pipe' });
  modern.stderr = new LineCollector(transport.stderr as Readable | null);
  const connecting = connect(modern, transport, options);
  try {
    return await connecting;
  } finally {
    // The session child exists once connect has spawned it (after any probe).
    if (transport.pid !== null) trackPid(transport.pid);
  }
}

/** `_meta` that asks the server for log notifications at `level` and above on one request. */
export function logLevelMeta(level: LoggingLevel): Record<string, unknown> {
  return { [LOG_LEVEL_META_KEY]: level };
}

/**
 * POSTs one JSON-RPC message as a raw HTTP client would (no SDK), and reads the answer whether
 * it came as JSON or as one SSE event: the status, the headers and the message (undefined when
 * the body is empty).
 */
export async function postMessage(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; data: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  const data = raw.startsWith('{')
    ? JSON.parse(raw)
    : raw
      ? JSON.parse(
          raw
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
        )
      : undefined;
  return { status: res.status, headers: res.headers, data };
}
