// What every Transport promises, as one suite run against each implementation (stdio, Streamable
// HTTP, legacy SSE, auto, the in-memory fake). The server behind each subject offers the
// misbehaving fixture's tools (echo, slow, garbage, big, crash, and cut where a wire can be cut).

import { describe, expect, it } from 'vitest';
import { GatewayError, type GatewayErrorCode } from '../../src/errors.js';
import type { Transport } from '../../src/transport.js';
import { client } from '../fixtures/http/client.js';

/** maxMessageBytes every subject's transport is built with; `big` answers exceed it. */
export const CONTRACT_MAX_BYTES = 4096;

export type Client = ReturnType<typeof client>;

/** A request whose answer cannot come: the tool to call and the code its failure must carry. */
export interface Unanswerable {
  label: string;
  tool: string;
  args?: Record<string, unknown>;
  code: GatewayErrorCode;
}

export interface TransportSubject {
  /** Fresh and not started, with maxMessageBytes = CONTRACT_MAX_BYTES. */
  transport: Transport;
  /** Makes the server go away from its side, and lets the transport notice. */
  goAway(c: Client): Promise<void>;
  /** Resolves once everything the transport held is released (child exited, sockets closed). */
  released(): Promise<void>;
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** Requests this implementation can fail one by one through sink.fail. */
  unanswerable: Unanswerable[];
  /** Where the server's garbage lands: between messages, or in place of the answer (a JSON body). */
  garbage: 'between' | 'instead';
  /** Test names that fail because of a known bug in this implementation, with the bug. */
  knownBugs?: Record<string, string>;
}

const call = (c: Client, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => c.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });

/**
 * Waits until `answer` settles or the transport reported a problem matching `re`, then makes one
 * more round trip, so that whatever the transport does about the problem is done by then.
 */
async function settled(c: Client, re: RegExp, answer?: Promise<unknown>): Promise<void> {
  await Promise.race([c.waitForError(re), ...(answer ? [answer] : [])]);
  expect(await c.callEcho('after')).toBe('after');
}

export function transportContract(name: string, make: () => Promise<TransportSubject>, options: ContractOptions): void {
  const bugs = options.knownBugs ?? {};
  /** it(), or it.fails() for a test a known bug makes fail (the bug is named in the subject's file). */
  const test = (title: string, fn: (s: TransportSubject, c: Client, idOf: (tool: string) => unknown) => Promise<void>) =>
    (bugs[title] ? it.fails : it)(title, async () => {
      const subject = await make();
      const t = subject.transport;
      // Records what the client sends, to know the id of each call (the client numbers them).
      const sent: any[] = [];
      const send = t.send.bind(t);
      t.send = (m) => (sent.push(m), send(m));
      const idOf = (tool: string) => sent.findLast((m) => m.method === 'tools/call' && m.params?.name === tool)?.id;
      try {
        await fn(subject, client(t), idOf);
      } finally {
        await subject.transport.close().catch(() => {});
        await subject.dispose();
      }
    });

  describe(`Transport contract: ${name}`, () => {
    test('start, then a request and its answer', async (_s, c) => {
      await c.start();
      const init = await c.initialize();
      expect(init.result.protocolVersion).toEqual(expect.any(String));
      expect(await c.callEcho('hello')).toBe('hello');
      expect(c.closeCount).toBe(0);
    });

    test('what the server writes arrives in order, and pipelined answers each find their request', async (_s, c) => {
      await c.start();
      await c.initialize();
      const answer = await call(c, 'slow', { ms: 0 }, { progressToken: 'p' });
      expect(answer.result.content[0].text).toBe('slept 0');
      const mine = c.messages.filter((m: any) => m.params?.progressToken === 'p' || m.id === answer.id);
      expect(mine.map((m: any) => m.params?.progress ?? 'answer')).toEqual([0, 1, 'answer']);
      const texts = Array.from({ length: 10 }, (_, i) => `n${i}`);
      expect(await Promise.all(texts.map((t) => c.callEcho(t)))).toEqual(texts);
    });

    test('garbage is reported through sink.error and the pipe stays open', async (_s, c) => {
      await c.start();
      await c.initialize();
      const answer = call(c, 'garbage');
      if (options.garbage === 'between') expect((await answer).result.content[0].text).toBe('ok after garbage');
      await settled(c, /JSON/);
      expect(c.errors.every((e) => e instanceof GatewayError)).toBe(true);
      expect(c.closeCount).toBe(0);
    });

    if (options.garbage === 'instead') {
      test('an answer that is garbage fails its request through sink.fail', async (_s, c, idOf) => {
        await c.start();
        await c.initialize();
        const answer = call(c, 'garbage');
        await settled(c, /JSON/, answer);
        expect(c.failed.map((f) => f.id)).toContain(idOf('garbage'));
        expect((await answer).failed).toBeInstanceOf(GatewayError);
      });
    }

    for (const u of options.unanswerable) {
      test(`a request whose answer cannot come fails at once through sink.fail: ${u.label}`, async (_s, c, idOf) => {
        await c.start();
        await c.initialize();
        const answer = call(c, u.tool, u.args);
        await settled(c, /./, answer);
        const failed = c.failed.find((f) => f.id === idOf(u.tool));
        expect(failed, 'failed through sink.fail').toBeDefined();
        expect(failed!.error).toBeInstanceOf(GatewayError);
        expect((failed!.error as GatewayError).code).toBe(u.code);
        expect((await answer).failed).toBe(failed!.error);
        expect(c.closeCount).toBe(0);
      });
    }

    test('our close(): sink.close once without a reason; close() is idempotent; send after close rejects with CONNECTION_CLOSED', async (s, c) => {
      await c.start();
      await c.initialize();
      await Promise.all([s.transport.close(), s.transport.close()]);
      await s.transport.close();
      expect(c.closeCount).toBe(1);
      expect(await c.closed).toBeUndefined();
      const err = await s.transport.send({ jsonrpc: '2.0', id: 99, method: 'ping' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).code).toBe('CONNECTION_CLOSED');
    });

    test('the server going away: sink.close once, with a reason; a later close() adds nothing', async (s, c) => {
      await c.start();
      await c.initialize();
      await s.goAway(c);
      const reason = await c.closed;
      expect(reason).toBeInstanceOf(GatewayError);
      expect((reason as GatewayError).code).toBe('CONNECTION_CLOSED');
      await s.transport.close();
      expect(c.closeCount).toBe(1);
      const err = await s.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch((e: unknown) => e);
      expect((err as GatewayError).code).toBe('CONNECTION_CLOSED');
    });

    test('nothing is left open after close()', async (s, c) => {
      await c.start();
      await c.initialize();
      expect(await c.callEcho('bye')).toBe('bye');
      await s.transport.close();
      await s.released();
    });
  });
}
