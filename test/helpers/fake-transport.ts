// An in-memory Transport and a scripted MCP server behind it, for in-process tests of the Peer,
// ServerConnection, Router and sessions. Everything travels on microtasks (never timers), so it
// works unchanged under vi.useFakeTimers(); messages arrive in the order they were written, and
// the fake keeps every promise of the Transport contract (test/contract runs it like the others).

import { GatewayError } from '../../src/errors.js';
import { classify, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../../src/protocol/jsonrpc.js';
import { NO_SINK, type Transport, type TransportSink } from '../../src/transport.js';

export interface FakeTransportOptions {
  /** Messages from the server over this many bytes are dropped, as the real transports do. */
  maxMessageBytes?: number;
}

export class FakeTransport implements Transport {
  /** What the pipe delivers to (given to start). */
  sink: TransportSink = NO_SINK;
  state: 'new' | 'open' | 'closed' = 'new';
  /** Where our messages go (the fake server), and what it hears when we close. */
  far?: (message: JsonRpcMessage) => void;
  farClosed?: () => void;
  /** Runs inside start(): a server that refuses to start throws here. */
  onStart?: () => void | Promise<void>;

  constructor(readonly options: FakeTransportOptions = {}) {}

  async start(sink: TransportSink): Promise<void> {
    if (this.state !== 'new') throw new GatewayError('CONNECTION_CLOSED', 'the fake pipe was started already or is closed');
    this.sink = sink;
    this.state = 'open';
    try {
      await this.onStart?.();
    } catch (err) {
      this.state = 'closed';
      throw err;
    }
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new GatewayError('CONNECTION_CLOSED', 'the fake pipe is not open'));
    // A copy, as a real wire makes: neither side may keep a reference into the other's objects.
    const text = JSON.stringify(message);
    queueMicrotask(() => {
      if (this.state === 'open') this.far?.(JSON.parse(text));
    });
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.farClosed?.();
    this.sink.close();
  }

  // --- the server's end -----------------------------------------------------------------------

  /** The server writes a message (or raw text): delivered after everything it wrote before. */
  deliver(message: JsonRpcMessage | string, relatedTo?: JsonRpcId): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    queueMicrotask(() => this.receive(text, relatedTo));
  }

  /** The pipe stays open but our request `id` can no longer be answered. */
  fail(id: JsonRpcId, error: Error = new GatewayError('CONNECTION_CLOSED', 'the fake server cannot answer this request')): void {
    queueMicrotask(() => {
      if (this.state === 'open') this.sink.fail(id, error);
    });
  }

  /** The server goes away (its process died): the sink's close with a reason, after what it wrote before. */
  drop(reason: Error = new GatewayError('CONNECTION_CLOSED', 'server process exited with code 1')): void {
    queueMicrotask(() => {
      if (this.state !== 'open') return;
      this.state = 'closed';
      this.farClosed?.();
      this.sink.close(reason);
    });
  }

  private receive(text: string, relatedTo?: JsonRpcId): void {
    if (this.state !== 'open') return;
    const limit = this.options.maxMessageBytes;
    if (limit !== undefined && Buffer.byteLength(text) > limit) {
      const error = new GatewayError('MESSAGE_TOO_LARGE', `the server sent a ${Buffer.byteLength(text)}-byte message, over the limit of ${limit} bytes (limits.maxMessageBytes)`);
      this.sink.error(error);
      const parsed = tryParse(text);
      if (classify(parsed) === 'response' && (parsed as JsonRpcResponse).id !== null) this.sink.fail((parsed as { id: JsonRpcId }).id, error);
      return;
    }
    const value = tryParse(text);
    if (value === undefined) {
      this.sink.error(new GatewayError('PROTOCOL_ERROR', `ignored a message that is not JSON: ${text.slice(0, 80)}`));
      return;
    }
    this.sink.message(value as JsonRpcMessage, relatedTo);
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// --- a scripted MCP server -------------------------------------------------------------------

export type ListKindName = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
const LIST_METHODS: Record<string, ListKindName> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' };
const LIST_CHANGED: Record<ListKindName, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
  resourceTemplates: 'notifications/resources/list_changed',
};

/** What a handler gets besides params: the request's id and ways to talk about it. */
export interface FakeCall {
  id: JsonRpcId;
  server: FakeMcpServer;
  /** Sends notifications/progress for this request (when the client gave a token). */
  progress(progress: number, total?: number): void;
  /** Resolves when the client cancels this request. */
  cancelled: Promise<void>;
}

/** Returns a result, throws `{ code, message }` for a JSON-RPC error, or never settles. */
export type FakeHandler = (params: Record<string, any>, call: FakeCall) => unknown;

