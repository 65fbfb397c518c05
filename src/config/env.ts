// `${VAR}` / `${VAR:-default}` substitution in the string values of a parsed config tree (never in
// keys). `$${` is a literal `${`. Reports unset variables by name and path; it never reports a
// value, because values are secrets.
//
// `${user.NAME}` is not an environment variable but a per-user secret (issue 33), filled per user
// when a connection opens (config/types.ts fillUserRefs): it is left as it is, and so is its escape
// `$${user.`, which only the fill turns into a literal `${user.` (see keepUserEscapes).

export type Segment = string | number;

export interface StringSubstitution {
  value: string;
  /** Variables referenced, unset and without a default (each substituted by ""). */
  unset: string[];
  /** Set when the string has a broken `${...}`; `value` is then the input unchanged. */
  malformed?: string;
  /** Whether the string had at least one `${...}` reference (an escape alone does not count). */
  substituted: boolean;
  /** Names of the `${user.NAME}` references, left as they are (absent when there are none). */
  userRefs?: string[];
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const USER_REF = '${user.';

class Malformed extends Error {}

/**
 * Substitutes one string. `${VAR:-default}` uses the default when VAR is unset or empty, as in
 * the shell; the default may itself contain references. A `$` not followed by `{` is literal.
 * `${user.NAME}` stays as it is; its escape `$${user.` stays too when `keepUserEscapes` (where
 * user references are read later: headers and env values), else it becomes a literal `${user.`.
 */
export function substituteString(input: string, env: NodeJS.ProcessEnv, keepUserEscapes = false): StringSubstitution {
  const unset: string[] = [];
  const userRefs: string[] = [];
  let substituted = false;

  // Reads from i until the end, or (inDefault) until the `}` closing a default; returns the text
  // and the index where it stopped.
  const read = (i: number, inDefault: boolean): [string, number] => {
    let out = '';
    while (i < input.length) {
      if (inDefault && input[i] === '}') return [out, i];
      if (keepUserEscapes && input.startsWith(`$${USER_REF}`, i)) {
        out += `$${USER_REF}`;
        i += 1 + USER_REF.length;
      } else if (input.startsWith('$${', i)) {
        out += '${';
        i += 3;
      } else if (input.startsWith(USER_REF, i)) {
        NAME.lastIndex = i + USER_REF.length;
        const name = NAME.exec(input)?.[0];
        if (!name) throw new Malformed('expected a secret name after ${user. (letters, digits and _, not starting with a digit)');
        const after = i + USER_REF.length + name.length;
        if (input.startsWith(':-', after)) throw new Malformed(`\${user.${name}} takes no default: it is the user's own secret`);
        if (input[after] !== '}') throw new Malformed(`\${user.${name} is missing its closing }`);
        userRefs.push(name);
        out += input.slice(i, after + 1);
        i = after + 1;
      } else if (input.startsWith('${', i)) {
        substituted = true;
        NAME.lastIndex = i + 2;
        const name = NAME.exec(input)?.[0];
        if (!name) throw new Malformed('expected a variable name after ${');
        const after = i + 2 + name.length;
        const value = env[name];
        if (input[after] === '}') {
          if (value === undefined) unset.push(name);
          out += value ?? '';
          i = after + 1;
        } else if (input.startsWith(':-', after)) {
          const unsetBefore = unset.length;
          const [fallback, end] = read(after + 2, true);
          if (end >= input.length) throw new Malformed(`\${${name}:-... is missing its closing }`);
          if (value === undefined || value === '') out += fallback;
          else {
            unset.length = unsetBefore; // the default was not used: its variables do not matter
            out += value;
          }
          i = end + 1;
        } else if (after >= input.length) {
          throw new Malformed(`\${${name} is missing its closing }`);
        } else {
          throw new Malformed(`after \${${name} expected } or :-default}`);
        }
      } else {
        out += input[i];
        i += 1;
      }
    }
    return [out, i];
  };

  try {
    const [value] = read(0, false);
    return { value, unset, substituted, ...(userRefs.length ? { userRefs } : {}) };
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    return { value: input, unset: [], malformed: err.message, substituted: false };
  }
}

export interface TreeSubstitution {
  value: unknown;
  unset: { path: Segment[]; name: string }[];
  malformed: { path: Segment[]; message: string }[];
  /** Every string with `${user.NAME}` references: where, and the names. */
  userRefs: { path: Segment[]; names: string[] }[];
}

/** Where `${user.NAME}` may be: a value of a server's `headers` (HTTP) or `env` (stdio). */
export function userRefsAllowedAt(path: readonly Segment[]): boolean {
  return path.length === 4 && (path[0] === 'servers' || path[0] === 'mcpServers') && (path[2] === 'headers' || path[2] === 'env');
}

/**
 * Substitutes every string value in a tree of plain data (as parsed from YAML). `coerce` may
 * turn a string that held a reference into another type (e.g. `"8808"` into 8808 for a port).
 */
export function substituteTree(root: unknown, env: NodeJS.ProcessEnv, coerce: (path: Segment[], value: string) => unknown = (_, v) => v): TreeSubstitution {
  const result: TreeSubstitution = { value: undefined, unset: [], malformed: [], userRefs: [] };
  const walk = (node: unknown, path: Segment[]): unknown => {
    if (typeof node === 'string') {
      const s = substituteString(node, env, userRefsAllowedAt(path));
      for (const name of s.unset) result.unset.push({ path, name });
      if (s.userRefs) result.userRefs.push({ path, names: s.userRefs });
      if (s.malformed) result.malformed.push({ path, message: s.malformed });
      return s.substituted ? coerce(path, s.value) : s.value;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (node !== null && typeof node === 'object') {
      // fromEntries defines properties, so a `__proto__` key stays a plain key.
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, [...path, key])]));
    }
    return node;
  };
  result.value = walk(root, []);
  return result;
}
