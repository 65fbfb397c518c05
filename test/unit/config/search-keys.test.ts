// The config keys of search mode's server directory: a server's description (one short line),
// and the gateway tools' names, list_servers' included, which must all differ.
import { describe, expect, it } from 'vitest';
import { parse, problemsOf } from './helpers.js';

describe('servers[].description', () => {
  it('is one short line, trimmed', () => {
    expect(parse('servers:\n  - { name: a, command: node, description: "  Mail  " }\n').servers[0]!.description).toBe('Mail');
    expect(parse('servers:\n  - { name: a, command: node }\n').servers[0]!.description).toBeUndefined();
    expect(problemsOf(`servers:\n  - { name: a, command: node, description: "${'x'.repeat(201)}" }\n`)[0]!.path).toBe('servers[0].description');
    expect(problemsOf('servers:\n  - { name: a, command: node, description: "  " }\n')[0]!.path).toBe('servers[0].description');
  });
});

describe('the gateway tools’ names', () => {
  it('must differ, list_servers’ included', () => {
    expect(problemsOf('catalog: { searchTool: find, listServersTool: find }\n')).toEqual([
      { path: 'catalog.listServersTool', message: 'is the same name as catalog.searchTool ("find"): the gateway tools need distinct names' },
    ]);
    expect(problemsOf('catalog: { listServersTool: call_tool }\n')[0]!.path).toBe('catalog.listServersTool');
  });

  it('and a profile may have a directory budget of its own', () => {
    const config = parse('catalog: { directoryBudget: 800 }\nclients:\n  - { name: small, token: t, catalog: { directoryBudget: 0 } }\n');
    expect(config.catalog.directoryBudget).toBe(800);
    expect(config.clients[0]!.catalog?.directoryBudget).toBe(0);
  });
});
