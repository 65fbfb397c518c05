import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalUri } from '../../../src/policy/uri.js';
import { compileUriFilter } from '../../../src/policy/uri-filter.js';

const allowOnly = (...allow: string[]) => compileUriFilter({ allow, deny: [] });
const denying = (...deny: string[]) => compileUriFilter({ allow: ['*'], deny });
/** Makes any string a glob that matches exactly that string. */
const literal = (s: string): string => s.replace(/[*?[\]{}\\,]/g, '\\$&');

// The attacker's finding, one test per spelling: each of these got past a rule that matched text.
describe('URI re-spellings from the finding no longer get past rules', () => {
  const publicOnly = allowOnly('file:///srv/public/*');
  const noSecrets = denying('file:///srv/secret*', 'demo://*');

  it('file:///srv/public/../x does not count as inside /srv/public', () => {
    expect(publicOnly('file:///srv/public/readme.md')).toBe(true);
    expect(publicOnly('file:///srv/public/../secret')).toBe(false);
    expect(publicOnly('file:///srv/public/a/../../secret')).toBe(false);
    expect(publicOnly('file:///srv/public//../secret')).toBe(false);
    expect(publicOnly('file:///srv/public/a/../b')).toBe(true); // stays inside: fine
  });

  it('%2e%2e and mixed spellings of .. are dot segments too', () => {
    for (const dots of ['%2e%2e', '%2E%2E', '.%2e', '%2E.', '%2e.']) {
      expect(publicOnly(`file:///srv/public/${dots}/secret`)).toBe(false);
      expect(noSecrets(`file:///srv/x/${dots}/secret/key`)).toBe(false);
    }
    expect(publicOnly('file:///srv/public/%252e%252e/secret')).toBe(false); // refused: encoded twice
  });

  it('DEMO:// is demo://', () => {
    expect(noSecrets('DEMO://anything')).toBe(false);
    expect(noSecrets('Demo://anything')).toBe(false);
    expect(noSecrets('demo2://anything')).toBe(true);
  });

  it('FILE:/// is file:///', () => {
    expect(noSecrets('FILE:///srv/secret/key')).toBe(false);
    expect(publicOnly('FILE:///srv/public/x')).toBe(true);
  });

  it('%73ecret is secret', () => {
    expect(noSecrets('file:///srv/%73ecret/key')).toBe(false);
    expect(noSecrets('file:///srv/%73%65%63%72%65%74')).toBe(false);
  });

  it('/./ is /', () => {
    expect(noSecrets('file:///srv/./secret/key')).toBe(false);
    expect(noSecrets('file:///./srv/secret')).toBe(false);
    expect(noSecrets('file:///srv/%2e/secret')).toBe(false);
  });

  it('file://localhost/ is file:///', () => {
    expect(noSecrets('file://localhost/srv/secret')).toBe(false);
    expect(noSecrets('file://LOCALHOST/srv/secret')).toBe(false);
    expect(noSecrets('file:/srv/secret')).toBe(false);
    expect(publicOnly('file://localhost/srv/public/x')).toBe(true);
  });

  it('relative references are refused, so denied', () => {
    for (const uri of ['srv/secret', '/srv/secret', '//localhost/srv/secret', '../secret', './secret', 'secret']) {
      expect(noSecrets(uri)).toBe(false);
      expect(publicOnly(uri)).toBe(false);
    }
  });

  it('other spellings that are refused are denied too: fragments, encoded / \\ NUL, backslashes', () => {
    for (const uri of [
      'file:///srv/public/x#/../../secret',
      'file:///srv/public/..%2Fsecret',
      'file:///srv/public/..%5Csecret',
      'file:///srv/public/..\\secret',
      'file:///srv/public/x%00.txt',
      'file:///srv/public/..;/secret',
      'file:///srv/public/x?/../../secret',
    ]) {
      expect([uri, publicOnly(uri)]).toEqual([uri, false]);
      expect([uri, noSecrets(uri)]).toEqual([uri, false]);
    }
  });
});

