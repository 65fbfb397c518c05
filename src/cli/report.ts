// Human-readable and JSON renderings of the gateway's state: the start-up summary that `serve`
// logs and the catalog that `check` prints.

import type { HeldTool } from '../catalog/guard.js';
import { describeUnmatched, unmatchedRules } from '../catalog/unmatched-rules.js';
import { viewFor } from '../catalog/view.js';
import type { ClientProfile, ConfigProblem, GatewayConfig } from '../config/types.js';
import type { App, ServerSummary } from '../app/app.js';
import { boundsReport, renderBounds, type BoundsReport } from './bounds-report.js';
import { renderPerUser, type PerUserReport } from './per-user-report.js';
import { renderShares, sharesReport, type SharesReport } from './shares-report.js';
import type { JsonObject } from '../protocol/json.js';
import type { SkillRow } from './skills-report.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Whether a server is down (failed for good, failed and retrying, or waiting for a login). */
export function isDown(s: ServerSummary): boolean {
  return s.state === 'failed' || s.state === 'backing-off' || s.state === 'needs-login' || (s.state === 'connecting' && s.problem !== undefined);
}

/** `OAuth: ok, expires in 42m, scopes a b`: what the operator needs to know about a server's login. */
export function authNote(s: ServerSummary, now = Date.now()): string | undefined {
  const a = s.auth;
  if (!a) return undefined;
  const parts = [`OAuth ${a.status}`];
  if (a.status === 'ok' && a.expiresAt !== undefined) {
    const left = a.expiresAt - now;
    parts.push(left <= 0 ? 'token expired (renewed on next use)' : `token expires in ${duration(left)}`);
  }
  if (a.status === 'ok' && a.scopes?.length) parts.push(`scopes ${a.scopes.join(' ')}`);
  if (a.status === 'needs-login') parts.push(`run: switchboard login ${s.name}`);
  return parts.join(', ');
}

function duration(ms: number): string {
  const m = Math.round(ms / 60_000);
  if (m < 1) return `${Math.max(1, Math.round(ms / 1000))}s`;
  if (m < 120) return `${m}m`;
  return `${Math.round(m / 60)}h`;
}

/** The problem with the operator's detail (the server's own last words), when there is one. */
function problemOf(s: ServerSummary): string | undefined {
  return s.problem === undefined ? undefined : s.detail ? `${s.problem} (${s.detail})` : s.problem;
}

/** One line per server: what connected, what it gave, or why it failed. */
export function describeServer(s: ServerSummary): string {
  const auth = authNote(s);
  if (s.state === 'ready') {
    const counts = [plural(s.tools, 'tool'), plural(s.prompts, 'prompt'), plural(s.resources, 'resource')];
    if (s.resourceTemplates) counts.push(plural(s.resourceTemplates, 'template'));
    return `${s.name}: connected (${s.transport}, ${s.protocolVersion}) — ${counts.join(', ')}${auth ? `; ${auth}` : ''}${s.nearBounds ? `; near its list bounds: ${s.nearBounds}` : ''}`;
  }
  if (s.state === 'needs-login') return `${s.name}: needs login — ${problemOf(s) ?? `run: switchboard login ${s.name}`}`;
  const problem = problemOf(s);
  if (s.state === 'connecting' && problem) return `${s.name}: down, reconnecting — ${problem}`;
  if (s.state === 'backing-off') return `${s.name}: down, reconnecting${s.retryInMs !== undefined ? ` in ${(s.retryInMs / 1000).toFixed(1)}s` : ''}${problem ? ` — ${problem}` : ''}`;
  return `${s.name}: ${s.state}${problem ? ` — ${problem}` : ''}`;
}

