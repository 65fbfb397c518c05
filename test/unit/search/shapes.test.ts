// Request shapes of round 10: a directory path, a key pressed, numbers joined by arithmetic, a
// tracker's issue key. Each adds its concept and leaves the request's other words; none fires
// inside a word, and the reader never throws, whatever the text.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { queryShape } from '../../../src/search/hints.js';
import { SHAPES, SLASH_NAMES } from '../../../src/search/shapes.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const hintsOf = (q: string): string[] => queryShape(q).hints.map((h) => h.words);
const DIRECTORY = 'directory folder';
const KEY = 'press key keyboard';
const SUM = 'sum calculate';
const ISSUE = 'issue';

describe('directory paths', () => {
  it('reads home, relative, absolute and Windows paths without an extension as a directory', () => {
    for (const q of ['whats inside ~/Desktop', 'tail the files under /var/log', 'list ./src/', 'what is in C:\\Users\\me\\Documents']) {
      expect(hintsOf(q)).toContain(DIRECTORY);
    }
    expect(queryShape('whats inside ~/Desktop').text).not.toMatch(/Desktop/);
  });

  it('leaves a file path to the file rule, and slashes between words alone', () => {
    expect(hintsOf('open ~/Desktop/notes.txt')).toEqual(['file']);
    expect(hintsOf('cat /etc/app/config.yaml')).toEqual(['file']);
    expect(hintsOf('read and/or write')).toEqual([]);
    expect(hintsOf('due 12/25')).toEqual([]);
  });
});

describe('keys', () => {
  it('reads a key name after press, hit or tap, and a modifier combination', () => {
    for (const q of ['hit enter', 'press the escape key', 'tap tab twice', 'press ctrl+s', 'hit the down arrow']) expect(hintsOf(q)).toContain(KEY);
    expect(queryShape('hit enter').text.trim()).toBe('');
  });

  it('needs the verb and the key name', () => {
    expect(hintsOf('enter the office')).toEqual([]);
    expect(hintsOf('the press release')).toEqual([]);
    expect(hintsOf('hit the gym')).toEqual([]);
  });
});

describe('arithmetic', () => {
  it('reads numbers joined by an arithmetic word or sign, or an arithmetic verb on two numbers', () => {
    for (const q of ['add 17 and 25 together', 'what is 3 times 4', '12.5 + 7', 'sum of 4, 5 and 6', 'multiply 6 by 7']) expect(hintsOf(q)).toContain(SUM);
    // "add" names the sum here, not a write: it goes with the numbers.
    expect(queryShape('add 17 and 25 together').text).not.toMatch(/add/);
  });

  it('leaves numbers that are not being computed alone', () => {
    expect(hintsOf('add 3 reviewers to the PR')).toEqual([]);
    expect(hintsOf('issues 10-20')).toEqual([]);
    expect(hintsOf('the meeting on 11/23')).toEqual([]);
    expect(hintsOf('set replicas to 5')).toEqual([]);
  });
});

describe('issue keys', () => {
  it('reads capitals, a dash and a number as an issue', () => {
    expect(hintsOf('record that ENG-7 blocks ENG-9')).toEqual([ISSUE]);
    expect(hintsOf('what changed on LIN-42')).toEqual([ISSUE]);
  });

  it('is case-sensitive and stays out of longer tokens', () => {
    expect(hintsOf('the eng-7 build')).toEqual([]);
    expect(hintsOf('see ENG-7b')).toEqual([]);
    expect(hintsOf('v2-ENG-7')).toEqual([]);
  });
});

describe('channels', () => {
  it('are names after #, not numbers: "#77" is an issue or pull request (values.ts reads it)', () => {
    expect(hintsOf('ping #eng')).toEqual(['channel']);
    expect(hintsOf('approve pr #77')).toEqual([]);
  });
});

