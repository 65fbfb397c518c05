import { describe, expect, it } from 'vitest';
import { ResourceRouter, namespaceUri, templateMatcher, uriPrefixFor } from '../../../src/catalog/resource-uris.js';

describe('resource URIs', () => {
  it('makes a scheme-safe prefix, so namespaced URIs stay valid URIs', () => {
    for (const p of ['memory', 'My_Server', '9lives', 'a.b-c']) {
      const uri = namespaceUri(uriPrefixFor(p), 'file:///tmp/x');
      expect(() => new URL(uri)).not.toThrow();
      expect(uri).toMatch(/^[a-z][a-z0-9+.-]*:/);
    }
  });

  it('matches RFC 6570 templates, treating every expression as a wildcard', () => {
    expect(templateMatcher('test://template/{id}/data').test('test://template/42/data')).toBe(true);
    expect(templateMatcher('test://template/{id}/data').test('test://template/42/other')).toBe(false);
    expect(templateMatcher('file:///{+path}').test('file:///a/b.txt')).toBe(true);
    expect(templateMatcher('q://x{?a,b}').test('q://x?a=1&b=2')).toBe(true);
    expect(templateMatcher('a.b://(x)').test('a.b://(x)')).toBe(true);
    expect(templateMatcher('a.b://(x)').test('aXb://(x)')).toBe(false);
  });

  it('routes listed, namespaced, templated and scheme-only URIs', () => {
    const r = new ResourceRouter();
    r.addServerPrefix('one', 'one');
    r.addServerPrefix('two', 'two');
    r.addResource('mem://a', { server: 'one', uri: 'mem://a' });
    r.addResource('two+mem://a', { server: 'two', uri: 'mem://a' });
    r.addTemplate('two', 'tpl://{id}', undefined);
    expect(r.route('mem://a')).toEqual([{ server: 'one', uri: 'mem://a' }]);
    expect(r.route('two+mem://a')).toEqual([{ server: 'two', uri: 'mem://a' }]);
    expect(r.route('two+mem://unlisted')).toEqual([{ server: 'two', uri: 'mem://unlisted' }]);
    expect(r.route('tpl://7')).toEqual([{ server: 'two', uri: 'tpl://7' }]);
    expect(r.route('mem://b')).toEqual([
      { server: 'one', uri: 'mem://b' },
      { server: 'two', uri: 'mem://b' },
    ]);
    expect(r.route('nothing://here')).toEqual([]);
  });
});
