import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCursorCodec, indexKeys, pageBounds, type CursorState, type ListKind } from '../../../src/catalog/cursor.js';

const secret = new Uint8Array(32).fill(7);
const codec = createCursorCodec(secret);
const KINDS: ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('cursor codec', () => {
  it('round-trips and is compact base64url', () => {
    const state: CursorState = { kind: 'tools', afterKey: 'github__search_issues', offset: 50 };
    const cursor = codec.encode(state);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor.length).toBeLessThan(80);
    expect(codec.decode(cursor)).toEqual(state);
    expect(codec.decode(cursor, 'tools')).toEqual(state);
  });

  it('is bound to its list kind', () => {
    const cursor = codec.encode({ kind: 'tools', afterKey: 'a', offset: 1 });
    expect(codec.decode(cursor, 'prompts')).toBeUndefined();
    expect(codec.decode(cursor)?.kind).toBe('tools'); // without expectedKind, the caller compares
  });

  it('rejects cursors made with another secret', () => {
    const other = createCursorCodec(new Uint8Array(32).fill(8));
    expect(other.decode(codec.encode({ kind: 'tools', afterKey: 'a', offset: 1 }))).toBeUndefined();
  });

  it('shares one random default secret per process', () => {
    const cursor = createCursorCodec().encode({ kind: 'prompts', afterKey: 'p', offset: 3 });
    expect(createCursorCodec().decode(cursor)).toEqual({ kind: 'prompts', afterKey: 'p', offset: 3 });
    expect(codec.decode(cursor)).toBeUndefined();
  });

  it('copies the secret', () => {
    const mine = new Uint8Array(16).fill(1);
    const c = createCursorCodec(mine);
    const cursor = c.encode({ kind: 'tools', afterKey: 'a', offset: 1 });
    mine.fill(2);
    expect(c.decode(cursor)).toBeDefined();
  });

  it('refuses short secrets and invalid states', () => {
    expect(() => createCursorCodec(new Uint8Array(15))).toThrow(RangeError);
    expect(() => codec.encode({ kind: 'tools', afterKey: 'a', offset: -1 })).toThrow(RangeError);
    expect(() => codec.encode({ kind: 'tools', afterKey: 'a', offset: 1.5 })).toThrow(RangeError);
    expect(() => codec.encode({ kind: 'nope' as ListKind, afterKey: 'a', offset: 1 })).toThrow(TypeError);
  });

  it('never throws on junk, including non-strings from params.cursor', () => {
    for (const junk of ['', 'x', '====', 'a'.repeat(100_000), '\u0000', '😀', null, undefined, 42, {}, []]) {
      expect(codec.decode(junk)).toBeUndefined();
    }
  });

  it('rejects non-canonical spellings that Node would decode to the same bytes', () => {
    const cursor = codec.encode({ kind: 'tools', afterKey: 'ab', offset: 2 });
    expect(codec.decode(`${cursor}=`)).toBeUndefined();
    expect(codec.decode(` ${cursor}`)).toBeUndefined();

    // Flip an unused low bit of the last character (7 + 2 + 16 = 25 bytes: 4 spare bits).
    expect(Buffer.from(cursor, 'base64url').length % 3).not.toBe(0);
    const last = B64URL.indexOf(cursor.at(-1)!);
    const twin = cursor.slice(0, -1) + B64URL[last ^ 1];
    expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(cursor, 'base64url'));
    expect(codec.decode(twin)).toBeUndefined();

    // Node also reads `+` and `/` in base64url input.
    let withUrlChars = cursor;
    for (let offset = 0; !/[-_]/.test(withUrlChars); offset++) {
      withUrlChars = codec.encode({ kind: 'tools', afterKey: 'ab', offset });
    }
    const classic = withUrlChars.replace(/-/g, '+').replace(/_/g, '/');
    expect(Buffer.from(classic, 'base64url')).toEqual(Buffer.from(withUrlChars, 'base64url'));
    expect(codec.decode(withUrlChars)).toBeDefined();
    expect(codec.decode(classic)).toBeUndefined();
  });

  it('carries keys with lone surrogates and astral characters exactly', () => {
    for (const afterKey of ['\uD800', 'a\uDC00b', '😀', '', 'file:///a b/c?d#e']) {
      expect(codec.decode(codec.encode({ kind: 'resources', afterKey, offset: 0 }))).toEqual({
        kind: 'resources',
        afterKey,
        offset: 0,
      });
    }
  });

  it('drops over-long keys (paging then falls back to the offset)', () => {
    const cursor = codec.encode({ kind: 'resources', afterKey: 'u'.repeat(5000), offset: 9 });
    expect(cursor.length).toBeLessThan(80);
    expect(codec.decode(cursor)).toEqual({ kind: 'resources', afterKey: '', offset: 9 });
  });
});