describe('shape readers, whatever the text', () => {
  const examples: Record<string, string> = { directory: '~/Desktop', key: 'hit enter', arithmetic: 'add 17 and 25', issueKey: 'ENG-7', sql: 'select count(*) from users', coordinates: '48.8584, 2.2945' };

  it('never throw, and only ever add known hints', () => {
    const known = new Set([
      'email address', 'url page website', 'file', 'channel', 'user', ...SHAPES.map((s) => s.hint.words), ...SLASH_NAMES.map((s) => s.hint.words),
      'user member people', 'collaborator member', 'time date', 'find search location', 'count total number', 'list all', 'send message notify',
    ]);
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const s = queryShape(text);
        for (const h of s.hints) expect(known.has(h.words)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never match glued to the end of a word', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), fc.stringMatching(/^[a-z0-9]{1,8}$/), (shape, word) => {
        expect(hintsOf(`${word}${examples[shape.name]!}`)).not.toContain(shape.hint.words);
      }),
      { numRuns: 400 },
    );
  });

  it('finish on long repetitive input', () => {
    for (const unit of ['a.b.', ' x.y.z', 'ab/cd', 'ab/', 'feature/x.', 'src/a/', '1 + ', 'A-', '/a', '~/', 'press ', 'add 1 and ', '9.9.', 'C:\\a', 'push to ', 'who is on ', '10:30 ', 'select a, ', 'select * from t where '.padEnd(30, 'x ')]) {
      expect(() => queryShape(unit.repeat(250))).not.toThrow();
    }
  });
});

describe('ToolSearchIndex and request shapes', () => {
  const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
  const index = new ToolSearchIndex();
  for (const d of [
    tool('files', 'list_directory', 'List the entries of a directory.'),
    tool('files', 'read_file', 'Read a file from disk.'),
    tool('desktop', 'start_search', 'Start a text search in the files on the desktop.'),
    tool('browser', 'press_key', 'Press a key on the keyboard.'),
    tool('browser', 'type', 'Type text into an editable element.'),
    tool('demo', 'get_sum', 'Returns the sum of two numbers.'),
    tool('memory', 'add_observations', 'Add observations to entities.'),
    tool('tracker', 'create_issue_relation', 'Create a relation between two issues: blocks, duplicates, related.'),
    tool('docs', 'update_block', 'Update a block of a page.'),
  ]) index.upsert(d);
  const top = (q: string): string | undefined => index.search(q)[0]?.key;

  it('answers a request by what its shape says', () => {
    expect(top('whats inside ~/Desktop')).toBe('files__list_directory');
    expect(top('hit enter')).toBe('browser__press_key');
    expect(top('add 17 and 25 together')).toBe('demo__get_sum');
    expect(top('record that ENG-7 blocks ENG-9')).toBe('tracker__create_issue_relation');
  });
});

describe('times of day (round 12)', () => {
  it('are values: "pm" and "am" after a number say nothing about the tool', () => {
    for (const q of ['move it to 4pm', 'at 2 PM friday', 'book 10:30am with dana', 'by 9 a.m. tomorrow']) {
      const text = queryShape(q).text.toLowerCase();
      expect(text).not.toMatch(/\b[ap]m\b|\d[ap]m|[ap]\.m\./);
    }
  });

  it('leave "pm" and "am" that follow no number alone', () => {
    expect(queryShape('send a pm to dana').text).toContain(' pm ');
    expect(queryShape('I am late').text).toContain(' am ');
  });

  it('do not read a meeting time as a private message', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('chat', 'send_message', 'Send a message to a person.'));
    index.upsert(tool('calendar', 'create_event', 'Create a calendar event.'));
    expect(index.search('book 30 min with dana friday 2pm').map((h) => h.key)).not.toContain('chat__send_message');
    expect(index.search('lunch with dana at 1pm').map((h) => h.key)).toEqual(['calendar__create_event']);
  });
});

describe('SQL statements (round 12)', () => {
  const SQL = 'sql query database';
  it('are values: the statement is taken out and says a SQL query tool', () => {
    for (const q of ['select count(*) from users where created_at > now()', 'run this: SELECT id, email FROM users', 'select name from users where plan = 1', 'insert into logs values (1)', "update users set plan = 'free'", 'delete from sessions where age > 30']) {
      const s = queryShape(q);
      expect(s.hints.map((h) => h.words)).toContain(SQL);
      expect(s.text.toLowerCase()).not.toMatch(/\bfrom\b|\binto\b|\bset\b/);
    }
  });

  it('leave a choice from a dropdown alone', () => {
    for (const q of ['select the XL option from the dropdown', 'select Canada from the country list', 'update the settings of the repo']) {
      expect(hintsOf(q)).not.toContain(SQL);
    }
  });

  it('rank the SQL tool above the tools named by the statement\'s words', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('postgres', 'query', 'Run a read-only SQL query.'));
    index.upsert(tool('mongo', 'count', 'Count the documents of a collection.'));
    index.upsert(tool('people', 'list_users', 'List the users.'));
    expect(index.search('select count(*) from users where created_at > now()')[0]?.key).toBe('postgres__query');
  });
});