export interface CatalogReport {
  /** Tools the lock file holds back. */
  held: HeldTool[];
  /** What the sanitizer changed. */
  sanitized: { server: string; kind: string; item: string; field: string; change: string; why: string }[];
  /** Items withheld: the sanitizer hid them (sanitize.action: block), or their name was in another server's namespace. */
  blocked: { server: string; kind: string; item: string; why: string }[];
  /** Servers and profiles with resource rules, and how those compare file: URIs (fileCase). */
  resourceRules: { who: string; fileCase: 'sensitive' | 'insensitive' }[];
  servers: ServerSummary[];
  tools: { name: string; server: string; original: string }[];
  prompts: { name: string; server: string; original: string }[];
  resources: { uri: string; server: string; original: string }[];
  resourceTemplates: { uriTemplate: string; server: string; original: string }[];
  /** Skills (SEP-2640) of the servers that declare the extension (skills-report.ts); absent until fetched. */
  skills?: SkillRow[];
  problems: { server: string; problem: string }[];
  /**
   * What works but is likely not what was meant (exit code unchanged): settings only the HTTP
   * face reads with an unset variable, filter rules that match nothing.
   */
  warnings: { where: string; warning: string }[];
  /** Per view (the whole catalog, then each client profile): what its tool list costs a model. */
  tokens: {
    client?: string;
    mode: 'full' | 'search' | 'code';
    full: number;
    search: number;
    /** Code mode's list, and its tools' declarations: in run_code's description, or found by search (over codeBudget). */
    code: number;
    declarations: number;
    declarationsIn: 'description' | 'search';
    exact: boolean;
    directory: number;
    directoryIn: 'description' | 'list_servers' | 'none';
  }[];
  /** The limits of a run_code run (codeMode), when some view is in code mode. */
  codeMode?: GatewayConfig['codeMode'];
  /** The server directory search mode shows (the whole catalog's, or the --client profile's): where each line's purpose came from. */
  directory: { server: string; tools: number; purpose: string; from: string }[];
  /** What one principal may hold of the HTTP face (limits.perPrincipal), and where that does not bound it. */
  shares: SharesReport;
  bounds: BoundsReport;
  /** Where sessions live (`state`): "state: memory" or "state: redis at host:port"; with Redis, whether check reached it. */
  state?: { store: string; reachable?: boolean };
  /** Per-user servers (check does not connect them), where credentials live, whether a key opens them. */
  perUser?: PerUserReport;
}

function tokensOf(app: App, profile: ClientProfile | undefined): CatalogReport['tokens'][number] {
  const exposure = viewFor(app.catalog, profile).exposure();
  const t = exposure.tokens();
  const code = { code: t.code, declarations: t.declarations, declarationsIn: t.declarationsIn };
  return { ...(profile ? { client: profile.name } : {}), mode: exposure.mode, full: t.full, search: t.search, ...code, exact: t.exact, directory: t.directory, directoryIn: t.directoryIn };
}

/**
 * Every allow/deny rule that matches nothing: a ready server's against its own names, a
 * profile's (the --client one, or each) against the exposed names.
 */
function ruleWarnings(app: App, profile: ClientProfile | undefined): CatalogReport['warnings'] {
  const out: CatalogReport['warnings'] = [];
  const names = (lists: Record<string, JsonObject[]>, kind: string, field: string) => (lists[kind] ?? []).map((item) => item[field]).filter((v): v is string => typeof v === 'string');
  for (const c of app.router.connections()) {
    if (c.state !== 'ready') continue;
    const subject = {
      who: `server ${c.name}`,
      rules: { tools: c.config.tools, prompts: c.config.prompts, resources: c.config.resources },
      names: {
        tools: names(c.lists, 'tools', 'name'),
        prompts: names(c.lists, 'prompts', 'name'),
        resources: names(c.lists, 'resources', 'uri'),
        resourceTemplates: names(c.lists, 'resourceTemplates', 'uriTemplate'),
      },
    };
    for (const r of unmatchedRules(subject)) out.push({ where: r.who, warning: describeUnmatched(r, 'its') });
  }
  const { lists } = app.catalog;
  const exposed = {
    tools: lists.tools.entries.map((e) => e.key),
    prompts: lists.prompts.entries.map((e) => e.key),
    resources: lists.resources.entries.map((e) => e.key),
    resourceTemplates: lists.resourceTemplates.entries.map((e) => e.key),
  };
  // A server that is down lists nothing: a rule aimed at it would match once it is up.
  const down = app
    .summary()
    .filter(isDown)
    .map((s) => s.name);
  const unless = down.length ? ` (while ${down.join(', ')} ${down.length === 1 ? 'is' : 'are'} down)` : '';
  for (const c of app.config.clients.filter((c) => !profile || c === profile)) {
    const subject = { who: `client ${c.name}`, rules: { tools: c.tools, prompts: c.prompts, resources: c.resources }, names: exposed };
    for (const r of unmatchedRules(subject)) out.push({ where: r.who, warning: describeUnmatched(r, 'the exposed') + unless });
  }
  return out;
}

