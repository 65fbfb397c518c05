// Questions whose phrase says the job though their words do not (round 12): "who won …" asks the
// web, "how high up is …" an elevation, "what API calls did the page make" its network requests,
// "what do you remember about …" the assistant's memory, "who is on / shares …" members.

import { describe, expect, it } from 'vitest';
import { queryShape } from '../../../src/search/hints.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { realCatalogIndex } from './real-catalog.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('web', 'web_search', 'Search the web for any topic.'),
  tool('maps', 'elevation', 'Get the elevation of places on the earth.'),
  tool('maps', 'geocode', 'Convert an address into coordinates.'),
  tool('browser', 'network_requests', 'Returns the network requests since loading the page.'),
  tool('browser', 'navigate', 'Navigate the page to a URL.'),
  tool('browser', 'click', 'Click an element on the page.'),
  tool('memory', 'read_graph', 'Read the whole knowledge graph.'),
  tool('memory', 'create_entities', 'Create entities in the knowledge graph.'),
  tool('people', 'search_users', 'Search for users by name.'),
  tool('tasks', 'get_collaborators', 'Get the collaborators of a project.'),
  tool('tasks', 'get_project', 'Get a project.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;

describe('questions read by their phrase', () => {
  it('rewrites the phrase to the words tools use', () => {
    expect(queryShape('who won the world cup').text).toMatch(/\bwinner\b/);
    expect(queryShape('how high up is Denver').text).toMatch(/\belevation\b/);
    expect(queryShape('how many meters above the sea is Quito').text).toMatch(/\belevation\b/);
    expect(queryShape('what API calls did the page make').text).toMatch(/\bnetwork requests\b/);
    expect(queryShape('what do you remember about falcon').text).toMatch(/\bknowledge memory\b/);
    expect(queryShape('who is the Wedding project shared with').hints.map((h) => h.words)).toContain('collaborator member');
  });

  it('leaves the same words in other phrases alone', () => {
    expect(queryShape('set the height to 200px').text).not.toMatch(/elevation/);
    expect(queryShape('call the api').text).not.toMatch(/network/);
    expect(queryShape('let you know when it is done').text).not.toMatch(/memory/);
    expect(queryShape('share the doc with bob').hints.map((h) => h.words)).not.toContain('collaborator member');
  });

  it('ranks the tool the question asks for first', () => {
    expect(top('who won the champions league final')).toBe('web__web_search');
    expect(top('how high up is Denver')).toBe('maps__elevation');
    expect(top('what API calls did the page make')).toBe('browser__network_requests');
    expect(top('what do you remember about project falcon')).toBe('memory__read_graph');
    expect(top("who's on the Wedding project")).toBe('tasks__get_collaborators');
  });
});

describe('moving a thing to a time (round 12)', () => {
  it('reads the verb as rescheduling, and a move to a place as a move', () => {
    expect(queryShape('push the dentist task to friday').text).toMatch(/\breschedule\b/);
    expect(queryShape('bump standup to 4pm').text).toMatch(/\breschedule\b/);
    expect(queryShape('move my 1:1 to next week').text).toMatch(/\breschedule\b/);
    expect(queryShape('move the task to the Work project').text).not.toMatch(/reschedule/);
    expect(queryShape('push my commits to main').text).not.toMatch(/reschedule/);
  });

  it('ranks the update of the thing above pushing files', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('code', 'push_files', 'Push files to a repository branch.'),
      tool('tasks', 'update_tasks', 'Update tasks: content, due date, priority.'),
      tool('tasks', 'create_tasks', 'Create tasks.'),
    ]) index.upsert(d);
    expect(index.search('push the dentist task to friday')[0]?.key).toBe('tasks__update_tasks');
  });
});

