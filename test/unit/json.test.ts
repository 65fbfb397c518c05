import { describe, expect, it } from 'vitest';
import { isJsonObject, valueAt } from '../../src/protocol/json.js';

describe('JSON from outside', () => {
  it('isJsonObject: a plain object, not null, an array or a scalar', () => {
    expect(isJsonObject({})).toBe(true);
    for (const v of [null, [], 'x', 1, undefined]) expect(isJsonObject(v)).toBe(false);
  });

  it('valueAt reads through objects only, and is undefined where a step is missing or not an object', () => {
    const tool = { _meta: { ui: { visibility: ['app'] } }, content: [{ text: 'hi' }] };
    expect(valueAt(tool, '_meta', 'ui', 'visibility')).toEqual(['app']);
    expect(valueAt(tool, 'content', '0', 'text')).toBe('hi');
    expect(valueAt(tool, '_meta', 'nope', 'visibility')).toBeUndefined();
    expect(valueAt({ _meta: 'a string' }, '_meta', 'length')).toBeUndefined();
    expect(valueAt(null, 'x')).toBeUndefined();
    expect(valueAt(tool)).toBe(tool);
  });
});
