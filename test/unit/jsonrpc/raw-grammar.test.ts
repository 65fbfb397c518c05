// The raw scan (jsonrpc/raw.ts) vouches only for what it may: a grammar fuzz. Valid JSON-RPC answers
// are printed with every spelling RFC 8259 allows (whitespace, escapes, number forms, member
// order), then mutated (extra or duplicate members, invalid tokens, control bytes, bad escapes and
// numbers, truncations, trailing commas). For every input the scan must accept exactly when
// JSON.parse accepts and the shape is exact, and what it accepts, spliced, must parse to what the
// parsed path would send. JSON.parse and a walk of the (then valid) text are the oracle.

import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPLICE_AS_TEXT_BYTES, scanResponse } from '../../../src/jsonrpc/raw.js';
import { spliceId } from '../../../src/jsonrpc/raw-splice.js';
import { textOf } from '../../../src/jsonrpc/ndjson.js';

const MAX_DEPTH = 64;

// ---- printing JSON every way the grammar allows ------------------------------------------------

/** Choices the printer takes, drawn from one stream of numbers. */
class Choices {
  private at = 0;
  constructor(private readonly draws: readonly number[]) {}
  next(n: number): number {
    const d = this.draws[this.at++ % Math.max(1, this.draws.length)] ?? 0;
    return d % n;
  }
}

const SPACES = ['', '', '', ' ', '\t', '\r\n', '  \n '];
const space = (c: Choices) => SPACES[c.next(SPACES.length)]!;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const hex4 = (code: number, upper: boolean) => (upper ? code.toString(16).toUpperCase() : code.toString(16)).padStart(4, '0');

function printString(s: string, c: Choices, plainNames = false): string {
  let out = '"';
  for (const ch of s) {
    const must = ch.codePointAt(0)! < 0x20 || ch === '"' || ch === '\\';
    const style = plainNames ? 0 : c.next(8);
    if (!must && style < 6) out += ch;
    else if (SHORT_ESCAPES[ch] !== undefined && style !== 7) out += SHORT_ESCAPES[ch];
    // Every UTF-16 unit as \uXXXX (a character past U+FFFF as its surrogate pair), either case.
    else for (let u = 0; u < ch.length; u++) out += `\\u${hex4(ch.charCodeAt(u), c.next(2) === 0)}`;
  }
  return `${out}"`;
}

function printNumber(n: number, c: Choices): string {
  if (!Number.isInteger(n) || Math.abs(n) > 1e15) return JSON.stringify(n);
  const forms = [`${n}`, `${n}.0`, `${n}e0`, `${n}E+0`, `${n * 10}e-1`, `${n}.00E00`];
  return forms[c.next(forms.length)]!;
}

function print(v: unknown, c: Choices): string {
  const ws = () => space(c);
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return printNumber(v, c);
  if (typeof v === 'string') return printString(v, c);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => print(x, c)).join(`${ws()},${ws()}`)}${ws()}]`;
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${printString(k, c)}${ws()}:${ws()}${print(x, c)}`);
  return `{${ws()}${entries.join(`${ws()},${ws()}`)}${ws()}}`;
}

/** A whole answer: its members in any order, their names plain (the scan refuses escaped ones: tested apart). */
function printAnswer(message: Record<string, unknown>, c: Choices): string {
  const keys = Object.keys(message);
  const turn = c.next(keys.length);
  const ordered = [...keys.slice(turn), ...keys.slice(0, turn)];
  const member = (k: string) => {
    const value = k === 'jsonrpc' ? '"2.0"' : k === 'error' ? printError(message.error as Record<string, unknown>, c) : print(message[k], c);
    return `${printString(k, c, true)}${space(c)}:${space(c)}${value}`;
  };
  return `${space(c)}{${space(c)}${ordered.map(member).join(`${space(c)},${space(c)}`)}${space(c)}}${space(c)}`;
}

