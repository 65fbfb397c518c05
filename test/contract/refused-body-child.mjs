#!/usr/bin/env node
// Runs the built Streamable HTTP transport (dist/) against a server whose answer it must refuse,
// in a process of its own: if refusing the answer throws an uncaught error, this process dies
// (exit 1) instead of printing "survived". Usage: refused-body-child.mjs <dist dir> <case>
//   oversized-length   a JSON answer with a Content-Length over maxMessageBytes
//   wrong-type         a 200 answer of type text/html
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, which] = process.argv.slice(2);
const { StreamableHttpTransport } = await import(pathToFileURL(path.join(dist, 'outbound', 'http-streamable.js')).href);

const server = http.createServer((req, res) => {
  let text = '';
  req.on('data', (d) => (text += d));
  req.on('end', () => {
    const msg = JSON.parse(text);
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { pad: 'x'.repeat(msg.method === 'refuse-me' ? 5000 : 10) } });
    const type = msg.method === 'refuse-me' && which === 'wrong-type' ? 'text/html' : 'application/json';
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const t = new StreamableHttpTransport({ url: `http://127.0.0.1:${server.address().port}/mcp`, maxMessageBytes: 4096 });
const answers = new Map();
const answer = (id) => new Promise((resolve) => answers.set(id, resolve));
await t.start({
  message: (m) => answers.get(m.id)?.('answered'),
  fail: (id, e) => answers.get(id)?.(`failed: ${e.code}`),
  error: () => {},
  close: () => {},
});
const first = answer(1);
await t.send({ jsonrpc: '2.0', id: 1, method: 'refuse-me' });
process.stderr.write(`refused request: ${await first}\n`);
// A round trip after it: an error emitted in the meantime would have ended this process.
const second = answer(2);
await t.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
process.stderr.write(`next request: ${await second}\n`);
await t.close();
server.close();
process.stdout.write('survived\n');
