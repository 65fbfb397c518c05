// Mcp-Param-* checks against a tool's arguments, and the strict `=?base64?…?=` header form.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeHeaderValue } from '../../../src/inbound/http-stateless.js';
import { mirroredParams, paramHeaderProblem } from '../../../src/inbound/param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    nested: { type: 'object', properties: { flag: { type: 'boolean', 'x-mcp-header': 'Flag' } } },
    plain: { type: 'string' },
    listed: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Ignored' } },
  },
};

describe('mirroredParams', () => {
  it('follows properties chains only', () => {
    expect(mirroredParams(schema).map((m) => [m.path.join('.'), m.header])).toEqual([
      ['region', 'mcp-param-region'],
      ['count', 'mcp-param-count'],
      ['nested.flag', 'mcp-param-flag'],
    ]);
  });
});

describe('paramHeaderProblem', () => {
  const args = { region: 'eu-west', count: 42, nested: { flag: true } };
  const headers = { 'mcp-param-region': 'eu-west', 'mcp-param-count': '42.0', 'mcp-param-flag': 'true' };
  it('accepts matching headers (numbers compared as numbers, base64 decoded)', () => {
    expect(paramHeaderProblem(schema, args, headers)).toBeUndefined();
    expect(paramHeaderProblem(schema, { ...args, region: 'zürich' }, { ...headers, 'mcp-param-region': `=?base64?${Buffer.from('zürich').toString('base64')}?=` })).toBeUndefined();
  });
  it('refuses a missing, extra, or different header', () => {
    expect(paramHeaderProblem(schema, args, { ...headers, 'mcp-param-region': undefined })).toMatch(/Mcp-Param-region header is missing/);
    expect(paramHeaderProblem(schema, { count: 42, nested: { flag: true } }, headers)).toMatch(/set but arguments.region is not/);
    expect(paramHeaderProblem(schema, args, { ...headers, 'mcp-param-flag': 'false' })).toMatch(/does not match arguments.nested.flag/);
    expect(paramHeaderProblem(schema, args, { ...headers, 'mcp-param-region': '=?base64?SGVsbG8?=' })).toMatch(/not a valid value/);
  });
});

describe('decodeHeaderValue', () => {
  it('round-trips any text through the base64 form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (t) => {
        fc.pre(!t.split('').some((c) => c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff));
        expect(decodeHeaderValue(`=?base64?${Buffer.from(t).toString('base64')}?=`)).toBe(t);
      }),
    );
  });
  it('takes a value without both markers literally, and refuses broken base64', () => {
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined();
  });
});
