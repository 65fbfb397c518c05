// Pure checks on request headers for the inbound HTTP endpoint: Origin and Host against DNS
// rebinding, and the media types Streamable HTTP requires. No I/O and no logging; the endpoint maps
// a refusal to its status code. An absent header always passes: only browsers send Origin.

/** Host names that always mean "this machine"; IPv6 keeps its brackets, as in Host and URL.hostname. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Parses an Origin value into a URL when it is a plain http(s) origin. Anything beyond scheme,
 * host and port (a path, a query, credentials) means a forged or broken header, so it is refused
 * rather than trimmed. `null` (opaque origins) and other schemes are refused too.
 */
function parseOrigin(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  return url;
}

/** `scheme://host[:port]`, lowercase, default port dropped; undefined when not an http(s) origin. */
export function normalizeOrigin(value: string): string | undefined {
  return parseOrigin(value)?.origin;
}

/**
 * Which Origin headers may talk to the endpoint: loopback origins on any port and scheme, plus
 * the configured ones (compared after normalization, so `http://Example.com:80` matches
 * `http://example.com`).
 */
export class OriginPolicy {
  private readonly extra: ReadonlySet<string>;

  /** Throws on a configured origin that cannot be normalized: a typo must not silently lock out a client. */
  constructor(allowedOrigins: readonly string[]) {
    const extra = new Set<string>();
    for (const origin of allowedOrigins) {
      const normalized = normalizeOrigin(origin);
      if (normalized === undefined) throw new TypeError(`allowedOrigins: not an http(s) origin: ${JSON.stringify(origin)}`);
      extra.add(normalized);
    }
    this.extra = extra;
  }

  allows(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    const url = parseOrigin(origin);
    if (url === undefined) return false;
    return LOOPBACK_NAMES.has(url.hostname) || this.extra.has(url.origin);
  }
}

/**
 * The host name of a Host header value: lowercased, port dropped, IPv6 literal kept in brackets.
 * Undefined when the value is malformed (a port that is not digits, an unclosed bracket).
 */
export function hostName(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    if (end === -1) return undefined;
    name = v.slice(0, end + 1);
    rest = v.slice(end + 1);
  } else {
    const colon = v.indexOf(':');
    name = colon === -1 ? v : v.slice(0, colon);
    rest = colon === -1 ? '' : v.slice(colon);
  }
  if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
  return name === '' ? undefined : name;
}

/** Loopback names plus `boundAddress` itself (IPv6 bracketed, as in a Host header). */
export function loopbackHostNames(boundAddress: string): ReadonlySet<string> {
  const names = new Set(LOOPBACK_NAMES);
  names.add(boundAddress.includes(':') ? `[${boundAddress.toLowerCase()}]` : boundAddress.toLowerCase());
  return names;
}

/**
 * True when a request with this Host header may proceed. A DNS-rebinding page reaches a loopback
 * listener under the attacker's host name, so only loopback names pass. An absent Host (HTTP/1.0;
 * Node already refuses HTTP/1.1 without one) passes: browsers always send it.
 */
export function hostAllowed(value: string | undefined, names: ReadonlySet<string>): boolean {
  if (value === undefined) return true;
  const name = hostName(value);
  return name !== undefined && names.has(name);
}

/**
 * The Host names a request may carry: loopback names, the bound address, the configured host
 * name and `listen.allowedHosts`. Every bind keeps the check (a DNS-rebinding page reaches a
 * 0.0.0.0 listener under the attacker's name just as it reaches a loopback one).
 */
export function allowedHostNames(boundAddress: string, configuredHost: string, extra: readonly string[]): ReadonlySet<string> {
  const names = new Set(loopbackHostNames(boundAddress));
  for (const h of [configuredHost, ...extra]) {
    const name = hostName(h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** True for addresses that only this machine can reach (what server.address() reports). */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Bit flags of what an Accept header covers. */
export const ACCEPT_JSON = 1;
export const ACCEPT_EVENT_STREAM = 2;
export const ACCEPT_BOTH = ACCEPT_JSON | ACCEPT_EVENT_STREAM;

// Clients send the same Accept string on every request; remembering the last one skips the parse.
let lastAccept = '';
let lastAcceptFlags = 0;

/**
 * What an Accept header covers, as ACCEPT_* flags. Wildcards count (`*\/*` covers both, to be
 * lenient with simple clients); a range with q=0 is an explicit refusal and is skipped.
 */
export function acceptFlags(value: string | undefined): number {
  if (value === undefined) return 0;
  if (value === lastAccept) return lastAcceptFlags;
  let flags = 0;
  for (const range of value.split(',')) {
    const parts = range.split(';');
    const type = parts[0]!.trim().toLowerCase();
    let refused = false;
    for (let i = 1; i < parts.length; i++) {
      const param = parts[i]!.trim().toLowerCase();
      if (param.startsWith('q=') && Number(param.slice(2)) === 0) refused = true;
    }
    if (refused) continue;
    if (type === 'application/json' || type === 'application/*') flags |= ACCEPT_JSON;
    else if (type === 'text/event-stream' || type === 'text/*') flags |= ACCEPT_EVENT_STREAM;
    else if (type === '*/*') flags |= ACCEPT_BOTH;
  }
  lastAccept = value;
  lastAcceptFlags = flags;
  return flags;
}

/** True when a Content-Type's essence is application/json; parameters such as charset are ignored. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json';
}