describe('namespaced keys (round 15)', () => {
  const KEY_HINT = 'key';
  it('are values: names joined by colons are taken out and say a key', () => {
    for (const q of ['flush the cache key user:42:profile', 'get session:abc123', 'which keys start with ratelimit:', 'delete all cache:*']) {
      const s = queryShape(q);
      expect(s.hints.map((h) => h.words)).toContain(KEY_HINT);
      expect(s.text).not.toMatch(/user|profile|session|ratelimit|cache:/);
    }
  });

  it('leave labels, times, URLs and a colon before a value alone', () => {
    for (const q of ['redis: list keys', 'todo: buy milk', 'standup at 10:30', 'open https://example.com/a:b', 'take the content of this web: https://example.de/impressum', 'push to the api repo: src/a.ts']) {
      expect(hintsOf(q)).not.toContain(KEY_HINT);
    }
  });

  it('rank the key tool above the tools the key\'s words name', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('redis', 'delete', 'Delete a Redis key.'));
    index.upsert(tool('redis', 'list', 'List Redis keys matching a pattern.'));
    index.upsert(tool('slack', 'get_user_profile', 'Get the profile of a user.'));
    index.upsert(tool('linear', 'getRateLimitStatus', 'Get the rate limit status of the API.'));
    expect(index.search('flush the cache key user:42:profile')[0]?.key).toBe('redis__delete');
    expect(index.search('which keys start with ratelimit:')[0]?.key).toBe('redis__list');
  });
});

describe('file names listed together (round 15)', () => {
  it('say several files: joined by "and", "&" or a comma, not by "to"', () => {
    for (const q of ['open both index.ts and types.ts', 'I need the Dockerfile and docker-compose.yml contents side by side', 'read package.json, tsconfig.json']) {
      expect(hintsOf(q)).toContain('multiple');
    }
    for (const q of ['rename notes.txt to notes-old.txt', 'open index.ts', 'compare index.ts with the old one']) expect(hintsOf(q)).not.toContain('multiple');
  });

  it('rank reading several files above reading one', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('fs', 'read_file', 'Read the complete contents of a file from the file system.'));
    index.upsert(tool('fs', 'read_multiple_files', 'Read the contents of multiple files simultaneously.'));
    index.upsert(tool('fs', 'write_file', 'Create a new file or overwrite a file.'));
    index.upsert(tool('memory', 'open_nodes', 'Open specific nodes in the knowledge graph by their names.'));
    expect(index.search('open both index.ts and types.ts')[0]?.key).toBe('fs__read_multiple_files');
  });
});

