// Resource URIs through the gateway. A URI stays exactly as its server wrote it unless another
// server (earlier in the config) already exposes the same URI or template; then it becomes
// `<prefix>+<uri>` — still a valid URI (a scheme may contain "+"), reversible, and stable as
// long as the earlier server keeps that URI. Reads of URIs that were never listed (expanded
// templates, links inside tool results) are routed by template match, then by scheme. MCP Apps'
// `ui://` URIs are the exception: always namespaced inside the scheme (ui-uris.ts).

import { parseUiUri } from './ui-uris.js';

export interface ResourceTarget {
  server: string;
  /** The URI the server knows. */
  uri: string;
}

/** The scheme-safe form of a server prefix: lowercase, [a-z0-9.-], starting with a letter. */
export function uriPrefixFor(prefix: string): string {
  let p = prefix.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  if (!/^[a-z]/.test(p)) p = `x${p}`;
  return p;
}

/** The URI prefix of a server: its `prefix`, or else its name, made scheme-safe. */
export function serverUriPrefix(server: { readonly prefix: string; readonly name: string }): string {
  return uriPrefixFor(server.prefix || server.name);
}

export function namespaceUri(uriPrefix: string, uri: string): string {
  return `${uriPrefix}+${uri}`;
}

function schemeOf(uri: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** RFC 6570 template → anchored regex; every expression matches any run of characters. */
export function templateMatcher(template: string): RegExp {
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/\{[^}]*\}/g)) {
    source += `${escapeRegex(template.slice(last, m.index))}.*`;
    last = m.index! + m[0].length;
  }
  source += escapeRegex(template.slice(last));
  return new RegExp(`^${source}$`, 's');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface TemplateRoute {
  server: string;
  matcher: RegExp;
  uriPrefix?: string;
}

/** Routes resource URIs for reads, subscriptions and completions. Immutable once built. */
export class ResourceRouter {
  /** exposed URI → target, for every listed resource. */
  private readonly exact = new Map<string, ResourceTarget>();
  private readonly byUriPrefix = new Map<string, string>();
  private readonly byUiPrefix = new Map<string, string>();
  private readonly templates: TemplateRoute[] = [];
  private readonly byScheme = new Map<string, string[]>();

  addResource(exposedUri: string, target: ResourceTarget): void {
    this.exact.set(exposedUri, target);
    this.addScheme(target.uri, target.server);
  }

  addTemplate(server: string, originalTemplate: string, uriPrefix: string | undefined): void {
    this.templates.push({ server, matcher: templateMatcher(originalTemplate), uriPrefix });
    this.addScheme(originalTemplate, server);
  }

  addServerPrefix(uriPrefix: string, server: string): void {
    if (!this.byUriPrefix.has(uriPrefix)) this.byUriPrefix.set(uriPrefix, server);
  }

  /** `ui://<uiPrefix>+…` belongs to `server` (prefixes come unique from uiPrefixes). */
  addUiPrefix(uiPrefix: string, server: string): void {
    this.byUiPrefix.set(uiPrefix, server);
  }

  /** Whether `exposedUri` is a listed (or tool-referenced) resource. */
  knows(exposedUri: string): boolean {
    return this.exact.has(exposedUri);
  }

  /**
   * Where a read of `uri` goes. Candidates come in order of confidence; the caller tries the
   * first, and only on "not found" the next (only ambiguous scheme matches yield several).
   */
  route(uri: string): ResourceTarget[] {
    const hit = this.exact.get(uri);
    if (hit) return [hit];
    const ui = parseUiUri(uri);
    const uiServer = ui && this.byUiPrefix.get(ui.uiPrefix);
    if (uiServer) return [{ server: uiServer, uri: ui.uri }];
    const plus = uri.indexOf('+');
    const colon = uri.indexOf(':');
    if (plus > 0 && (colon === -1 || plus < colon)) {
      const server = this.byUriPrefix.get(uri.slice(0, plus).toLowerCase());
      if (server) {
        const inner = uri.slice(plus + 1);
        return [{ server, uri: inner }];
      }
    }
    for (const t of this.templates) {
      if (t.uriPrefix === undefined && t.matcher.test(uri)) return [{ server: t.server, uri }];
    }
    const scheme = schemeOf(uri);
    const servers = scheme ? this.byScheme.get(scheme) : undefined;
    return servers ? servers.map((server) => ({ server, uri })) : [];
  }

  private addScheme(uri: string, server: string): void {
    const scheme = schemeOf(uri);
    if (!scheme) return;
    const list = this.byScheme.get(scheme);
    if (!list) this.byScheme.set(scheme, [server]);
    else if (!list.includes(server)) list.push(server);
  }
}
