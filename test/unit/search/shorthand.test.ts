// Shorthand of typed requests ("cal tmrw", "mkdir src/utils", "ENG-5 is a dup"): written out as the
// word tools use before the request is read, as whole words only, never inside a URL, path or name.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expandShorthand, shorthandWords } from '../../../src/search/shorthand.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, DEFAULT_RANKING, type ToolDoc } from '../../../src/search/index.js';

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 200 }));

describe('expandShorthand', () => {
  it('leaves a word of any script that merely holds a shorthand alone ("calé", "écal", "cal𑙐a")', () => {
    for (const text of ['calé', 'écal', 'cal𑙐a', 'msgñ', 'ümsg', 'tmrwа']) expect(expandShorthand(text)).toBe(text);
    expect(squash(expandShorthand('cal, tmrw'))).toBe('calendar , tomorrow');
  });

  it('writes out chat spellings, abbreviations and shell commands', () => {
    expect(squash(expandShorthand('cal tmrw'))).toBe('calendar tomorrow');
    expect(squash(expandShorthand('move my dentist appt to next wk'))).toBe('move my dentist appointment to next week');
    expect(squash(expandShorthand('mkdir src/utils'))).toBe('make directory src/utils');
    expect(squash(expandShorthand('cancel the 1:1 on monday'))).toBe('cancel the one-on-one meeting on monday');
    expect(squash(expandShorthand('ENG-5 is a Dup of ENG-2'))).toBe('ENG-5 is a duplicate of ENG-2');
    expect(squash(expandShorthand('lat long of the eiffel tower'))).toBe('latitude long of the eiffel tower');
    expect(squash(expandShorthand('click the login btn'))).toBe('click the login button');
  });

  it('drops chat filler', () => {
    expect(squash(expandShorthand('whats eating my cpu rn lol'))).toBe('whats eating my cpu');
  });

  it('leaves words that only contain shorthand, everyday words, and URLs, paths, handles and times alone', () => {
    for (const text of ['calendar tomorrow', 'find an atm near me', 'email HR about it', 'conf talk on friday', 'https://cal.com/me', 'open ./ls/notes.md', 'ping @gh', 'at 11:15', 'the 1:10 train', 'ls-files', 'email ppl@example.com', 'recall the rmdir.sh script']) {
      expect(expandShorthand(text)).toBe(text);
    }
  });

  it('never throws, and every term it adds is a word term of its table', () => {
    const written = new Set(analyzeText(shorthandWords().map((w) => expandShorthand(w)).join(' ')));
    fc.assert(
      fc.property(anyText, (text) => {
        const out = expandShorthand(text);
        const before = new Set(analyzeText(text.toLowerCase()));
        for (const t of analyzeText(out.toLowerCase())) {
          expect(t.length).toBeGreaterThan(0);
          expect(before.has(t) || written.has(t)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes every listed shorthand out as words, never as nothing but itself', () => {
    for (const w of shorthandWords()) {
      const out = squash(expandShorthand(`x ${w} y`));
      expect(out.startsWith('x ') && out.endsWith(' y')).toBe(true);
      expect(out).not.toBe(`x ${w} y`);
      for (const t of analyzeText(out)) expect(t).toMatch(/^[a-z0-9-]+$/);
    }
  });
});

describe('ToolSearchIndex and shorthand', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const catalog = [
    tool('files', 'create_directory', 'Create a new directory.'),
    tool('files', 'read_file', 'Read the contents of a file.'),
    tool('calendar', 'update_event', 'Update a calendar event: change its time, title or attendees.'),
    tool('files', 'move_file', 'Move or rename a file.'),
    tool('calendar', 'list_events', 'List the events of a calendar.'),
    tool('files', 'list_directory', 'List the files of a directory.'),
  ];
  const build = (params = DEFAULT_RANKING): ToolSearchIndex => {
    const index = new ToolSearchIndex(params);
    for (const d of catalog) index.upsert(d);
    return index;
  };
  const top = (index: ToolSearchIndex, q: string): string | undefined => index.search(q)[0]?.key;

  it('reads the shorthand as the word it stands for', () => {
    const on = build();
    expect(top(on, 'mkdir src/utils')).toBe('files__create_directory');
    expect(top(on, 'whats on my cal')).toBe('calendar__list_events');
  });

  it('does not without the rule', () => {
    const off = build({ ...DEFAULT_RANKING, shorthand: false });
    expect(top(off, 'mkdir src/utils')).not.toBe('files__create_directory');
    expect(top(off, 'whats on my cal')).not.toBe('calendar__list_events');
  });
});