describe('URI globs are normalised like URIs', () => {
  it.each([
    ['FILE:///srv/*', 'file:///srv/x'],
    ['file://localhost/srv/*', 'file:///srv/x'],
    ['file://LOCALHOST/srv/*', 'file:///srv/x'],
    ['file:/srv/*', 'file:///srv/x'],
    ['file:///srv/./public/../x/*', 'file:///srv/x/y'],
    ['file:///srv/a//b/*', 'file:///srv/a/b/y'],
    ['file:///srv//x/*', 'file:///srv/x/y'],
    ['HTTP://Example.COM:80/api/*', 'http://example.com/api/v1'],
    ['https://*.Example.COM/*', 'https://a.example.com/x'],
    ['*://Example.COM/*', 'https://example.com/x'],
    ['{HTTP,DEMO}://Host/*', 'demo://host/x'],
    ['file:///my docs/*', 'file:///my%20docs/a'],
    ['file:///my%20docs/*', 'file:///my docs/a'],
    ['file:///caf%c3%a9/*', 'file:///café/a'],
    ['file:///café/*', 'file:///caf%C3%A9/a'],
    ['file:///%73rv/*', 'file:///srv/a'],
    ['demo:A%41*', 'DEMO:AA1'],
    ['mailto:*%40example.com', 'MAILTO:me%40example.com'],
    ['demo://h/x?q=%7e*', 'demo://h/x?q=~1'],
  ])('%s matches %s', (glob, uri) => {
    expect(allowOnly(glob)(uri)).toBe(true);
    expect(denying(glob)(uri)).toBe(false);
  });

  it('keeps path, query and userinfo case, and the parts a glob leaves to wildcards', () => {
    expect(allowOnly('file:///Srv/*')('file:///srv/x')).toBe(false);
    expect(allowOnly('http://User@h/*')('http://user@h/x')).toBe(false);
    expect(allowOnly('demo://h/x?Q=*')('demo://h/x?q=1')).toBe(false);
    expect(allowOnly('*Secret*')('file:///Secret')).toBe(true); // no scheme in the glob: as written
    expect(allowOnly('*Secret*')('file:///secret')).toBe(false);
  });

  it('? and classes match one character of the canonical form', () => {
    expect(allowOnly('file:///a?b')('file:///a%20b')).toBe(false);
    expect(allowOnly('file:///a???b')('file:///a b')).toBe(true);
    expect(allowOnly('file:///[ab]')('file:///%61')).toBe(true);
  });

  it.each([
    ['file:///srv/*/../x', /dot segment after a wildcard/],
    ['file:///../x', /above the root/],
    ['file:///srv/..;/x', /parameters/],
    ['file:///srv//../x/*', /\/\/ before \.\./],
    ['file:///a#*', /#/],
    ['file:///a\\\\*', /backslash/],
    ['file:///a%2F*', /encoded \//],
    ['file:///a%00*', /NUL/],
    ['file:///a%252e*', /double/],
    ['file:///x\\?*', /query on a file URI/],
    ['http://*.example.com:80/*', /default port/],
    ['http:///*', /no host/],
    ['file://fileserver/share/*', /host other than localhost/],
    ['ui://srv+secret%2F*', /encoded \/ or \\ in the authority/],
    ['ui://*%2Fadmin/*', /encoded \/ or \\ in the authority/],
    ['file:///srv/*;x', /a ; in a file: or http\(s\) path/],
    ['demo:a/../*', /without a root/],
    ['srv/secret', /relative/],
  ])('refuses %s, which could never match', (glob, why) => {
    expect(() => allowOnly(glob)).toThrow(new RegExp(`invalid glob ${JSON.stringify(glob).replace(/[\\[\]*?.()+]/g, '\\$&')}: can never match`));
    expect(() => denying(glob)).toThrow(why);
  });

  it('keeps the glob syntax errors of compileFilter', () => {
    expect(() => allowOnly('file:///{a,b')).toThrow(/invalid glob "file:\/\/\/\{a,b": Missing closing/);
    expect(() => denying('file:///[z-a]')).toThrow(/invalid range/);
  });
});

describe('compileUriFilter rules', () => {
  it('allow ["*"] with no deny judges nothing: even refused URIs pass, there is no rule to bypass', () => {
    const f = allowOnly('*');
    expect(f('relative/x')).toBe(true);
    expect(f('file:///a#b')).toBe(true);
  });

  it('denies win, an empty allow list allows nothing, deny ["*"] denies all', () => {
    const f = compileUriFilter({ allow: ['file:///srv/*'], deny: ['file:///srv/secret/*'] });
    expect(f('file:///srv/a')).toBe(true);
    expect(f('file:///srv/secret/a')).toBe(false);
    expect(f('file:///etc/passwd')).toBe(false);
    expect(compileUriFilter({ allow: [], deny: [] })('file:///a')).toBe(false);
    expect(compileUriFilter({ allow: ['*'], deny: ['**'] })('file:///a')).toBe(false);
  });

  it('matches namespaced URIs (`<prefix>+<uri>`) with the rules of the inner scheme', () => {
    const f = denying('fs+file:///srv/secret/*');
    expect(f('FS+FILE://localhost/srv/./secret/key')).toBe(false);
    expect(f('fs+file:///srv/public/key')).toBe(true);
  });
});

// Re-spellings a server reads as the same resource: scheme and host case, `localhost`, default
// and zero-padded ports, escapes of unreserved characters (either hex case), `/./`, `x/../`, `//`.
describe('compileUriFilter properties', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', '~', '_', '-', '.'), minLength: 1, maxLength: 5 }).filter((w) => !/^\.\.?$/.test(w));
  const base = fc
    .tuple(fc.constantFrom('file', 'demo', 'http', 'fs+file', 'https'), fc.constantFrom('host.example', 'h0'), fc.array(word, { minLength: 1, maxLength: 4 }))
    .map(([scheme, host, segments]) => ({ scheme, host: scheme.endsWith('file') ? '' : host, segments }));
  type Base = { scheme: string; host: string; segments: string[] };
  const canonicalOf = (b: Base): string => `${b.scheme}://${b.host}/${b.segments.join('/')}`;

  const randomCase = (s: string, flips: boolean[]): string => [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');
  const encode = (c: string, upper: boolean): string => {
    const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
    return `%${upper ? hex.toUpperCase() : hex}`;
  };
  const respell = (b: Base) =>
    fc
      .record({
        flips: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        localhost: fc.constantFrom('', 'localhost', 'LocalHost'),
        port: fc.constantFrom('', ':', ':80', ':0443', ':443', ':080'),
        encodes: fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
        // `//` and `..` do not mix: servers resolve `a//..` differently, so such URIs are refused.
        inserts: fc.oneof(
          fc.array(fc.constantFrom('', './', '%2e/', 'zz/../', 'q/%2E%2e/', '%2E/'), { minLength: 1, maxLength: 5 }),
          fc.array(fc.constantFrom('', './', '/', '//'), { minLength: 1, maxLength: 5 }),
        ),
      })
      .map(({ flips, localhost, port, encodes, inserts }) => {
        const scheme = randomCase(b.scheme, flips);
        const isFile = b.scheme.endsWith('file');
        const defaultPort = b.scheme === 'http' ? [':', ':80', ':080'] : b.scheme === 'https' ? [':', ':0443', ':443'] : [''];
        const host = isFile ? localhost : randomCase(b.host, flips.slice(1).concat(true)) + (defaultPort.includes(port) ? port : '');
        let k = 0;
        // A file path that starts with // is refused (a network share to Windows servers).
        const insert = (i: number) => (i === 0 && isFile ? inserts[0]!.replace(/^\/+/, '') : inserts[i % inserts.length]);
        const path = b.segments.map((seg, i) => insert(i) + [...seg].map((c) => (encodes[k++ % encodes.length] ? encode(c, encodes[k % encodes.length]!) : c)).join('')).join('/');
        return `${scheme}://${host}/${path}`;
      });

  it('a deny rule cannot be bypassed by re-spelling the URI', () => {
    fc.assert(
      fc.property(
        base.chain((b) => fc.tuple(fc.constant(b), respell(b), fc.nat({ max: b.segments.length - 1 }), fc.boolean())),
        ([b, spelling, cut, exact]) => {
          const target = canonicalOf(b);
          expect(canonicalUri(spelling)).toEqual({ ok: true, uri: target });
          const glob = exact ? literal(target) : `${literal(`${b.scheme}://${b.host}/${b.segments.slice(0, cut).join('/')}`)}*`;
          expect(denying(glob)(spelling)).toBe(false);
          expect(allowOnly(glob)(spelling)).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('a deny rule written in any of those spellings still denies the canonical URI', () => {
    fc.assert(
      fc.property(
        base.chain((b) => fc.tuple(fc.constant(b), respell(b), fc.boolean())),
        ([b, spelling, wildcard]) => {
          const glob = literal(spelling) + (wildcard ? '*' : '');
          expect(denying(glob)(canonicalOf(b))).toBe(false);
          expect(allowOnly(glob)(canonicalOf(b))).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('never throws on any URI, and allows only URIs that canonicalize', () => {
    const f = compileUriFilter({ allow: ['*'], deny: ['file:///srv/secret*'] });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...'fiLE:/%2e.\\#?a'), maxLength: 20 })), (s) => {
        const c = canonicalUri(s);
        expect(f(s)).toBe(c.ok && !c.uri.startsWith('file:///srv/secret'));
      }),
      { numRuns: 2000 },
    );
  });
});
