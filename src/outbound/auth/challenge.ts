// Parse a WWW-Authenticate header (RFC 9110 §11.6.1) into challenges, and read the Bearer one
// (RFC 6750 §3, RFC 9728 §5.1). Pure and total: any input yields a (possibly empty) list, never
// a throw, because the header comes from a server we do not trust.

export interface Challenge {
  /** Lower-cased auth scheme, e.g. `bearer`. */
  scheme: string;
  /** Lower-cased parameter names; values unquoted. */
  params: Record<string, string>;
  token68?: string;
}

export interface BearerChallenge {
  resourceMetadata?: string;
  scope?: string[];
  error?: string;
  errorDescription?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*/;

export function parseWwwAuthenticate(header: string | undefined): Challenge[] {
  if (!header) return [];
  const out: Challenge[] = [];
  let rest = header;
  let current: Challenge | undefined;
  const skip = (re: RegExp) => {
    const m = re.exec(rest);
    if (m) rest = rest.slice(m[0].length);
    return m?.[0];
  };
  while (rest.length > 0) {
    skip(/^[\s,]+/);
    if (rest.length === 0) break;
    const name = skip(TOKEN);
    if (name === undefined) {
      rest = rest.slice(1); // garbage: drop one char and go on
      continue;
    }
    skip(/^[ \t]*/);
    if (rest.startsWith('=') && current !== undefined && !/^==*\s*(,|$)/.test(rest)) {
      // auth-param of the current challenge
      rest = rest.slice(1);
      skip(/^[ \t]*/);
      let value = '';
      if (rest.startsWith('"')) {
        let i = 1;
        while (i < rest.length && rest[i] !== '"') {
          if (rest[i] === '\\' && i + 1 < rest.length) i++;
          value += rest[i];
          i++;
        }
        rest = rest.slice(Math.min(i + 1, rest.length));
      } else {
        value = skip(TOKEN) ?? '';
      }
      const key = name.toLowerCase();
      if (!(key in current.params)) current.params[key] = value;
      continue;
    }
    // a new challenge: scheme [token68 | params]
    current = { scheme: name.toLowerCase(), params: {} };
    out.push(current);
    const m = TOKEN68.exec(rest);
    if (m && /^\s*(,|$)/.test(rest.slice(m[0].length)) && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=[^=]/.test(rest)) {
      current.token68 = m[0];
      rest = rest.slice(m[0].length);
    }
  }
  return out;
}

/** The Bearer challenge's parameters, or undefined when the header has no Bearer challenge. */
export function bearerChallenge(header: string | undefined): BearerChallenge | undefined {
  const c = parseWwwAuthenticate(header).find((x) => x.scheme === 'bearer');
  if (!c) return undefined;
  const out: BearerChallenge = {};
  if (c.params.resource_metadata) out.resourceMetadata = c.params.resource_metadata;
  if (c.params.scope !== undefined) {
    const scopes = splitScopes(c.params.scope);
    if (scopes.length > 0) out.scope = scopes;
  }
  if (c.params.error) out.error = c.params.error;
  if (c.params.error_description) out.errorDescription = c.params.error_description;
  return out;
}

export function splitScopes(value: string | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(/[ \t]+/).filter((s) => s.length > 0))];
}
