import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalUri, MAX_URI_LENGTH } from '../../../src/policy/uri.js';

const canon = (uri: string): string | undefined => {
  const c = canonicalUri(uri);
  return c.ok ? c.uri : undefined;
};
const reason = (uri: string): string | undefined => {
  const c = canonicalUri(uri);
  return c.ok ? undefined : c.reason;
};

describe('canonicalUri: one spelling per resource', () => {
  it.each([
    ['FILE:///srv/x', 'file:///srv/x'],
    ['file://localhost/srv/x', 'file:///srv/x'],
    ['file://LOCALHOST/srv/x', 'file:///srv/x'],
    ['file:/srv/x', 'file:///srv/x'],
    ['file://', 'file:///'],
    ['file://%6Cocalhost/srv/x', 'file:///srv/x'],
    ['file:///C:/srv/x', 'file:///C:/srv/x'],
    ['file:///C%3a/a/..', 'file:///C:/'],
    ['http://[::1]/x', 'http://[::1]/x'],
    ['https://xn--fa-hia.de/', 'https://xn--fa-hia.de/'],
    ['https://a_b.example/', 'https://a_b.example/'],
    ['ui://srv+app/main.html', 'ui://srv+app/main.html'],
    ['http://u%40x:p%3Aw@h/', 'http://u%40x:p%3Aw@h/'],
    ['DEMO://Host.Example/Path/X', 'demo://host.example/Path/X'],
    ['demo+file://localhost/a', 'demo+file:///a'],
    ['file:///srv/%73ecret', 'file:///srv/secret'],
    ['file:///srv/%7e%2D%5f', 'file:///srv/~-_'],
    ['file:///srv/a%28copy%29%3b%40', 'file:///srv/a(copy)%3B@'],
    ['https://h/a%3bb/c', 'https://h/a%3Bb/c'],
    ['demo://h/a%3bb;c', 'demo://h/a;b;c'],
    ['file:///srv/%3f%23%25', 'file:///srv/%3F%23%25'],
    ['file:///srv/my docs/é😀', 'file:///srv/my%20docs/%C3%A9%F0%9F%98%80'],
    ['file:///srv/my%20docs/%c3%a9', 'file:///srv/my%20docs/%C3%A9'],
    ['file:///srv/./a/../b/', 'file:///srv/b/'],
    ['file:///srv/a/..', 'file:///srv/'],
    ['file:///srv/a/.', 'file:///srv/a/'],
    ['file:///srv//a///b', 'file:///srv/a/b'],
    ['http://User:Pw@EXAMPLE.com:0080/a?Q=%7e%41%2f', 'http://User:Pw@example.com/a?Q=~A%2F'],
    ['https://example.com:443', 'https://example.com/'],
    ['https://example.com:8443/', 'https://example.com:8443/'],
    ['http://example.com:/', 'http://example.com/'],
    ['http://[::1]:80/x', 'http://[::1]/x'],
    ['git+https://Example.com:443/r', 'git+https://example.com/r'],
    ['mailto:Someone%40Example.com', 'mailto:Someone%40Example.com'],
    ['urn:ISBN:%30451', 'urn:ISBN:0451'],
    ['demo:notes/a%2db', 'demo:notes/a-b'],
    ['demo:/a/../b', 'demo:/b'],
    ['demo://h', 'demo://h'],
    ['demo:', 'demo:'],
  ])('%s → %s', (input, expected) => {
    expect(canon(input)).toBe(expected);
  });
});

