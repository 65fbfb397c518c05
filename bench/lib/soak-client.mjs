// Clients for the soak run (bench/soak.mjs) that hide nothing: every JSON-RPC message the gateway
// sends, on a POST reply, on a session's GET stream or on stdout, goes to a Ledger, which matches
// each response to the request it answers and counts what is missing, doubled or wrong.

import { request } from 'undici';
import { PROTOCOL_VERSION, onLines } from './stdio-client.mjs';
import { start } from './procs.mjs';

const ACCEPT = 'application/json, text/event-stream';

/**
 * Every tools/call sent, keyed `<session>:<id>`, and every message received. A response must
 * arrive exactly once, on the channel of its request, and echo exactly the request's text.
 */
export class Ledger {
  constructor() {
    /** key -> { text, server, sentAt, answers, via } */
    this.calls = new Map();
    this.sent = 0;
    this.answered = 0;
    this.ok = 0;
    this.duplicated = 0;
    this.mismatched = 0;
    this.stray = 0;
    this.misrouted = 0;
    /** HTTP failures of a POST itself (status, socket): the call got no JSON-RPC answer. */
    this.transportErrors = 0;
    /** JSON-RPC errors: { key, server, code, rpcCode, message, sentAt, at }, classified at the end. */
    this.errors = [];
    this.notifications = new Map();
    this.samples = { duplicated: [], mismatched: [], stray: [], misrouted: [], transport: [] };
    this.latenciesUs = [];
  }

  send(key, text, server) {
    this.calls.set(key, { text, server, sentAt: Date.now(), t0: process.hrtime.bigint(), answers: 0 });
    this.sent++;
  }

  /** A message from the gateway on `via` ('post', 'get', 'stdout'); `expectVia` is where responses belong. */
  receive(keyPrefix, msg, via, expectVia) {
    if (msg === null || typeof msg !== 'object') return this.#sample('stray', { keyPrefix, via, msg });
    if (msg.method !== undefined) {
      // A notification (or a server request: none expected here).
      this.notifications.set(msg.method, (this.notifications.get(msg.method) ?? 0) + 1);
      return;
    }
    const key = `${keyPrefix}:${msg.id}`;
    const call = this.calls.get(key);
    if (call === undefined) {
      this.stray++;
      return this.#sample('stray', { key, via, msg });
    }
    call.answers++;
    if (call.answers > 1) {
      this.duplicated++;
      return this.#sample('duplicated', { key, via, msg });
    }
    this.answered++;
    if (via !== expectVia) {
      this.misrouted++;
      this.#sample('misrouted', { key, via, msg });
    }
    if (msg.error) {
      this.errors.push({
        key,
        server: call.server,
        code: msg.error.data?.code ?? null,
        errorServer: msg.error.data?.server ?? null,
        rpcCode: msg.error.code,
        message: String(msg.error.message ?? ''),
        sentAt: call.sentAt,
        at: Date.now(),
      });
      return;
    }
    const content = msg.result?.content;
    if (!Array.isArray(content) || content.length !== 1 || content[0]?.type !== 'text' || content[0].text !== call.text || msg.result.isError) {
      this.mismatched++;
      return this.#sample('mismatched', { key, expected: call.text, msg });
    }
    this.ok++;
    if (this.latenciesUs.length < 2_000_000) this.latenciesUs.push(Number(process.hrtime.bigint() - call.t0) / 1000);
  }

  transportError(key, why) {
    const call = this.calls.get(key);
    if (call) call.transportError = why;
    this.transportErrors++;
    this.#sample('transport', { key, why });
  }

  /** Calls with no answer at all (and no transport error explaining it). */
  lost() {
    const out = [];
    for (const [key, call] of this.calls) if (call.answers === 0 && call.transportError === undefined) out.push(key);
    return out;
  }

  #sample(kind, what) {
    const list = this.samples[kind];
    if (list.length < 5) list.push(what);
  }
}

/** Splits an SSE text into its events' data (joined data: lines), keeping an unfinished tail. */
export class SseParser {
  constructor(onData) {
    this.onData = onData;
    this.buffer = '';
  }

