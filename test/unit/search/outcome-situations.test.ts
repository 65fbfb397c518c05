// Situations whose words mean something else read alone (round 16g): "my laptop is crawling" is slowness, not a
// web crawl; "stop pinging me" unsubscribes, it neither sends a message nor stops a job.

import { describe, expect, it } from 'vitest';
import { outcomes } from '../../../src/search/outcomes.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('shell', 'list_processes', 'List all running processes, with their CPU and memory usage.'),
  tool('web', 'crawl', 'Crawl a website and return the content of its pages.'),
  tool('tracker', 'logoutAllSessions', 'Revoke all sessions.'),
  tool('tracker', 'getUsers', 'List the users of the organization.'),
  tool('tracker', 'addUserToTeam', 'Add a user to a team.'),
  tool('code', 'list_secret_scanning_alerts', 'List secret scanning alerts in a repository.'),
  tool('code', 'list_commits', 'List the commits of a repository.'),
  tool('code', 'manage_repository_notification_subscription', 'Ignore, watch or delete the notification subscription of a repository.'),
  tool('chat', 'send_message', 'Send a message to a user or a channel.'),
  tool('shell', 'stop_search', 'Stop a running search.'),
  tool('hosting', 'project-services-updater', 'Update a project: visitor access controls (password protection), forms, env vars.'),
  tool('hosting', 'deploy-site', 'Deploy the site.'),
  tool('code', 'list_repository_collaborators', 'List the collaborators of a repository, with their permissions.'),
  tool('code', 'push_files', 'Push several files to a repository in one commit.'),
  tool('todo', 'reopen_tasks', 'Reopen tasks.'),
  tool('todo', 'get_completed_tasks', 'Get the completed tasks, by completion date.'),
  tool('files', 'get_file_info', 'Get information about a file: size, created and modified times.'),
  tool('ci', 'download_usage_api_data', 'Download usage data: compute credits and resource usage of jobs.'),
  tool('ci', 'rerun_workflow', 'Rerun a workflow.'),
  tool('db', 'create-index', 'Create an index on a collection, optionally unique.'),
  tool('mail', 'send_email', 'Send an email.'),
  tool('tracker', 'getRateLimitStatus', 'Get the rate limit status of the API.'),
  tool('todo', 'close_tasks', 'Complete tasks.'),
  tool('db', 'explain', 'Returns statistics describing the execution of the plan chosen by the query optimizer.'),
  tool('db', 'aggregate', 'Run an aggregation pipeline against a collection.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;

describe('situations read by their construction', () => {
  it('reads a machine that drags, and what eats its CPU, as its processes', () => {
    expect(top('my laptop is crawling, what is going on')).toBe('shell__list_processes');
    expect(top("what's eating all my memory")).toBe('shell__list_processes');
    expect(top('crawl the docs site')).toBe('web__crawl');
  });

  it('reads a query that takes forever as slowness to explain', () => {
    expect(top('this query on orders takes forever, why')).toBe('db__explain');
    expect(outcomes('the export is taking ages')).toContain('slow performance');
  });

  it('reads a break-in as sessions to revoke', () => {
    expect(top('someone got into my tracker account')).toBe('tracker__logoutAllSessions');
    expect(top('kick every other device off')).toBe('tracker__logoutAllSessions');
  });

  it('reads a committed key as secret scanning', () => {
    expect(top('did anyone commit an API key to acme/api')).toBe('code__list_secret_scanning_alerts');
  });

  it('reads "stop pinging me" as the notification subscription', () => {
    expect(top('stop pinging me about acme/legacy')).toBe('code__manage_repository_notification_subscription');
  });

  it('reads a password put on a site as its access protection', () => {
    expect(top('put a password on the staging site')).toBe('hosting__project-services-updater');
  });

  it('reads "I did not actually finish it" as a reopening', () => {
    expect(top("I didn't actually finish the tax task")).toBe('todo__reopen_tasks');
    expect(top('put it back on my list')).toBe('todo__reopen_tasks');
    expect(outcomes('which tasks did I not finish')).toBe('which tasks did I not finish');
  });

  it('reads "who has push access" as the collaborators, not a push', () => {
    expect(top('who has push access to acme/api')).toBe('code__list_repository_collaborators');
    expect(top('who can see the acme/api repository')).toBe('code__list_repository_collaborators');
  });

  it('reads a hot machine, a bill, a repository to stop watching and a rule against duplicates', () => {
    expect(top("my laptop fan is going crazy, what's hogging it")).toBe('shell__list_processes');
    expect(top('how much are we paying for ci compute')).toBe('ci__download_usage_api_data');
    expect(top('stop watching acme/legacy')).toBe('code__manage_repository_notification_subscription');
    expect(top("make sure the users collection can't get duplicate emails")).toBe('db__create-index');
    expect(top('are we about to get throttled by the tracker api')).toBe('tracker__getRateLimitStatus');
  });

  it('reads what I got done as the completed tasks, and "done with X" as completing it', () => {
    expect(top('what did I get done last week?')).toBe('todo__get_completed_tasks');
    expect(top('what did we finish this week')).toBe('todo__get_completed_tasks');
    expect(top('done with pay rent')).toBe('todo__close_tasks');
  });
});
