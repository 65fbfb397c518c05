// validateArgs: problems a model can act on, and the same verdict as a full validator
// (@cfworker/json-schema, draft 2020-12) on generated schemas and values of the subset.

import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRegex, validateArgs } from '../../../src/codemode/validate.js';
import { toolResultValue } from '../../../src/codemode/results.js';

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, pattern: '^/' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    mode: { enum: ['r', 'w'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    target: { oneOf: [{ type: 'string' }, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }] },
    node: { $ref: '#/$defs/node' },
  },
  required: ['path'],
  additionalProperties: false,
  $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, v: { type: 'number' } } } },
};

describe('validateArgs', () => {
  it('accepts valid arguments', () => {
    expect(validateArgs(SCHEMA, { path: '/a', limit: 5, mode: 'r', tags: ['x'], target: { id: 1 }, node: { next: { v: 1 } } })).toEqual([]);
  });

  it('says what is wrong, where, and what was given', () => {
    expect(validateArgs(SCHEMA, { limit: 500, mode: 'x', tags: ['a', 'a', 'b'], extra: 1, node: { next: { v: 'no' } } })).toEqual([
      'args: missing required property "path"',
      'args.limit: must be ≤ 100, got 500',
      'args.mode: must be one of "r", "w"',
      'args.tags: must have at most 2 items, got 3',
      'args.tags: items must be unique (item 1 repeats an earlier one)',
      'args.node.next.v: must be number, got string',
      'args: unknown property "extra" (allowed: path, limit, mode, tags, target, node)',
    ]);
    expect(validateArgs(SCHEMA, { path: 'rel' })).toEqual(['args.path: must match the pattern ^/']);
    expect(validateArgs(SCHEMA, { path: '/a', target: { id: 'x' } })[0]).toMatch(/^args.target: must match exactly one of 2 alternatives; the closest: /);
  });

  it('does not run a pattern that could backtrack without end', () => {
    expect(safeRegex('(a+)+$')).toBeNull();
    expect(safeRegex('^(a|aa)*$')).toBeNull();
    expect(safeRegex('(x\\w*){2,}y')).toBeNull();
    expect(safeRegex('^(\\d+)\\1$')).toBeNull();
    expect(safeRegex('^[a-z]+(-[a-z]+)?$')).not.toBeNull();
    const started = performance.now();
    expect(validateArgs({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('survives schemas that loop on themselves', () => {
    expect(validateArgs({ $ref: '#' }, 1)).toEqual([]);
    expect(validateArgs({ allOf: [{ $ref: '#' }] }, {})).toEqual([]);
  });

  it('property: agrees with @cfworker/json-schema on the subset', () => {
    fc.assert(
      fc.property(schema, value, (s, v) => {
        const reference = new Validator(s as object, '2020-12', false).validate(v).valid;
        const ours = validateArgs(s as object, v);
        expect(ours.length === 0, JSON.stringify({ s, v, ours })).toBe(reference);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('toolResultValue', () => {
  const where = { server: 's', tool: 't' };
  it('gives structuredContent, else parsed JSON text, else the text, else the content', () => {
    expect(toolResultValue({ structuredContent: { a: 1 }, content: [{ type: 'text', text: '{"a":1}' }] }, where)).toEqual({ a: 1 });
    expect(toolResultValue({ content: [{ type: 'text', text: ' [1, 2] ' }] }, where)).toEqual([1, 2]);
    expect(toolResultValue({ content: [{ type: 'text', text: 'plain words' }] }, where)).toBe('plain words');
    expect(toolResultValue({ content: [{ type: 'text', text: '{not json' }] }, where)).toBe('{not json');
    expect(toolResultValue({ content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] }, where)).toEqual([{ type: 'image', data: 'x', mimeType: 'image/png' }]);
  });

  it('throws {code, message, data} for a result with isError', () => {
    expect(() => toolResultValue({ isError: true, content: [{ type: 'text', text: 'no such file' }] }, where)).toThrow(
      expect.objectContaining({ code: -32000, message: 'no such file', data: { server: 's', tool: 't', isError: true } }),
    );
  });
});

const KEYS = ['a', 'b', 'c'];
const leafValue = fc.oneof(fc.constantFrom('', 'a', 'ab', 'abc', 'b', '/x', 'é'), fc.integer({ min: -3, max: 12 }), fc.constantFrom(0.5, 2.5), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leafValue, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...KEYS, 'd'), tie('v'), { maxKeys: 3 })),
})).v;

const schema: fc.Arbitrary<unknown> = fc.letrec<{ s: unknown }>((tie) => ({
  s: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      true,
      false,
      {},
      { type: 'string' },
      { type: 'integer' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'null' },
      { type: 'object' },
      { type: 'array' },
      { type: ['string', 'null'] },
      { type: ['integer', 'boolean'] },
    ),
    fc.record({ type: fc.constant('string'), minLength: fc.nat(3), maxLength: fc.nat(3), pattern: fc.constantFrom('^a', 'b$', '^[a-c]+$', 'x') }, { requiredKeys: ['type'] }),
    fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        minimum: fc.integer({ min: -2, max: 8 }),
        maximum: fc.integer({ min: 0, max: 10 }),
        exclusiveMinimum: fc.integer({ min: -2, max: 5 }),
        exclusiveMaximum: fc.integer({ min: 2, max: 12 }),
        multipleOf: fc.constantFrom(1, 2, 3),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ enum: fc.array(leafValue, { minLength: 1, maxLength: 4 }) }),
    fc.record({ const: leafValue }),
    fc.record(
      { type: fc.constant('array'), items: tie('s'), prefixItems: fc.array(tie('s'), { maxLength: 2 }), minItems: fc.nat(2), maxItems: fc.nat(3), uniqueItems: fc.boolean() },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie('s'), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('s')),
        patternProperties: fc.dictionary(fc.constantFrom('^a', 'd'), tie('s'), { maxKeys: 1 }),
        minProperties: fc.nat(2),
        maxProperties: fc.nat(3),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ anyOf: fc.array(tie('s'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie('s'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('s'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie('s') }),
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords, not a thenable
    fc.record({ if: tie('s'), then: tie('s'), else: tie('s') }, { requiredKeys: ['if'] }),
  ),
})).s;
