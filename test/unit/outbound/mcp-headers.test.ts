// The headers that mirror the body on Streamable HTTP 2026-07-28: the value encoding (any text
// becomes a safe header value that decodes back to it), which tool annotations are valid, and the
// headers a call gets.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHeaderValue, paramHeaderValues, standardHeaders, toolParamHeaders } from '../../../src/outbound/mcp-headers.js';

/** What a server does with a header value (the spec's decoding rule). */
function decode(value: string): string {
  const m = /^=\?base64\?(.*)\?=$/s.exec(value);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : value;
}

const safe = (v: string) => /^[\x20-\x7e]*$/.test(v) && v === v.trim();

describe('encodeHeaderValue', () => {
  it('encodes the examples of the spec as the spec shows them', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    expect(encodeHeaderValue('us west 1')).toBe('us west 1');
    expect(encodeHeaderValue('')).toBe('');
    expect(encodeHeaderValue('\tindented')).toMatch(/^=\?base64\?/);
  });

  it('turns any text into a safe header value that decodes back to it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\n', '\r', '\x00', '\x7f', 'é', '世', '😀', '=', '?', 'base64') })), (text) => {
        const value = encodeHeaderValue(text);
        return safe(value) && decode(value) === text;
      }),
    );
  });

  it('leaves a printable ASCII text alone unless it looks like the sentinel', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/), (text) => {
        fc.pre(!/^=\?base64\?.*\?=$/.test(text));
        return encodeHeaderValue(text) === text;
      }),
    );
  });
});

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const problemOf = (s: unknown) => {
  const r = toolParamHeaders(s);
  return r.ok ? undefined : r.problem;
};

describe('toolParamHeaders', () => {
  it('finds annotated primitive parameters, nested ones through properties too', () => {
    const r = toolParamHeaders(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        verbose: { type: ['boolean', 'null'], 'x-mcp-header': 'Verbose' },
        query: { type: 'string' },
        target: schema({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
      }),
    );
    expect(r).toEqual({
      ok: true,
      params: [
        { name: 'Region', path: ['region'] },
        { name: 'Priority', path: ['priority'] },
        { name: 'Verbose', path: ['verbose'] },
        { name: 'Zone', path: ['target', 'zone'] },
      ],
    });
    expect(toolParamHeaders({ type: 'object' })).toEqual({ ok: true, params: [] });
    expect(toolParamHeaders(undefined)).toEqual({ ok: true, params: [] });
  });

  it('refuses the invalid annotations of the conformance suite', () => {
    const invalid: Record<string, unknown> = {
      empty: schema({ v: { type: 'string', 'x-mcp-header': '' } }),
      object: schema({ v: { type: 'object', 'x-mcp-header': 'Data' } }),
      array: schema({ v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'List' } }),
      null: schema({ v: { type: 'null', 'x-mcp-header': 'Nil' } }),
      number: schema({ v: { type: 'number', 'x-mcp-header': 'Float' } }),
      untyped: schema({ v: { 'x-mcp-header': 'Any' } }),
      duplicateSameCase: schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }),
      duplicateOtherCase: schema({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }),
      space: schema({ v: { type: 'string', 'x-mcp-header': 'My Region' } }),
      colon: schema({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
      nonAscii: schema({ v: { type: 'string', 'x-mcp-header': 'Région' } }),
      controlChar: schema({ v: { type: 'string', 'x-mcp-header': 'Region\t1' } }),
      notAString: schema({ v: { type: 'string', 'x-mcp-header': 42 } }),
    };
    for (const [label, s] of Object.entries(invalid)) expect(problemOf(s), label).toBeDefined();
  });

  it('refuses annotations not reachable through properties alone', () => {
    const unreachable: Record<string, unknown> = {
      root: { type: 'string', 'x-mcp-header': 'Root' },
      items: schema({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
      anyOf: schema({ v: { anyOf: [{ type: 'string', 'x-mcp-header': 'V' }] } }),
      defs: schema({ v: { $ref: '#/$defs/v' } }, { $defs: { v: { type: 'string', 'x-mcp-header': 'V' } } }),
      ifThen: schema({}, { if: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } }),
      additional: schema({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } }),
    };
    for (const [label, s] of Object.entries(unreachable)) expect(problemOf(s), label).toMatch(/not reachable/);
  });

  it('reads a property named x-mcp-header, or the word inside data, as no annotation', () => {
    expect(toolParamHeaders(schema({ 'x-mcp-header': { type: 'string' } }))).toEqual({ ok: true, params: [] });
    expect(toolParamHeaders(schema({ v: { type: 'object', default: { 'x-mcp-header': 'No' } } }))).toEqual({ ok: true, params: [] });
  });
});

describe('paramHeaderValues', () => {
  const params = [
    { name: 'Region', path: ['region'] },
    { name: 'Priority', path: ['priority'] },
    { name: 'Verbose', path: ['verbose'] },
    { name: 'Zone', path: ['target', 'zone'] },
  ];

  it('sends strings encoded, integers in decimal, booleans in lower case, nested values by their path', () => {
    expect(paramHeaderValues(params, { region: 'Hello, 世界', priority: 42, verbose: false, target: { zone: 'a' } })).toEqual({
      'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'mcp-param-priority': '42',
      'mcp-param-verbose': 'false',
      'mcp-param-zone': 'a',
    });
  });

  it('omits the header of a parameter that has no value, or one no header can carry', () => {
    expect(paramHeaderValues(params, { region: null, priority: 1.5, target: 'not an object' })).toEqual({});
    expect(paramHeaderValues(params, { priority: 2 ** 53 })).toEqual({});
    expect(paramHeaderValues(params, { region: { nested: true } })).toEqual({});
    expect(paramHeaderValues(params, undefined)).toEqual({});
    expect(paramHeaderValues(params, { priority: -7, region: '' })).toEqual({ 'mcp-param-priority': '-7', 'mcp-param-region': '' });
  });
});

describe('standardHeaders', () => {
  it('names the method always, and the target of the calls that have one', () => {
    expect(standardHeaders('tools/list', {})).toEqual({ 'mcp-method': 'tools/list' });
    expect(standardHeaders('tools/call', { name: 'my-hyphenated-tool' })).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'my-hyphenated-tool' });
    expect(standardHeaders('prompts/get', { name: 'test_prompt' })).toEqual({ 'mcp-method': 'prompts/get', 'mcp-name': 'test_prompt' });
    expect(standardHeaders('resources/read', { uri: 'file:///path/to/file%20name.txt' })['mcp-name']).toBe('file:///path/to/file%20name.txt');
    expect(standardHeaders('resources/read', { uri: 'note://café' })['mcp-name']).toBe(encodeHeaderValue('note://café'));
    expect(standardHeaders('tools/call', undefined)).toEqual({ 'mcp-method': 'tools/call' });
  });
});
