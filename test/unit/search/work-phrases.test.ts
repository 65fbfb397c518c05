// Workplace phrasal verbs in their software sense (round 16f): "pull up ticket MOB-15" opens the issue,
// "tick off 'call the dentist'" completes the task; read word by word they found pull requests and calls.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WORK_PHRASE_RULES, workPhrases } from '../../../src/search/work-phrases.js';
import { rewrite } from '../../../src/search/rewrites.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('tracker', 'get_issue', 'Get the details of an issue by its identifier.'),
  tool('tracker', 'create_comment', 'Create a comment on an issue.'),
  tool('tracker', 'list_pull_requests', 'List pull requests in a repository.'),
  tool('tracker', 'get_pull_request', 'Get the details of a pull request by its number.'),
  tool('notes', 'create_note', 'Create a new note in a notebook.'),
  tool('speech', 'say_text', 'Say the given text aloud.'),
  tool('repo', 'pull_changes', 'Pull the latest changes from the remote into the local branch.'),
  tool('repo', 'push_files', 'Push files to a branch of a repository in a single commit.'),
  tool('todo', 'create_task', 'Create a new task.'),
  tool('todo', 'close_task', 'Close a task, marking it complete.'),
  tool('todo', 'reopen_task', 'Reopen a completed task.'),
  tool('crm', 'create_call', 'Log a call with a contact.'),
  tool('calendar', 'create_event', 'Create a calendar event.'),
  tool('calendar', 'respond_to_event', 'Respond to an event invitation: accept, decline or tentative.'),
  tool('cluster', 'pods_run', 'Run a new pod from a container image.'),
  tool('cluster', 'pods_delete', 'Delete a pod.'),
  tool('cluster', 'pods_log', 'Get the logs of a pod.'),
  tool('cluster', 'nodes_log', 'Get the logs of a node.'),
  tool('fs', 'move_file', 'Move or rename a file to a new path.'),
  tool('auth', 'login', 'Log in to an account.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;

describe('workplace phrasal verbs', () => {
  it('reads pulling up a thing as opening it', () => {
    expect(top('pull up ticket MOB-15 for me')).toBe('tracker__get_issue');
    expect(workPhrases('bring it up')).toMatch(/\bopen\b/);
  });

  it('reads ticking off an item as completing it', () => {
    expect(top('tick off "call the dentist"')).toBe('todo__close_task');
    expect(top('cross off buy milk')).toBe('todo__close_task');
  });

  it('reads putting an item back as restoring it', () => {
    expect(top('I didn\'t finish "file taxes", put it back on my list')).toBe('todo__reopen_task');
  });

  it('reads leaving a note on an issue as a comment', () => {
    expect(top('leave a note on ENG-45 saying the fix is live')).toBe('tracker__create_comment');
  });

  it('reads saying yes to an invite as answering it', () => {
    expect(top('say yes to the design review invite')).toBe('calendar__respond_to_event');
  });

  it('reads spinning up and tearing down as creating and deleting', () => {
    expect(top('spin up a busybox pod to debug dns')).toBe('cluster__pods_run');
    expect(top('tear down the busybox pod')).toBe('cluster__pods_delete');
  });

  it('holds a short pronoun between verb and particle', () => {
    expect(workPhrases('tick it off')).toMatch(/\bcomplete\b/);
    expect(workPhrases('kick them out of the channel')).toMatch(/\bremove\b/);
  });

  it('keeps the literal verbs where no particle makes them phrasal', () => {
    expect(top('pull the latest changes')).toBe('repo__pull_changes');
    expect(top('push the files to main')).toBe('repo__push_files');
    expect(top('put the file in /tmp')).toBe('fs__move_file');
    expect(top('log a call with Jane')).toBe('crm__create_call');
  });

  it('keeps a node\'s logs apart from logging on', () => {
    expect(workPhrases('kubelet logs on node-3')).not.toMatch(/login/);
    expect(workPhrases('log on to the vpn')).toMatch(/\blogin\b/);
  });
});

describe('running only the rules whose verb a request says', () => {
  it('rewrites exactly as every rule run in order would', () => {
    const ungated = (text: string): string => rewrite(text, WORK_PHRASE_RULES);
    // Words of the table's verbs, particles, held pronouns and meanings, in any case, with filler and punctuation.
    const words = [...new Set(WORK_PHRASE_RULES.flatMap(([re, m]) => [...re.source.matchAll(/[a-z]{2,}/g)].map((x) => x[0]).concat(m.trim().split(' '))))];
    const word = fc.oneof(fc.constantFrom(...words), fc.constantFrom('the', 'ticket', 'a', 'ENG-12', ',', '.', 'Up', 'OFF', 'Pull'));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (ws) => {
        const text = ws.join(' ');
        expect(workPhrases(text)).toBe(ungated(text));
      }),
      { numRuns: 2000 },
    );
  });
});