describe('canonicalUri refuses what rules cannot judge', () => {
  it.each([
    ['srv/secret', /relative/],
    ['/srv/secret', /relative/],
    ['//host/secret', /relative/],
    ['../secret', /relative/],
    ['', /relative/],
    ['file:///srv/public/x#/../../secret', /fragment/],
    ['demo://h/x#', /fragment/],
    ['file:///srv/%2e%2e%2Fsecret', /encoded \//],
    ['file:///srv/a%5c..%5csecret', /encoded \//],
    ['file:///srv/a\\..\\secret', /backslash/],
    ['http://evil\\@example.com/', /backslash/],
    ['file:///srv/secret%00.txt', /NUL/],
    ['demo://h/x?y=%00', /NUL/],
    ['file:///../etc/passwd', /above the root/],
    ['file:///srv/../../etc', /above the root/],
    ['file:///srv/%2e%2e/%2E%2E/etc', /above the root/],
    ['file:///srv/%', /invalid percent/],
    ['file:///srv/%zz', /invalid percent/],
    ['file:///srv/%2', /invalid percent/],
    ['file:///srv/%252e%252e/secret', /twice/],
    ['file:///srv/%25%32%65', /twice/], // one decode gives %2e
    ['demo://h/x?q=%2541', /twice/],
    ['file:///srv/a\nb', /control/],
    ['file:///srv/a\u0085b', /control/],
    ['file:///srv/\uD800', /surrogate/],
    [`file:///srv/${'a'.repeat(MAX_URI_LENGTH)}`, /longer/],
    [`file:///srv/${'\u00e9'.repeat(MAX_URI_LENGTH / 4)}`, /once canonical/],
    ['file:///srv/x?/../../secret', /query/],
    ['demo://h/read?path=/srv/../secret', /dot segment in its query/],
    ['demo:public/../secret', /without a root/],
    ['demo:./x', /without a root/],
    ['file:///srv/public/..;/secret', /parameters/],
    ['file:///srv/public//../x', /\/\/ before \.\./],
    ['file:///srv/public/%2e%2E/%41//%2e%2e/public/.', /\/\/ before \.\./], // found by the property below
    ['file:srv/x', /absolute path/],
    ['file://user@localhost/x', /user or a port/],
    ['http:/x', /no host/],
    ['http:///x', /no host/],
    ['https:example.com', /no host/],
    ['http://a:b/', /port/],
    ['http://h:70000/', /65535/],
    ['http://[::1/', /unclosed/],
    // A server reads these as another resource than their canonical form would name (issue 28.5).
    ['file://fileserver/share/x', /host other than localhost/],
    ['file://127.0.0.1/secret/x', /host other than localhost/],
    ['file://x/secret/x', /host other than localhost/],
    ['file://C:/secret/x', /host other than localhost/],
    ['file://C|/secret/x', /host other than localhost/],
    ['file://localhost./secret', /host other than localhost/],
    ['fs+file://evil/secret', /host other than localhost/],
    ['file://user@host/x', /user or a port/],
    ['file://localhost:8080/x', /user or a port/],
    ['ui://srv+secret%2Fadmin.html', /encoded \/ or \\ in its authority/],
    ['ui://srv+secret%2fadmin.html', /encoded \/ or \\ in its authority/],
    ['ui://srv+secret%5Cadmin.html', /encoded \/ or \\ in its authority/],
    ['http://u%2Fx@h/', /encoded \/ or \\ in its authority/],
    ['demo://a%3A80/x', /encoded delimiter/],
    ['demo://evil%40good/x', /encoded delimiter/],
    ['demo://a%3Fb/x', /encoded delimiter/],
    ['file:////secret/x', /starts with \/\//],
    ['file://localhost//secret/x', /starts with \/\//],
    ['file:///.//secret/x', /starts with \/\//],
    ['file:///a/..//secret/x', /starts with \/\//],
    ['file:///C|/secret/x', /drive letter written with \|/],
    ['file:///c%7C/secret/x', /drive letter written with \|/],
    ['file:///C:/..', /drive letter/],
    ['file:///C:/a/../../x', /drive letter/],
    ['file:///srv/secret.txt ', /space/],
    ['file:///srv/secret.txt;x', /a ; in its path/],
    ['file:///srv/secret;x/key', /a ; in its path/],
    ['http://h/admin;x/key', /a ; in its path/],
    ['http://127.1/', /another/],
    ['http://0x7f.0.0.1/', /another/],
    ['http://2130706433/', /another/],
    ['http://1.2.3/', /another/],
    ['http://[0:0::1]/', /another/],
    ['http://\uFF45xample.com/', /non-ASCII/],
    ['https://fa\u00DF.de/', /non-ASCII/],
    ['https://ex%61mple.com%2e/', /dot/],
    ['https://example.com./', /dot/],
    ['http://xn--a/', /another/],
    ['http://example.123/', /another/],
  ])('%j: %s', (input, why) => {
    expect(reason(input)).toMatch(why);
  });

  it('never quotes the URI in its reason (it may carry credentials)', () => {
    expect(reason('http://user:hunter2@h/x#frag')).not.toMatch(/hunter2/);
  });

  it('rejects a value that is not a string without throwing', () => {
    expect(canonicalUri(42 as unknown as string)).toEqual({ ok: false, reason: 'is not a string' });
  });
});

const uriSpelling = (() => {
  const scheme = fc.constantFrom('file', 'FILE', 'File', 'demo', 'DEMO', 'http', 'HTTPS', 'x+file', 'urn', 'mailto');
  const authority = fc.constantFrom('', '//', '//localhost', '//LocalHost', '//Host.Example', '//h:80', '//h:0443', '//u@h', '//h:', '//[::1]');
  const segment = fc.constantFrom(
    '',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2e%2E',
    '.%2e',
    'a',
    'B',
    '%41',
    '%7e',
    'é',
    ' ',
    '%20',
    '%2F',
    '%25',
    '%252e',
    '%25%32%65',
    '%25%34',
    '%2541',
    '%3F',
    '(x)',
    '%28',
    '..;',
    '\\',
    '%',
    'x%2',
    '?',
    '#',
    ';',
    '=',
  );
  const path = fc.array(segment, { maxLength: 6 }).map((ss) => ss.join('/'));
  return fc.tuple(scheme, authority, fc.boolean(), path, fc.option(path, { nil: undefined })).map(([s, a, rooted, p, q]) => `${s}:${a}${rooted || a ? '/' : ''}${p}${q === undefined ? '' : `?${q}`}`);
})();

const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom(...'aZ:/?#[]@%2eE.\\ \u0000é') }));

describe('canonicalUri properties', () => {
  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, uriSpelling), (s) => {
        const c = canonicalUri(s);
        expect(typeof c.ok).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('is idempotent: the canonical form of a canonical form is itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          uriSpelling,
          anyString.map((s) => `demo:${s}`),
          anyString.map((s) => `FILE:///${s}`),
        ),
        (s) => {
          const c = canonicalUri(s);
          if (c.ok) expect(canonicalUri(c.uri)).toEqual(c);
        },
      ),
      { numRuns: 3000 },
    );
  });

  // The reference is what a file server does with the URI: decode everything once, resolve like
  // POSIX (which merges `//` first), and via Node's WHATWG URL parser too.
  it('a file URI canonical under /srv/public/ really is under it, however . and .. are spelled', () => {
    const piece = fc.constantFrom('.', '..', '%2e', '%2E', '%2e%2e', '.%2E', '%2E.', '%2e%2E', '', 'x', 'secret', 'public', '%41', 'a b');
    const spelling = fc.tuple(fc.constantFrom('file', 'FILE', 'File'), fc.constantFrom('', 'localhost', 'LOCALHOST'), fc.array(piece, { maxLength: 8 }));
    let under = 0;
    fc.assert(
      fc.property(spelling, ([scheme, host, pieces]) => {
        const path = `/srv/public/${pieces.join('/')}`;
        const uri = `${scheme}://${host}${path}`;
        const c = canonicalUri(uri);
        if (!c.ok || !c.uri.startsWith('file:///srv/public/')) return;
        under++;
        const inside = (p: string) => p === '/srv/public' || p.startsWith('/srv/public/');
        expect(inside(posix.resolve('/', decodeURIComponent(path)))).toBe(true);
        expect(inside(posix.resolve('/', decodeURIComponent(new URL(uri).pathname)))).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(under).toBeGreaterThan(300); // the implication was exercised, not vacuous
  });
});
