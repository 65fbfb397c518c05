// Protocol facts shared by both faces of the gateway: revisions we speak, our identity, and the
// list methods with their result keys.

export { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '../inbound/host.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../inbound/host.js';

export const GATEWAY_NAME = 'switchboard';
export const GATEWAY_VERSION = '0.1.0';

export function isSupportedVersion(v: unknown): v is string {
  return typeof v === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** The list method of each kind and the key its result array lives under. */
export const LIST_METHODS: Record<ListKind, { method: string; key: string }> = {
  tools: { method: 'tools/list', key: 'tools' },
  prompts: { method: 'prompts/list', key: 'prompts' },
  resources: { method: 'resources/list', key: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', key: 'resourceTemplates' },
};

/** The capability a server must declare for us to fetch a kind. */
export const KIND_CAPABILITY: Record<ListKind, 'tools' | 'prompts' | 'resources'> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

/** list_changed notification → the kinds it invalidates. A Map: method names come from peers. */
export const LIST_CHANGED: ReadonlyMap<string, readonly ListKind[]> = new Map([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/prompts/list_changed', ['prompts']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
]);

export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];
