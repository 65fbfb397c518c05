// Canonical resource URIs, so that allow/deny globs judge the resource a server will read rather
// than one spelling of it. Pure and total: never throws. Invariants: canonical of canonical is
// itself; a refused URI (ok: false) is never judged, filters treat it as denied.
//
// The canonical form (RFC 3986 §6.2.2 plus what servers do):
//   - scheme and host in lower case; userinfo kept; an empty port and a scheme's default port
//     (http/ws 80, https/wss 443, ftp 21) dropped, leading zeros of a port dropped
//   - `file:` with host `localhost` or no authority (`file:/x`) becomes `file:///x`
//   - escapes in upper-case hex; an escape of an unreserved character is decoded; in a
//     hierarchical path also escapes of sub-delims, `:` `@` `[` `]` (a path is a name to servers:
//     only `/ ? # %` mean something there); characters outside RFC 3986 (space, `"`, `{`,
//     non-ASCII...) are percent-encoded as UTF-8
//   - hierarchical paths: runs of `/` merged, dot segments removed (§5.2.4), but `//` before a
//     `..` is refused (POSIX merges first, RFC 3986 and WHATWG pop the empty segment: they read
//     different files); the empty path of http(s)/ws(s)/ftp/file is `/`
//   - opaque URIs (`mailto:x`, `urn:a:b`, `demo:x/y`): only the scheme and escapes change
// The last `+`-part of a scheme picks the scheme rules: `demo+file:` is a namespaced `file:`.
// Refused, because no glob can judge them reliably: see the reasons in canonicalUri below. The
// rule behind them: refuse what a common server library (WHATWG URL, Python's urllib.parse, the
// OS under them) may read as another resource than this canonical form names: a `file:` host
// other than `localhost`, a path a Windows server reads as a share (`file:////x`) or a drive
// (`C|`), encoded delimiters in an authority, http(s) hosts that parse to another host.

export const MAX_URI_LENGTH = 8192;

export type CanonicalUri = { ok: true; uri: string } | { ok: false; reason: string };

/** Where a piece of text sits in a URI: it decides which escapes decode. */
export type UriComponent = 'userinfo' | 'host' | 'path' | 'strict-path' | 'query' | 'opaque' | 'unknown';

/** RFC 3986 unreserved, gen-delims and sub-delims: what a canonical URI holds unescaped. */
const RAW = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PATH_DECODES = /^[A-Za-z0-9\-._~!$&'()*+,;=:@[\]]$/;
/** A path where `;` starts parameters to some servers (see STRICT_PATHS): `%3B` stays encoded. */
const STRICT_PATH_DECODES = /^[A-Za-z0-9\-._~!$&'()*+,=:@[\]]$/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21 };
/** Schemes that WHATWG URL parsers (Node's `new URL`) treat specially: they need a host. */
const NEEDS_HOST = new Set(['http', 'https', 'ws', 'wss', 'ftp']);
/**
 * Schemes whose paths servers split at a raw `;`: Python's urlparse cuts `;params` off the last
 * segment of any URI (`file:///srv/secret.txt;x` is /srv/secret.txt to it), Java servlet
 * containers off every segment of an http path (`/admin;x/key` is /admin/key). Their paths
 * refuse a raw `;`, and a literal `;` is spelt `%3B`.
 */
export const STRICT_PATHS: ReadonlySet<string> = new Set(['file', ...NEEDS_HOST]);

class Refused extends Error {}
function refuse(reason: string): never {
  throw new Refused(reason);
}

/** The scheme whose rules apply: `demo+file` → `file` (the gateway namespaces as `<prefix>+<uri>`). */
export const schemeRules = (scheme: string): string => scheme.slice(scheme.lastIndexOf('+') + 1).toLowerCase();

/** The canonical spelling of the escape `%<hex>` in a component: the character or `%HH`. */
export function canonicalEscape(hex: string, component: UriComponent): string {
  const upper = hex.toUpperCase();
  const ch = String.fromCharCode(parseInt(upper, 16));
  const decodes = component === 'path' ? PATH_DECODES.test(ch) : component === 'strict-path' ? STRICT_PATH_DECODES.test(ch) : UNRESERVED.test(ch);
  if (!decodes) return `%${upper}`;
  return component === 'host' ? ch.toLowerCase() : ch;
}

/** The canonical spelling of one code point written raw (a surrogate pair is one code point). */
export function canonicalRaw(codePoint: string, component: UriComponent): string {
  if (RAW.test(codePoint)) return component === 'host' ? codePoint.toLowerCase() : codePoint;
  return encodeURIComponent(codePoint); // UTF-8, upper-case hex; callers exclude lone surrogates
}

/** Text that is already canonical in any component except a host (which also lower-cases). */
const PLAIN = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]*$/;

function canonicalText(text: string, component: UriComponent): string {
  if (PLAIN.test(text)) return component === 'host' ? text.toLowerCase() : text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      out += canonicalEscape(text.slice(i + 1, i + 3), component); // validity checked up front
      i += 2;
    } else {
      const cp = String.fromCodePoint(text.codePointAt(i)!);
      out += canonicalRaw(cp, component);
      i += cp.length - 1;
    }
  }
  return out;
}

