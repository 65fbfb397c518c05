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

  it('covers the everyday words of each kind of tool, not only web questions', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('tasks', 'get_tasks_by_filter', 'Get tasks matching a filter, such as a due date.'),
      tool('k8s', 'pods_top', 'List the resource usage (CPU, memory) of pods.'),
      tool('k8s', 'pods_list', 'List pods.'),
      tool('mail', 'create_filter', 'Create a Gmail filter that labels matching messages.'),
      tool('web', 'web_search', 'Search the web.'),
    ]) index.upsert(d);
    expect(index.search('what is overdue this week', { limit: 1 })[0]?.key).toBe('tasks__get_tasks_by_filter');
    expect(index.search('ram utilization of the pods', { limit: 1 })[0]?.key).toBe('k8s__pods_top');
    expect(index.search('add a rule that sorts newsletters away', { limit: 1 })[0]?.key).toBe('mail__create_filter');
  });

  it('reads a box on a page as an input field (round 12)', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('browser', 'browser_type', 'Type text into an editable element.'),
      tool('browser', 'browser_fill_form', 'Fill multiple form fields.'),
      tool('browser', 'browser_click', 'Click an element.'),
      tool('crm', 'search_users', 'Search users by name.'),
      tool('crm', 'update_user_type', 'Change the type of a user.'),
    ]) index.upsert(d);
    expect(worldExpansions('box').has('input')).toBe(true);
    const keys = index.search('type my username in the box').map((h) => h.key);
    // The page's input outranks the user records the other words name.
    expect(keys.indexOf('browser__browser_type')).toBeLessThan(keys.indexOf('crm__search_users'));
  });

  it('reads an automation as a workflow, whatever the product calls its runs (round 16d)', () => {
    expect(worldExpansions('autom').has('workflow')).toBe(true);
    const index = new ToolSearchIndex();
    for (const d of [
      tool('crm', 'list-workflows', 'Retrieve a paginated list of workflows.'),
      tool('crm', 'list-objects', 'List CRM objects of a type, such as contacts or deals.'),
      tool('ci', 'actions_list', 'List runs and jobs of the repository.'),
    ]) index.upsert(d);
    expect(index.search('what automations do we have running', { limit: 1 })[0]?.key).toBe('crm__list-workflows');
  });

  it('stays off when synonyms are off (the bench measures the bare engine)', () => {
    const index = new ToolSearchIndex({ ...DEFAULT_RANKING, synonyms: false });
    index.upsert(tool('search', 'web_search', 'Search the web.'));
    expect(index.search('weather')).toEqual([]);
  });
});
