import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/load.js';
import { renderJsonSchema } from '../../../src/config/schema.js';
import { jsonSchema as schema, properties } from './json-schema.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

const keys = [...new Set(properties(schema).map(([p]) => p.split('.').pop()!))].filter((k) => k !== '$schema');

describe('JSON Schema', () => {
  it('is committed up to date (regenerate: npm run build && npm run schema)', () => {
    expect(read('schema/switchboard.schema.json')).toBe(renderJsonSchema());
  });

  it('has a $schema, a title and a description on every property', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('Switchboard configuration');
    const undocumented = properties(schema).filter(([, s]) => typeof s.description !== 'string');
    expect(undocumented.map(([p]) => p)).toEqual([]);
  });

  it('describes the user-facing shape, mcpServers included', () => {
    expect(keys).toEqual(expect.arrayContaining(['listen', 'naming', 'catalog', 'limits', 'servers', 'mcpServers', 'type', 'disabled', 'allow', 'deny']));
  });
});

describe('config/example.yaml', () => {
  const text = read('config/example.yaml');

  it('points editors at the schema on its first line', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/switchboard.schema.json');
  });

  it('loads on a fresh machine (no variables set)', async () => {
    const config = await loadConfigFile(new URL('../../../config/example.yaml', import.meta.url).pathname, {});
    expect(config.servers.map((s) => s.name)).toEqual(['everything', 'remote', 'github', 'tracker', 'memory', 'legacy-sse']);
    expect(config.servers.find((s) => s.name === 'remote')).toMatchObject({
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization: 'Bearer dev-token' },
    });
  });

  it('uses every key', () => {
    expect(keys.filter((k) => !new RegExp(`^\\s*(- )?${k.replace('$', '\\$')}:`, 'm').test(text))).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('documents every key', () => {
    const docs = read('docs/configuration.md');
    expect(keys.filter((k) => !docs.includes(`\`${k}\``))).toEqual([]);
  });
});