export interface FakeServerScript {
  /** Answered to initialize (default: the revision the client asked for). */
  protocolVersion?: string;
  /** Default: tools/prompts/resources for the lists given (with listChanged), plus logging. */
  capabilities?: Record<string, any>;
  serverInfo?: { name: string; version: string };
  instructions?: string;
  tools?: Record<string, any>[];
  prompts?: Record<string, any>[];
  resources?: Record<string, any>[];
  resourceTemplates?: Record<string, any>[];
  /** Items per list page (default: everything in one page). */
  pageSize?: number;
  /** `hang`: never answer initialize; `refuse`: answer it with a JSON-RPC error. */
  initialize?: 'hang' | 'refuse';
  /** Per method; tools/call defaults to echoing `arguments.text`. */
  handlers?: Record<string, FakeHandler>;
}

const echo: FakeHandler = (params) => ({ content: [{ type: 'text', text: String(params.arguments?.text ?? params.name) }] });

export class FakeMcpServer {
  /** Everything the client sent, in order. */
  readonly received: JsonRpcMessage[] = [];
  readonly lists: Record<ListKindName, Record<string, any>[]>;
  closed = false;
  private readonly watchers: Array<{ pred: (m: any) => boolean; resolve: (m: any) => void }> = [];
  private readonly holds = new Map<string, Promise<void>>();
  private readonly cancels = new Map<JsonRpcId, () => void>();
  private readonly asked = new Map<JsonRpcId, (r: JsonRpcResponse) => void>();
  private nextId = 1;

  constructor(
    readonly transport: FakeTransport,
    readonly script: FakeServerScript = {},
  ) {
    this.lists = { tools: script.tools ?? [], prompts: script.prompts ?? [], resources: script.resources ?? [], resourceTemplates: script.resourceTemplates ?? [] };
    transport.far = (m) => this.receive(m);
    transport.farClosed = () => (this.closed = true);
  }

  /** Messages the client sent with this method. */
  requests(method: string): Record<string, any>[] {
    return this.received.filter((m) => (m as { method?: string }).method === method);
  }

  /** The first message (already received or still to come) that matches. */
  waitFor(pred: string | ((m: any) => boolean)): Promise<any> {
    const test = typeof pred === 'string' ? (m: any) => m.method === pred : pred;
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.watchers.push({ pred: test, resolve }));
  }

  notify(method: string, params?: Record<string, any>, relatedTo?: JsonRpcId): void {
    this.transport.deliver(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }, relatedTo);
  }

  /** A request of the server's to the client (sampling, roots...): resolves with the client's answer. */
  request(method: string, params?: Record<string, any>, relatedTo?: JsonRpcId): Promise<JsonRpcResponse> {
    const id = `srv-${this.nextId++}`;
    this.transport.deliver({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, relatedTo);
    return new Promise((resolve) => this.asked.set(id, resolve));
  }

  /** Replaces a list; tells the client unless `quiet`. */
  setList(kind: ListKindName, items: Record<string, any>[], quiet = false): void {
    this.lists[kind] = items;
    if (!quiet) this.notify(LIST_CHANGED[kind]);
  }

  /** Answers to `method` wait until the returned function is called. */
  hold(method: string): () => void {
    let release!: () => void;
    this.holds.set(method, new Promise<void>((r) => (release = r)));
    return () => {
      this.holds.delete(method);
      release();
    };
  }

  /** The process dies. */
  drop(reason?: Error): void {
    this.transport.drop(reason);
  }

  private receive(message: JsonRpcMessage): void {
    this.received.push(message);
    for (const w of this.watchers.filter((w) => w.pred(message))) {
      this.watchers.splice(this.watchers.indexOf(w), 1);
      w.resolve(message);
    }
    const kind = classify(message);
    if (kind === 'response') {
      const id = (message as JsonRpcResponse).id;
      if (id !== null) this.asked.get(id)?.(message as JsonRpcResponse);
      if (id !== null) this.asked.delete(id);
    } else if (kind === 'notification' && (message as { method: string }).method === 'notifications/cancelled') {
      this.cancels.get((message as any).params?.requestId)?.();
    } else if (kind === 'request') {
      void this.answer(message as JsonRpcRequest);
    }
  }

  private async answer(request: JsonRpcRequest): Promise<void> {
    const { id, method } = request;
    const params = request.params ?? {};
    const cancelled = new Promise<void>((resolve) => this.cancels.set(id, resolve));
    const token = params._meta?.progressToken;
    const call: FakeCall = {
      id,
      server: this,
      cancelled,
      progress: (progress, total) => {
        if (token !== undefined) this.notify('notifications/progress', { progressToken: token, progress, ...(total === undefined ? {} : { total }) });
      },
    };
    try {
      const result = await this.handle(method, params, call);
      await this.holds.get(method);
      this.transport.deliver({ jsonrpc: '2.0', id, result: result as Record<string, any> });
    } catch (err) {
      await this.holds.get(method);
      const e = err as { code?: unknown; message?: unknown };
      const code = typeof e?.code === 'number' ? e.code : -32603;
      this.transport.deliver({ jsonrpc: '2.0', id, error: { code, message: String(e?.message ?? err) } });
    } finally {
      this.cancels.delete(id);
    }
  }

  private handle(method: string, params: Record<string, any>, call: FakeCall): unknown {
    const own = this.script.handlers?.[method];
    if (own) return own(params, call);
    if (method === 'initialize') return this.initialize(params);
    const kind = LIST_METHODS[method];
    if (kind) return this.page(kind, params.cursor);
    if (method === 'tools/call') return echo(params, call);
    if (['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'].includes(method)) return {};
    throw { code: -32601, message: `Method not found: ${method}` };
  }

  private initialize(params: Record<string, any>): unknown {
    const s = this.script;
    if (s.initialize === 'hang') return new Promise(() => {});
    if (s.initialize === 'refuse') throw { code: -32603, message: 'initialize refused by the fake server' };
    const caps: Record<string, any> = s.capabilities ?? { logging: {} };
    if (!s.capabilities) {
      if (s.tools) caps.tools = { listChanged: true };
      if (s.prompts) caps.prompts = { listChanged: true };
      if (s.resources || s.resourceTemplates) caps.resources = { listChanged: true, subscribe: true };
    }
    const result: Record<string, any> = { protocolVersion: s.protocolVersion ?? params.protocolVersion, capabilities: caps, serverInfo: s.serverInfo ?? { name: 'fake', version: '1.0.0' } };
    if (s.instructions) result.instructions = s.instructions;
    return result;
  }

  private page(kind: ListKindName, cursor: unknown): Record<string, any> {
    const items = this.lists[kind];
    const size = this.script.pageSize ?? (items.length || 1);
    const start = typeof cursor === 'string' ? Number(cursor) : 0;
    const result: Record<string, any> = { [kind]: items.slice(start, start + size) };
    if (start + size < items.length) result.nextCursor = String(start + size);
    return result;
  }
}

