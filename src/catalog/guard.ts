// The catalog's trust stage, per server and list: tools whose definition differs from the lock
// are held back (pinning), then every model-visible string is sanitized, and items the sanitizer
// blocks are dropped. Results are cached by the list array (a refetch replaces it), so a
// rebuild after one server's list_changed does not redo the others' work; and each item's by the
// item (a refetch keeps unchanged items as they were, outbound/list-intern.ts), so it does not
// redo the work of what that server did not change either. Servers' instructions and serverInfo
// texts are cleaned here too.

import { KINDS, type ListKind } from '../protocol/mcp.js';
import { checkPins, type HeldReason, type LockFile } from './pinning.js';
import { isJudgement, sanitizeInstructions, sanitizeItem, sanitizeText, type Finding, type ItemKind, type SanitizeOptions } from './sanitize.js';
import type { JsonObject } from '../protocol/json.js';

export interface GuardOptions {
  sanitize: SanitizeOptions;
  lock?: LockFile;
  newTools: 'allow' | 'hold';
}

export interface HeldTool {
  server: string;
  name: string;
  reason: HeldReason;
}

export interface GuardReport {
  held: HeldTool[];
  findings: { server: string; kind: ItemKind | 'instructions' | 'serverInfo'; item: string; finding: Finding }[];
  blocked: { server: string; kind: ItemKind | 'instructions' | 'serverInfo'; item: string; why: string }[];
}

export interface Guarded {
  items: JsonObject[];
  report: GuardReport;
}

const cache = new WeakMap<JsonObject[], { options: GuardOptions; policy: string; result: Guarded }>();

type Sanitized = ReturnType<typeof sanitizeItem>;
const sanitized = new WeakMap<JsonObject, { options: GuardOptions['sanitize']; kind: ItemKind; result: Sanitized }>();

/** sanitizeItem, once per item object, kind and settings. */
function sanitizeOnce(kind: ItemKind, item: JsonObject, options: GuardOptions['sanitize']): Sanitized {
  const hit = sanitized.get(item);
  if (hit && hit.options === options && hit.kind === kind) return hit.result;
  const result = sanitizeItem(kind, item, options);
  sanitized.set(item, { options, kind, result });
  return result;
}

/**
 * Pins and sanitizes the items of `list` that `allowed` (the server's policy) lets through; the
 * others are dropped first and never examined. `allowed` is judged by item content, so a cached
 * result is reused only for the same list, options and the same allowed set.
 */
export function guardList(server: string, kind: ListKind, list: JsonObject[], options: GuardOptions, allowed: (item: JsonObject) => boolean = () => true): Guarded {
  const permitted: JsonObject[] = [];
  const denied: number[] = [];
  list.forEach((item, i) => {
    if (item !== null && typeof item === 'object' && allowed(item)) permitted.push(item);
    else denied.push(i);
  });
  const policy = denied.join(',');
  const hit = cache.get(list);
  if (hit && hit.options === options && hit.policy === policy) return hit.result;
  const report: GuardReport = { held: [], findings: [], blocked: [] };
  let candidates = permitted;
  if (kind === 'tools' && options.lock) {
    const verdict = checkPins(server, permitted, options.lock, options.newTools);
    candidates = verdict.allowed;
    for (const h of verdict.held) report.held.push({ server, name: h.name, reason: h.reason });
  }
  const items: JsonObject[] = [];
  const itemKind: ItemKind = KINDS[kind].item;
  for (const raw of candidates) {
    const { item, findings, blocked, why } = sanitizeOnce(itemKind, raw, options.sanitize);
    const name = String(raw?.[KINDS[kind].nameField] ?? '');
    for (const finding of findings) report.findings.push({ server, kind: itemKind, item: name, finding });
    if (blocked) report.blocked.push({ server, kind: itemKind, item: name, why: why ?? 'injection pattern found; sanitize.action is block' });
    else items.push(item);
  }
  const result = { items, report };
  cache.set(list, { options, policy, result });
  return result;
}

const instructionsCache = new Map<string, { options: GuardOptions; text: string; result: { text?: string; report: GuardReport } }>();

/**
 * A server's instructions, cleaned like every other model-visible text (cached per server while
 * text and options stay the same). Withheld (undefined) when the sanitizer blocks them.
 */
export function guardInstructions(server: string, text: string | undefined, options: GuardOptions): { text?: string; report: GuardReport } {
  const report: GuardReport = { held: [], findings: [], blocked: [] };
  if (text === undefined) return { report };
  const hit = instructionsCache.get(server);
  if (hit && hit.text === text && hit.options === options) return hit.result;
  const cleaned = sanitizeInstructions(text, options.sanitize);
  for (const finding of cleaned.findings) report.findings.push({ server, kind: 'instructions', item: server, finding });
  if (cleaned.blocked) report.blocked.push({ server, kind: 'instructions', item: server, why: 'the instructions look like a prompt injection and sanitize.action is block' });
  const result = { text: cleaned.blocked || cleaned.text.trim() === '' ? undefined : cleaned.text, report };
  instructionsCache.set(server, { options, text, result });
  return result;
}

const serverInfoCache = new Map<string, { options: GuardOptions; info: object; result: { title?: string; description?: string; report: GuardReport } }>();

/**
 * The title and description a server gives of itself (its serverInfo), cleaned like a tool's:
 * the server directory shows them to models. A text the sanitizer blocks is dropped, the other
 * kept (cached per server while the serverInfo object and options stay the same).
 */
export function guardServerInfo(server: string, info: { title?: unknown; description?: unknown } | undefined, options: GuardOptions): { title?: string; description?: string; report: GuardReport } {
  const report: GuardReport = { held: [], findings: [], blocked: [] };
  if (info === undefined) return { report };
  const hit = serverInfoCache.get(server);
  if (hit && hit.info === info && hit.options === options) return hit.result;
  const result: { title?: string; description?: string; report: GuardReport } = { report };
  for (const field of ['title', 'description'] as const) {
    const text = info[field];
    if (typeof text !== 'string' || text.trim() === '') continue;
    const cleaned = sanitizeText(text, options.sanitize, `serverInfo.${field}`);
    for (const finding of cleaned.findings) report.findings.push({ server, kind: 'serverInfo', item: server, finding });
    if (options.sanitize.action === 'block' && cleaned.findings.some((f) => isJudgement(f.change))) {
      report.blocked.push({ server, kind: 'serverInfo', item: server, why: `serverInfo.${field} looks like a prompt injection and sanitize.action is block` });
      continue;
    }
    if (cleaned.text.trim() !== '') result[field] = cleaned.text;
  }
  serverInfoCache.set(server, { options, info, result });
  return result;
}
