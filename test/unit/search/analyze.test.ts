import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeName, analyzeText, isStopWord } from '../../../src/search/analyze.js';
import { expansions } from '../../../src/search/synonyms.js';
import { queryShape } from '../../../src/search/hints.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { realCatalogIndex } from './real-catalog.js';

describe('analyzeText', () => {
  it('drops stop words and conversational filler, and stems English words', () => {
    expect(analyzeText('Could you please create the issues for me?')).toEqual(['creat', 'issu']);
    expect(analyzeText("what's on my calendar tomorrow")).toEqual(['calendar', 'tomorrow']);
  });

  it('keeps the verbs and quantifiers tool names are made of', () => {
    expect(analyzeText('get all new')).toEqual(['get', 'all', 'new']);
    for (const w of ['get', 'all', 'make', 'up']) expect(isStopWord(w)).toBe(false);
  });

  it('leaves words of other scripts unstemmed', () => {
    expect(analyzeText('Создать задачу')).toEqual(['создать', 'задачу']);
    expect(analyzeText('文件')).toEqual(['文件']);
  });

  it('gives a query word and a document word the same term when they share a stem', () => {
    expect(analyzeText('deleting repositories')).toEqual(analyzeText('delete repository'));
    expect(analyzeName('listPullRequests')).toEqual(analyzeText('list pull requests'));
    expect(analyzeText('who sent the messages I wrote')).toEqual(analyzeText('send message write'));
  });

  it('never throws and never returns an empty term', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (s) => {
        for (const t of analyzeText(s)) expect(t.length).toBeGreaterThan(0);
      }),
    );
  });

  it('returns a fresh array from analyzeName (the cache is not exposed)', () => {
    const a = analyzeName('create_issue');
    a.push('x');
    expect(analyzeName('create_issue')).toEqual(['creat', 'issu']);
  });
});

describe('synonym groups', () => {
  it('are symmetric and never map a term to itself', () => {
    for (const t of ['find', 'delet', 'issu', 'repo', 'email']) {
      const ex = expansions(t);
      expect(ex.size).toBeGreaterThan(0);
      expect(ex.has(t)).toBe(false);
      for (const other of ex.keys()) expect(expansions(other).has(t)).toBe(true);
    }
  });

  it('relate the everyday words to the ones tools use', () => {
    expect(expansions('bug').has('issu')).toBe(true);
    expect(expansions('remov').has('delet')).toBe(true);
    expect(expansions('folder').has('directori')).toBe(true);
    expect(expansions('zzzz').size).toBe(0);
  });
});

describe('queryShape', () => {
  it('replaces URLs and file names by what they stand for', () => {
    const s = queryShape('open example.com and read config.yaml');
    expect(s.text).not.toMatch(/example|config/);
    expect(s.hints.map((h) => h.words)).toEqual(expect.arrayContaining(['url page website', 'file']));
  });

  it('reads who / how many / which as people, counts and lists', () => {
    expect(queryShape('who is on the team').hints.map((h) => h.words)).toContain('user member people');
    expect(queryShape('how many users signed up').hints.map((h) => h.words)).toContain('count total number');
    expect(queryShape('which repos have I starred').hints.map((h) => h.words)).toContain('list all');
  });

  it('rewrites phrasal verbs to the word tools use', () => {
    expect(queryShape('who am I logged in as').text).toMatch(/login/);
    expect(queryShape('roll back the deploy').text).toMatch(/rollback/);
  });

  it('reads set phrases only outside values (round 13): "/login" in a URL is not logging in', () => {
    expect(queryShape('go to https://staging.acme.io/login').text).not.toMatch(/login|authenticated/);
    expect(queryShape('open docs/signup.md').text).not.toMatch(/signup|register/);
    expect(queryShape('post in #sign-up that the form is fixed').text).not.toMatch(/signup|register/);
    expect(queryShape('log in to staging.acme.io').text).toMatch(/login/);
  });

  it('leaves a plain query alone', () => {
    expect(queryShape('create an issue')).toEqual({ text: 'create an issue', hints: [] });
  });
});