// --- fake servers in place of stdio children ------------------------------------------------

/** A script, or per start attempt (1, 2, ...): a script, `refuse` (cannot spawn) or `exit` (dies on start). */
export type FakeServerDefinition = FakeServerScript | ((attempt: number) => FakeServerScript | 'refuse' | 'exit');

/**
 * Which fake server each stdio `command` starts. Test files swap the stdio transport module for
 * fakeStdioModule() with vi.mock; every ServerConnection then talks to these instead of children.
 */
export class FakeServerRegistry {
  private readonly definitions = new Map<string, FakeServerDefinition>();
  private readonly started = new Map<string, FakeMcpServer[]>();
  private readonly tries = new Map<string, number>();
  private readonly waiters: Array<{ command: string; count: number; resolve: (s: FakeMcpServer) => void }> = [];

  define(command: string, definition: FakeServerDefinition): void {
    this.definitions.set(command, definition);
  }

  /** Start attempts so far, including refused ones. */
  attempts(command: string): number {
    return this.tries.get(command) ?? 0;
  }

  instances(command: string): FakeMcpServer[] {
    return this.started.get(command) ?? [];
  }

  latest(command: string): FakeMcpServer {
    const list = this.instances(command);
    if (list.length === 0) throw new Error(`fake server "${command}" never started`);
    return list.at(-1)!;
  }

  /** Resolves with the n-th instance (1-based) once it has started. */
  nth(command: string, count: number): Promise<FakeMcpServer> {
    const have = this.instances(command)[count - 1];
    if (have) return Promise.resolve(have);
    return new Promise((resolve) => this.waiters.push({ command, count, resolve }));
  }

  clear(): void {
    this.definitions.clear();
    this.started.clear();
    this.tries.clear();
    this.waiters.length = 0;
  }

  /** Called from start(): builds the server the command names on this transport. */
  start(transport: FakeTransport, command: string): void {
    const definition = this.definitions.get(command);
    const attempt = this.attempts(command) + 1;
    this.tries.set(command, attempt);
    const script = typeof definition === 'function' ? definition(attempt) : definition;
    if (script === undefined || script === 'refuse') throw new GatewayError('SERVER_UNAVAILABLE', `cannot start \`${command}\`: no such fake server`);
    // A child that dies at start is noticed once we wrote to it: it dies on its first message.
    const dies: FakeServerScript = { handlers: { initialize: (_p, call) => (call.server.drop(), new Promise(() => {})) } };
    const server = new FakeMcpServer(transport, script === 'exit' ? dies : script);
    const list = this.instances(command);
    this.started.set(command, [...list, server]);
    for (const w of this.waiters.filter((w) => w.command === command && w.count === list.length + 1)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(server);
    }
  }
}

export const fakeServers = new FakeServerRegistry();

/** Stands in for StdioTransport: its `command` names a fake server in `fakeServers`. */
export class FakeStdioTransport extends FakeTransport {
  constructor(options: { command: string; maxMessageBytes?: number }) {
    super({ maxMessageBytes: options.maxMessageBytes });
    this.onStart = () => fakeServers.start(this, options.command);
  }
}

/**
 * The stdio transport module with fake servers in place of children:
 *   vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());
 */
export function fakeStdioModule() {
  return { StdioTransport: FakeStdioTransport, childEnvironment: (env: Record<string, string>) => ({ ...env }) };
}
