// Situations people describe instead of operations (round 16g): a break-in, a bill too high, too much noise,
// something done by mistake. world.ts maps the everyday word for the situation to the tools' words for what
// addresses it.

import { describe, expect, it } from 'vitest';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { worldExpansions } from '../../../src/search/world.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('tracker', 'logoutAllSessions', 'Revoke all sessions.'),
  tool('tracker', 'getUsers', 'List the users of the organization.'),
  tool('ci', 'find_underused_resource_classes', 'Find resource classes whose CPU and RAM usage is below a threshold.'),
  tool('ci', 'run_pipeline', 'Run a pipeline for a project.'),
  tool('code', 'manage_repository_notification_subscription', 'Ignore, watch or delete the notification subscription of a repository.'),
  tool('code', 'list_commits', 'List the commits of a repository.'),
  tool('todo', 'reopen_tasks', 'Reopen tasks.'),
  tool('todo', 'update_tasks', 'Update tasks.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;

describe('situations read as the operation that addresses them', () => {
  it('maps the situation word to the tools’ words, one way', () => {
    expect(worldExpansions('hack').has('revok')).toBe(true);
    expect(worldExpansions('revok').has('hack')).toBe(false);
  });

  it('finds the tool from the situation alone', () => {
    expect(top('my tracker account was hacked')).toBe('tracker__logoutAllSessions');
    expect(top('we are overpaying for ci machines')).toBe('ci__find_underused_resource_classes');
    expect(top('mute the repository acme/legacy')).toBe('code__manage_repository_notification_subscription');
    expect(top('undo the task I marked done by accident')).toBe('todo__reopen_tasks');
  });
});
