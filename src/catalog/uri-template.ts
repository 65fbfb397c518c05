// RFC 6570 URI template expansion with string values (MCP completion arguments are strings), to
// learn which URI a completed value would make. Two spellings: the RFC's, which percent-encodes
// what the operator does not allow (`{path}` with `a/b` → `a%2Fb`), and the raw one a naive client
// makes by pasting the value in (`a/b`). Pure and total: an expression it cannot read stays as
// written, and a character that cannot be encoded (a lone surrogate) stays raw.

export type Expansion = 'rfc6570' | 'raw';

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  /** What follows a name whose value is empty (`?x=` but `;x`). */
  ifEmpty: string;
  /** Reserved characters and escapes pass as they are (`+`, `#`). */
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const VARSPEC = /^([A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9]\d{0,3}|\*)?$/;

function encode(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (UNRESERVED.test(c) || (reserved && RESERVED.test(c))) {
      out += c;
    } else if (reserved && c === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      out += value.slice(i, i + 3);
      i += 2;
    } else {
      const cp = String.fromCodePoint(value.codePointAt(i)!);
      try {
        out += encodeURIComponent(cp).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
      } catch {
        out += cp; // a lone surrogate: no URI holds it, and canonicalUri refuses it
      }
      i += cp.length - 1;
    }
  }
  return out;
}

/** The first `n` code points of `value`. */
const prefix = (value: string, n: number): string => [...value].slice(0, n).join('');

function expression(body: string, vars: Readonly<Record<string, string>>, mode: Expansion): string | undefined {
  const op = body.length > 0 && '+#./;?&'.includes(body[0]!) ? body[0]! : '';
  const o = OPERATORS[op]!;
  const specs = body.slice(op.length).split(',');
  if (specs.some((s) => !VARSPEC.test(s))) return undefined;
  const parts: string[] = [];
  for (const spec of specs) {
    const m = /^(.*?)(?::(\d+)|\*)?$/.exec(spec)!;
    const name = m[1]!;
    const raw = vars[name];
    if (typeof raw !== 'string') continue; // undefined: the variable is left out
    const value = m[2] !== undefined ? prefix(raw, Number(m[2])) : raw;
    const text = mode === 'raw' ? value : encode(value, o.reserved);
    parts.push(o.named ? (value === '' ? name + o.ifEmpty : `${name}=${text}`) : text);
  }
  return parts.length === 0 ? '' : o.first + parts.join(o.sep);
}

/** `template` with `vars` filled in, spelled as `mode` says. */
export function expandTemplate(template: string, vars: Readonly<Record<string, string>>, mode: Expansion): string {
  return template.replace(/\{([^{}]*)\}/g, (whole, body: string) => expression(body, vars, mode) ?? whole);
}

export const EXPANSIONS: readonly Expansion[] = ['rfc6570', 'raw'];