  push(chunk) {
    this.buffer += chunk;
    for (;;) {
      const m = /\r?\n\r?\n/.exec(this.buffer);
      if (!m) return;
      const event = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      let data;
      for (const line of event.split(/\r?\n/)) {
        if (!line.startsWith('data:')) continue;
        const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
        data = data === undefined ? value : `${data}\n${value}`;
      }
      // A priming event (an id, empty data) carries no message.
      if (data !== undefined && data !== '') this.onData(data);
    }
  }

  end() {
    if (this.buffer.trim() !== '') this.push('\n\n');
  }
}

function parseJsonOrSse(type, text, onMessage) {
  if (type.startsWith('text/event-stream')) {
    const parser = new SseParser((data) => onMessage(JSON.parse(data)));
    parser.push(text);
    parser.end();
    return;
  }
  if (text.trim() === '') return;
  const body = JSON.parse(text);
  for (const msg of Array.isArray(body) ? body : [body]) onMessage(msg);
}

let sessionCounter = 0;

/**
 * One MCP session over Streamable HTTP: initialize, a GET stream that stays open for the
 * session's life (anything on it goes to the ledger), POSTed tools/calls, DELETE.
 */
export class SoakHttpSession {
  /** agents: { post, stream } undici dispatchers, read at each request (the caller may swap them). */
  constructor(url, { agents, ledger, requestTimeoutMs = 30_000 }) {
    this.url = url;
    this.agents = agents;
    this.ledger = ledger;
    this.timeoutMs = requestTimeoutMs;
    this.no = ++sessionCounter;
    this.keyPrefix = `h${this.no}`;
    this.nextId = 1;
    this.used = 0;
    this.inflight = 0;
    this.retired = false;
    this.closing = undefined;
    this.getEnded = Promise.resolve();
    this.getEndedByServer = false;
    this.headers = { 'content-type': 'application/json', accept: ACCEPT };
  }

