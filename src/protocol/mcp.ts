// MCP facts both faces of the gateway share: the revisions we speak, our identity, the four
// catalog kinds (one table for everything that differs per kind), the requests servers send to
// clients, and log levels. Pure data and tiny functions; imports nothing.

/** Revisions we speak, newest first (the stateful era; 2026-07-28 is the stateless one). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

export const GATEWAY_NAME = 'switchboard';
export const GATEWAY_VERSION = '0.1.0';

export function isSupportedVersion(v: unknown): v is string {
  return typeof v === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

/** What one catalog kind is called on the wire and in the config. */
export interface KindFacts {
  /** The list request, and the key its result array lives under. */
  method: string;
  key: string;
  /** The server capability that offers this kind. */
  capability: 'tools' | 'prompts' | 'resources';
  /** The field of an item that names it (exposed names and URIs replace it). */
  nameField: 'name' | 'uri' | 'uriTemplate';
  /** The config filter that applies (servers' and profiles' `tools`, `prompts`, `resources`). */
  rule: 'tools' | 'prompts' | 'resources';
  /** The notification that says the list changed. */
  listChanged: string;
  /** Singular, for messages and audit entries. */
  item: 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
}

export const KINDS: Readonly<Record<ListKind, KindFacts>> = {
  tools: { method: 'tools/list', key: 'tools', capability: 'tools', nameField: 'name', rule: 'tools', listChanged: 'notifications/tools/list_changed', item: 'tool' },
  prompts: { method: 'prompts/list', key: 'prompts', capability: 'prompts', nameField: 'name', rule: 'prompts', listChanged: 'notifications/prompts/list_changed', item: 'prompt' },
  resources: { method: 'resources/list', key: 'resources', capability: 'resources', nameField: 'uri', rule: 'resources', listChanged: 'notifications/resources/list_changed', item: 'resource' },
  resourceTemplates: {
    method: 'resources/templates/list',
    key: 'resourceTemplates',
    capability: 'resources',
    nameField: 'uriTemplate',
    rule: 'resources',
    listChanged: 'notifications/resources/list_changed',
    item: 'resourceTemplate',
  },
};

/** list_changed notification → the kinds it invalidates. A Map: method names come from peers. */
export const LIST_CHANGED: ReadonlyMap<string, readonly ListKind[]> = new Map([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/prompts/list_changed', ['prompts']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
]);

/** Requests a server may send to a client, which the gateway relays. (ping it answers itself.) */
export const REQUESTS_TO_CLIENTS: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

/** RFC 5424 levels as MCP uses them (logging/setLevel, notifications/message), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

function rank(level: unknown): number {
  return typeof level === 'string' ? (LOG_LEVELS as readonly string[]).indexOf(level) : -1;
}

/** Whether a message at `level` reaches a session that asked for `threshold` (none asked: all do). */
export function passesLevel(level: unknown, threshold: string | undefined): boolean {
  if (threshold === undefined) return true;
  const r = rank(level);
  return r === -1 || r >= rank(threshold);
}

/** The most verbose of the levels sessions asked for, or undefined if none asked. */
export function mostVerbose(levels: readonly (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const l of levels) if (l !== undefined && (best === undefined || rank(l) < rank(best))) best = l;
  return best;
}
