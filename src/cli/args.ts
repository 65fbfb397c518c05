// Command-line parsing for `switchboard <command> [options]`. Pure: argv in, a command or a
// usage error out.

import { parseArgs } from 'node:util';

export const USAGE = `Usage:
  switchboard serve [-c FILE] [--stdio] [--http HOST:PORT]
      Serve the merged catalog over Streamable HTTP (default) and/or stdio.
  switchboard check [-c FILE] [--json] [--client NAME]
      Validate the config, connect to every server, print the merged catalog
      (as client profile NAME sees it, with --client).
      Exit 0: all servers connected; 1: some failed; 2: invalid config.
  switchboard status [URL] [-c FILE] [--http HOST:PORT] [--json]
      Ask a running gateway for each server's state: the one at URL (what serve
      printed, e.g. http://127.0.0.1:8808/mcp), at HOST:PORT, or listening where the
      config says. A client token, if clients are configured, comes from SWITCHBOARD_TOKEN.
      Exit 0: all up; 1: some down; 3: no gateway answered; 4: it refused (401/403).
  switchboard search QUERY [-c FILE] [--client NAME] [--server NAME]... [--limit N] [--json]
      Connect to every server and run a tool search as search_tools would (as
      client profile NAME sees the catalog, with --client; only the tools of the
      servers named, with --server). Exit 2: a --server with no tools to search.
  switchboard run FILE [-c FILE] [--client NAME]
      Connect to every server and run a code-mode script (FILE, or - for stdin) as
      run_code would for client profile NAME: the result's JSON on stdout, console
      lines on stderr. Exit 0: it ran; 1: it failed (the error on stderr).
  switchboard lock [-c FILE]
      Connect to every server and write the lock file (pinning.lockFile): a SHA-256
      of each tool's definition. Commit it; changed tools are then held back.
  switchboard registry search TEXT [--registry URL] [--cursor C | --all] [--json]
      Search an MCP Registry (default: the config's registry.url, else the official
      https://registry.modelcontextprotocol.io) for servers whose name contains TEXT.
  switchboard add NAME[@VERSION] [-c FILE] [--registry URL] [--name LOCAL] [--dry-run] [--update]
      Append a pinned entry for registry server NAME (latest version unless @VERSION)
      to the config, keeping its comments: npm (npx), pypi (uvx), oci (docker, by
      digest), nuget (dnx), mcpb (downloaded, SHA-256 verified, unpacked) or a remote
      URL. Required variables become \${VAR} references. The entry is named LOCAL, else
      after NAME's part after the slash. --dry-run prints the entry and writes nothing;
      --update moves an existing entry to the new version. Exit 1: nothing changed.
  switchboard login SERVER [-c FILE]
      Authorize the gateway towards an OAuth-protected HTTP server: prints a URL to open
      (and opens a browser when there is one), then stores the tokens (mode 0600) where
      the running gateway picks them up. Exit 0: logged in; 1: failed; 2: no such server.
  switchboard logout SERVER [-c FILE]
      Forget the tokens of SERVER.
  switchboard users [list] [--user USER] [-c FILE] [--json]
      List who has a stored credential for which per-user server: user, server, kind
      (oauth or secrets), when obtained and last updated, the id of the key sealing it.
      Never a token or secret. From the credentials file, or Redis with state.redis.
  switchboard users revoke USER [SERVER] [-c FILE]
      Delete USER's credential for SERVER, or all of USER's; each is audited
      (credential.revoke). Exit 1: there was nothing to revoke.
  switchboard users connect SERVER [--user USER] [-c FILE]
      Store USER's own credential for the per-user SERVER (default USER: the config's
      credentials.localUser): its secrets, typed without echo (or NAME=value lines on
      stdin), or its OAuth login as for switchboard login. A running gateway lists the
      server's tools at once. The local user's first connect on stdio. Exit 1: not stored.
  switchboard users rotate [-c FILE]
      Re-seal every stored credential under the current key (after a key rotation).
      Exit 1: some records open with no key held.

Options:
  -c, --config FILE   config file (default: $SWITCHBOARD_CONFIG, else the demo config
                      this package ships: config/switchboard.yaml)
  --stdio             serve one client on stdin/stdout
  --http HOST:PORT    serve Streamable HTTP at http://HOST:PORT/<path> (port 0: any free port)
  --json              (check) machine-readable output
  --client NAME       (check, search, run) the catalog as client profile NAME sees it
  --server NAME       (search) only this server's tools; repeat for several
  --limit N           (search) most tools to print, 1..20 (default 5)
  --registry URL      (registry search, add) the MCP Registry to ask
  --cursor C          (registry search) the page after the one that printed C
  --all               (registry search) follow every page (at most 20)
  --name LOCAL        (add) the entry's name in the config (default: from NAME)
  --dry-run           (add) print the entry, change nothing
  --update            (add) move an entry already in the config to the new version
  --user USER         (users list) only this user's credentials; (users connect) whose
  --log-level LEVEL   trace | debug | info | warn | error | silent (env SWITCHBOARD_LOG_LEVEL)
  --log-format FMT    pretty | json (default: pretty on a terminal)
  -h, --help          this help
  -v, --version       print the version`;

