#!/usr/bin/env node
// The floor: the least any MCP proxy written in Node must do, and nothing else, so that the bench
// can show in the same run what a third process in the middle costs on this machine whatever it
// does. It is not a gateway: no checks, limits, policy, sessions, timeouts, logs or errors.
//
//   node floor-proxy.mjs --stdio -- CMD ARGS...   stdio client  -> this -> CMD (stdio)
//   node floor-proxy.mjs --http  -- CMD ARGS...   HTTP client   -> this -> CMD (stdio); prints
//                                                 "listening on URL" to stderr like the gateway
//
// Per message it does what a proxy cannot skip: parse a client's request (to learn where it goes),
// give it an id of its own (clients' ids collide), rename the tool (`echo__echo` → `echo`), write
// it; find the id in the head of the server's answer and put the client's id back (no parse).
// Writes of one event-loop turn go out in one write, as the gateway's do.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const argv = process.argv.slice(2);
const mode = argv[0];
const sep = argv.indexOf('--');
if ((mode !== '--stdio' && mode !== '--http') || sep === -1 || sep + 1 >= argv.length) {
  process.stderr.write('usage: floor-proxy.mjs --stdio|--http -- CMD ARGS...\n');
  process.exit(2);
}
const server = spawn(argv[sep + 1], argv.slice(sep + 2), { stdio: ['pipe', 'pipe', 'inherit'] });
server.on('exit', () => process.exit(0));

const PREFIX = 'echo__';
/** Our id → what to do with the answer (a client's id to put back, or an HTTP response). */
const waiting = [];
let nextId = 1;
let toServer = [];
let toServerQueued = false;
function flushToServer() {
  toServerQueued = false;
  server.stdin.write(toServer.join(''));
  toServer = [];
}
function toServerLine(text) {
  toServer.push(`${text}\n`);
  if (!toServerQueued) {
    toServerQueued = true;
    setImmediate(flushToServer);
  }
}

/** Forwards one client request; `back` is called with the server's answer, the client's id spliced in. */
function forward(line, back) {
  const msg = JSON.parse(line);
  const clientId = msg.id;
  const id = nextId++;
  msg.id = id;
  const name = msg.params?.name;
  if (typeof name === 'string' && name.startsWith(PREFIX)) msg.params.name = name.slice(PREFIX.length);
  waiting[id] = { clientId: JSON.stringify(clientId), back };
  toServerLine(JSON.stringify(msg));
}

function onServerLine(line) {
  const at = line.indexOf('"id":');
  let end = at + 5;
  while (line.charCodeAt(end) >= 48 && line.charCodeAt(end) <= 57) end++;
  const id = Number(line.slice(at + 5, end));
  const w = waiting[id];
  if (w === undefined) return; // a notification or a request from the server: the floor drops them
  waiting[id] = undefined;
  w.back(line.slice(0, at + 5) + w.clientId + line.slice(end));
}

/** Splits a stream into lines (utf8, one string per line); a long line's reads are joined once. */
function eachLine(stream, onLine) {
  let parts = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const tail = chunk.slice(start, nl);
      const line = parts.length === 0 ? tail : parts.join('') + tail;
      parts = [];
      if (line.length > 0) onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  });
}
eachLine(server.stdout, onServerLine);

if (mode === '--stdio') {
  let toClient = [];
  let toClientQueued = false;
  const flushToClient = () => {
    toClientQueued = false;
    process.stdout.write(toClient.join(''));
    toClient = [];
  };
  const back = (line) => {
    toClient.push(`${line}\n`);
    if (!toClientQueued) {
      toClientQueued = true;
      setImmediate(flushToClient);
    }
  };
  eachLine(process.stdin, (line) => {
    if (line.includes('"id":')) forward(line, back);
    else toServerLine(line); // notifications pass as they are
  });
  process.stdin.on('end', () => server.stdin.end());
} else {
  const http = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
    if (req.method !== 'POST') return res.writeHead(200).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (!body.includes('"id":')) {
        toServerLine(body);
        return res.writeHead(202).end();
      }
      forward(body, (line) => res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'floor' }).end(line));
    });
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`floor-proxy: listening on http://127.0.0.1:${http.address().port}/mcp\n`));
  process.on('SIGTERM', () => server.kill());
}