describe('cursor codec properties', () => {
  const key = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: fc.constantFrom('a', '\uD800', '\uDFFF', '😀', '/'), maxLength: 20 }));
  const state = fc.record({
    kind: fc.constantFrom(...KINDS),
    afterKey: key,
    offset: fc.integer({ min: 0, max: 0xffffffff }),
  });

  it('valid cursors round-trip', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(codec.decode(codec.encode(s), s.kind)).toEqual(s);
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary strings decode to undefined', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...B64URL), minLength: 30, maxLength: 120 })), (s) => {
        expect(codec.decode(s)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('truncations of valid cursors decode to undefined', () => {
    fc.assert(
      fc.property(state, fc.nat(), (s, n) => {
        const cursor = codec.encode(s);
        expect(codec.decode(cursor.slice(0, n % cursor.length))).toBeUndefined();
        expect(codec.decode(cursor.slice((n % (cursor.length - 1)) + 1))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('single-character mutations of valid cursors decode to undefined', () => {
    fc.assert(
      fc.property(state, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (s, n, ch) => {
        const cursor = codec.encode(s);
        const i = n % cursor.length;
        fc.pre(cursor[i] !== ch);
        expect(codec.decode(cursor.slice(0, i) + ch + cursor.slice(i + 1))).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('every position of a valid cursor matters, for every base64url replacement', () => {
    const cursor = codec.encode({ kind: 'tools', afterKey: 'gh__search', offset: 7 });
    for (let i = 0; i < cursor.length; i++) {
      for (const ch of B64URL) {
        if (ch === cursor[i]) continue;
        expect(codec.decode(cursor.slice(0, i) + ch + cursor.slice(i + 1))).toBeUndefined();
      }
    }
  });
});

describe('pageBounds', () => {
  const keys = ['a', 'b', 'c', 'd', 'e'];

  it('pages from the start and stamps the next cursor with the kind', () => {
    expect(pageBounds(keys, 2, undefined, 'tools')).toEqual({
      start: 0,
      end: 2,
      next: { kind: 'tools', afterKey: 'b', offset: 2 },
    });
  });

  it('has no next cursor on the last page', () => {
    expect(pageBounds(keys, 5, undefined, 'tools')).toEqual({ start: 0, end: 5 });
    expect(pageBounds(keys, 2, { kind: 'tools', afterKey: 'd', offset: 4 }, 'tools')).toEqual({ start: 4, end: 5 });
    expect(pageBounds([], 2, undefined, 'tools')).toEqual({ start: 0, end: 0 });
    expect(pageBounds(keys, Infinity, undefined, 'tools')).toEqual({ start: 0, end: 5 });
  });

  it('continues right after the key even if items were inserted before it', () => {
    const grown = ['0', 'a', 'b', 'c', 'd', 'e'];
    expect(pageBounds(grown, 2, { kind: 'tools', afterKey: 'b', offset: 2 }, 'tools')).toMatchObject({ start: 3, end: 5 });
  });

  it('falls back to the clamped offset when the key vanished', () => {
    expect(pageBounds(['a', 'c', 'd', 'e'], 2, { kind: 'tools', afterKey: 'b', offset: 2 }, 'tools')).toMatchObject({
      start: 2,
      end: 4,
    });
    expect(pageBounds(['a'], 2, { kind: 'tools', afterKey: 'b', offset: 2 }, 'tools')).toEqual({ start: 1, end: 1 });
    expect(pageBounds(keys, 2, { kind: 'tools', afterKey: '', offset: 2 }, 'tools')).toMatchObject({ start: 2 });
  });

  it('accepts a Map-backed index with the same results', () => {
    const after: CursorState = { kind: 'prompts', afterKey: 'b', offset: 2 };
    expect(pageBounds(indexKeys(keys), 2, after, 'prompts')).toEqual(pageBounds(keys, 2, after, 'prompts'));
    expect(indexKeys(['x', 'y', 'x']).indexOf('x')).toBe(0);
    expect(indexKeys(['x']).indexOf('z')).toBe(-1);
  });

  it('refuses a cursor of another kind and a bad page size', () => {
    expect(() => pageBounds(keys, 2, { kind: 'tools', afterKey: 'a', offset: 1 }, 'prompts')).toThrow(TypeError);
    expect(() => pageBounds(keys, 0, undefined, 'tools')).toThrow(RangeError);
    expect(() => pageBounds(keys, Number.NaN, undefined, 'tools')).toThrow(RangeError);
  });

  it('walking an unchanged list through encoded cursors yields every key once, in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (list, size) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let guard = 0; guard <= list.length + 1; guard++) {
          const after = cursor === undefined ? undefined : codec.decode(cursor, 'tools');
          if (cursor !== undefined) expect(after).toBeDefined();
          const { start, end, next } = pageBounds(indexKeys(list), size, after, 'tools');
          seen.push(...list.slice(start, end));
          if (!next) break;
          cursor = codec.encode(next);
        }
        expect(seen).toEqual(list);
      }),
      { numRuns: 300 },
    );
  });
});
