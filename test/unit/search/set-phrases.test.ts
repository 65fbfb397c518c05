// "log in" and "sign in" are rewritten to the act of authenticating, except where a determiner makes
// them a thing (round 14): "type my email into the login box" is typing in a field, not logging in.

import { describe, expect, it } from 'vitest';
import { queryShape } from '../../../src/search/hints.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });

describe('log in / sign in as an act or a thing', () => {
  it('rewrites the act', () => {
    expect(queryShape('log into the staging site').text).toMatch(/\blogin authenticated account\b/);
    expect(queryShape('go to the site and sign in').text).toMatch(/\blogin authenticated account\b/);
  });

  it('leaves the thing a determiner names', () => {
    expect(queryShape('type my email into the login box').text).not.toMatch(/authenticated/);
    expect(queryShape('fill the sign in form').text).not.toMatch(/authenticated/);
  });

  it('ranks typing into the login box above the accounts', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('browser', 'browser_type', 'Type text into an editable element of the page.'),
      tool('browser', 'browser_click', 'Click an element of the page.'),
      tool('calendar', 'manage_accounts', 'Manage the Google accounts: add, list or remove an authenticated account.'),
      tool('tracker', 'get_sessions', 'List the authentication sessions of the login user.'),
    ]) index.upsert(d);
    expect(index.search('type my email into the login box')[0]?.key).toBe('browser__browser_type');
  });
});