function printError(error: Record<string, unknown>, c: Choices): string {
  const entries = Object.entries(error)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${printString(k, c, true)}${space(c)}:${space(c)}${print(x, c)}`);
  return `{${space(c)}${entries.join(`,${space(c)}`)}${space(c)}}`;
}

const answers = fc.record({
  id: fc.oneof(fc.integer(), fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  body: fc.oneof(
    fc.record({ result: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }), { maxKeys: 5 }) }),
    fc.record({
      error: fc.record(
        { code: fc.integer(), message: fc.string({ unit: 'binary' }), data: fc.option(fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), { nil: undefined }) },
        { requiredKeys: ['code', 'message'] },
      ),
    }),
  ),
  draws: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
});
const textOfAnswer = (a: { id: unknown; body: Record<string, unknown>; draws: number[] }) => printAnswer({ jsonrpc: '2.0', id: a.id, ...a.body }, new Choices(a.draws));

// ---- mutations -----------------------------------------------------------------------------

const TOKENS = [
  ',',
  ':',
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  'tru',
  'nul',
  'fals',
  'True',
  '01',
  '-',
  '1.',
  '.5',
  '1e',
  '+1',
  '1e+',
  'NaN',
  'Infinity',
  '0x1',
  '\u0000',
  '\u0001',
  '\u001f',
  '\t',
  '\u007f',
  '//',
  '/*x*/',
  "'a'",
  '\\x',
  '\\u12',
  '\\u12G4',
  '\\ud800',
  'é',
  ',}',
  ',]',
  '"method":"sampling/createMessage","params":{},',
  '"id":9,',
  '"\\u0069d":9,',
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('member' as const),
    text: fc.constantFrom(
      '"method":"sampling/createMessage","params":{"messages":[]}',
      '"params":{}',
      '"id":2',
      '"jsonrpc":"2.0"',
      '"result":{}',
      '"error":{"code":1,"message":"x"}',
      '"\\u0069d":3',
      '"x":1',
    ),
  }),
  fc.record({ kind: fc.constant('after' as const), text: fc.constantFrom(' {}', 'x', '\u0000', ',', ' \n') }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(bytes: Buffer, m: Mutation): Buffer {
  const at = (n: number) => n % (bytes.length + 1);
  const insert = (offset: number, text: string) => Buffer.concat([bytes.subarray(0, offset), Buffer.from(text, 'utf8'), bytes.subarray(offset)]);
  switch (m.kind) {
    case 'insert':
      return insert(at(m.at), m.token);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at(m.at)), bytes.subarray(at(m.at) + m.length)]);
    case 'byte': {
      const copy = Buffer.from(bytes);
      if (copy.length > 0) copy[m.at % copy.length] = m.byte;
      return copy;
    }
    case 'truncate':
      return bytes.subarray(0, at(m.at));
    case 'member': {
      // A top-level member of its own, first (the case item 8 names: "method" beside "result").
      const open = bytes.indexOf('{');
      return open === -1 ? bytes : insert(open + 1, `${m.text},`);
    }
    case 'after':
      return Buffer.concat([bytes, Buffer.from(m.text, 'utf8')]);
  }
}

// ---- the oracle ----------------------------------------------------------------------------

/** Member names (as spelled) and first value tokens at depth 1, and the error object's names. Only for valid JSON. */
function spelled(text: string): { top: { name: string; value: string }[]; error: string[] } {
  const top: { name: string; value: string }[] = [];
  const error: string[] = [];
  let depth = 0;
  let errorDepth = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const token = text.slice(i, j + 1);
      let k = j + 1;
      while (/\s/.test(text[k] ?? '')) k++;
      if (text[k] === ':') {
        if (depth === 1) {
          let v = k + 1;
          while (/\s/.test(text[v]!)) v++;
          top.push({ name: token, value: text.slice(v, text[v] === '"' ? text.indexOf('"', v + 1) + 1 : v + 1) });
          if (token === '"error"') errorDepth = 2;
        } else if (depth === errorDepth) error.push(token);
      }
      i = j;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth < 2 && errorDepth === 2 && top[top.length - 1]?.name === '"error"') errorDepth = -1;
    }
  }
  return { top, error };
}

function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(v as object).map(depthOf));
}

/** What the parsed path would send for these bytes (else undefined): the scan must pass exactly these. */
function vouchable(bytes: Buffer): Record<string, any> | undefined {
  let value: any;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value).sort().join(',');
  if (keys !== 'id,jsonrpc,result' && keys !== 'error,id,jsonrpc') return undefined;
  if (value.jsonrpc !== '2.0' || !(typeof value.id === 'string' || (typeof value.id === 'number' && Number.isFinite(value.id)))) return undefined;
  const body = value.result ?? value.error;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if ('error' in value && (typeof body.code !== 'number' || typeof body.message !== 'string' || Object.keys(body).some((k) => !['code', 'message', 'data'].includes(k)))) return undefined;
  // Each member once, spelled without escapes; "2.0" as such.
  const s = spelled(bytes.toString('utf8'));
  const names = s.top.map((m) => m.name);
  if (new Set(names).size !== names.length || names.some((n) => n.includes('\\'))) return undefined;
  if (s.top.find((m) => m.name === '"jsonrpc"')?.value !== '"2.0"') return undefined;
  if (new Set(s.error).size !== s.error.length || s.error.some((n) => n.includes('\\'))) return undefined;
  if (depthOf(value) > MAX_DEPTH) return undefined;
  if (bytes.length > SPLICE_AS_TEXT_BYTES && !isUtf8(bytes)) return undefined;
  return value;
}

/** `bytes` cut at the given offsets, as the reads of a pipe would cut them. */
const cutAt = (bytes: Buffer, cuts: number[]) => {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i])).filter((c) => c.length > 0);
};

function check(bytes: Buffer, cuts: number[], clientId: string | number): void {
  const expected = vouchable(bytes);
  for (const input of [bytes, cutAt(bytes, cuts)]) {
    const r = scanResponse(input, MAX_DEPTH);
    if (expected === undefined) {
      expect(typeof r === 'object' ? `accepted ${JSON.stringify(bytes.toString('utf8'))}` : 'refused').toBe('refused');
      continue;
    }
    if (typeof r !== 'object') throw new Error(`refused a valid answer: ${JSON.stringify(bytes.toString('utf8'))}`);
    expect(r.id).toEqual(expected.id);
    expect(r.isError).toBe('error' in expected);
    // The parsed path sends the server's body with the client's id: so must the splice.
    expect(JSON.parse(textOf(spliceId(r, clientId).chunks))).toEqual({ ...expected, id: clientId });
  }
}

describe('the raw scan against the JSON grammar (fuzz)', () => {
  it('accepts every valid answer, however it is spelled, and splices it to what the parsed path sends (property)', () => {
    fc.assert(
      fc.property(answers, fc.array(fc.nat(), { maxLength: 6 }), fc.oneof(fc.integer(), fc.string()), (a, cuts, clientId) => {
        const bytes = Buffer.from(textOfAnswer(a), 'utf8');
        expect(vouchable(bytes)).toBeDefined();
        check(bytes, cuts, clientId);
      }),
      { numRuns: 1500 },
    );
  });

  it('refuses every mutation that leaves the grammar or the exact shape, and vouches only for what stays valid (property)', () => {
    fc.assert(
      fc.property(answers, fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 6 }), (a, mutations, cuts) => {
        let bytes = Buffer.from(textOfAnswer(a), 'utf8');
        for (const m of mutations) bytes = mutate(bytes, m);
        check(bytes, cuts, 'c-1');
      }),
      { numRuns: 4000 },
    );
  });

  it.each([
    ['a "method" beside the result', '{"jsonrpc":"2.0","id":1,"result":{},"method":"sampling/createMessage","params":{"messages":[]}}'],
    ['a "params" beside the result', '{"jsonrpc":"2.0","id":1,"params":{},"result":{}}'],
    ['any other member', '{"jsonrpc":"2.0","id":1,"result":{},"x":1}'],
    ['no jsonrpc member', '{"id":1,"result":{}}'],
    ['jsonrpc "1.0"', '{"jsonrpc":"1.0","id":1,"result":{}}'],
    ['jsonrpc spelled with an escape', '{"jsonrpc":"2\\u002e0","id":1,"result":{}}'],
    ['a result that is not an object', '{"jsonrpc":"2.0","id":1,"result":[1]}'],
    ['an error without a code', '{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}'],
    ['an error code that is a string', '{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}'],
    ['an error member of its own', '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","method":"y"}}'],
    ['two messages in an error', '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","message":"y"}}'],
    ['invalid JSON inside balanced brackets (a bare word)', '{"jsonrpc":"2.0","id":1,"result":{"a":[tru]}}'],
    ['a missing value', '{"jsonrpc":"2.0","id":1,"result":{"a":}}'],
    ['two commas', '{"jsonrpc":"2.0","id":1,"result":{"a":[1,,2]}}'],
    ['a trailing comma', '{"jsonrpc":"2.0","id":1,"result":{"a":1,}}'],
    ['a missing colon', '{"jsonrpc":"2.0","id":1,"result":{"a" 1}}'],
    ['a key that is not a string', '{"jsonrpc":"2.0","id":1,"result":{a:1}}'],
    ['a leading zero', '{"jsonrpc":"2.0","id":1,"result":{"a":01}}'],
    ['a bare fraction', '{"jsonrpc":"2.0","id":1,"result":{"a":.5}}'],
    ['an empty exponent', '{"jsonrpc":"2.0","id":1,"result":{"a":1e}}'],
    ['a plus sign', '{"jsonrpc":"2.0","id":1,"result":{"a":+1}}'],
    ['NaN', '{"jsonrpc":"2.0","id":1,"result":{"a":NaN}}'],
    ['a raw control byte in a string', '{"jsonrpc":"2.0","id":1,"result":{"a":"x\u0001y"}}'],
    ['a raw tab in a string', '{"jsonrpc":"2.0","id":1,"result":{"a":"x\ty"}}'],
    ['a raw control byte in a long string', `{"jsonrpc":"2.0","id":1,"result":{"a":"${'x'.repeat(70_000)}\u0000"}}`],
    ['an invalid escape', '{"jsonrpc":"2.0","id":1,"result":{"a":"\\x41"}}'],
    ['a short \\u escape', '{"jsonrpc":"2.0","id":1,"result":{"a":"\\u12"}}'],
    ['a \\u escape with a non-hex digit', '{"jsonrpc":"2.0","id":1,"result":{"a":"\\u12G4"}}'],
    ['single quotes', '{"jsonrpc":"2.0","id":1,"result":{"a":\'x\'}}'],
    ['a comment', '{"jsonrpc":"2.0","id":1,"result":{/*x*/}}'],
    ['a mismatched bracket', '{"jsonrpc":"2.0","id":1,"result":{"a":[1}]}'],
    ['a vertical tab as whitespace', '{"jsonrpc":"2.0","id":1,\u000b"result":{}}'],
  ])('refuses %s', (_why, text) => {
    expect(vouchable(Buffer.from(text))).toBeUndefined();
    expect(scanResponse(Buffer.from(text), 512)).toBeUndefined();
  });

  it.each([
    ['every escape', '{"jsonrpc":"2.0","id":1,"result":{"a":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\\ud800"}}'],
    ['numbers of every form', '{"jsonrpc":"2.0","id":-0,"result":{"a":[0,-0,1.5,-2e10,3E-2,4e+1,0.0,123456789012345678901234567890]}}'],
    ['whitespace of every kind', ' \t\r\n{ "jsonrpc" :\t"2.0" ,\r\n"id": 7 , "result" : { } } \n'],
    ['an error with data of any shape', '{"jsonrpc":"2.0","id":"x","error":{"data":[null,true,false,{}],"message":"m","code":-32000}}'],
  ])('accepts %s', (_why, text) => {
    expect(vouchable(Buffer.from(text))).toBeDefined();
    expect(typeof scanResponse(Buffer.from(text), 512)).toBe('object');
  });
});
