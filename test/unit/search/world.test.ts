import { describe, expect, it } from 'vitest';
import { DEFAULT_RANKING, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { worldExpansions } from '../../../src/search/world.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('world knowledge', () => {
  it('maps everyday words to the words tools use, one way only', () => {
    expect(worldExpansions('weather').has('search')).toBe(true);
    expect(worldExpansions('weather').has('web')).toBe(true);
    // A tool word never brings back the everyday words that point at it.
    expect(worldExpansions('search').has('weather')).toBe(false);
    expect(worldExpansions('zzzz').size).toBe(0);
    for (const t of ['weather', 'meet', 'mobil', 'recip']) expect(worldExpansions(t).has(t)).toBe(false);
  });

  it('lets a request with none of a tool’s words find it', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('search', 'web_search', 'Search the web for pages matching a query.'),
      tool('calendar', 'create-event', 'Create a new calendar event.'),
      tool('browser', 'browser_resize', 'Resize the browser viewport.'),
      tool('files', 'read_file', 'Read a file from disk.'),
    ]) index.upsert(d);
    expect(index.search('will it rain in Lisbon', { limit: 1 })[0]?.key).toBe('search__web_search');
    expect(index.search('put the standup on friday', { limit: 1 })[0]?.key).toBe('calendar__create-event');
    expect(index.search('the layout on a tablet', { limit: 1 })[0]?.key).toBe('browser__browser_resize');
  });

  it('stays off when synonyms are off (the bench measures the bare engine)', () => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, synonyms: false });
    index.upsert(tool('search', 'web_search', 'Search the web.'));
    expect(index.search('weather')).toEqual([]);
  });
});
