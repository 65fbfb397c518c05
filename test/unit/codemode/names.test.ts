// JS-safe names: always identifiers, never colliding, the same whatever the order they come in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindingNames, isIdentifier, safeNames } from '../../../src/codemode/names.js';

const anyName = fc.oneof(
  fc.string({ minLength: 0, maxLength: 12 }),
  fc.constantFrom('search', 'describe', '__proto__', 'constructor', 'my-server', 'my_server', 'my.server', '1st', 'get-file', 'get_file', '日本', '_'),
);

describe('code mode names', () => {
  it('keeps identifiers, replaces the rest, and says search/describe are taken', () => {
    const names = bindingNames([
      { server: 'github', tool: 'create_issue' },
      { server: 'my-server', tool: 'get-file' },
      { server: 'search', tool: 'find' },
      { server: '2fa', tool: 'x' },
    ]);
    expect(names.list.map((n) => n.path)).toEqual(['tools._2fa.x', 'tools.github.create_issue', 'tools.my_server.get_file', 'tools.search_.find']);
    expect(names.resolve('my-server.get-file')?.path).toBe('tools.my_server.get_file');
    expect(names.resolve('tools.my_server.get_file')?.path).toBe('tools.my_server.get_file');
    expect(names.resolve('create_issue')?.entry).toEqual({ server: 'github', tool: 'create_issue' });
    expect(names.resolve('nothing.here')).toBeUndefined();
  });

  it('a converted name that meets an identifier gets a hash suffix; the identifier keeps its name', () => {
    const m = safeNames(['my-server', 'my_server', 'my.server']);
    expect(m.get('my_server')).toBe('my_server');
    expect(m.get('my-server')).toMatch(/^my_server_[0-9a-f]{6}$/);
    expect(m.get('my.server')).toMatch(/^my_server_[0-9a-f]{6}$/);
    expect(m.get('my-server')).not.toBe(m.get('my.server'));
  });

  it('server names with dots resolve by trying every split', () => {
    const names = bindingNames([{ server: 'acme.io', tool: 'list.all' }]);
    expect(names.resolve('acme.io.list.all')?.entry).toEqual({ server: 'acme.io', tool: 'list.all' });
  });

  it('property: names are identifiers, unique, not reserved, and independent of order', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ server: anyName, tool: anyName }), { maxLength: 30 }), fc.integer(), (refs, seed) => {
        const a = bindingNames(refs);
        const shuffled = [...refs].sort((x, y) => ((hash(x.server + x.tool) ^ seed) >>> 0) - ((hash(y.server + y.tool) ^ seed) >>> 0));
        const b = bindingNames(shuffled);
        expect(b.list.map((n) => n.path)).toEqual(a.list.map((n) => n.path));
        const servers = new Map<string, string>();
        for (const n of a.list) {
          expect(isIdentifier(n.serverName)).toBe(true);
          expect(isIdentifier(n.toolName)).toBe(true);
          expect(['search', 'describe', '__proto__']).not.toContain(n.serverName);
          expect(n.toolName).not.toBe('__proto__');
          // One safe name per original server, and no two originals share one.
          expect(servers.get(n.serverName) ?? n.entry.server).toBe(n.entry.server);
          servers.set(n.serverName, n.entry.server);
          if (isIdentifier(n.entry.tool) && n.entry.tool !== '__proto__') expect(n.toolName).toBe(n.entry.tool);
        }
        expect(new Set(a.list.map((n) => n.path)).size).toBe(a.list.length);
        for (const n of a.list) expect(a.get(n.entry.server, n.entry.tool)).toBe(n);
      }),
      { numRuns: 300 },
    );
  });
});

function hash(s: string): number {
  let h = 7;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}