/** A `.` or `..` segment, also Tomcat-style `..;param` (such servers drop the parameters). */
export const isDotSegment = (segment: string): boolean => /^\.\.?(?:;|$)/.test(segment);

function canonicalAuthority(authority: string, rules: string): string {
  if (authority.includes('\\')) refuse('has a backslash in its authority');
  // A server that decodes the URI before it parses it would end the authority there.
  if (/%(2F|5C)/i.test(authority)) refuse('has an encoded / or \\ in its authority');
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? canonicalText(authority.slice(0, at), 'userinfo') : undefined;
  const hostPort = authority.slice(at + 1);
  const bracket = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
  if (hostPort.startsWith('[') && bracket < 0) refuse('has an unclosed [ in its host');
  const colon = hostPort.indexOf(':', bracket + 1);
  const rawHost = colon < 0 ? hostPort : hostPort.slice(0, colon);
  // Decoded, each of these splits the host another way (`a%40b` is user `a` at host `b`).
  if (/%(3F|23|40|3A|5B|5D)/i.test(rawHost)) refuse('has an encoded delimiter (? # @ : [ ]) in its host');
  let host = canonicalText(rawHost, 'host');
  let port = colon < 0 ? '' : hostPort.slice(colon + 1);
  if (!/^\d*$/.test(port)) refuse('has a port that is not a number');
  if (port !== '') {
    const n = Number(port);
    if (n > 65535) refuse('has a port above 65535');
    port = n === DEFAULT_PORTS[rules] ? '' : String(n);
  }
  if (rules === 'file') {
    if (userinfo !== undefined || port !== '') refuse('is a file URI with a user or a port');
    // Servers map file URIs with `new URL(uri).pathname` or `urlparse(uri).path`: the host is
    // dropped, so `file://x/secret` is the local /secret to them (a network share on Windows).
    if (host !== '' && host !== 'localhost') refuse('is a file URI with a host other than localhost');
    host = '';
  }
  if (NEEDS_HOST.has(rules)) checkNetworkHost(host, rules);
  return (userinfo !== undefined ? `${userinfo}@` : '') + host + (port !== '' ? `:${port}` : '');
}

/**
 * The host of an http(s), ws(s) or ftp URI must be the one every client library reads: WHATWG
 * URL turns `127.1`, `0x7f.0.0.1` and `2130706433` into `127.0.0.1` (and resolvers accept them),
 * maps full-width letters and IDN labels to other ASCII hosts (and IDNA 2003 and 2008 disagree,
 * `faß.de`), and DNS ignores a final dot. Rules could judge none of those as the host they reach.
 */
function checkNetworkHost(host: string, rules: string): void {
  if (host === '') refuse('has no host');
  if (host.includes('%')) refuse('has a non-ASCII or percent-encoded host');
  if (host.endsWith('.')) refuse('has a host ending in a dot');
  // Plain names WHATWG keeps as they are: no IDN label, not ending in a number (an IPv4 form).
  if (PLAIN_HOST.test(host) && !/(^|\.)(\d+|0x[0-9a-f]*)$/.test(host) && !/(^|\.)xn--/.test(host)) return;
  let parsed: string | undefined;
  try {
    parsed = new URL(`${rules}://${host}/`).hostname;
  } catch {
    // below
  }
  if (parsed !== host) refuse('has a host that URL parsers read as another (an IP address or IDN spelling)');
}

const PLAIN_HOST = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/** A Windows drive letter as WHATWG URL knows it, which `..` never climbs above (`/C:/..` is `/C:/`). */
const DRIVE = /^[A-Za-z]:$/;

