// Random and truncated input on the stdio face: never a crash, always a JSON-RPC answer.

import fc from 'fast-check';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { classify, type JsonRpcMessage } from '../../../src/protocol/jsonrpc.js';
import type { EndpointSession, SessionOpener } from '../../../src/inbound/session-opener.js';
import { startStdioEndpoint } from '../../../src/inbound/stdio-endpoint.js';
import { ByteBudget } from '../../../src/inbound/budget.js';

/** A session that answers every request with an empty result, like ping. */
const host: SessionOpener = {
  budget: new ByteBudget(1 << 30, 'the gateway', 'limits.totalBytesInFlight', 'gateway'),
  openSession(): EndpointSession {
    return {
      id: 's',
      protocolVersion: undefined,
      budget: new ByteBudget(1 << 30, 'this session', 'limits.sessionBytesInFlight', 'session'),
      inFlightCount: 0,
      async handle(m: JsonRpcMessage) {
        const kind = classify(m);
        if (kind === 'request') return { jsonrpc: '2.0', id: (m as any).id, result: {} };
        if (kind === 'invalid') return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid' } };
        return undefined;
      },
      close() {},
    };
  },
};

async function run(lines: string[], max = 1024): Promise<unknown[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d) => (text += d));
  // The input's end comes after every line was framed and handed to the session.
  const ended = new Promise<void>((resolve) => startStdioEndpoint(host, { input, output, maxMessageBytes: max, onEnd: resolve }));
  for (const l of lines) input.write(`${l}\n`);
  input.end();
  await ended;
  // The fake session answers within the same macrotask; one turn later every answer is written.
  await new Promise((r) => setImmediate(r));
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const jsonLine = fc.oneof(
  fc.string(),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.string() }).map((v) => JSON.stringify(v)),
  fc.json().chain((j) => fc.nat(j.length).map((n) => j.slice(0, n))), // truncated JSON
  fc.constantFrom('', ' ', '\t', '  {}'), // empty and blank lines
);

describe('stdio endpoint under random input', () => {
  it('answers every line that is not a notification or response with exactly one JSON-RPC message (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          jsonLine.filter((l) => !l.includes('\n') && !l.includes('\r')),
          { maxLength: 15 },
        ),
        async (lines) => {
          const out = await run(lines);
          for (const m of out) expect(['response']).toContain(classify(m));
          const expected = lines.filter((l) => {
            // Only an empty line is skipped; a line of blanks is not JSON and gets -32700.
            if (l === '') return false;
            try {
              const v = JSON.parse(l);
              const k = classify(v);
              return k === 'request' || k === 'invalid';
            } catch {
              return true; // parse error answered with -32700
            }
          }).length;
          expect(out.length).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('stdio endpoint answers', () => {
  /** A session whose answers the test releases one by one. */
  function heldSession() {
    const calls: { id: number; release: () => void }[] = [];
    const waiters: (() => void)[] = [];
    const opener: SessionOpener = {
      ...host,
      openSession(): EndpointSession {
        return {
          ...host.openSession(() => {}),
          async handle(m: JsonRpcMessage) {
            const id = (m as any).id;
            await new Promise<void>((release) => {
              calls.push({ id, release });
              for (const wake of waiters.splice(0)) wake();
            });
            return { jsonrpc: '2.0', id, result: {} };
          },
        };
      },
    };
    /** Resolves once the session has been handed `n` requests. */
    const handled = async (n: number) => {
      while (calls.length < n) await new Promise<void>((wake) => waiters.push(wake));
    };
    return { opener, calls, handled };
  }
  const microtasks = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };

  it("writes the answer to the only request in flight at once, and answers of requests in flight together at the turn's end, together", async () => {
    const { opener, calls, handled } = heldSession();
    const input = new PassThrough();
    const writes: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _e, done) {
        writes.push(chunk.toString());
        done();
      },
    });
    startStdioEndpoint(opener, { input, output, maxMessageBytes: 1024 });

    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await handled(1);
    calls[0]!.release();
    await microtasks();
    expect(writes).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);

    input.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await handled(3);
    calls[1]!.release();
    calls[2]!.release();
    await microtasks();
    expect(writes).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(writes.slice(1)).toEqual(['{"jsonrpc":"2.0","id":2,"result":{}}\n{"jsonrpc":"2.0","id":3,"result":{}}\n']);
  });
});
