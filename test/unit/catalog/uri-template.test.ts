// RFC 6570 expansion with string values: the RFC's own examples (section 3.2, the ones without
// lists or maps), and the raw spelling a client makes by pasting a value in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandTemplate } from '../../../src/catalog/uri-template.js';

const vars = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', x: '1024', y: '768', who: 'fred', base: 'http://example.com/home/', v: '6', semi: ';', dub: 'me/too', half: '50%' };

describe('RFC 6570 expansion', () => {
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{half}', '50%25'],
    ['O{empty}X', 'OX'],
    ['O{undef}X', 'OX'],
    ['{x,y}', '1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['?{x,empty}', '?1024,'],
    ['?{x,undef}', '?1024'],
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{semi}', '%3B'],
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+half}', '50%25'],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
    ['{+base}index', 'http://example.com/home/index'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{#var}', '#value'],
    ['{#hello}', '#Hello%20World!'],
    ['X{.var}', 'X.value'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{/var:1,var}', '/v/value'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&var:3}', '&var=val'],
    ['{/dub}', '/me%2Ftoo'],
    ['{var*}', 'value'],
    ['{who}{who}', 'fredfred'],
  ])('%s → %s', (template, expected) => {
    expect(expandTemplate(template, vars, 'rfc6570')).toBe(expected);
  });

  it('leaves an expression it cannot read as written', () => {
    expect(expandTemplate('a{b c}d{=x}e{}', vars, 'rfc6570')).toBe('a{b c}d{=x}e{}');
  });

  it('encodes UTF-8, and keeps a lone surrogate raw (no URI holds one)', () => {
    expect(expandTemplate('{v}', { v: 'é€' }, 'rfc6570')).toBe('%C3%A9%E2%82%AC');
    expect(expandTemplate('{v}', { v: 'a\uD800' }, 'rfc6570')).toBe('a\uD800');
  });
});

describe('raw expansion', () => {
  it('pastes values in as they are, with the operators’ punctuation', () => {
    expect(expandTemplate('file:///{path}', { path: 'secret/keys.txt' }, 'raw')).toBe('file:///secret/keys.txt');
    expect(expandTemplate('file:///{path}', { path: 'secret/keys.txt' }, 'rfc6570')).toBe('file:///secret%2Fkeys.txt');
    expect(expandTemplate('db://{table}{?q,limit}', { table: 't', q: 'a b' }, 'raw')).toBe('db://t?q=a b');
  });

  it('without operators or reserved characters, both spellings agree', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._~-]*$/), (value) => {
        expect(expandTemplate('x://h/{v}', { v: value }, 'raw')).toBe(expandTemplate('x://h/{v}', { v: value }, 'rfc6570'));
      }),
    );
  });
});