export function catalogReport(app: App, profile?: ClientProfile, configWarnings: readonly ConfigProblem[] = []): CatalogReport {
  const { lists } = viewFor(app.catalog, profile);
  const { report } = app.catalog;
  const servers = app.summary();
  const tokens = profile ? [tokensOf(app, profile)] : [tokensOf(app, undefined), ...app.config.clients.map((c) => tokensOf(app, c))];
  return {
    held: report.held,
    sanitized: report.findings.map((f) => ({ server: f.server, kind: f.kind, item: f.item, field: f.finding.field, change: f.finding.change, why: f.finding.why })),
    blocked: report.blocked,
    resourceRules: [
      ...app.config.servers.filter((s) => s.enabled).map((s) => ({ who: `server ${s.name}`, rules: s.resources })),
      ...app.config.clients.filter((c) => !profile || c === profile).map((c) => ({ who: `client ${c.name}`, rules: c.resources })),
    ]
      .filter(({ rules }) => rules.deny.length > 0 || !rules.allow.includes('*'))
      .map(({ who, rules }) => ({ who, fileCase: rules.fileCase })),
    servers,
    tools: lists.tools.entries.map((e) => ({ name: e.key, server: e.server, original: e.original })),
    prompts: lists.prompts.entries.map((e) => ({ name: e.key, server: e.server, original: e.original })),
    resources: lists.resources.entries.map((e) => ({ uri: e.key, server: e.server, original: e.original })),
    resourceTemplates: lists.resourceTemplates.entries.map((e) => ({ uriTemplate: e.key, server: e.server, original: e.original })),
    problems: servers.filter(isDown).map((s) => ({ server: s.name, problem: problemOf(s) ?? 'failed' })),
    warnings: [...configWarnings.map((w) => ({ where: w.path, warning: w.message })), ...ruleWarnings(app, profile)],
    tokens,
    ...(tokens.some((t) => t.mode === 'code') ? { codeMode: { ...app.config.codeMode } } : {}),
    directory: viewFor(app.catalog, profile)
      .directory()
      .lines.map((l) => ({ server: l.server, tools: l.tools, purpose: l.purpose, from: l.from })),
    shares: sharesReport(app.config.limits),
    bounds: boundsReport(app.config),
  };
}

const DIRECTORY_SOURCES: Record<string, string> = {
  config: 'its description in the config',
  server: 'its serverInfo.description',
  instructions: 'its instructions',
  title: 'its serverInfo.title',
  tools: 'its tools',
};

function directoryNote(t: CatalogReport['tokens'][number]): string {
  if (t.directoryIn === 'none') return 'no server directory';
  return `directory ${t.directory} ${t.directoryIn === 'description' ? "in search_tools' description" : 'behind list_servers (over directoryBudget)'}`;
}

function codeNote(t: CatalogReport['tokens'][number]): string {
  if (t.mode !== 'code') return '';
  return `; declarations ${t.declarations} ${t.declarationsIn === 'description' ? "in run_code's description" : 'found by search (over codeBudget)'}`;
}

function renderCodeLimits(l: NonNullable<CatalogReport['codeMode']>): string {
  const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)}MiB`;
  return (
    '\nCode mode: limits of one run_code run (codeMode)\n' +
    table([
      ['wallTime', `${l.wallMs}ms`, 'slice', `${l.sliceMs}ms`],
      ['memory', mib(l.memoryBytes), 'stack', `${l.stackBytes / 1024}KiB`],
      ['maxCalls', String(l.maxCalls), 'maxInFlight', String(l.maxInFlight)],
      ['maxOutputTokens', String(l.maxOutputTokens), 'maxCodeChars', String(l.maxCodeChars)],
      ['maxLogLines', String(l.maxLogLines), 'maxLogChars', String(l.maxLogChars)],
      ['maxRuns', `${l.maxRuns} (scripts' memory: at most ${mib(l.maxRuns * l.memoryBytes)})`, 'maxRunsPerPrincipal', String(l.maxRunsPerPrincipal)],
    ])
  );
}

