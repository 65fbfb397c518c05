#!/usr/bin/env node
// The benchmark's target server: the leanest MCP server we can write by hand, so that what the
// harness measures is the path in front of it, not the server.
//
// Wire format: newline-delimited JSON-RPC 2.0 on stdin/stdout (MCP stdio transport), no SDK; with
// --http, Streamable HTTP instead (a remote server): POST /mcp answers each request with a JSON
// body, a session id from initialize on; it prints "listening on URL" on stderr.
//   tools: echo {text} -> {content:[{type:'text',text}]}; tool_0..tool_{N-1} behave the same;
//   blob {bytes} -> a text of that many "x" (a large result for a small request; cached per size).
//   flags: --tools N (extra tools, default 0), --name X (serverInfo.name, default "echo"),
//   --http PORT (0: any free port, on 127.0.0.1), --sse (with --http: each answer as a one-event
//   SSE stream, as servers built on the official SDKs answer by default).
// Requests are answered synchronously, in order; stdin's end exits the process.

const argv = process.argv.slice(2);
let extra = 0;
let name = 'echo';
let httpPort;
let sseAnswers = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--tools') extra = Number(argv[++i]);
  else if (argv[i] === '--name') name = argv[++i];
  else if (argv[i] === '--http') httpPort = Number(argv[++i]);
  else if (argv[i] === '--sse') sseAnswers = true;
  else {
    process.stderr.write(`echo-server: unknown argument ${argv[i]}\n`);
    process.exit(2);
  }
}
if (!Number.isInteger(extra) || extra < 0) {
  process.stderr.write('echo-server: --tools must be a non-negative integer\n');
  process.exit(2);
}

const textSchema = { type: 'object', properties: { text: { type: 'string' } } };
const tools = [
  { name: 'echo', description: 'Returns its text argument.', inputSchema: textSchema },
  { name: 'blob', description: 'Returns a text of the given size.', inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } },
];
const blobs = new Map();
const MAX_BLOB = 64 * 2 ** 20;
for (let i = 0; i < extra; i++) tools.push({ name: `tool_${i}`, description: `Extra echo tool ${i}.`, inputSchema: textSchema });
const toolNames = new Set(tools.map((t) => t.name));
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

function answer(msg) {
  const { id, method, params } = msg;
  switch (method) {
    case 'tools/call': {
      if (!toolNames.has(params?.name)) return { jsonrpc: '2.0', id, error: { code: -32602, message: `Unknown tool: ${params?.name}` } };
      if (params.name === 'blob') {
        const bytes = params.arguments?.bytes;
        if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BLOB) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'bytes: 0 to 64 MiB' } };
        let text = blobs.get(bytes);
        if (text === undefined) blobs.set(bytes, (text = 'x'.repeat(bytes)));
        return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
      }
      const text = params.arguments?.text;
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: typeof text === 'string' ? text : '' }] } };
    }
    case 'tools/list':
      return { jsonrpc: '2.0', id, result: { tools } };
    case 'initialize': {
      const asked = params?.protocolVersion;
      return {
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: {} },
          serverInfo: { name, version: '1.0.0' },
        },
      };
    }
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

function onLine(line) {
  if (line.length === 0) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    process.stdout.write('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n');
    return;
  }
  if (msg === null || typeof msg !== 'object' || msg.method === undefined) return; // responses: ignored
  if (msg.id === undefined || msg.id === null) return; // notifications: nothing to do
  process.stdout.write(`${JSON.stringify(answer(msg))}\n`);
}

if (httpPort !== undefined) serveHttp(httpPort);
else serveStdio();

function serveStdio() {
  // Line splitting without quadratic concatenation: keep the pieces of an unfinished line.
  let pieces = [];
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl !== -1) {
      let line = chunk.slice(start, nl);
      if (pieces.length > 0) {
        pieces.push(line);
        line = pieces.join('');
        pieces = [];
      }
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  });
  process.stdin.on('end', () => process.stdout.write('', () => process.exit(0)));
  process.stdout.on('error', () => process.exit(0));
}

/** Streamable HTTP, as lean as the stdio side: JSON answers only, no SSE, no GET stream. */
async function serveHttp(port) {
  const { createServer } = await import('node:http');
  const sessionId = `echo-${process.pid}`;
  const server = createServer((req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      let msg;
      try {
        msg = JSON.parse(parts.length === 1 ? parts[0].toString() : Buffer.concat(parts).toString());
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      }
      if (msg === null || typeof msg !== 'object' || msg.id === undefined || msg.id === null) return void res.writeHead(202).end();
      const headers = { 'content-type': sseAnswers ? 'text/event-stream' : 'application/json' };
      if (msg.method === 'initialize') headers['mcp-session-id'] = sessionId;
      const json = JSON.stringify(answer(msg));
      res.writeHead(200, headers).end(sseAnswers ? `event: message\ndata: ${json}\n\n` : json);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`));
  // The harness stops it by closing stdin, as it does the stdio server.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}
