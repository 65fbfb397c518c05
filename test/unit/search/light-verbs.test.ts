// Light verbs whose object says the action (round 14): "give ENG-99 to Priya" assigns the issue,
// "log a call with Jane" records an activity; read literally they found give_feedback and pod logs.

import { describe, expect, it } from 'vitest';
import { lightVerbs } from '../../../src/search/light-verbs.js';
import { queryShape } from '../../../src/search/hints.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('tracker', 'assign_issue', 'Assign an issue to a user.'),
  tool('tracker', 'update_issue', 'Update the title, description or state of an issue.'),
  tool('tracker', 'get_issue', 'Get an issue by its identifier.'),
  tool('tracker', 'transfer_issue', 'Move an issue to another team.'),
  tool('assistant', 'give_feedback', 'Give feedback to the developers of this assistant.'),
  tool('browser', 'mouse_move', 'Move the mouse to a given position on the page.'),
  tool('crm', 'create_engagement', 'Create an engagement (a call, meeting or note) associated with contacts or deals.'),
  tool('crm', 'search_contacts', 'Search contacts by name or email.'),
  tool('cluster', 'pods_log', 'Get the logs of a pod.'),
  tool('db', 'mongodb_logs', 'Show the most recent log entries of the database server.'),
  tool('cluster', 'nodes_log', 'Get the logs of a node.'),
  tool('tracker', 'subscribe_to_issue', 'Subscribe to an issue to receive notifications about it.'),
  tool('web', 'monitor_create', 'Create a monitor that watches a page and reports changes.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;
const top5 = (q: string): string[] => index.search(q, { limit: 5 }).map((h) => h.key);

describe('light verbs read by their object', () => {
  it('reads a thing given to one person as assigned to them', () => {
    expect(top('give ENG-99 to Priya')).toBe('tracker__assign_issue');
    expect(top('hand the login bug over to sam')).toBe('tracker__assign_issue');
    expect(lightVerbs('give issue 50 to copilot so it fixes it')).toMatch(/\bassign\b.*\bcopilot\b/);
  });

  it('leaves giving to me, to a team, or a thing with no receiver alone', () => {
    expect(lightVerbs('give me a link to open that contact')).not.toMatch(/assign/);
    expect(lightVerbs('hand ENG-88 over to the Platform team')).not.toMatch(/assign/);
    expect(lightVerbs('give feedback about the search')).not.toMatch(/assign/);
  });

  it('reads logging an occurrence as recording it', () => {
    expect(top5('log a call with Jane Roe, 20 min, interested in pricing')).toContain('crm__create_engagement');
    expect(top('please log the meeting with Acme')).toBe('crm__create_engagement');
  });

  it('leaves the logs themselves alone', () => {
    expect(lightVerbs('show the pod logs')).toBe('show the pod logs');
    expect(lightVerbs('tail the log of the api pod')).toBe('tail the log of the api pod');
    expect(top('logs of the web pod')).toBe('cluster__pods_log');
  });

  it('reads following a thing for its updates as subscribing to it', () => {
    expect(top('I want to follow the ticket ENG-12 for receive the updates')).toBe('tracker__subscribe_to_issue');
    expect(top('watch ENG-7 so I get the updates')).toBe('tracker__subscribe_to_issue');
  });

  it('leaves a follow-up, and watching a page for changes, alone', () => {
    expect(lightVerbs('draft a follow-up to Jane for the updates')).not.toMatch(/subscribe/);
    expect(lightVerbs('watch the pricing page for changes')).not.toMatch(/subscribe/);
  });
});

describe('a person put on a work item (round 16)', () => {
  const http = new ToolSearchIndex();
  for (const d of [
    tool('tracker', 'assign_issue', 'Assign an issue to a user.'),
    tool('tracker', 'add_issue_comment', 'Add a comment to an issue.'),
    tool('tracker', 'get_issue', 'Get an issue by its identifier.'),
    tool('jira', 'jira_put', 'Send a PUT request to the Jira API.'),
  ]) http.upsert(d);

  it('is assigned to it, whatever the verb says', () => {
    for (const q of ['put @kmiller on issue 230', 'stick Priya on ENG-99', 'add @sam onto the ticket']) expect(http.search(q)[0]?.key).toBe('tracker__assign_issue');
  });

  it('needs a person and a work item', () => {
    expect(queryShape('put the file on the shared drive').text).not.toMatch(/assign/);
    expect(queryShape('add Sam on the call').text).not.toMatch(/assign/);
    expect(queryShape('put a comment on issue 230').text).not.toMatch(/assign/);
  });
});
