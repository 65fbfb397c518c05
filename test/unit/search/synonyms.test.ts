// The synonym groups: a request's verb finds tools named with another word of its group, both
// ways. Round 12 added the everyday delete verbs of requests ("wipe the cache", "nuke the test db").

import { describe, expect, it } from 'vitest';
import { expansions } from '../../../src/search/synonyms.js';
import { analyzeText } from '../../../src/search/analyze.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const termOf = (w: string): string => analyzeText(w)[0]!;

describe('synonym groups', () => {
  it('join wipe and nuke to delete, both ways', () => {
    for (const w of ['wipe', 'nuke']) {
      expect(expansions(termOf(w)).has(termOf('delete'))).toBe(true);
      expect(expansions(termOf('delete')).has(termOf(w))).toBe(true);
    }
  });

  it('let "wipe" find the tool that deletes', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    for (const d of [
      tool('db', 'delete_many', 'Delete all documents matching a filter.'),
      tool('db', 'list_sessions', 'List the open sessions.'),
      tool('db', 'find', 'Find documents matching a filter.'),
    ]) index.upsert(d);
    expect(index.search('wipe the old documents from the db')[0]?.key).toBe('db__delete_many');
  });
});
