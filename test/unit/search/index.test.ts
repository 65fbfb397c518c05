import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_RANKING, PlainBm25Index, ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string, props: Record<string, string> = {}): ToolDoc => ({
  key: `${server}__${name}`,
  server,
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])) },
});

const CATALOG: ToolDoc[] = [
  tool('github', 'create_issue', 'Create a new issue in a GitHub repository.', { owner: 'Repository owner', repo: 'Repository name', title: 'Issue title' }),
  tool('github', 'list_issues', 'List issues in a GitHub repository with filtering options.', { state: 'open or closed' }),
  tool('github', 'create_pull_request', 'Create a new pull request in a GitHub repository.', { head: 'Branch with your changes', base: 'Branch to merge into' }),
  tool('github', 'merge_pull_request', 'Merge a pull request.', { merge_method: 'merge, squash or rebase' }),
  tool('github', 'search_code', 'Search for code across GitHub repositories.', { q: 'Search query' }),
  tool('slack', 'slack_post_message', 'Post a new message to a Slack channel.', { channel_id: 'The channel', text: 'Message text' }),
  tool('slack', 'slack_list_channels', 'List public channels in the workspace.'),
  tool('filesystem', 'read_text_file', 'Read the complete contents of a file from the file system as text.', { path: 'File path' }),
  tool('filesystem', 'write_file', 'Create a new file or completely overwrite an existing file with new content.', { path: 'File path', content: 'Text' }),
  tool('filesystem', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.', { path: 'Directory path' }),
  tool('filesystem', 'move_file', 'Move or rename files and directories.', { source: 'From', destination: 'To' }),
  tool('calendar', 'list-events', 'List events from one or more calendars in a time range.', { timeMin: 'Start of the range', timeMax: 'End of the range' }),
  tool('calendar', 'create-event', 'Create a new calendar event.', { summary: 'Event title', start: 'Start time' }),
  tool('calendar', 'delete-event', 'Delete a calendar event.', { eventId: 'Event ID' }),
  tool('maps', 'maps_directions', 'Get directions between two points.', { origin: 'Starting point', destination: 'Ending point', mode: 'driving, walking, bicycling or transit' }),
  tool('browser', 'browser_navigate', 'Navigate to a URL.', { url: 'The URL to navigate to' }),
  tool('browser', 'browser_take_screenshot', 'Take a screenshot of the current page.'),
  tool('docs', 'buscar_documentos', '在知识库中搜索文档', { consulta: '搜索词' }),
];

const top = (index: { search: ToolSearchIndex['search'] }, q: string): string | undefined => index.search(q, { limit: 1 })[0]?.key;

function build(docs: ToolDoc[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const d of docs) index.upsert(d);
  return index;
}

describe('ToolSearchIndex ranking', () => {
  const index = build(CATALOG);

  it('finds tools by their own words, in any of their forms', () => {
    expect(top(index, 'create an issue about the login crash')).toBe('github__create_issue');
    expect(top(index, 'post to the slack channel that the deploy is done')).toBe('slack__slack_post_message');
    expect(top(index, 'list my calendar events for tomorrow')).toBe('calendar__list-events');
    expect(top(index, 'rename notes.txt to old.txt')).toBe('filesystem__move_file');
    expect(top(index, 'deleting the dentist event')).toBe('calendar__delete-event');
    expect(top(index, 'driving directions to the airport')).toBe('maps__maps_directions');
    expect(top(index, 'navigate to example.com')).toBe('browser__browser_navigate');
    expect(top(index, 'listing of the downloads directory')).toBe('filesystem__list_directory');
  });

  it('matches an exact tool name typed as it is', () => {
    expect(top(index, 'merge_pull_request')).toBe('github__merge_pull_request');
    expect(top(index, 'takeScreenshot')).toBe('browser__browser_take_screenshot');
  });

  it("prefers the name that says the request's word as written over another form of it", () => {
    const twins = build([tool('cal', 'create_event', 'Create calendar entries.'), tool('cal', 'create_events', 'Create calendar entries.')]);
    expect(top(twins, 'create event')).toBe('cal__create_event');
    expect(top(twins, 'create events')).toBe('cal__create_events');
  });

  it('searches non-English text', () => {
    expect(top(index, '搜索文档')).toBe('docs__buscar_documentos');
  });

  it('returns nothing for a query of stop words or symbols only, and honours the limit', () => {
    expect(index.search('what is it?')).toEqual([]);
    expect(index.search('🎯 !!')).toEqual([]);
    expect(index.search('file', { limit: 2 })).toHaveLength(2);
    expect(index.search('file', { limit: 0 })).toEqual([]);
  });

  it('orders best first and breaks ties by key', () => {
    const twins = build([tool('b', 'same', 'Launch the rocket.'), tool('a', 'same', 'Launch the rocket.'), tool('c', 'other', 'Bake a cake.')]);
    const hits = twins.search('launch rocket');
    expect(hits.map((h) => h.key)).toEqual(['a__same', 'b__same']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  });
});

describe('ToolSearchIndex updates', () => {
  it('upsert replaces a tool and remove forgets it', () => {
    const index = build(CATALOG);
    expect(index.size).toBe(CATALOG.length);
    index.upsert({ ...tool('bakery', 'bake', 'Bake bread in the oven.'), key: 'github__create_issue' });
    expect(index.size).toBe(CATALOG.length);
    expect(top(index, 'bake bread')).toBe('github__create_issue');
    expect(index.search('report a bug').map((h) => h.key)).not.toContain('github__create_issue');
    expect(index.remove('github__create_issue')).toBe(true);
    expect(index.remove('github__create_issue')).toBe(false);
    expect(index.search('bake bread').map((h) => h.key)).not.toContain('github__create_issue');
    expect(index.size).toBe(CATALOG.length - 1);
  });

  it('ranks after any sequence of upserts and removes exactly like a fresh build of what is left', () => {
    const variants = CATALOG.flatMap((d, i) => [d, { ...d, description: `${CATALOG[(i + 3) % CATALOG.length]!.description} (v2)` }]);
    const queries = ['create issue', 'list files in a folder', 'post message', 'calendar event', 'pull request merge', 'navigate url', 'repo directions'];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('upsert' as const), doc: fc.constantFrom(...variants) }),
      fc.record({ kind: fc.constant('remove' as const), key: fc.constantFrom(...CATALOG.map((d) => d.key)) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const live = new Map<string, ToolDoc>();
        const index = new ToolSearchIndex();
        for (const o of ops) {
          if (o.kind === 'upsert') {
            index.upsert(o.doc);
            live.set(o.doc.key, o.doc);
          } else {
            expect(index.remove(o.key)).toBe(live.delete(o.key));
          }
          // Searching in between must not leave state that changes later rankings.
          index.search(queries[ops.indexOf(o) % queries.length]!);
        }
        const fresh = build([...live.values()].reverse());
        expect(index.size).toBe(fresh.size);
        for (const q of queries) expect(index.search(q, { limit: 20 })).toEqual(fresh.search(q, { limit: 20 }));
      }),
      { numRuns: 60 },
    );
  });
});

