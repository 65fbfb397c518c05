// A client of the stateful era (SDK v1, 2025-11-25) calling tools, prompts and resources of a
// 2026-07-28-only server (the SDK v2 fixture with --modern-only, over stdio and Streamable HTTP)
// through the built gateway: the server's input_required rounds reach the client as real
// elicitation/create, sampling/createMessage and roots/list requests, and the call resumes.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, httpServer, startGateway, yamlServers } from '../helpers/index.js';
import { statelessServerCommand, startStatelessHttpFixture } from '../helpers/stateless-fixture.js';

afterAll(cleanup);

const text = (r: any) => r.content?.[0]?.text ?? r.messages?.[0]?.content?.text ?? r.contents?.[0]?.text;

describe('a client of the stateful era, a 2026-07-28-only server behind the gateway', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let client: Client;
  const asked: Array<{ method: string; params: any }> = [];
  let elicitAnswer: (message: string) => any = () => ({ action: 'decline' });

  beforeAll(async () => {
    const http = await startStatelessHttpFixture({ modernOnly: true, name: 'modern-http' });
    gw = await startGateway(yamlServers([{ name: 'overstdio', ...statelessServerCommand({ modernOnly: true, name: 'modern-stdio' }) }, httpServer('overhttp', http.url)]));
    client = await connectHttpClient(gw.url, {
      capabilities: { elicitation: {}, sampling: {}, roots: { listChanged: true } },
      setup: (c) => {
        c.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push({ method: 'elicitation/create', params: req.params }), elicitAnswer(req.params.message)));
        c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
          asked.push({ method: 'sampling/createMessage', params: req.params });
          return { role: 'assistant', model: 'test-model', content: { type: 'text', text: `echo: ${(req.params.messages[0]!.content as any).text}` } };
        });
        c.setRequestHandler(ListRootsRequestSchema, async () => (asked.push({ method: 'roots/list', params: {} }), { roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b' }] }));
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await gw?.stop();
  });

  describe.each(['overstdio', 'overhttp'])('server reached %s', (server) => {
    it('answers an elicitation round through the client, and the tool finishes with its answer', async () => {
      elicitAnswer = () => ({ action: 'accept', content: { name: 'Ada' } });
      asked.length = 0;
      const result = await client.callTool({ name: `${server}__ask_name`, arguments: {} });
      expect(text(result)).toBe('Hello, Ada!');
      expect(asked).toEqual([{ method: 'elicitation/create', params: expect.objectContaining({ message: 'What is your name?' }) }]);
    });

    it('relays sampling and roots rounds', async () => {
      const llm = await client.callTool({ name: `${server}__ask_llm`, arguments: { prompt: 'two plus two' } });
      expect(text(llm)).toBe('LLM said: echo: two plus two');
      const roots = await client.callTool({ name: `${server}__list_roots`, arguments: {} });
      expect(text(roots)).toBe('roots: file:///work/a, file:///work/b');
    });

    it("carries the server's requestState across two rounds untouched", async () => {
      elicitAnswer = (message) => ({ action: 'accept', content: message.startsWith('Step 1') ? { name: 'Grace' } : { color: 'teal' } });
      asked.length = 0;
      const result = await client.callTool({ name: `${server}__two_step`, arguments: {} });
      expect(text(result)).toBe('Grace likes teal');
      expect(asked.map((a) => a.params.message)).toEqual(['Step 1: your name?', 'Step 2: your colour?']);
    });

    it("passes the client's refusal to the server, which decides what it means", async () => {
      elicitAnswer = () => ({ action: 'decline' });
      const result = await client.callTool({ name: `${server}__ask_name`, arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toBe('no name (decline)');
    });

    it('answers rounds of prompts/get and resources/read too', async () => {
      elicitAnswer = (message) => ({ action: 'accept', content: message === 'Which topic?' ? { topic: 'tides' } : { confirm: true } });
      const prompt = await client.getPrompt({ name: `${server}__topic_prompt` });
      expect(text(prompt)).toBe('Write about tides.');
      const { resources } = await client.listResources();
      // The first server keeps its URIs; the second one's colliding URIs carry its prefix.
      const uri = server === 'overstdio' ? 'fixture://guarded' : 'overhttp+fixture://guarded';
      expect(resources.map((r) => r.uri)).toContain(uri);
      expect(text(await client.readResource({ uri }))).toBe('guarded text');
    });
  });

  it('a client that declared no elicitation is never asked: the server hears it cannot ask, and the call fails clearly', async () => {
    const plain = await connectHttpClient(gw.url, { capabilities: {} });
    const outcome = await plain.callTool({ name: 'overstdio__ask_name', arguments: {} }).then(
      (r) => ({ error: undefined, result: r }),
      (e: any) => ({ error: e, result: undefined }),
    );
    const said = outcome.error ? String(outcome.error.message) : text(outcome.result);
    expect(said).toMatch(/elicitation/i);
    if (outcome.result) expect(outcome.result.isError).toBe(true);
    await plain.close();
  });
});