describe('words the stemmer would join to another meaning (round 13)', () => {
  it('keeps "news" apart from "new", and a customer apart from custom', () => {
    expect(analyzeText('latest news')).toEqual(['latest', 'news']);
    expect(analyzeText('a new page')).toEqual(['new', 'page']);
    expect(analyzeText('customers customer custom')).toEqual(['customer', 'customer', 'custom']);
  });

  it('does not take customs holds or custom fields for customers', () => {
    const tool = (name: string, description: string): ToolDoc => ({ key: `tracker__${name}`, server: 'tracker', name, description });
    const index = new ToolSearchIndex();
    for (const d of [
      tool('getCustomFields', 'Get the custom field definitions available in the workspace.'),
      tool('getIssueCustomFields', 'Get the custom field values that are currently set on a specific issue.'),
      tool('updateIssueCustomField', 'Set or clear a custom field value on an issue.'),
      tool('getUsers', 'Get a list of users in the organization.'),
      tool('getCustomers', 'Get the companies that buy from us.'),
    ]) index.upsert(d);
    index.upsert({ key: 'cargo__list_customs_hold_for_site', server: 'cargo', name: 'list_customs_hold_for_site', description: 'List customs holds for a site.' });
    index.upsert({ key: 'cargo__archive_customs_hold', server: 'cargo', name: 'archive_customs_hold', description: 'Archive a customs hold.' });
    expect(index.search('which customers asked for SSO')[0]?.key).toBe('tracker__getCustomers');
    expect(index.search('which custom fields are there')[0]?.key).toBe('tracker__getCustomFields');
  });

  it('finds news with the web search, not the tools that make new things', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    for (const d of [
      tool('web', 'web_search', 'Performs a web search, ideal for general queries, news, articles, and online content.'),
      tool('code', 'create_pull_request', 'Create a new pull request in a repository.'),
      tool('code', 'create_branch', 'Create a new branch in a repository.'),
    ]) index.upsert(d);
    expect(index.search('latest news about the Mars mission')[0]?.key).toBe('web__web_search');
  });
});

describe('a day of the week (round 13)', () => {
  const props = (...names: string[]): object => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) });
  const tool = (server: string, name: string, description: string, inputSchema: object): ToolDoc => ({ key: `${server}__${name}`, server, name, description, inputSchema });
  const docs = [
    tool('calendar', 'delete-event', 'Delete a calendar event.', props('calendarId', 'eventId', 'sendUpdates')),
    tool('calendar', 'list-events', 'List events from one or more calendars. Supports both calendar IDs and calendar names.', props('calendarId', 'timeMin', 'timeMax')),
    tool('calendar', 'create-event', 'Create a new calendar event.', props('calendarId', 'summary', 'start', 'end', 'attendees')),
    tool('calendar', 'update-event', 'Update an existing calendar event.', props('calendarId', 'eventId', 'start', 'end')),
    tool('terminal', 'force_terminate', 'Force terminate a running terminal session. This command can be referenced as "DC: ..." in your instructions.', props('pid')),
    tool('terminal', 'kill_process', 'Terminate a running process by PID. Use with caution as this will forcefully terminate the specified process.', props('pid')),
    tool('terminal', 'stop_search', 'Stop an active search. Stops the background search process gracefully.', props('sessionId')),
    tool('tasks', 'get_tasks', 'Get tasks from the todo list.', props('filter')),
  ];
  const index = new ToolSearchIndex();
  for (const d of docs) index.upsert(d);

  it('says the request is about the calendar', () => {
    expect(queryShape("cancel friday's demo").hints.map((h) => h.words)).toContain('event calendar');
    expect(queryShape('what do I have this weekend').hints.map((h) => h.words)).toContain('event calendar');
    expect(queryShape('meeting moved to 4pm').hints.map((h) => h.words)).not.toContain('event calendar');
  });

  it('finds the weekend\'s events, which no tool words name', () => {
    expect(index.search('what do I have this weekend')[0]?.key).toBe('calendar__list-events');
  });
});

