// The same protocol features with the reference servers from npm behind the gateway:
// server-everything (progress, logging, sampling, elicitation) and server-memory
// (resources/updated after each change).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, nodeBin, repoRoot, startGateway, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const pkg = (name: string) => path.join(repoRoot, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

describe('server-everything and server-memory behind the gateway, over HTTP', () => {
  let client: Client;
  const prompts: string[] = [];

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'switchboard-mem-'));
    const gw = await startGateway(
      yamlServers([
        { name: 'everything', command: nodeBin, args: [pkg('server-everything'), 'stdio'] },
        { name: 'memory', command: nodeBin, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: path.join(folder, 'memory.jsonl') } },
      ]),
    );
    client = await connectHttpClient(gw.url, {
      capabilities: { sampling: {}, elicitation: { form: {} } },
      setup: (c) => {
        c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
          prompts.push((req.params.messages[0]!.content as any).text);
          return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'a sampled answer' } };
        });
        c.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
      },
    });
  });

  afterAll(async () => {
    await client?.close();
  });

  it('relays progress of a long-running operation', async () => {
    const seen: number[] = [];
    const r = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (p) => void seen.push(p.progress),
    });
    expect(JSON.stringify(r.content)).toMatch(/completed/i);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('relays a sampling request to this client and its answer back', async () => {
    const r = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'Say hi' } });
    expect(prompts.some((p) => p.includes('Say hi'))).toBe(true);
    expect(JSON.stringify(r.content)).toContain('a sampled answer');
  });

  it('relays an elicitation request and the client’s decision', async () => {
    const r = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(JSON.stringify(r.content)).toMatch(/decline/i);
  });

  it('relays log messages with the server’s name as logger', async () => {
    const got = new Promise<any>((resolve) => client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => resolve(n.params)));
    await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    const message = await got;
    expect(message.logger === 'everything' || message.logger.startsWith('everything/')).toBe(true);
    await client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
  });

  it('delivers server-memory’s resources/updated after a change to a subscriber', async () => {
    await client.subscribeResource({ uri: 'memory://knowledge-graph' });
    const updated = new Promise<any>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params)));
    await client.callTool({ name: 'memory__create_entities', arguments: { entities: [{ name: 'Grace', entityType: 'person', observations: ['admiral'] }] } });
    expect((await updated).uri).toBe('memory://knowledge-graph');
  });
});