export interface CliOptions {
  command: 'serve' | 'check' | 'lock' | 'status' | 'search' | 'run' | 'login' | 'logout' | 'users' | 'registry-search' | 'add' | 'help' | 'version';
  /** registry search, add: the registry's URL (--registry). */
  registry?: string;
  /** registry search: the page to read (--cursor); all: follow every page (--all). */
  cursor?: string;
  all?: boolean;
  /** add: NAME[@VERSION] of the registry server. */
  spec?: string;
  /** add: the entry's name in the config (--name), instead of one made from the registry name. */
  localName?: string;
  dryRun?: boolean;
  update?: boolean;
  /** users: list, revoke, rotate or connect. */
  usersAction?: 'list' | 'revoke' | 'rotate' | 'connect';
  /** users list: only this user's (--user); users revoke, users connect: whose. */
  user?: string;
  /** search: what to look for. */
  query?: string;
  /** run: the script's file (- for stdin). */
  file?: string;
  /** login, logout, users connect: the server's name; users revoke: only this server's. */
  server?: string;
  /** search: only these servers' tools (--server, repeated). */
  servers?: string[];
  /** status: the gateway's MCP endpoint URL, as serve printed it. */
  url?: string;
  limit?: number;
  client?: string;
  config?: string;
  stdio: boolean;
  http?: { host: string; port: number };
  json: boolean;
  logLevel?: string;
  logFormat?: 'pretty' | 'json';
}

export class UsageError extends Error {}

export function parseHostPort(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text) ?? /^()()(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--http expects HOST:PORT (e.g. 127.0.0.1:8808), got "${text}"`);
  return { host: m[1] || m[2] || '127.0.0.1', port };
}

/** node's parseArgs over our options; its errors become UsageError (exit 2 with the usage). */
function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string', short: 'c' },
        stdio: { type: 'boolean' },
        http: { type: 'string' },
        json: { type: 'boolean' },
        client: { type: 'string' },
        limit: { type: 'string' },
        server: { type: 'string', multiple: true },
        user: { type: 'string' },
        registry: { type: 'string' },
        cursor: { type: 'string' },
        all: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        update: { type: 'boolean' },
        name: { type: 'string' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function parseCli(argv: string[]): CliOptions {
  const { values, positionals } = parseOptions(argv);
  const format = values['log-format'];
  if (format !== undefined && format !== 'pretty' && format !== 'json') throw new UsageError('--log-format must be pretty or json');
  const base = {
    config: values.config,
    stdio: values.stdio ?? false,
    http: values.http !== undefined ? parseHostPort(values.http) : undefined,
    json: values.json ?? false,
    client: values.client,
    logLevel: values['log-level'],
    logFormat: format as CliOptions['logFormat'],
  };
  if (values.help) return { ...base, command: 'help' };
  if (values.version) return { ...base, command: 'version' };
  const [command, ...rest] = positionals;
  if (command === 'registry' || command === 'add') return { ...base, ...registryArgs(command, rest, values) };
  if (values.registry !== undefined || values.cursor !== undefined || values.all || values['dry-run'] || values.update || values.name !== undefined) {
    throw new UsageError('--registry, --cursor, --all, --name, --dry-run and --update only apply to registry search and add');
  }
  if (command === 'search') {
    if (rest.length !== 1 || rest[0]!.trim() === '') throw new UsageError('search expects one QUERY (quote it: switchboard search "open a bug")');
    const limit = values.limit === undefined ? 5 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw new UsageError('--limit expects an integer from 1 to 20');
    return { ...base, command, query: rest[0], limit, ...(values.server ? { servers: values.server } : {}) };
  }
  if (command === 'run') {
    if (rest.length !== 1 || rest[0]!.trim() === '') throw new UsageError('run expects one script FILE (or - to read it from stdin)');
    return { ...base, command, file: rest[0] };
  }
  if (command === 'login' || command === 'logout') {
    if (rest.length !== 1 || rest[0]!.trim() === '') throw new UsageError(`${command} expects the name of one server (switchboard ${command} SERVER)`);
    return { ...base, command, server: rest[0] };
  }
  if (command === 'users') return { ...base, command, ...usersArgs(rest, values.user) };
  if (values.user !== undefined) throw new UsageError('--user only applies to users list and users connect');
  if (command === 'status' && rest.length === 1) {
    if (!/^https?:\/\//i.test(rest[0]!)) throw new UsageError(`status expects the gateway's URL (e.g. http://127.0.0.1:8808/mcp), got "${rest[0]}"`);
    if (values.http !== undefined) throw new UsageError('give the gateway either as a URL or with --http, not both');
    return { ...base, command, url: rest[0] };
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (command === undefined) return { ...base, command: 'help' };
  if (command !== 'serve' && command !== 'check' && command !== 'lock' && command !== 'status') throw new UsageError(`unknown command "${command}"`);
  return { ...base, command };
}

