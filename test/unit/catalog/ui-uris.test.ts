// MCP Apps UI URIs: exposed with the `ui://` scheme kept, reversible, unique per server, and the
// tool's UI pointers rewritten without touching anything else in `_meta`.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exposeUiUri, isUiUri, parseUiUri, rewriteToolUi, toolUiUris, uiPrefixes } from '../../../src/catalog/ui-uris.js';

/** Configured servers: unique names, prefixes free (often alike once made scheme-safe). */
const serversArb = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 })
  .chain((names) => fc.tuple(fc.constant(names), fc.array(fc.constantFrom('', 'A_b', 'a-b', 'ui', '9x', 'Ü'), { minLength: names.length, maxLength: names.length })))
  .map(([names, prefixes]) => names.map((name, i) => ({ name, prefix: prefixes[i]! })));

const restArb = fc.string({ maxLength: 40, unit: 'binary' });

describe('UI URIs', () => {
  it('round trip: parsing an exposed URI gives back the prefix and the server’s own URI', () => {
    fc.assert(
      fc.property(serversArb, restArb, (servers, rest) => {
        for (const prefix of uiPrefixes(servers).values()) {
          const exposed = exposeUiUri(prefix, `ui://${rest}`);
          expect(parseUiUri(exposed)).toEqual({ uiPrefix: prefix, uri: `ui://${rest}` });
        }
      }),
    );
  });

  it('never changes the scheme: an exposed URI starts with ui:// and stays a valid URL', () => {
    fc.assert(
      fc.property(serversArb, fc.domain(), fc.array(fc.webSegment(), { maxLength: 4 }), (servers, host, segments) => {
        const original = `ui://${host}/${segments.join('/')}`;
        expect(() => new URL(original)).not.toThrow();
        for (const prefix of uiPrefixes(servers).values()) {
          const exposed = exposeUiUri(prefix, original);
          expect(isUiUri(exposed)).toBe(true);
          expect(exposed.startsWith('ui://')).toBe(true);
          const url = new URL(exposed);
          expect(url.protocol).toBe('ui:');
          expect(url.pathname).toBe(new URL(original).pathname);
        }
      }),
    );
  });

  it('no collisions: different (server, URI) pairs never share an exposed URI', () => {
    fc.assert(
      fc.property(serversArb, fc.array(restArb, { minLength: 1, maxLength: 5 }), (servers, rests) => {
        const prefixes = uiPrefixes(servers);
        expect(new Set(prefixes.values()).size).toBe(servers.length);
        const seen = new Map<string, string>();
        for (const s of servers) {
          for (const rest of new Set(rests)) {
            const exposed = exposeUiUri(prefixes.get(s.name)!, `ui://${rest}`);
            const owner = JSON.stringify([s.name, rest]);
            expect(seen.get(exposed) ?? owner).toBe(owner);
            seen.set(exposed, owner);
          }
        }
      }),
    );
  });

  it('gives every server a scheme-safe prefix that servers added later never change', () => {
    fc.assert(
      fc.property(serversArb, serversArb, (first, later) => {
        const names = new Set(first.map((s) => s.name));
        const all = [...first, ...later.filter((s) => !names.has(s.name))];
        const before = uiPrefixes(first);
        const after = uiPrefixes(all);
        for (const [server, prefix] of before) {
          expect(prefix).toMatch(/^[a-z][a-z0-9.-]*$/);
          expect(after.get(server)).toBe(prefix);
        }
      }),
    );
  });

  it('tells prefixes apart that only differ where the scheme cannot', () => {
    const p = uiPrefixes([
      { name: 'one', prefix: 'A_b' },
      { name: 'two', prefix: 'a-b' },
      { name: 'three', prefix: '' },
    ]);
    expect(p.get('one')).toBe('a-b');
    expect(p.get('two')).toMatch(/^a-b-[0-9a-f]{8}$/);
    expect(p.get('three')).toBe('three');
  });

  it('is not fooled by URIs that are not exposed UI URIs', () => {
    for (const uri of ['ui://get-time/mcp-app.html', 'file:///x', 'basic+ui://x', 'ui://+x', 'UI://basic+x', 'ui://9x+y']) {
      expect(parseUiUri(uri)).toBeUndefined();
    }
    expect(isUiUri('UI://x')).toBe(true);
    expect(isUiUri('ui:x')).toBe(false);
    expect(isUiUri(undefined)).toBe(false);
  });
});

describe('tool UI pointers', () => {
  const tool = {
    name: 'get-time',
    _meta: { ui: { resourceUri: 'ui://get-time/app.html', visibility: ['model', 'app'], extra: 1 }, 'ui/resourceUri': 'ui://get-time/app.html', other: { a: 1 } },
  };

  it('finds both the nested and the older flat pointer', () => {
    expect(toolUiUris(tool)).toEqual(['ui://get-time/app.html']);
    expect(toolUiUris({ _meta: { 'ui/resourceUri': 'ui://old' } })).toEqual(['ui://old']);
    expect(toolUiUris({ _meta: { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' } })).toEqual(['ui://a', 'ui://b']);
    expect(toolUiUris({ name: 'plain' })).toEqual([]);
  });

  it('rewrites both pointers and keeps everything else in _meta as it was', () => {
    const out = rewriteToolUi(tool, (uri) => exposeUiUri('basic', uri));
    expect(out._meta).toEqual({
      ui: { resourceUri: 'ui://basic+get-time/app.html', visibility: ['model', 'app'], extra: 1 },
      'ui/resourceUri': 'ui://basic+get-time/app.html',
      other: { a: 1 },
    });
    expect(out._meta.other).toBe(tool._meta.other);
    // The server's item is never changed in place.
    expect(tool._meta.ui.resourceUri).toBe('ui://get-time/app.html');
  });

  it('drops a pointer the rename refuses, keeping visibility', () => {
    const out = rewriteToolUi(tool, () => null);
    expect(out._meta).toEqual({ ui: { visibility: ['model', 'app'], extra: 1 }, other: { a: 1 } });
  });

  it('returns the same object when nothing changes', () => {
    expect(rewriteToolUi(tool, (uri) => uri)).toBe(tool);
    const plain = { name: 'x', _meta: { ui: { visibility: ['app'] } } };
    expect(rewriteToolUi(plain, () => 'changed')).toBe(plain);
  });
});
