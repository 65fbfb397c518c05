// A server that accepts our notifications with 202 but leaves an SSE stream open on each: the
// transport must let go of those streams, or its connection pool fills and every later message
// waits forever.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { StreamableHttpTransport } from '../../../src/outbound/http-streamable.js';
import type { JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import { NO_SINK } from '../../../src/transport.js';

let server: Server | undefined;
let transport: StreamableHttpTransport | undefined;
const open: ServerResponse[] = [];

afterEach(async () => {
  await transport?.close();
  for (const res of open.splice(0)) res.destroy();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

it('a 202 that opens a stream anyway does not hold a connection', async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const msg = JSON.parse(Buffer.concat(parts).toString());
      if (msg.id === undefined) {
        res.writeHead(202, { 'content-type': 'text/event-stream' });
        res.write(': held open\n\n');
        open.push(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { ok: true } }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  transport = new StreamableHttpTransport({ url, maxConnections: 2 });
  const received: JsonRpcMessage[] = [];
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const message = (m: JsonRpcMessage) => {
    received.push(m);
    answer();
  };
  await transport.start({ ...NO_SINK, message });
  for (let i = 0; i < 6; i++) await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i } });
  await transport.send({ jsonrpc: '2.0', id: 7, method: 'ping' });
  await answered;
  expect(received).toEqual([{ jsonrpc: '2.0', id: 7, result: { ok: true } }]);
});
