// English as a second language (round 16c): false friends and calques of Romance and German speakers
// read as the speaker means them ("actualize" = update, "reunion" = meeting, "remember me to" = remind me),
// and ordinary English left alone.

import { describe, expect, it } from 'vitest';
import { secondLanguage } from '../../../src/search/second-language.js';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}__${name}`, server, name, description });
const index = new ToolSearchIndex();
for (const d of [
  tool('db', 'update-many', 'Update all documents that match the filter in a collection.'),
  tool('db', 'find', 'Run a find query against a collection.'),
  tool('db', 'rename-collection', 'Rename a collection.'),
  tool('db', 'delete-many', 'Delete all documents that match the filter in a collection.'),
  tool('calendar', 'create-event', 'Create a new calendar event.'),
  tool('calendar', 'list-events', 'List the events of a calendar in a time range.'),
  tool('calendar', 'respond-to-event', 'Respond to an event invitation: accept, decline or tentative.'),
  tool('todo', 'create_tasks', 'Create new tasks, with a due date and a reminder.'),
  tool('todo', 'get_tasks', 'List tasks.'),
  tool('memory', 'create_entities', 'Remember new entities in the knowledge graph.'),
  tool('files', 'move_file', 'Move or rename a file or a directory.'),
  tool('files', 'edit_file', 'Edit the lines of a text file.'),
  tool('files', 'delete_file', 'Delete a file.'),
  tool('files', 'upload_file', 'Upload a file to the page.'),
  tool('files', 'search_files', 'Search for files by name.'),
  tool('mail', 'delete_email', 'Delete an email message.'),
  tool('mail', 'draft_email', 'Draft an email to send later.'),
  tool('support', 'assist_customer', 'Assist the customer with a reply from the help desk.'),
  tool('photos', 'search_photos', 'Search photos by album, person or event.'),
  tool('web', 'monitor_create', 'Create a monitor that watches a page and notifies you when it changes.'),
  tool('web', 'scrape', 'Get the content of a page.'),
  tool('files', 'cancel_transfer', 'Cancel a file transfer in progress.'),
  tool('mail', 'cancel_scheduled_send', 'Cancel a scheduled email before it is sent.'),
  tool('security', 'list_advisories', 'List the security advisories of a repository.'),
  tool('web', 'update_page', 'Update the properties of a page.'),
  tool('files', 'create_directory', 'Create a new directory.'),
  tool('files', 'get_file_info', 'Get the name, size and dates of a file.'),
  tool('crm', 'search_contacts', 'Search contacts by name or email.'),
  tool('web', 'web_search', 'Search the web with a search engine.'),
  tool('calendar', 'update-event', 'Update an existing calendar event: its time, title or attendees.'),
  tool('calendar', 'get-current-time', 'Get the current time in a time zone.'),
  tool('docs', 'create_document', 'Create a new document in a team space.'),
  tool('shop', 'search_products', 'Search the products of the store and their prices.'),
  tool('debug', 'get_error', 'Get the actual error message and stack trace of a failed run.'),
]) index.upsert(d);
const top = (q: string): string | undefined => index.search(q)[0]?.key;
const top5 = (q: string): string[] => index.search(q, { limit: 5 }).map((h) => h.key);

describe('false friends read as the speaker means them', () => {
  it('reads actualize as update', () => {
    expect(top('in mongo, actualize the field status to "active" for all users of Spain')).toBe('db__update-many');
    expect(secondLanguage('the actualization of the records')).toBe('the update of the records');
  });

  it('reads a reunion as a meeting, but not a family or class reunion', () => {
    expect(top('make a reunion with the team on monday at 10')).toBe('calendar__create-event');
    expect(top('make a reunion with Ana and Luis')).toBe('calendar__create-event');
    expect(top('which reunions do I have this week')).toBe('calendar__list-events');
    expect(secondLanguage('make a reunión with Pilar')).toBe('make a meeting with Pilar');
    expect(secondLanguage('family reunion photos')).toBe('family reunion photos');
    expect(top('family reunion photos')).toBe('photos__search_photos');
    expect(secondLanguage('our high school reunion')).toBe('our high school reunion');
  });

  it('reads "remember me to" as a reminder, and leaves "remember that" a memory', () => {
    expect(top('remember me to call the bank on monday')).toBe('todo__create_tasks');
    expect(secondLanguage('remember me that the rent is due')).toBe('remind me that the rent is due');
    expect(secondLanguage('remember that Anna is my sister')).toBe('remember that Anna is my sister');
    expect(top('remember that Anna is my sister')).toBe('memory__create_entities');
  });

  it('reads "change the name in" as a rename', () => {
    expect(top('the file old.txt, change the name in new.txt')).toBe('files__move_file');
    expect(secondLanguage('change the name of the report in final')).toBe('rename of the report in final');
  });

  it('reads "assist to" as attending, and leaves assisting a customer alone', () => {
    expect(secondLanguage('I will assist to the meeting of tomorrow')).toBe('I will attend the meeting of tomorrow');
    expect(top5('I will assist to the meeting of tomorrow')).toContain('calendar__respond-to-event');
    expect(secondLanguage('assist the customer with the refund')).toBe('assist the customer with the refund');
    expect(top('assist the customer with the refund')).toBe('support__assist_customer');
  });

  it('reads a "resume of" something as its summary, a programmed meeting as scheduled, a question made as asked', () => {
    expect(secondLanguage('create a page with the resume of the meeting')).toBe('create a page with a summary of the meeting');
    expect(secondLanguage('resume the paused job')).toBe('resume the paused job');
    expect(secondLanguage('program a meeting for friday')).toBe('schedule a meeting for friday');
    expect(secondLanguage('program the robot arm')).toBe('program the robot arm');
    expect(secondLanguage('do a question about the repo')).toBe('ask a question about the repo');
  });

  it('reads "advise me when" as a standing watch', () => {
    expect(top('advise me when the page https://acme.com/pricing changes')).toBe('web__monitor_create');
  });

  it('reads cancelling a file or a message as deleting it, and leaves a cancelled meeting alone', () => {
    expect(top('cancel the file old.txt')).toBe('files__delete_file');
    expect(top('cancel the email from Bob')).toBe('mail__delete_email');
    expect(secondLanguage('cancel the meeting with Bob')).toBe('cancel the meeting with Bob');
  });

  it('reads registering a call as logging it, and leaves registering a user alone', () => {
    expect(secondLanguage('register a call with Jane Roe')).toBe('log a call with Jane Roe');
    expect(secondLanguage('register a new user')).toBe('register a new user');
  });

  it('reads a new thing "with name X" as named X, and leaves a search by name alone', () => {
    expect(top('please make me a new folder with name "reports" in Documents')).toBe('files__create_directory');
    expect(secondLanguage('find the contact with name Jane')).toBe('find the contact with name Jane');
    expect(top('find the contact with name Jane')).toBe('crm__search_contacts');
  });

  it('reads a search "in internet" as a search of the web', () => {
    expect(top('search in internet the price of the train Berlin Munich')).toBe('web__web_search');
  });

  it('reads putting a thing an hour later as rescheduling it', () => {
    expect(top('the meeting of tomorrow, please put it one hour later')).toBe('calendar__update-event');
    expect(secondLanguage('put the file in the archive folder')).toBe('put the file in the archive folder');
  });

  it('leaves ordinary English untouched', () => {
    for (const q of ['the actual error message', 'family reunion photos', 'assist the customer', 'remember that I like tea']) {
      expect(secondLanguage(q)).toBe(q);
    }
    expect(top('show me the actual error message')).toBe('debug__get_error');
  });
});

describe('words of another language in an English request', () => {
  it('does not break on accents, ß or whole words of Spanish and German', () => {
    for (const q of ['crea una reunión con el equipo el lunes', 'Termin mit Frau Müller an der Straße', 'lösche die Datei alt.txt', 'ça marche pas, le fichier été.txt']) {
      expect(() => index.search(q)).not.toThrow();
      expect(Array.isArray(index.search(q))).toBe(true);
    }
    expect(top('delete the file notas_año.txt')).toBe('files__delete_file');
    expect(top('make a reunión with the team on monday at 10')).toBe('calendar__create-event');
  });
});
