// What servers read from a URI we accept (issue 28.5): a file server maps `file:` URIs with
// `new URL(uri).pathname` (Node) or `urlparse(uri).path` (Python), percent-decodes, and the OS
// resolves the rest. For every URI canonicalUri accepts, both readings must name the file the
// canonical form names; anything a library reads another way must be refused.

import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalUri, schemeRules } from '../../../src/policy/uri.js';

/** Percent-escapes decoded to bytes, raw text as UTF-8: the bytes of the name the OS is given. */
function bytesOf(text: string): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < text.length; ) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      parts.push(Buffer.from([parseInt(hex, 16)]));
      i += 3;
    } else {
      const cp = String.fromCodePoint(text.codePointAt(i)!);
      parts.push(Buffer.from(cp, 'utf8'));
      i += cp.length;
    }
  }
  return Buffer.concat(parts);
}

/** What a POSIX file system opens for a decoded path: `//` merged, dot segments resolved. */
function opened(path: string): string {
  const p = posix.normalize(bytesOf(path).toString('latin1'));
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

/** Node: `new URL(uri).pathname`. Undefined when it cannot parse (the server answers an error). */
function whatwgRead(uri: string): { host: string; pathname: string } | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === 'file:' ? { host: u.hostname, pathname: u.pathname } : undefined;
  } catch {
    return undefined;
  }
}

/** Python: urllib.parse.urlparse(uri).path (urlsplit, then `;params` cut off the last segment). */
function urlparsePath(uri: string): string | undefined {
  const url = uri.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\r\n]/g, '');
  const colon = url.indexOf(':');
  if (colon < 1 || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(url.slice(0, colon)) || url.slice(0, colon).toLowerCase() !== 'file') return undefined;
  let rest = url.slice(colon + 1);
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    rest = end < 0 ? '' : rest.slice(2 + end);
  }
  const cut = rest.search(/[?#]/);
  let path = cut < 0 ? rest : rest.slice(0, cut);
  const semi = path.indexOf(';', path.lastIndexOf('/'));
  if (semi >= 0) path = path.slice(0, semi);
  return path.startsWith('/') ? path : undefined;
}

// Mostly names a server would serve, some spellings that mean something else to someone.
const piece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '',
      '.',
      '..',
      '%2e',
      '%2E%2e',
      '.%2e',
      'a',
      'B',
      'secret',
      '%73ecret',
      '%41',
      '%20',
      'C:',
      'C%3A',
      '%3B',
      'é',
      '%C3%A9',
      '%FF',
      '~',
      '%7e',
      '(x)',
      '@',
      ':',
      '%3F',
      '%23',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\\', '%5C', '%2F', '%2f', 'c|', 'C%7C', ';', 'x;y', '..;', '?', '#', '%00', '\u0000', '\t', '\n', '%', '%zz', '%252e') },
);
const authority = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', '//', '//localhost', '//LOCALHOST', '//%6Cocalhost') },
  { weight: 1, arbitrary: fc.constantFrom('//127.0.0.1', '//x', '//user@localhost', '//localhost:80', '//C:', '//C|', '//local%2Fhost', '//x%5C', '///', '//localhost.') },
);
const fileUri = fc
  .tuple(fc.constantFrom('file', 'FILE', 'File'), authority, fc.boolean(), fc.array(piece, { maxLength: 7 }), fc.constantFrom('', '', '', ' ', '.', '/', '?q', '#f', ';p'))
  .map(([scheme, auth, rooted, pieces, tail]) => `${scheme}:${auth}${rooted || auth ? '/' : ''}${pieces.join('/')}${tail}`);
const anyFileUri = fc.oneof(
  fileUri,
  fc.string({ unit: fc.constantFrom(...'/.%2eEfil:;|C\\ ?#x') }).map((s) => `file:${s}`),
);

describe('a file: URI canonicalUri accepts is read as the same file by the servers', () => {
  it('by new URL(uri).pathname (Node) and urlparse(uri).path (Python), decoded and opened', () => {
    let accepted = 0;
    let read = 0;
    fc.assert(
      fc.property(anyFileUri, (uri) => {
        const c = canonicalUri(uri);
        if (!c.ok) return;
        accepted++;
        expect(schemeRules(c.uri.slice(0, c.uri.indexOf(':')))).toBe('file');
        expect(c.uri.startsWith('file:///')).toBe(true); // no host: nothing for a server to ignore
        const ours = opened(c.uri.slice('file://'.length));
        const node = whatwgRead(uri);
        if (node !== undefined) {
          expect(node.host).toBe(''); // fileURLToPath: a host is a network share (Windows) or an error
          expect(node.pathname.startsWith('//')).toBe(false); // a network share to Windows servers
          expect(opened(node.pathname)).toBe(ours);
        }
        const python = urlparsePath(uri);
        if (python !== undefined) {
          read++;
          expect(opened(python)).toBe(ours);
        }
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(500); // the implication was exercised, not vacuous
    expect(read).toBeGreaterThan(accepted * 0.9); // only `file://` and `file:` leave Python no path
  });

  it.each([
    'file://127.0.0.1/secret/x',
    'file://x/secret/x',
    'file://C:/secret/x',
    'file:////secret/x',
    'file:///./' + '/secret/x',
    'file:///C|/secret/x',
    'file:///C:/..',
    'file:///@/.%2e/c|', // found by the property above: `..` makes `c|` the first segment
    'file:///secret/x ',
    'file:///secret/x;y',
    'file:///secret\\x',
  ])('refuses %j, which a server reads another way', (uri) => {
    expect(canonicalUri(uri).ok).toBe(false);
  });
});

describe('an http(s) URI canonicalUri accepts has the host every parser reads', () => {
  const host = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'a0x9f.-_X'), minLength: 1, maxLength: 10 }),
    fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      'example.com.',
      'ex%61mple.com',
      '\uFF45xample.com',
      'fa\u00DF.de',
      'xn--fa-hia.de',
      'xn--a',
      '127.0.0.1',
      '127.1',
      '0x7f.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '[::1]',
      '[0:0::1]',
      '[::ffff:127.0.0.1]',
      'a_b.example',
      'h%2Fx',
      'h%40x',
      'u@h',
      'u%2F@h',
      'example.123',
      '1.2.3',
    ),
  );
  it('new URL(uri).hostname is our canonical host', () => {
    fc.assert(
      fc.property(fc.constantFrom('http', 'https', 'HTTPS', 'ws', 'ftp'), host, fc.constantFrom('', ':80', ':443', ':8080'), (scheme, h, port) => {
        const uri = `${scheme}://${h}${port}/x`;
        const c = canonicalUri(uri);
        if (!c.ok) return;
        const ours = new URL(c.uri).hostname;
        expect(c.uri).toContain(`//${h.includes('@') ? '' : ours}`);
        expect(new URL(uri).hostname).toBe(ours);
        expect(ours).toMatch(/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/); // plain ASCII, no trailing dot
        expect(ours.endsWith('.')).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});