describe('one piece of code put in place of another (round 15)', () => {
  it('is an edit, and the code is taken out', () => {
    for (const q of ['swap `const port = 3000` for `const port = process.env.PORT` in src/index.ts', 'replace `foo()` with `bar()`', 'change `let` to `const` in utils.js']) {
      const s = queryShape(q);
      expect(s.hints.map((h) => h.words)).toContain('edit replace');
      expect(s.text).not.toMatch(/`/);
    }
    expect(hintsOf('run `df -h`')).not.toContain('edit replace');
    expect(hintsOf('replace the battery with a new one')).not.toContain('edit replace');
  });

  it('ranks the file edit above tools named by the code\'s words', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('fs', 'edit_file', 'Make line-based edits to a text file: replace exact text with new text.'));
    index.upsert(tool('fs', 'write_file', 'Create a new file or overwrite a file.'));
    index.upsert(tool('k8s', 'pods_run', 'Run a pod with the given image and port.'));
    index.upsert(tool('env', 'get_env', 'Get the process environment variables.'));
    expect(index.search('swap `const port = 3000` for `const port = process.env.PORT` in src/index.ts')[0]?.key).toBe('fs__edit_file');
  });
});

describe('names joined by a slash', () => {
  it('read a repository, a branch and a project folder as values, their words taken out', () => {
    expect(hintsOf('what shipped in the newest kubernetes/kubernetes release?')).toEqual(['repository']);
    expect(queryShape('what shipped in the newest kubernetes/kubernetes release?').text).not.toMatch(/kubernetes/);
    expect(hintsOf('open a PR from feature/sso into main on acme/api')).toEqual(['branch', 'repository']);
    expect(queryShape('new branch hotfix/login-timeout off main').text).not.toMatch(/login/);
    expect(hintsOf('list src/utils')).toEqual(['directory folder']);
  });

  it('leave prose pairs, units, fractions, dates, paths and URLs to what they are', () => {
    for (const q of ['read and/or write', 'the client/server split', 'at 60 km/h', 'open 24/7', 'due 12/25', 'w/o tests', 'it is 1/2 done']) expect(hintsOf(q)).toEqual([]);
    expect(hintsOf('open ~/Desktop/notes')).toEqual(['directory folder']);
    expect(hintsOf('see https://github.com/acme/api')).toEqual(['url page website']);
    expect(hintsOf('edit src/index.ts')).toEqual(['file']);
  });

  it('rank by what is asked, not by the words of the repository\'s name', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('github', 'get_file_contents', 'Get the contents of a file or directory from a GitHub repository.'));
    index.upsert(tool('github', 'add_reaction', 'Add a reaction (emoji) to an issue comment.'));
    index.upsert(tool('github', 'list_releases', 'List releases in a GitHub repository.'));
    index.upsert(tool('kubernetes', 'pods_list', 'List all the Kubernetes pods in the current cluster.'));
    index.upsert(tool('kubernetes', 'namespaces_list', 'List all the Kubernetes namespaces.'));
    index.upsert(tool('kubernetes', 'helm_releases_list', 'List the Helm releases installed in the Kubernetes cluster.'));
    index.upsert(tool('slack', 'reactions_get', 'Get the emoji reactions to a message: who reacted and how.'));
    expect(index.search("what's in the README of facebook/react")[0]?.key).toBe('github__get_file_contents');
    expect(index.search('what shipped in the newest kubernetes/kubernetes release?')[0]?.key).toBe('github__list_releases');
  });
});

describe('a latitude and longitude', () => {
  it('is a point whose place is asked', () => {
    expect(hintsOf("what's at 48.8584, 2.2945?")).toEqual(['coordinates latitude longitude location']);
    expect(hintsOf('drop a pin at -33.8688,151.2093')).toContain('coordinates latitude longitude location');
    for (const q of ['bump 1.25, 2.30 to latest', 'at 95.1234, 10.1234', 'go to 1.2.3, 4.5.6']) expect(hintsOf(q)).toEqual([]);
  });

  it('reaches the reverse geocoder, where its words alone reach nothing', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('maps', 'maps_reverse_geocode', 'Convert coordinates into an address.'));
    index.upsert(tool('maps', 'maps_geocode', 'Convert an address into geographic coordinates.'));
    index.upsert(tool('maps', 'maps_directions', 'Get directions between two points.'));
    index.upsert(tool('files', 'read_file', 'Read a file.'));
    expect(index.search("what's at 48.8584, 2.2945?").slice(0, 2).map((h) => h.key)).toContain('maps__maps_reverse_geocode');
  });
});

describe('a file name with several dots', () => {
  it('is one file, its words taken out', () => {
    for (const q of ['change the port in next.config.js', 'read docker-compose.override.yml', 'open node.js.md']) {
      const s = queryShape(q);
      expect(s.hints.map((h) => h.words)).toEqual(['file']);
      expect(s.text).not.toMatch(/config|override|node/);
    }
    expect(hintsOf('compare tsconfig.build.json and app.module.ts')).toContain('multiple');
    expect(hintsOf('ship v1.2.3 today')).not.toContain('file');
  });

  it('ranks the file edit above the tools its words name', () => {
    const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
    const index = new ToolSearchIndex();
    index.upsert(tool('fs', 'edit_file', 'Make line-based edits to a text file.'));
    index.upsert(tool('fs', 'read_file', 'Read the complete contents of a file.'));
    index.upsert(tool('desktop', 'get_config', 'Get the complete server configuration.'));
    index.upsert(tool('desktop', 'set_config_value', 'Set a specific configuration value by key.'));
    expect(index.search('change the port in next.config.js')[0]?.key).toBe('fs__edit_file');
  });
});