describe('syncServer', () => {
  it('leaves the server with exactly the given tools, re-indexing only what changed', () => {
    const index = build(CATALOG);
    const github = CATALOG.filter((d) => d.server === 'github');
    expect(index.syncServer('github', github)).toEqual({ added: 0, updated: github.length, removed: 0 });
    expect(index.syncServer('github', github)).toEqual({ added: 0, updated: 0, removed: 0 });
    const next = [
      ...github.filter((d) => d.name !== 'search_code' && d.name !== 'merge_pull_request'),
      { ...github.find((d) => d.name === 'merge_pull_request')!, description: 'Combine a branch into another one.' },
      tool('github', 'fork_repository', 'Fork a repository to your account.'),
    ];
    expect(index.syncServer('github', next)).toEqual({ added: 1, updated: 1, removed: 1 });
    expect(index.has('github__search_code')).toBe(false);
    expect(top(index, 'combine a branch')).toBe('github__merge_pull_request');
    expect(index.size).toBe(CATALOG.length);
    const fresh = build([...CATALOG.filter((d) => d.server !== 'github'), ...next]);
    for (const q of ['merge', 'fork a repo', 'search code', 'list files']) expect(index.search(q)).toEqual(fresh.search(q));
    expect(index.syncServer('github', [])).toEqual({ added: 0, updated: 0, removed: next.length });
    expect(() => index.syncServer('slack', [CATALOG[0]!])).toThrow(/belongs to github/);
  });
});