  async open() {
    const init = await request(this.url, {
      dispatcher: this.agents.post,
      method: 'POST',
      headers: this.headers,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard-soak', version: '1.0.0' } },
      }),
    });
    const text = await init.body.text();
    if (init.statusCode !== 200) throw new Error(`initialize: HTTP ${init.statusCode}: ${text.slice(0, 200)}`);
    const sid = init.headers['mcp-session-id'];
    this.sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (!this.sessionId) throw new Error('initialize: no Mcp-Session-Id');
    this.headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': PROTOCOL_VERSION, 'mcp-session-id': this.sessionId };
    const ack = await request(this.url, { dispatcher: this.agents.post, method: 'POST', headers: this.headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    await ack.body.dump();
    if (ack.statusCode >= 300) throw new Error(`notifications/initialized: HTTP ${ack.statusCode}`);
    await this.#openGetStream();
  }

  async #openGetStream() {
    const res = await request(this.url, {
      dispatcher: this.agents.stream,
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION, 'mcp-session-id': this.sessionId },
      headersTimeout: this.timeoutMs,
      bodyTimeout: 0,
      // Its socket closes with the stream, so ended streams leave no idle keep-alive socket behind.
      reset: true,
    });
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      throw new Error(`GET stream: HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    }
    this.getBody = res.body;
    const parser = new SseParser((data) => this.ledger.receive(this.keyPrefix, JSON.parse(data), 'get', 'post'));
    res.body.setEncoding('utf8');
    this.getEnded = new Promise((resolve) => {
      res.body.on('data', (chunk) => parser.push(chunk));
      res.body.on('end', () => {
        this.getEndedByServer = true;
        parser.end();
        resolve();
      });
      res.body.on('error', () => resolve());
      res.body.on('close', () => resolve());
    });
  }

  /** One tools/call (text: a string, or key => string); every message of the reply goes to the ledger. */
  async call(server, tool, makeText) {
    const id = this.nextId++;
    const key = `${this.keyPrefix}:${id}`;
    const text = typeof makeText === 'function' ? makeText(key) : makeText;
    this.ledger.send(key, text, server);
    const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{"text":${JSON.stringify(text)}}}}`;
    try {
      const res = await request(this.url, {
        dispatcher: this.agents.post,
        method: 'POST',
        headers: this.headers,
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const reply = await res.body.text();
      if (res.statusCode !== 200) return this.ledger.transportError(key, `HTTP ${res.statusCode}: ${reply.slice(0, 200)}`);
      parseJsonOrSse(res.headers['content-type'] ?? '', reply, (msg) => this.ledger.receive(this.keyPrefix, msg, 'post', 'post'));
    } catch (err) {
      this.ledger.transportError(key, `${err.code ?? ''} ${err.message}`.trim());
    }
  }

  /** DELETE, then wait (up to graceMs) for the gateway to end the GET stream; false if it did not. */
  close(graceMs = 2000) {
    this.closing ??= (async () => {
      try {
        const res = await request(this.url, { dispatcher: this.agents.post, method: 'DELETE', headers: this.headers, headersTimeout: this.timeoutMs });
        await res.body.dump();
        this.deleteStatus = res.statusCode;
      } catch (err) {
        this.deleteStatus = `${err.code ?? err.message}`;
      }
      let timer;
      const ended = await Promise.race([this.getEnded.then(() => true), new Promise((r) => (timer = setTimeout(() => r(false), graceMs)))]);
      clearTimeout(timer);
      if (!ended) this.getBody?.destroy();
      return ended && this.getEndedByServer;
    })();
    return this.closing;
  }
}

/**
 * The gateway over stdio with one client: newline-delimited JSON-RPC, every stdout line to the
 * ledger (a line that is not JSON counts as stray).
 */
export class SoakStdioSession {
  constructor(command, args, { ledger, label = 'switchboard-stdio', onStderrLine, env, cwd }) {
    this.ledger = ledger;
    this.keyPrefix = 's';
    this.nextId = 1;
    this.proc = start(command, args, { label, onStderrLine, env, cwd });
    this.waiters = new Map();
    onLines(this.proc.child.stdout, (line) => this.#onLine(line));
    this.proc.exitPromise.then(() => {
      for (const w of this.waiters.values()) w(new Error(`gateway exited (code ${this.proc.exitCode}, signal ${this.proc.exitSignal})`));
      this.waiters.clear();
    });
  }

  get pid() {
    return this.proc.pid;
  }

  #onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.ledger.stray++;
      this.ledger.samples.stray.length < 5 && this.ledger.samples.stray.push({ via: 'stdout', line: line.slice(0, 200) });
      return;
    }
    if (msg && msg.id === 0 && msg.method === undefined) {
      // initialize's answer
      this.waiters.get(0)?.(msg.error ? new Error(msg.error.message) : undefined);
      this.waiters.delete(0);
      return;
    }
    const w = msg && msg.method === undefined ? this.waiters.get(msg.id) : undefined;
    this.ledger.receive(this.keyPrefix, msg, 'stdout', 'stdout');
    if (w) {
      this.waiters.delete(msg.id);
      w();
    }
  }

  #write(obj) {
    this.proc.child.stdin.write(typeof obj === 'string' ? `${obj}\n` : `${JSON.stringify(obj)}\n`);
  }

  async open() {
    const done = new Promise((resolve, reject) => this.waiters.set(0, (err) => (err ? reject(err) : resolve())));
    this.#write({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard-soak', version: '1.0.0' } } });
    await done;
    this.#write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /**
   * One tools/call; resolves when its first answer arrives, or after timeoutMs (then it is lost,
   * unless it turns up later).
   */
  call(server, tool, makeText, timeoutMs = 30_000) {
    const id = this.nextId++;
    const key = `${this.keyPrefix}:${id}`;
    const text = typeof makeText === 'function' ? makeText(key) : makeText;
    this.ledger.send(key, text, server);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        resolve();
      }, timeoutMs);
      this.waiters.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      this.#write(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{"text":${JSON.stringify(text)}}}}`);
    });
  }
}
