// A registry server.json turned into a config entry: which package (or remote) to run and how,
// pinned to the version (and digest) the registry names: npm → npx, pypi → uvx, oci → docker,
// nuget → dnx, the runners the schema's runtimeHint names. Pure: no I/O; an mcpb package comes back
// as a plan (its archive is fetched and unpacked by cli/mcpb.ts, which fills in the command).
//
// What is required and not given (an environment variable, a header, an argument's value) becomes
// a `${VAR}` reference, with the registry's description kept for a YAML comment beside it, so the
// file says what to set and `switchboard check` says what is still unset.

import type { ArgumentJson, InputJson, KeyValueJson, PackageJson, RemoteJson, ServerJson } from './registry-client.js';

export class EntryError extends Error {}

export interface PlannedEntry {
  /** The config entry, in the order its keys are written. */
  entry: Record<string, unknown>;
  /** Descriptions (YAML comments): of env and headers keys, and of `${VAR}`s made from template variables and arguments. */
  notes: { env: Record<string, string>; headers: Record<string, string>; vars: Record<string, string> };
  /** What the entry was made from, for the comment above it. */
  source: string;
  /** Things the user should know (an unpinned image, optional variables left out). */
  warnings: string[];
  /** An mcpb package: its archive to download, verify and unpack before the command is known. */
  mcpb?: { url: string; sha256: string };
}

/** Package kinds in the order they are preferred: ones a runner fetches by exact version first. */
const PREFERRED = ['npm', 'pypi', 'oci', 'nuget', 'mcpb'];

/**
 * The runner of each kind: the four the server.json schema names as `runtimeHint` examples, one per
 * kind, each one that fetches the package at the exact version pinned. A hint naming another
 * runner is not followed (the schema says nothing of how another would be called).
 */
const RUNNERS: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/** The config's name for a registry name: its part after the slash, in lowercase letters, digits and -. */
export function localName(registryName: string): string {
  const tail = registryName.slice(registryName.lastIndexOf('/') + 1);
  const name = tail
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  if (!name) throw new EntryError(`cannot make a server name from "${registryName}"`);
  return name;
}

/** An environment-variable name for a header or argument hint: X-API-Key → X_API_KEY. */
export function variableName(text: string): string {
  const v = text
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[0-9]/.test(v) || v === '' ? `V_${v}` : v;
}

export function planEntry(server: ServerJson, name = localName(server.name)): PlannedEntry {
  const packages = (server.packages ?? []).filter((p) => (p.transport?.type ?? 'stdio') === 'stdio');
  for (const kind of PREFERRED) {
    const pkg = packages.find((p) => p.registryType === kind);
    if (pkg) return packageEntry(server, pkg, name);
  }
  const remote = (server.remotes ?? []).find((r) => r.type === 'streamable-http' || r.type === 'sse');
  if (remote) return remoteEntry(server, remote, name);
  const kinds = [...new Set([...(server.packages ?? []).map((p) => `${p.registryType} (${p.transport?.type ?? 'stdio'})`), ...(server.remotes ?? []).map((r) => `remote ${r.type}`)])];
  throw new EntryError(
    `${server.name} ${server.version} has nothing switchboard can run${kinds.length ? `: it offers ${kinds.join(', ')}` : ': no packages and no remotes'} (supported: npm, pypi, oci, nuget and mcpb packages over stdio, streamable-http and sse remotes)`,
  );
}

