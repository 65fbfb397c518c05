// `${user.NAME}` in the env substitution: a per-user secret, not a variable (a `.` used to make it
// "malformed"). It survives substitution as written; `${VAR}` around it still substitutes; its
// escape `$${user.` stays encoded only where the fill will decode it (headers and env values).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { substituteString, substituteTree } from '../../../src/config/env.js';

describe('${user.NAME} in substituteString', () => {
  it('leaves a reference as it is and names it', () => {
    expect(substituteString('Bearer ${user.GITHUB_TOKEN}', {})).toEqual({ value: 'Bearer ${user.GITHUB_TOKEN}', unset: [], substituted: false, userRefs: ['GITHUB_TOKEN'] });
  });

  it('still reads ${user} (no dot) as the variable user', () => {
    expect(substituteString('${user}', { user: 'ann' })).toEqual({ value: 'ann', unset: [], substituted: true });
  });

  it.each([
    ['${user.}', 'expected a secret name after ${user. (letters, digits and _, not starting with a digit)'],
    ['${user.1A}', 'expected a secret name after ${user. (letters, digits and _, not starting with a digit)'],
    ['${user.A', '${user.A is missing its closing }'],
    ['${user.A-B}', '${user.A is missing its closing }'],
    ['${user.A:-x}', "${user.A} takes no default: it is the user's own secret"],
  ])('reports malformed %s', (input, message) => {
    expect(substituteString(input, {})).toEqual({ value: input, unset: [], malformed: message, substituted: false });
  });

  it('decodes $${user. to a literal ${user. unless asked to keep it for the fill', () => {
    expect(substituteString('$${user.X}', {}).value).toBe('${user.X}');
    expect(substituteString('$${user.X}', {}, true).value).toBe('$${user.X}');
    expect(substituteString('$${A}', {}, true).value).toBe('${A}');
  });
});

describe('${user.NAME} in substituteTree', () => {
  it('keeps escapes in headers and env values only, and reports every reference with its path', () => {
    const tree = { servers: [{ name: 'a', env: { K: '$${user.X} ${user.Y}' }, args: ['$${user.X}', '${user.Z}'] }] };
    const result = substituteTree(tree, {});
    expect(result.value).toEqual({ servers: [{ name: 'a', env: { K: '$${user.X} ${user.Y}' }, args: ['${user.X}', '${user.Z}'] }] });
    expect(result.userRefs).toEqual([
      { path: ['servers', 0, 'env', 'K'], names: ['Y'] },
      { path: ['servers', 0, 'args', 1], names: ['Z'] },
    ]);
  });
});

describe('${user.NAME} properties', () => {
  const noDollar = fc.string({ maxLength: 20 }).map((s) => s.replaceAll('$', ''));
  const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);

  it('any ${user.NAME} with a valid NAME survives untouched, and ${VAR} around it still substitutes', () => {
    fc.assert(
      fc.property(noDollar, name, name, fc.string(), noDollar, fc.boolean(), (before, secret, variable, value, after, keep) => {
        const input = `${before}\${${variable}}\${user.${secret}}${after}\${${variable}}`;
        const result = substituteString(input, { [variable]: value }, keep);
        expect(result.malformed).toBeUndefined();
        expect(result.value).toBe(`${before}${value}\${user.${secret}}${after}${value}`);
        expect(result.userRefs).toEqual([secret]);
        expect(result.unset).toEqual([]);
      }),
    );
  });

  it('an environment value that looks like ${user.X} is inserted verbatim, never read as a reference', () => {
    fc.assert(
      fc.property(name, name, (variable, secret) => {
        const result = substituteString(`\${${variable}}`, { [variable]: `\${user.${secret}}` });
        expect(result.value).toBe(`\${user.${secret}}`);
        expect(result.userRefs).toBeUndefined();
      }),
    );
  });
});
