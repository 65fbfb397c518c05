import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalUri } from '../../../src/policy/uri.js';
import { foldText, foldUriText } from '../../../src/policy/uri-case.js';
import { compileUriFilter } from '../../../src/policy/uri-filter.js';

const denying = (fileCase: 'sensitive' | 'insensitive', ...deny: string[]) => compileUriFilter({ allow: ['*'], deny, fileCase });
const allowOnly = (fileCase: 'sensitive' | 'insensitive', ...allow: string[]) => compileUriFilter({ allow, deny: [], fileCase });

describe('fileCase: insensitive (issue 28.5: macOS and Windows file systems ignore case)', () => {
  const insensitive = denying('insensitive', 'file:///secret/*');

  it('denies /SECRET/x with a rule on /secret/*; the default mode does not', () => {
    expect(insensitive('file:///SECRET/x')).toBe(false);
    expect(insensitive('file:///Secret/key.pem')).toBe(false);
    expect(insensitive('FILE://localhost/sEcReT/x')).toBe(false);
    expect(insensitive('file:///%53ECRET/x')).toBe(false);
    expect(insensitive('file:///public/x')).toBe(true);
    expect(denying('sensitive', 'file:///secret/*')('file:///SECRET/x')).toBe(true);
    expect(compileUriFilter({ allow: ['*'], deny: ['file:///secret/*'] })('file:///SECRET/x')).toBe(true);
  });

  it('folds the rule too: a rule written in capitals denies the lower-case URI', () => {
    expect(denying('insensitive', 'file:///Users/Alice/.SSH/*')('file:///users/alice/.ssh/id_rsa')).toBe(false);
    expect(allowOnly('insensitive', 'file:///Public/*')('file:///PUBLIC/readme')).toBe(true);
    expect(allowOnly('insensitive', 'file:///Public/*')('file:///private/readme')).toBe(false);
  });

  it('folds non-ASCII letters, escaped or not, and composed and decomposed accents alike', () => {
    const f = denying('insensitive', 'file:///café/*', 'file:///straße/*', 'file:///σοφία/*');
    for (const uri of ['file:///CAFÉ/x', 'file:///CAF%C3%89/x', 'file:///cafe%CC%81/x', 'file:///CAFE%CC%81/x', 'file:///STRAßE/x', 'file:///ΣΟΦΊΑ/x']) {
      expect([uri, f(uri)]).toEqual([uri, false]);
    }
    // Case folding beyond lower case: the Kelvin sign, the long s, the final sigma.
    const g = denying('insensitive', 'file:///key*', 'file:///secret*', 'file:///λογοσ*');
    for (const uri of ['file:///%E2%84%AAEY', 'file:///%C5%BFecret', 'file:///ΛΟΓΟΣ', 'file:///λογος']) {
      expect([uri, g(uri)]).toEqual([uri, false]);
    }
  });

  it('leaves every scheme but file: as it is, and judges namespaced file: URIs', () => {
    const f = denying('insensitive', 'demo://h/secret*', 'fs+file:///secret/*');
    expect(f('demo://h/SECRET')).toBe(true);
    expect(f('demo://h/secret')).toBe(false);
    expect(f('FS+FILE:///SECRET/x')).toBe(false);
  });

  it('widens classes and keeps wildcards', () => {
    expect(allowOnly('insensitive', 'file:///[S]ecret')('file:///secret')).toBe(true);
    expect(allowOnly('insensitive', 'file:///[^S]ecret')('file:///Secret')).toBe(false);
    expect(allowOnly('insensitive', 'file:///[A-C]x')('file:///bX')).toBe(true);
    expect(allowOnly('insensitive', 'file:///a?c/*')('file:///ABC/x')).toBe(true);
    expect(allowOnly('insensitive', '*SECRET*')('file:///x/secret')).toBe(true);
  });

  it('keeps escapes that are no letters, and refusals', () => {
    expect(foldUriText('file:///A%3FB%20C%FF%C3')).toBe('file:///a%3Fb%20c%FF%C3');
    expect(denying('insensitive', 'file:///a%3F*')('file:///A%3Fb')).toBe(false);
    expect(denying('insensitive', 'file:///x/*')('file://X/x/y')).toBe(false); // refused: a host
  });
});

describe('the fold, as properties', () => {
  const letters = fc.constantFrom(...'aZéÉßẞΣσςſKĳĲİıǅǄǆΐ', 'e\u0301', 'E\u0301', '\u212A', '\u037E', '/', '-', '%20', '%3F', '%C3%89', '%c3%a9', '%FF', '%E2%84%AA', '0');
  const text = fc.array(letters, { maxLength: 12 }).map((parts) => parts.join(''));

  it('is idempotent and keeps the structure a glob or a server parses', () => {
    fc.assert(
      fc.property(text, (t) => {
        const c = canonicalUri(`file:///${t}`);
        if (!c.ok) return;
        const once = foldUriText(c.uri);
        expect(foldUriText(once)).toBe(once);
        expect(once.split('/').length).toBe(c.uri.split('/').length);
        // (U+037E is `;` once NFC, which a file: URI spells %3B.)
        const asciiEscapes = (u: string) => (u.match(/%[0-7][0-9A-F]/g) ?? []).filter((e) => e !== '%3B');
        expect(asciiEscapes(once)).toEqual(asciiEscapes(c.uri));
        expect(canonicalUri(once)).toEqual({ ok: true, uri: once }); // still canonical
      }),
      { numRuns: 2000 },
    );
  });

  it('a deny rule on the folded path denies every case spelling of it', () => {
    const flip = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(text, flip, (t, flips) => {
        const c = canonicalUri(`file:///dir/${t}`);
        if (!c.ok) return;
        const respelt = [...decodeURIComponentSafe(c.uri)].map((ch, i) => simpleCase(ch, flips[i % flips.length]!)).join('');
        const r = canonicalUri(respelt);
        if (!r.ok) return;
        const rule = foldUriText(c.uri).replace(/[*?[\]{}\\,]/g, '\\$&');
        expect(denying('insensitive', rule)(respelt)).toBe(false);
        expect(denying('insensitive', `${rule}*`)(c.uri)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('foldText agrees with toLowerCase on text that has no special case', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ0129 -_ÀÉÎõü') }), (s) => {
        expect(foldText(s)).toBe(s.toLowerCase().normalize('NFC'));
      }),
    );
  });
});

function decodeURIComponentSafe(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return uri;
  }
}

/** One character's other case where it is one character too (simple case mapping: ß stays ß). */
function simpleCase(ch: string, upper: boolean): string {
  const other = upper ? ch.toUpperCase() : ch.toLowerCase();
  return [...other].length === 1 ? other : ch;
}
