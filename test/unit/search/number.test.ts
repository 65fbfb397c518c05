import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isPlural, numbers } from '../../../src/search/number.js';
import { term } from '../../../src/search/analyze.js';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('grammatical number', () => {
  it('tells regular plurals from singulars and from words that merely end in s', () => {
    for (const w of ['users', 'events', 'entries', 'boxes', 'releases', 'tags']) expect(isPlural(w), w).toBe(true);
    for (const w of ['user', 'event', 'status', 'process', 'analysis', 'address', 'bus', 'is']) expect(isPlural(w), w).toBe(false);
  });

  it('keeps one number per term, and none for a term said both ways or a stop word', () => {
    const m = numbers(['create', 'events', 'the', 'calendar', 'user', 'users']);
    expect(m.get('event')).toBe(true);
    expect(m.get('calendar')).toBe(false);
    expect(m.has('user')).toBe(false);
    expect(m.has('the')).toBe(false);
  });

  it('only calls a word plural when it ends in s and has a term', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{0,12}$/), (w) => {
        if (isPlural(w)) {
          expect(w.endsWith('s')).toBe(true);
          expect(term(w)).not.toBe('');
        }
      }),
    );
  });

  it('prefers the tool whose name has the number the request says', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('chat', 'get_user', 'Get a user of the workspace.'),
      tool('chat', 'get_users', 'Get users of the workspace.'),
    ]) index.upsert(d);
    expect(index.search('get the users of the workspace', { limit: 1 })[0]?.key).toBe('chat__get_users');
    expect(index.search('get the user bob', { limit: 1 })[0]?.key).toBe('chat__get_user');
    const off = new ToolSearchIndex({ ...DEFAULT_RANKING, numberMismatch: 0 });
    off.upsert(tool('cal', 'create-event', 'Create an event.'));
    off.upsert(tool('cal', 'create-events', 'Create an event.'));
    const on = new ToolSearchIndex();
    on.upsert(tool('cal', 'create-event', 'Create an event.'));
    on.upsert(tool('cal', 'create-events', 'Create an event.'));
    const [a, b] = on.search('create events for the team');
    expect(a!.key).toBe('cal__create-events');
    expect(b!.score).toBeLessThan(a!.score);
    const [x, y] = off.search('create events for the team');
    expect(x!.score).toBe(y!.score);
  });
});