describe('a command in backticks (round 13)', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const index = new ToolSearchIndex();
  for (const d of [
    tool('terminal', 'start_process', 'Start a terminal process on the device with intelligent state detection. Runs a shell command.'),
    tool('terminal', 'list_processes', 'List all running processes.'),
    tool('cluster', 'pods_run', 'Run a Kubernetes Pod with the provided container image.'),
    tool('ci', 'run_pipeline', 'Triggers a new pipeline and returns the URL to monitor its progress.'),
    tool('ci', 'rerun_workflow', 'Rerun a workflow from start or from the failed job.'),
  ]) index.upsert(d);

  it('reads it as a command', () => {
    expect(queryShape('run `df -h`').hints.map((h) => h.words)).toContain('command terminal process');
  });

  it('runs it in a terminal', () => {
    expect(index.search('run `df -h`')[0]?.key).toBe('terminal__start_process');
  });
});

describe('a standing watch (round 13)', () => {
  const index = realCatalogIndex();

  it('reads "let me know when …" as a watch to set up', () => {
    expect(queryShape('let me know whenever the pricing page changes').hints.map((h) => h.words)).toContain('monitor watch');
    expect(queryShape('let me know which keys match user:*').hints.map((h) => h.words)).not.toContain('monitor watch');
  });

  it('sets up a monitor rather than changing a page', () => {
    expect(index.search('let me know whenever the pricing page on competitor.com changes')[0]?.key).toBe('firecrawl__firecrawl_monitor_create');
  });
});

describe('the text of a thing (round 13)', () => {
  const index = realCatalogIndex();
  const rank = (q: string, gold: string[]): number => index.search(q).findIndex((h) => gold.includes(h.key)) + 1;

  it('reads "the text of …" as the thing\'s content', () => {
    expect(queryShape('pull the text off this article url').hints.map((h) => h.words)).toContain('content read');
    expect(queryShape('type the text into the box').hints.map((h) => h.words)).not.toContain('content read');
  });

  it('fetches the page\'s content', () => {
    const r = rank('get me the text of https://example.com/blog/post-1', ['exa__web_fetch_exa', 'firecrawl__firecrawl_scrape']);
    expect(r).toBeGreaterThan(0);
    expect(r).toBeLessThanOrEqual(5);
  });
});

describe('how a thing is going (round 13)', () => {
  const index = realCatalogIndex();

  it('reads "how\'s X going" as its progress', () => {
    expect(queryShape("how's the sprint going, % done").hints.map((h) => h.words)).toContain('progress statistics');
    expect(queryShape('how do I get to the airport').hints.map((h) => h.words)).not.toContain('progress statistics');
  });

  it('finds the cycle\'s statistics', () => {
    expect(index.search("how's the sprint going, % done")[0]?.key).toBe('linear__linear_getCycleStats');
  });
});

describe('blocking time (round 13)', () => {
  const index = realCatalogIndex();
  const rank = (q: string, key: string): number => index.search(q).findIndex((h) => h.key === key) + 1;

  it('reads "block 2h" as time on the calendar, and a block of a page or a user as no time', () => {
    expect(queryShape('block 2h friday morning for planning').hints.map((h) => h.words)).toContain('event calendar schedule');
    // "block out" is a workplace phrasal verb (work-phrases.ts): rewritten to the calendar's words before the shapes are read.
    expect(queryShape('block out three focus sessions next week').text).toMatch(/\bschedule event\b/);
    expect(queryShape('delete the second block of the page').hints.map((h) => h.words)).not.toContain('event calendar schedule');
    expect(queryShape('block that user from the channel').hints.map((h) => h.words)).not.toContain('event calendar schedule');
  });

  it('puts the event on the calendar', () => {
    for (const q of ['block 2h friday morning for planning', 'block out three focus sessions next week']) {
      const r = rank(q, 'google-calendar__create-event');
      expect(r).toBeGreaterThan(0);
      expect(r).toBeLessThanOrEqual(5);
    }
  });
});