function table(rows: string[][]): string {
  if (rows.length === 0) return '  (none)\n';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => `  ${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`).join('\n')}\n`;
}

export function renderReport(r: CatalogReport): string {
  let out = r.state ? `${r.state.store}${r.state.reachable === undefined ? '' : r.state.reachable ? ': reachable' : ': UNREACHABLE'}\n\n` : '';
  out += 'Servers\n';
  out += table(
    r.servers.map((s) => {
      const what = s.state === 'ready' ? `${s.tools} tools, ${s.prompts} prompts, ${s.resources} resources, ${s.resourceTemplates} templates` : (s.problem ?? '');
      const notes = s.state === 'ready' ? [authNote(s), s.nearBounds && `near its list bounds: ${s.nearBounds}`].filter(Boolean) : [];
      return [s.name, s.state, s.transport, [what, ...notes].join('; ')];
    }),
  );
  if (r.perUser) out += renderPerUser(r.perUser);
  out += `\nTools (${r.tools.length}): exposed name, server, original name\n`;
  out += table(r.tools.map((t) => [t.name, t.server, t.original]));
  out += `\nPrompts (${r.prompts.length})\n`;
  out += table(r.prompts.map((t) => [t.name, t.server, t.original]));
  out += `\nResources (${r.resources.length})\n`;
  out += table(r.resources.map((t) => [t.uri, t.server, t.original]));
  out += `\nResource templates (${r.resourceTemplates.length})\n`;
  out += table(r.resourceTemplates.map((t) => [t.uriTemplate, t.server, t.original]));
  if (r.skills?.length) {
    out += `\nSkills (${r.skills.length}): exposed name, server, URI, held back by the lock file, past SEP-2640's limits\n`;
    out += table(r.skills.map((s) => [s.name, s.server, s.uri, [s.held ? `HELD (${s.held})` : '', s.over ? `OVER LIMITS (${s.over})` : ''].filter(Boolean).join(' ')]));
  }
  if (r.held.length) out += `\nHeld back by the lock file (${r.held.length}): run \`switchboard lock\` once you trust them\n${table(r.held.map((h) => [h.server, h.name, h.reason]))}`;
  if (r.blocked.length) out += `\nWithheld (${r.blocked.length})\n${table(r.blocked.map((b) => [b.server, b.kind, b.item, b.why]))}`;
  if (r.resourceRules.length) {
    out += `\nResource rules on file: URIs (fileCase)\n${table(r.resourceRules.map((x) => [x.who, x.fileCase === 'insensitive' ? 'insensitive: /SECRET is /secret' : 'sensitive']))}`;
  }
  if (r.sanitized.length) out += `\nSanitized (${r.sanitized.length} changes; the audit log has them all)\n${table(r.sanitized.slice(0, 20).map((s) => [s.server, s.item, s.field, s.why]))}`;
  out += `\nTool list as a model receives it (${r.tokens[0]?.exact ? 'o200k tokens' : 'estimated tokens'})\n`;
  out += table(
    r.tokens.map((t) => [
      t.client ? `client ${t.client}` : 'whole catalog',
      `${t.full} in full`,
      `${t.search} in search mode`,
      ...(r.codeMode ? [t.mode === 'code' ? `${t.code} in code mode` : ''] : []),
      `serving: ${t.mode}`,
      directoryNote(t) + codeNote(t),
    ]),
  );
  if (r.codeMode) out += renderCodeLimits(r.codeMode);
  if (r.directory.length) {
    out += `\nServer directory of search mode${r.tokens.length === 1 && r.tokens[0]!.client ? ` (client ${r.tokens[0]!.client})` : ''}: purpose, and where it came from\n`;
    out += table(r.directory.map((d) => [d.server, `${d.tools} tool${d.tools === 1 ? '' : 's'}`, d.purpose, `(${DIRECTORY_SOURCES[d.from] ?? d.from})`]));
  }
  out += renderShares(r.shares);
  out += renderBounds(r.bounds);
  if (r.warnings.length) out += `\nWarnings (${r.warnings.length})\n${r.warnings.map((w) => `  ${w.where}: ${w.warning}`).join('\n')}\n`;
  out += '\nProblems\n';
  out += r.problems.length
    ? `${r.problems.map((p) => `  ${p.server}: ${p.problem}`).join('\n')}\n`
    : `  none: every enabled server connected${r.perUser ? ' (per-user servers connect per user)' : ''}\n`;
  return out;
}
