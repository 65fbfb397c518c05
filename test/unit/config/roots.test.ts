// `roots` (top level and per profile): file:// URIs or paths relative to the config's folder,
// loaded as MCP roots (a file URI and the folder's name).

import { describe, expect, it } from 'vitest';
import { toRoots } from '../../../src/config/schema-roots.js';
import { BASE, parse, problemsOf } from './helpers.js';

describe('roots', () => {
  it('are absent unless configured', () => {
    const config = parse('servers: []');
    expect(config.roots).toBeUndefined();
  });

  it('resolve paths against the config file’s folder and keep file URIs', () => {
    const config = parse('roots: ["../docs", "file:///srv/shared"]\nclients:\n  - { name: me, roots: ["."] }\nstdio: { client: me }\nservers: []');
    expect(config.roots).toEqual([
      { uri: 'file:///srv/switchboard/docs', name: 'docs' },
      { uri: 'file:///srv/shared', name: 'shared' },
    ]);
    expect(config.clients[0]!.roots).toEqual([{ uri: `file://${BASE}`, name: 'config' }]);
  });

  it('refuse URIs of another scheme', () => {
    expect(problemsOf('roots: ["https://example.com/x"]\nservers: []')).toEqual([{ path: 'roots[0]', message: 'must be a file:// URI or a path (roots are folders)' }]);
  });

  it('escape what a URI needs escaped', () => {
    expect(toRoots(['my folder'], '/tmp')).toEqual([{ uri: 'file:///tmp/my%20folder', name: 'my folder' }]);
  });
});