/** `registry search TEXT [--cursor C | --all]`, `add NAME[@VERSION] [--name LOCAL] [--dry-run] [--update]`. */
function registryArgs(
  command: 'registry' | 'add',
  rest: string[],
  values: { registry?: string; cursor?: string; all?: boolean; 'dry-run'?: boolean; update?: boolean; name?: string; user?: string },
): Pick<CliOptions, 'command' | 'registry' | 'cursor' | 'all' | 'spec' | 'localName' | 'dryRun' | 'update' | 'query'> {
  if (values.user !== undefined) throw new UsageError('--user only applies to users list and users connect');
  if (values.registry !== undefined && !/^https?:\/\/./i.test(values.registry)) throw new UsageError(`--registry expects an http:// or https:// URL, got "${values.registry}"`);
  const registry = values.registry !== undefined ? { registry: values.registry } : {};
  if (command === 'registry') {
    const [action, ...args] = rest;
    if (action !== 'search') throw new UsageError(`unknown registry action "${action ?? ''}" (registry search TEXT)`);
    if (args.length !== 1 || args[0]!.trim() === '') throw new UsageError('registry search expects one TEXT (part of the server names to find)');
    if (values['dry-run'] || values.update || values.name !== undefined) throw new UsageError('--name, --dry-run and --update only apply to add');
    if (values.cursor !== undefined && values.all) throw new UsageError('give either --cursor or --all');
    return { command: 'registry-search', query: args[0]!, all: values.all ?? false, ...registry, ...(values.cursor !== undefined ? { cursor: values.cursor } : {}) };
  }
  if (rest.length !== 1 || !/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+(@[^@\s]+)?$/.test(rest[0]!)) {
    throw new UsageError('add expects one registry server NAME[@VERSION], e.g. switchboard add io.github.example/weather@1.2.0');
  }
  if (values.cursor !== undefined || values.all) throw new UsageError('--cursor and --all only apply to registry search');
  return {
    command: 'add',
    spec: rest[0]!,
    dryRun: values['dry-run'] ?? false,
    update: values.update ?? false,
    ...registry,
    ...(values.name !== undefined ? { localName: values.name } : {}),
  };
}

/** `users [list] [--user U]`, `users revoke USER [SERVER]`, `users rotate`, `users connect SERVER [--user U]`. */
function usersArgs(rest: string[], user: string | undefined): Pick<CliOptions, 'usersAction' | 'user' | 'server'> {
  const [action = 'list', ...args] = rest;
  if (action === 'list') {
    if (args.length > 0) throw new UsageError(`users list takes no argument (only this user's: --user ${args[0]})`);
    if (user !== undefined && user.trim() === '') throw new UsageError('--user expects a user');
    return { usersAction: 'list', ...(user !== undefined ? { user } : {}) };
  }
  if (action === 'connect') {
    if (args.length !== 1 || args[0]!.trim() === '') throw new UsageError('users connect expects the name of one server (switchboard users connect SERVER [--user USER])');
    if (user !== undefined && user.trim() === '') throw new UsageError('--user expects a user');
    return { usersAction: 'connect', server: args[0], ...(user !== undefined ? { user } : {}) };
  }
  if (user !== undefined) throw new UsageError('--user only applies to users list and users connect (users revoke takes the user as its argument)');
  if (action === 'revoke') {
    if (args.length < 1 || args.length > 2 || args.some((a) => a.trim() === '')) throw new UsageError('users revoke expects a USER and optionally a SERVER (switchboard users revoke USER [SERVER])');
    return { usersAction: 'revoke', user: args[0], ...(args[1] !== undefined ? { server: args[1] } : {}) };
  }
  if (action === 'rotate') {
    if (args.length > 0) throw new UsageError(`users rotate takes no argument, got "${args[0]}"`);
    return { usersAction: 'rotate' };
  }
  throw new UsageError(`unknown users action "${action}" (list, revoke, rotate or connect)`);
}
