// `${VAR}` / `${VAR:-default}` substitution in the string values of a parsed config tree (never in
// keys). `$${` is a literal `${`. Reports unset variables by name and path; it never reports a
// value, because values are secrets.

export type Segment = string | number;

export interface StringSubstitution {
  value: string;
  /** Variables referenced, unset and without a default (each substituted by ""). */
  unset: string[];
  /** Set when the string has a broken `${...}`; `value` is then the input unchanged. */
  malformed?: string;
  /** Whether the string had at least one `${...}` reference (an escape alone does not count). */
  substituted: boolean;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

class Malformed extends Error {}

/**
 * Substitutes one string. `${VAR:-default}` uses the default when VAR is unset or empty, as in
 * the shell; the default may itself contain references. A `$` not followed by `{` is literal.
 */
export function substituteString(input: string, env: NodeJS.ProcessEnv): StringSubstitution {
  const unset: string[] = [];
  let substituted = false;

  // Reads from i until the end, or (inDefault) until the `}` closing a default; returns the text
  // and the index where it stopped.
  const read = (i: number, inDefault: boolean): [string, number] => {
    let out = '';
    while (i < input.length) {
      if (inDefault && input[i] === '}') return [out, i];
      if (input.startsWith('$${', i)) {
        out += '${';
        i += 3;
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
    return { value, unset, substituted };
  } catch (err) {
    if (!(err instanceof Malformed)) throw err;
    return { value: input, unset: [], malformed: err.message, substituted: false };
  }
}

export interface TreeSubstitution {
  value: unknown;
  unset: { path: Segment[]; name: string }[];
  malformed: { path: Segment[]; message: string }[];
}

/**
 * Substitutes every string value in a tree of plain data (as parsed from YAML). `coerce` may
 * turn a string that held a reference into another type (e.g. `"8808"` into 8808 for a port).
 */
export function substituteTree(root: unknown, env: NodeJS.ProcessEnv, coerce: (path: Segment[], value: string) => unknown = (_, v) => v): TreeSubstitution {
  const result: TreeSubstitution = { value: undefined, unset: [], malformed: [] };
  const walk = (node: unknown, path: Segment[]): unknown => {
    if (typeof node === 'string') {
      const s = substituteString(node, env);
      for (const name of s.unset) result.unset.push({ path, name });
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