function packageEntry(server: ServerJson, pkg: PackageJson, name: string): PlannedEntry {
  const warnings: string[] = [];
  checkRuntimeHint(server, pkg, warnings);
  const notes = { env: {} as Record<string, string>, headers: {} as Record<string, string>, vars: {} as Record<string, string> };
  const env = keyValues(pkg.environmentVariables ?? [], (v) => v.name, notes.env, notes.vars, warnings, 'environment variable');
  const runtime = argumentList(pkg.runtimeArguments ?? [], notes.vars);
  const after = argumentList(pkg.packageArguments ?? [], notes.vars);
  const version = pkg.version;
  const needVersion = () => {
    if (!version) throw new EntryError(`${server.name}: its ${pkg.registryType} package ${pkg.identifier} names no version, so it cannot be pinned`);
    return version;
  };
  let entry: Record<string, unknown>;
  let source: string;
  let mcpb: PlannedEntry['mcpb'];
  switch (pkg.registryType) {
    case 'npm':
      entry = { name, command: 'npx', args: ['-y', ...runtime, `${pkg.identifier}@${needVersion()}`, ...after] };
      source = `npm ${pkg.identifier}@${version}`;
      break;
    case 'pypi':
      entry = { name, command: 'uvx', args: [...runtime, `${pkg.identifier}==${needVersion()}`, ...after] };
      source = `pypi ${pkg.identifier}==${version}`;
      break;
    case 'oci': {
      const image = ociImage(pkg);
      if (!image.pinned) warnings.push(`the image ${image.ref} is not pinned by digest (the registry gives a tag only): docker may run different bytes later`);
      // docker passes the child's variables into the container only when named with -e.
      const passEnv = Object.keys(env).flatMap((k) => ['-e', k]);
      entry = { name, command: 'docker', args: ['run', '-i', '--rm', ...passEnv, ...runtime, image.ref, ...after] };
      source = `oci ${image.ref}${image.pinned ? '' : ' (unpinned: tag only)'}`;
      break;
    }
    case 'nuget':
      // dnx (the .NET 10 SDK) runs a NuGet tool package at this exact version; --yes answers its
      // download prompt (no one is there to answer it); the tool's own arguments come after --.
      entry = { name, command: 'dnx', args: [`${pkg.identifier}@${needVersion()}`, '--yes', ...runtime, ...(after.length > 0 ? ['--', ...after] : [])] };
      source = `nuget ${pkg.identifier}@${version}`;
      break;
    case 'mcpb':
      if (!pkg.fileSha256 || !/^[a-f0-9]{64}$/.test(pkg.fileSha256)) throw new EntryError(`${server.name}: its mcpb package has no valid fileSha256, so its download cannot be verified`);
      if (!/^https:\/\//.test(pkg.identifier) && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(pkg.identifier))
        throw new EntryError(`${server.name}: its mcpb package's identifier is not an https:// URL: ${pkg.identifier}`);
      mcpb = { url: pkg.identifier, sha256: pkg.fileSha256 };
      entry = { name, command: '', args: after };
      source = `mcpb ${pkg.identifier} sha256:${pkg.fileSha256}`;
      break;
    default:
      throw new EntryError(`${server.name}: ${pkg.registryType} packages are not supported`);
  }
  if (Object.keys(env).length > 0) entry.env = env;
  return { entry, notes, source: `${server.name} ${server.version}: ${source}`, warnings, ...(mcpb ? { mcpb } : {}) };
}

/**
 * `runtimeHint` names the runner the publisher had in mind. Ours for the kind: nothing to say. Another
 * one: the package still runs with ours (a warning), unless runtimeArguments were written for that
 * other runner, which ours would misread (an error). An mcpb bundle's manifest says how it runs.
 */
function checkRuntimeHint(server: ServerJson, pkg: PackageJson, warnings: string[]): void {
  const hint = pkg.runtimeHint?.trim();
  const runner = RUNNERS[pkg.registryType];
  if (pkg.registryType === 'mcpb') {
    if ((pkg.runtimeArguments ?? []).length > 0) warnings.push("the mcpb package's runtimeArguments are not used: the bundle's manifest.json gives the command that runs it");
    return;
  }
  if (!hint || !runner || hint === runner) return;
  if ((pkg.runtimeArguments ?? []).length > 0)
    throw new EntryError(
      `${server.name}: its ${pkg.registryType} package's runtimeArguments are for the runtime "${hint}", and switchboard runs ${pkg.registryType} packages with ${runner}, which could misread them`,
    );
  warnings.push(`the registry hints the runtime "${hint}" for ${pkg.identifier}; it runs with ${runner}, the runner for ${pkg.registryType} packages, which fetches the pinned version`);
}

function remoteEntry(server: ServerJson, remote: RemoteJson, name: string): PlannedEntry {
  const warnings: string[] = [];
  const notes = { env: {} as Record<string, string>, headers: {} as Record<string, string>, vars: {} as Record<string, string> };
  const url = fillTemplate(remote.url, remote.variables, notes.vars);
  const headers = keyValues(remote.headers ?? [], (h) => variableName(h.name), notes.headers, notes.vars, warnings, 'header');
  const entry: Record<string, unknown> = { name, url, transport: remote.type === 'sse' ? 'sse' : 'streamable-http' };
  if (Object.keys(headers).length > 0) entry.headers = headers;
  return { entry, notes, source: `${server.name} ${server.version}: remote ${remote.type} ${remote.url}`, warnings };
}

/**
 * Env vars or headers as config values: a fixed value as it is (its {variables} as references),
 * else a `${VAR}` reference (with the default as `${VAR:-default}`). An optional one without a
 * value or default is left out (an empty value could mean something to the server), and said.
 */
function keyValues(
  items: KeyValueJson[],
  varOf: (item: KeyValueJson) => string,
  notes: Record<string, string>,
  varNotes: Record<string, string>,
  warnings: string[],
  what: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    if (item.value !== undefined) {
      out[item.name] = fillTemplate(item.value, item.variables, varNotes);
    } else if (item.isRequired || item.default !== undefined) {
      const v = varOf(item);
      out[item.name] = item.default !== undefined && !item.isRequired ? `\${${v}:-${escapeDefault(item.default)}}` : `\${${v}}`;
    } else {
      warnings.push(`optional ${what} ${item.name} left out${item.description ? ` (${oneLine(item.description)})` : ''}: add it to the entry to set it`);
      continue;
    }
    const description = describe(item);
    if (description) notes[item.name] = description;
  }
  return out;
}