/** A path that starts with `/`: merged slashes, no dot segments, never above the root. */
function canonicalPath(path: string, rules: string): string {
  const kept: string[] = [];
  let trailingSlash = false;
  let emptySegment = false;
  const segments = path.slice(1).split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = canonicalText(segments[i]!, STRICT_PATHS.has(rules) ? 'strict-path' : 'path');
    const last = i === segments.length - 1;
    if (segment === '' || segment === '.') {
      // WHATWG keeps empty segments: `file:////x` and `file:///.//x` have the path `//x`, which
      // a Windows server reads as the network share \\x.
      if (rules === 'file' && segment === '' && !last && kept.length === 0) refuse('is a file URI whose path starts with // once resolved');
      emptySegment ||= segment === '' && !last;
      trailingSlash = last;
    } else if (segment === '..') {
      // `a//..`: RFC 3986 and WHATWG pop the empty segment (→ `a/`), POSIX merges first (→ `/`).
      if (emptySegment) refuse('has // before .. (servers resolve that differently)');
      if (kept.length === 0) refuse('climbs above the root with ..');
      if (rules === 'file' && kept.length === 1 && DRIVE.test(kept[0]!)) refuse('climbs above a Windows drive letter with ..');
      kept.pop();
      trailingSlash = last;
    } else if (isDotSegment(segment)) {
      refuse('has a dot segment with ;parameters');
    } else {
      // WHATWG URL reads a first segment `C|` (also one that `..` made first) as the drive `C:`.
      if (rules === 'file' && kept.length === 0 && /^[A-Za-z]%7C$/.test(segment)) refuse('has a Windows drive letter written with |');
      kept.push(segment);
      trailingSlash = false;
    }
  }
  return `/${kept.join('/')}${trailingSlash && kept.length > 0 ? '/' : ''}`;
}

function canonical(uri: string): string {
  if (uri.length > MAX_URI_LENGTH) refuse(`is longer than ${MAX_URI_LENGTH} characters`);
  if (/[\u0000-\u001F\u007F-\u009F]/.test(uri)) refuse('contains a control character');
  if (LONE_SURROGATE.test(uri)) refuse('is not well-formed Unicode (a lone surrogate)');
  // WHATWG URL drops spaces (and controls, refused above) at both ends: `…/secret.txt ` is `…/secret.txt`.
  if (uri.endsWith(' ') || uri.startsWith(' ')) refuse('starts or ends with a space');
  const match = SCHEME.exec(uri);
  if (!match) return refuse('is a relative reference (no scheme)');
  // A fragment never reaches a server that parses URIs, and is a path to one that does not.
  if (uri.includes('#')) refuse('has a fragment');
  if (/%(?![0-9A-Fa-f]{2})/.test(uri)) refuse('has an invalid percent-escape');
  if (/%00/.test(uri)) refuse('has an encoded NUL');

  const scheme = match[1]!.toLowerCase();
  const rules = schemeRules(scheme);
  let rest = uri.slice(match[0].length);
  const q = rest.indexOf('?');
  const query = q < 0 ? undefined : rest.slice(q + 1);
  if (q >= 0) rest = rest.slice(0, q);

  let authority: string | undefined;
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    authority = canonicalAuthority(slash < 0 ? rest.slice(2) : rest.slice(2, slash), rules);
    path = slash < 0 ? '' : rest.slice(slash);
  } else if (rules === 'file') {
    if (!path.startsWith('/')) refuse('is a file URI without an absolute path');
    authority = '';
  } else if (NEEDS_HOST.has(rules)) {
    refuse('has no host');
  }

  if (path.includes('\\')) refuse('has a backslash in its path');
  if (/%2F|%5C/i.test(path)) refuse('has an encoded / or \\ in its path');
  if (STRICT_PATHS.has(rules) && path.includes(';')) refuse('has a ; in its path (servers that read ;parameters read another path)');
  let out = `${scheme}:${authority !== undefined ? `//${authority}` : ''}`;
  if (authority !== undefined || path.startsWith('/')) {
    out += path === '' ? (rules === 'file' || NEEDS_HOST.has(rules) ? '/' : '') : canonicalPath(path, rules);
  } else {
    const opaque = canonicalText(path, 'opaque');
    if (opaque.split('/').some(isDotSegment)) refuse('has a dot segment in a path without a root');
    out += opaque;
  }

  if (query !== undefined) {
    // A file server may take `?` for part of the name; `?/../x` would then climb.
    if (rules === 'file') refuse('is a file URI with a query');
    const canonicalQuery = canonicalText(query, 'query');
    if (canonicalQuery.split('/').some(isDotSegment)) refuse('has a dot segment in its query');
    out += `?${canonicalQuery}`;
  }
  // Still an escape after one decode (`%252e`, `%25%32%65`): a server that decodes twice reads
  // other text than the rules judged.
  if (/%25[0-9A-Fa-f]{2}/.test(out)) refuse('is percent-encoded twice');
  if (out.length > MAX_URI_LENGTH) refuse(`is longer than ${MAX_URI_LENGTH} characters once canonical`);
  return out;
}

/**
 * The canonical form of a resource URI, or why it is refused. Reasons never quote the URI (it
 * may carry credentials); they read after "the URI ", e.g. "the URI has a fragment".
 */
export function canonicalUri(uri: string): CanonicalUri {
  if (typeof uri !== 'string') return { ok: false, reason: 'is not a string' };
  try {
    return { ok: true, uri: canonical(uri) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    return { ok: false, reason: 'could not be parsed' }; // never expected; totality beats a crash
  }
}
