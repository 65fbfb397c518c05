// JS-safe names for servers and tools: `tools.<server>.<tool>` must be plain property access.
// Deterministic (same input set → same names, whatever the order) and injective: a name that is
// already an identifier keeps it; others get non-identifier characters replaced by `_`, and when
// two names land on the same result, the converted ones get a short hash of their original name.

export interface CallableRef {
  server: string;
  tool: string;
}

export interface NamedCallable<T extends CallableRef = CallableRef> {
  entry: T;
  /** JS-safe names: `tools[serverName][toolName]`. */
  serverName: string;
  toolName: string;
  /** What the script writes: `tools.<serverName>.<toolName>`. */
  path: string;
}

export interface BindingNames<T extends CallableRef = CallableRef> {
  /** Every callable, sorted by (server, tool). */
  list: NamedCallable<T>[];
  /** Safe server name → its original name. */
  servers: Map<string, string>;
  /** Finds a callable by `tools.a.b`, `a.b` (safe or original names), or a tool name alone when unique. */
  resolve(name: string): NamedCallable<T> | undefined;
  /** The callable of an original (server, tool) pair. */
  get(server: string, tool: string): NamedCallable<T> | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** `tools.search` and `tools.describe` are the gateway's; `__proto__` is no name for a property. */
const RESERVED_SERVER = new Set(['search', 'describe', '__proto__']);
const RESERVED_TOOL = new Set(['__proto__']);

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** FNV-1a over UTF-16 code units: short, stable across runs and platforms. */
function hash(text: string, length: number): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let h2 = h ^ 0x5bd1e995;
  for (let i = text.length - 1; i >= 0; i--) h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return (h.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).slice(0, length);
}

function candidate(name: string, reserved: ReadonlySet<string>): string {
  let safe = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (safe === '' || /^[0-9]/.test(safe)) safe = `_${safe}`;
  if (reserved.has(safe)) safe = `${safe}_`;
  return safe;
}

/** Safe names for a set of distinct names (the result maps each original to its safe name). */
export function safeNames(names: Iterable<string>, reserved: ReadonlySet<string> = new Set()): Map<string, string> {
  const originals = [...new Set(names)].sort();
  const groups = new Map<string, string[]>();
  for (const name of originals) {
    const c = candidate(name, reserved);
    groups.set(c, [...(groups.get(c) ?? []), name]);
  }
  for (let length = 6; ; length += 2) {
    const out = new Map<string, string>();
    for (const [c, members] of groups) {
      for (const name of members) out.set(name, members.length === 1 || name === c ? c : `${c}_${hash(name, length)}`);
    }
    // A hash suffix can, in theory, meet another name: lengthen the hash until nothing collides.
    if (new Set(out.values()).size === out.size) return out;
    if (length >= 16) return new Map(originals.map((name, i) => [name, `${candidate(name, reserved)}_${i}`]));
  }
}

export function bindingNames<T extends CallableRef>(callables: readonly T[]): BindingNames<T> {
  const serverSafe = safeNames(
    callables.map((c) => c.server),
    RESERVED_SERVER,
  );
  const toolsByServer = new Map<string, string[]>();
  for (const c of callables) toolsByServer.set(c.server, [...(toolsByServer.get(c.server) ?? []), c.tool]);
  const toolSafe = new Map([...toolsByServer].map(([server, tools]) => [server, safeNames(tools, RESERVED_TOOL)]));

  const list: NamedCallable<T>[] = [];
  const seen = new Set<string>();
  for (const entry of callables) {
    const key = `${entry.server}\u0000${entry.tool}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const serverName = serverSafe.get(entry.server)!;
    const toolName = toolSafe.get(entry.server)!.get(entry.tool)!;
    list.push({ entry, serverName, toolName, path: `tools.${serverName}.${toolName}` });
  }
  list.sort((a, b) => cmp(a.entry.server, b.entry.server) || cmp(a.entry.tool, b.entry.tool));

  const byKey = new Map(list.map((n) => [`${n.entry.server}\u0000${n.entry.tool}`, n]));
  const bySafe = new Map(list.map((n) => [`${n.serverName}\u0000${n.toolName}`, n]));
  const byTool = new Map<string, NamedCallable<T>[]>();
  for (const n of list) {
    for (const t of new Set([n.toolName, n.entry.tool])) byTool.set(t, [...(byTool.get(t) ?? []), n]);
  }

  function resolve(name: string): NamedCallable<T> | undefined {
    const text = name.trim().replace(/^tools\./, '');
    // Original names may hold dots themselves: try every split point.
    for (let i = text.indexOf('.'); i > 0; i = text.indexOf('.', i + 1)) {
      const server = text.slice(0, i);
      const tool = text.slice(i + 1);
      const hit = bySafe.get(`${server}\u0000${tool}`) ?? byKey.get(`${server}\u0000${tool}`);
      if (hit) return hit;
    }
    const alone = byTool.get(text);
    return alone?.length === 1 ? alone[0] : undefined;
  }

  return {
    list,
    servers: new Map([...serverSafe].map(([original, safe]) => [safe, original])),
    resolve,
    get: (server, tool) => byKey.get(`${server}\u0000${tool}`),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