/** Arguments in order: a named one as its flag then its value; a missing value as a reference. */
function argumentList(args: ArgumentJson[], notes: Record<string, string>): string[] {
  const out: string[] = [];
  for (const a of args) {
    const value = a.value !== undefined ? fillTemplate(a.value, a.variables, notes) : a.default?.replaceAll('${', () => '$${');
    if (a.type === 'named') {
      if (!a.name) continue;
      if (value === undefined && !a.isRequired && a.format === 'boolean') continue;
      out.push(a.name);
      if (value !== undefined) out.push(value);
      else if (a.isRequired) out.push(reference(a.valueHint ?? a.name, a, notes));
      else out.pop();
    } else if (value !== undefined) out.push(value);
    else if (a.isRequired || a.valueHint) out.push(reference(a.valueHint ?? 'ARG', a, notes));
  }
  return out;
}

function reference(hint: string, input: InputJson, notes: Record<string, string>): string {
  const v = variableName(hint);
  const description = describe(input);
  if (description) notes[v] = description;
  return `\${${v}}`;
}

/** `{name}` in a value or URL template becomes `${NAME}` (for the variables the document declares). */
function fillTemplate(text: string, variables: Record<string, InputJson> | undefined, notes: Record<string, string>): string {
  const escaped = text.replaceAll('${', () => '$${'); // a function: in a replacement string $$ is one $
  return escaped.replace(/\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (whole, key: string, at: number) => {
    if (escaped[at - 1] === '$') return whole;
    const input = variables?.[key];
    if (variables && !input) return whole;
    const v = variableName(key);
    if (input?.default !== undefined && !input.isRequired) return `\${${v}:-${escapeDefault(input.default)}}`;
    const description = input ? describe(input) : undefined;
    if (description) notes[v] = description;
    return `\${${v}}`;
  });
}

function ociImage(pkg: PackageJson): { ref: string; pinned: boolean } {
  let ref = pkg.identifier;
  const pinned = /@sha256:[a-f0-9]{64}$/.test(ref);
  // Older documents give the tag as `version` beside a bare image name.
  if (!pinned && pkg.version && !/:[^/]+$/.test(ref)) ref = `${ref}:${pkg.version}`;
  return { ref, pinned };
}

function describe(input: InputJson): string | undefined {
  const parts = [input.description ? oneLine(input.description) : '', input.isSecret ? '(secret)' : '', input.isRequired ? '(required)' : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);
const escapeDefault = (text: string) => text.replaceAll('}', '');