describe('accept (per-profile visibility)', () => {
  const index = build(CATALOG);
  // Without the spreading over servers, which counts only the tools a profile sees.
  const unspread = new ToolSearchIndex({ ...DEFAULT_RANKING, crowdingDecay: 1 });
  for (const d of CATALOG) unspread.upsert(d);
  const queries = fc.constantFrom('create issue', 'file', 'list', 'calendar event', 'message channel', 'get directions', 'read');

  it('never returns a rejected key, and rejected keys take no slot', () => {
    fc.assert(
      fc.property(fc.subarray(CATALOG.map((d) => d.key)), queries, fc.integer({ min: 1, max: 8 }), (allowed, q, limit) => {
        const ok = new Set(allowed);
        const hits = index.search(q, { limit, accept: (k) => ok.has(k) });
        for (const h of hits) expect(ok.has(h.key)).toBe(true);
        const matching = index.search(q, { limit: 1000 }).filter((h) => ok.has(h.key));
        expect(hits).toHaveLength(Math.min(limit, matching.length));
        // Same as ranking everything and keeping the accepted ones (the catalog is below the re-rank depth).
        const seen = unspread.search(q, { limit, accept: (k) => ok.has(k) });
        expect(seen).toEqual(
          unspread
            .search(q, { limit: 1000 })
            .filter((h) => ok.has(h.key))
            .slice(0, limit),
        );
      }),
    );
  });
});

describe('hostile definitions', () => {
  it('bounds deep or cyclic schemas and huge descriptions', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic, name: { type: 'string', description: 'needle' } };
    const index = new ToolSearchIndex();
    index.upsert({ key: 'x__loop', server: 'x', name: 'loop', inputSchema: cyclic, description: 'word '.repeat(100_000) });
    index.upsert({ key: 'x__odd', server: 'x', name: 'odd', inputSchema: 'not a schema', annotations: null });
    expect(top(index, 'needle')).toBe('x__loop');
  });
});

describe('hostile queries', () => {
  it('bounds the work of a huge query and still answers from its beginning', () => {
    const index = build(CATALOG);
    const words = Array.from({ length: 20_000 }, (_, i) => `word${i}`).join(' ');
    expect(index.concepts(`create calendar event ${words}`).length).toBeLessThanOrEqual(40);
    expect(top(index, `create calendar event ${words}`)).toBe('calendar__create-event');
  });
});

describe('PlainBm25Index (baseline)', () => {
  it('matches whitespace tokens only: no stemming, no synonyms, no name splitting', () => {
    const plain = new PlainBm25Index();
    for (const d of CATALOG) plain.upsert(d);
    expect(top(plain, 'Slack channel')).toMatch(/^slack__/);
    expect(plain.search('bug')).toEqual([]);
    expect(plain.search('directions')[0]?.key).toBe('maps__maps_directions');
    expect(plain.search('direction')).toEqual([]);
    expect(plain.remove('maps__maps_directions')).toBe(true);
    expect(plain.search('directions')).toEqual([]);
  });
});