describe('moving the appointment a time names (round 15)', () => {
  it('reads the verb as rescheduling whatever the thing moves to', () => {
    expect(queryShape('move my 2pm with Initech to 4').text).toMatch(/\breschedule\b/);
    expect(queryShape("push tomorrow's 10am back an hour").text).toMatch(/\breschedule\b/);
    expect(queryShape('shift the 3:30 to after lunch').text).toMatch(/\breschedule\b/);
    expect(queryShape('move 2 files to the archive').text).not.toMatch(/reschedule/);
    expect(queryShape('move the report to the shared drive').text).not.toMatch(/reschedule/);
  });

  it('ranks the event update above moving files', () => {
    const index = new ToolSearchIndex();
    for (const d of [
      tool('files', 'move_file', 'Move or rename a file or directory.'),
      tool('tasks', 'move_tasks', 'Move tasks to another project.'),
      tool('calendar', 'update_event', 'Update or reschedule a calendar event.'),
      tool('calendar', 'create_event', 'Create a calendar event.'),
    ]) index.upsert(d);
    expect(index.search('move my 2pm with Initech to 4')[0]?.key).toBe('calendar__update_event');
  });
});

describe('an owned time of day (round 16)', () => {
  it('names an appointment on the calendar', () => {
    const hints = (q: string): string[] => queryShape(q).hints.map((h) => h.words);
    for (const q of ['cancel my 4pm with Initech', 'is our 10:30 still on', "what is tomorrow's 9am about"]) expect(hints(q)).toContain('event calendar');
    for (const q of ['remind me at 4pm', 'the build failed at 10:30', 'set the alarm for 7am']) expect(hints(q)).not.toContain('event calendar');
    expect(hints('cancel my friday 4pm').filter((h) => h === 'event calendar')).toHaveLength(1);
  });

  it('ranks deleting the event above stopping a process, among real tools', () => {
    expect(realCatalogIndex().search('cancel my 4pm with Initech')[0]?.key).toBe('google-calendar__delete-event');
  });
});

describe('a new meeting with someone on a day at a time (round 15)', () => {
  const CREATE = 'create event';
  it('says an event is to be created when the meeting is new', () => {
    for (const q of ['book a call with Globex thursday 3pm', 'book 30 min with dana friday 2pm', 'make a reunion with the team on monday at 10', 'set up a quick sync with Ana tomorrow at 9:30']) {
      expect(queryShape(q).hints.map((h) => h.words)).toContain(CREATE);
    }
  });

  it('leaves a meeting that exists, and a meeting with no time, to their verbs', () => {
    for (const q of ['cancel my meeting with Dan on friday at 3pm', "what's the call with Dan on friday at 3pm about", 'have a chat with the team about the launch', 'share a doc with Ana tomorrow']) {
      expect(queryShape(q).hints.map((h) => h.words)).not.toContain(CREATE);
    }
  });

  it('brings creating the event into the top 5 of the real catalogs, past the tools a "call" names', () => {
    const keys = realCatalogIndex().search('book a call with Globex thursday 3pm').slice(0, 5).map((r) => r.key);
    expect(keys).toContain('google-calendar__create-event');
  });
});

describe('a standing instruction (round 12)', () => {
  it('reads "automatically", "auto-" and "from now on" as a rule to set up', () => {
    expect(queryShape('label mail from github as GitHub from now on').text).toMatch(/\bautomatically\b/);
    const index = new ToolSearchIndex();
    for (const d of [
      tool('mail', 'create_filter', 'Creates a new Gmail filter with criteria and actions.'),
      tool('mail', 'modify_email', 'Modifies the labels of an email.'),
      tool('mail', 'create_label', 'Creates a new label.'),
    ]) index.upsert(d);
    expect(index.search('automatically file mail from github under Notifications')[0]?.key).toBe('mail__create_filter');
    expect(index.search('file mail from github under Notifications from now on')[0]?.key).toBe('mail__create_filter');
  });
});

describe('who works on a thing, and whether a page answers (round 14)', () => {
  it('reads "who is working on" as the thing\'s people', () => {
    expect(queryShape("who's working on the Checkout project").hints.map((h) => h.words)).toContain('collaborator member');
    expect(top('who is working on the Wedding project')).toBe('tasks__get_collaborators');
  });

  it('reads "is <a page> loading / up / down" as opening the page', () => {
    expect(top('is status.acme.io loading at all')).toBe('browser__navigate');
    expect(queryShape('is example.com down for everyone').hints.map((h) => h.words)).toContain('open fetch navigate');
    // Without a page named, "is the build still working" is no page to open.
    expect(queryShape('is the build still working').hints.map((h) => h.words)).not.toContain('open fetch navigate');
  });
});
