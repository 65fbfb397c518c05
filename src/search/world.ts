// World knowledge, one way: everyday words of requests → the words tools use for the job
// ("weather" → web search, "standup" → calendar event, "mobile" → viewport). Directional, unlike
// the synonym groups: "search" must not bring back "weather". Written from what kinds of tools
// do (web, maps, calendar, mail, chat, files, browser, code hosting, trackers, tasks, CRM,
// databases, clusters), never from evaluation queries. Left words are everyday words that tools
// rarely use themselves; right words are the tools' own vocabulary.

import { analyzeText } from './analyze.js';

/** Weight of a world-knowledge expansion relative to the query's own word (1). */
export const WORLD_WEIGHT = 0.65;

const MAP: readonly string[] = [
  // Questions about the world at large: a web search answers them.
  'weather forecast temperature rain raining snow sunny humidity wind > web search',
  'news headline headlines stock stocks shares bitcoin crypto exchange currency > web search news',
  'recipe recipes lyrics movie movies showtimes wikipedia definition define meaning > web search',
  'population capital president celebrity election sports score scores tournament winner winners champion champions championship > web search',
  'googling internet online > web search',
  'article articles blog blogs > web page search',
  // Places, routes and the map.
  'restaurant restaurants cafe coffee pizza sushi pub hotel motel gym pharmacy hospital clinic museum supermarket grocery bakery > place nearby local business',
  'walk walking bike biking cycling bicycle transit subway bus train commute > directions route travel mode',
  'altitude elevation height > elevation',
  'coordinates latitude longitude gps > geocode latitude longitude location',
  'far miles kilometers km > distance',
  // Time and the calendar.
  'meeting meetings appointment standup interview lunch dinner birthday anniversary holiday vacation pto offsite webinar conference reservation > event calendar',
  'busy available availability around > free busy calendar',
  'reschedule postpone > update event time',
  'rsvp attend attending > respond event invitation',
  'invite invitation invitations > event attendee',
  'timezone clock > time current',
  // Mail and chat.
  'inbox newsletter newsletters spam unsubscribe cc bcc sender recipient > email',
  'forward forwarded > email send',
  'automatically automatic automate auto > filter rule',
  'ping dm pm > message send',
  'emoji thumbs react > reaction',
  'chat chats > message channel',
  // Files and folders.
  'downloads > directory folder',
  'txt csv markdown readme > file text',
  'rename renaming > move',
  'overwrite > write file',
  'disk space big large bigger largest > size',
  // The browser.
  'button checkbox menu > click element',
  'box textbox textarea searchbox > input field element',
  'dropdown combobox > select option',
  'mobile phone tablet iphone android responsive > resize viewport device emulate',
  'dark theme > emulate media color scheme',
  'print printable > pdf',
  'keyboard keystroke hotkey shortcut > press key',
  'scroll scrolling > mouse wheel',
  // Code hosting.
  'pr prs > pull request',
  'snippet snippets paste > gist',
  'changelog shipped > release',
  'vulnerable vulnerabilities cve > security alert advisory dependabot',
  'wrote authored > blame commit author',
  'contributor contributors maintainers > collaborator',
  'upstream > fork',
  // Trackers and tasks.
  'feature story stories epic > issue',
  'sprint iteration > cycle',
  'backlog > issues list',
  'assignee > assign user',
  'urgent > priority',
  'todo todos chore chores errand errands reminder reminders remind checklist > task',
  'subtask subtasks > sub issue task',
  // Knowledge kept for later.
  'remember memorize memorise forget forgotten > memory observation entity',
  'preference preferences fact facts > observation entity memory',
  'relationship relationships > relation',
  // Data.
  'sql > query database',
  'spreadsheet > table base record',
  'rows row > record',
  // Customers.
  'lead leads prospect prospects opportunity opportunities > deal contact crm',
  'client clients > contact customer company',
  // Infrastructure and delivery.
  'live production hosting > deploy site',
  'crash crashing crashed broken failing > error failure log',
  // Pictures and words.
  'picture drawing illustration logo artwork art painting sketch > image generate',
  'documentation docs manual examples > documentation library docs',
  'brainstorm reasoning > thinking thought',
  'credits quota billing spend > usage credit',
  // ── By kind of tool, the everyday words for its jobs (round 4) ──
  // Files and folders.
  'hierarchy nested subfolder subfolders > directory tree',
  'metadata timestamp timestamps modified permissions > file info',
  'extension extensions ending glob wildcard wildcards > file name pattern search',
  'jpeg jpg png gif > image media file',
  'replace replacing substitute > edit text',
  'save saving > write file',
  'zip zipped compress compressed > gzip',
  // Code hosting.
  'reviewer reviewers lgtm > pull request review',
  'mr mrs > merge request',
  'mention mentions mentioned > notification',
  'forum > discussion',
  // Trackers and tasks.
  'deadline deadlines overdue due > due date',
  'milestone milestones goal goals objective objectives okr okrs > project roadmap',
  'progress > status update',
  'kanban board > workflow state status',
  'automation automations automate automated > workflow',
  'coworker coworkers > user member',
  // Chat.
  'announce announcement announcements broadcast > post message channel',
  'said talked discussed > message history channel',
  'avatar bio > user profile',
  // Mail.
  'mailbox > email',
  'unread > email label',
  'rule rules > filter',
  'junk > spam email',
  // Calendar.
  'slot slots > free busy time',
  'recurring repeating weekly monthly > recurrence event',
  'decline declined > respond event',
  // Documents and wikis.
  'wiki wikis notebook > page',
  'paragraph paragraphs bullet bullets > block',
  'append appending > block children add',
  // Databases.
  'slow slowness > explain query performance',
  'backup dump > export',
  // Clusters, hosting and delivery.
  'deployment deployments > deploy',
  'replica replicas > scale',
  'cpu ram utilization > top stats usage resource',
  'ssh > exec shell command',
  'intermittent unreliable > flaky',
  'binaries binary > artifact',
  'outage outages downtime > status health',
  // The browser.
  'tooltip mouseover > hover',
  'devtools > console messages',
  'xhr ajax > network request',
  // The web.
  'spider > crawl',
  'academic scholarly arxiv study studies publication publications > research paper',
  'sitemap > map url',
  'flight flights airline airlines > web search',
  // Maps.
  'address addresses zip postcode postal > geocode',
  'eta > duration travel time distance',
  'rating ratings > place details',
  // Errors.
  'stacktrace traceback stack > error log',
  // People and facts to remember.
  'friend friends family wife husband partner boss manager > person entity relation',
  // Arithmetic.
  'calculate calculation arithmetic plus > sum',
  // ── Situations people describe, and what a tool does about them (round 16g) ──
  // Slowness: a machine or a query that drags is looked at through its processes, load and plan.
  'sluggish laggy unresponsive > slow performance cpu process',
  // A break-in: sessions are revoked, secrets found and rotated.
  'hacked compromised breach breached intruder intruders > revoke session secret security',
  'leaked leak leaking > secret scanning alert',
  // Cost: spending is read from usage and from what is oversized.
  'overpaying overspending overpriced expensive pricey costly > usage cost credit underused resource',
  // Noise: notifications are muted by their subscription.
  'noisy spammy mute muted unwatch silence > notification subscription ignore',
  // Undo: what was done by mistake is restored, reverted or reopened.
  'undo undid undelete undeleted accidentally mistakenly > restore revert reopen unarchive',
  // A machine running hot is looked at through its processes; an API that slows a client down, through its rate limit.
  'overheating > cpu process usage',
  'throttled throttling throttle > rate limit',
];

let table: Map<string, Map<string, number>> | undefined;

/** Tool-vocabulary terms an everyday query term stands for, with their weights; empty when none. */
export function worldExpansions(term: string): ReadonlyMap<string, number> {
  table ??= build();
  return table.get(term) ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, number> = new Map();

/** Every everyday term the map knows (a misspelt query word may be meant as one of them). */
export function worldTerms(): Iterable<string> {
  table ??= build();
  return table.keys();
}

function build(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of MAP) {
    const [left = '', right = ''] = line.split('>');
    const targets = [...new Set(analyzeText(right))];
    for (const a of new Set(analyzeText(left))) {
      let m = out.get(a);
      if (m === undefined) out.set(a, (m = new Map()));
      for (const b of targets) if (b !== a) m.set(b, WORLD_WEIGHT);
    }
  }
  return out;
}
