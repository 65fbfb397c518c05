// A raw MCP client over Streamable HTTP on undici: one keep-alive connection pool, one session
// (initialize -> Mcp-Session-Id -> notifications/initialized), then POSTs that accept both a JSON
// reply and an SSE stream carrying the reply. No SDK.

import { Agent, request } from 'undici';
import { PROTOCOL_VERSION, RpcFailure } from './stdio-client.mjs';

const ACCEPT = 'application/json, text/event-stream';

/** One dispatcher per benchmark: `connections` sockets kept alive, no pipelining. */
export function createAgent(connections) {
  return new Agent({ connections, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
}

export class HttpSession {
  /** url: the MCP endpoint (http://127.0.0.1:PORT/mcp). */
  constructor(url, agent) {
    this.url = url;
    this.agent = agent;
    this.sessionId = undefined;
    this.nextId = 1;
    this.headers = { 'content-type': 'application/json', accept: ACCEPT };
  }

  async initialize() {
    const res = await request(this.url, {
      dispatcher: this.agent,
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard-bench', version: '1.0.0' } },
      }),
    });
    const sid = res.headers['mcp-session-id'];
    const reply = await readReply(res, 0);
    this.sessionId = Array.isArray(sid) ? sid[0] : sid;
    this.headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': PROTOCOL_VERSION };
    if (this.sessionId) this.headers['mcp-session-id'] = this.sessionId;
    const ack = await request(this.url, {
      dispatcher: this.agent,
      method: 'POST',
      headers: this.headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    await ack.body.dump();
    if (ack.statusCode >= 300) throw new Error(`notifications/initialized: HTTP ${ack.statusCode}`);
    return reply;
  }

  /** A request whose params are already serialized (the hot path). */
  async requestRaw(method, paramsJson) {
    const id = this.nextId++;
    const res = await request(this.url, {
      dispatcher: this.agent,
      method: 'POST',
      headers: this.headers,
      body: paramsJson === undefined ? `{"jsonrpc":"2.0","id":${id},"method":"${method}"}` : `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${paramsJson}}`,
    });
    return readReply(res, id);
  }

  request(method, params) {
    return this.requestRaw(method, params === undefined ? undefined : JSON.stringify(params));
  }

  /** DELETE the session (best effort). */
  async close() {
    if (!this.sessionId) return;
    try {
      const res = await request(this.url, { dispatcher: this.agent, method: 'DELETE', headers: this.headers });
      await res.body.dump();
    } catch {
      /* the server may be gone already */
    }
  }
}

const MODERN = '2026-07-28';
const ENVELOPE = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'switchboard-bench', version: '1.0.0' },
});
const NAME = /^\{"name":"([^"\\]*)"/;

/**
 * The same client in protocol revision 2026-07-28: no session, every request carries the _meta
 * envelope and the Mcp-Method / Mcp-Name headers (what a stateless client sends).
 */
export class ModernHttpSession extends HttpSession {
  async initialize() {
    return this.request('server/discover', {});
  }

  async requestRaw(method, paramsJson) {
    const id = this.nextId++;
    const params = paramsJson === undefined || paramsJson === '{}' ? `{"_meta":${ENVELOPE}}` : `{"_meta":${ENVELOPE},${paramsJson.slice(1)}`;
    const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': MODERN, 'mcp-method': method };
    const name = method === 'tools/call' ? NAME.exec(paramsJson)?.[1] : undefined;
    if (name !== undefined) headers['mcp-name'] = name;
    const res = await request(this.url, { dispatcher: this.agent, method: 'POST', headers, body: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}` });
    return readReply(res, id);
  }

  async close() {}
}

/** Reads a POST reply (JSON or SSE) and returns the result of the response with this id. */
async function readReply(res, id) {
  const type = res.headers['content-type'] ?? '';
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  let msg;
  if (type.startsWith('text/event-stream')) {
    msg = findInSse(text, id);
  } else {
    msg = JSON.parse(text);
    if (Array.isArray(msg)) msg = msg.find((m) => m.id === id);
  }
  if (!msg) throw new Error(`no response with id ${id} in reply: ${text.slice(0, 300)}`);
  if (msg.error) throw new RpcFailure(msg.error);
  return msg.result;
}

/** Finds the JSON-RPC response with this id among the events of an SSE body. */
function findInSse(text, id) {
  // Events are separated by a blank line; an event's data is its data: lines joined by \n.
  const events = text.split(/\r?\n\r?\n/);
  for (const event of events) {
    let data = '';
    let any = false;
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith('data:')) {
        data += (any ? '\n' : '') + (line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
        any = true;
      }
    }
    // A priming event (an id, empty data) carries no message.
    if (!any || data === '') continue;
    const msg = JSON.parse(data);
    if (msg && msg.id === id && msg.method === undefined) return msg;
  }
  return undefined;
}
