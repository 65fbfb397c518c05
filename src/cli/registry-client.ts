// The HTTP client to an MCP Registry (API v0.1, as the official registry and private ones serve
// it): list/search servers and fetch one version's server.json. Node's own fetch, with a timeout
// and a bound on the body, so a slow or huge answer fails clearly instead of hanging or filling
// memory. Every failure is a RegistryError whose message says which URL and what went wrong.

import { BodyTooLarge, readBody } from './http-body.js';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** The answer of a registry is a few KB; a page of 100 servers some hundred KB. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

export class RegistryError extends Error {}

/** One server version as the registry returns it: `server` is the server.json, `_meta` the registry's. */
export interface ServerResponse {
  server: ServerJson;
  _meta?: Record<string, unknown>;
}

export interface ServerJson {
  name: string;
  description?: string;
  title?: string;
  version: string;
  packages?: PackageJson[];
  remotes?: RemoteJson[];
}

export interface InputJson {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
  value?: string;
  format?: string;
  variables?: Record<string, InputJson>;
}

export interface KeyValueJson extends InputJson {
  name: string;
}

export interface ArgumentJson extends InputJson {
  type: 'positional' | 'named';
  name?: string;
  valueHint?: string;
}

export interface PackageJson {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport?: { type: string; url?: string };
  runtimeArguments?: ArgumentJson[];
  packageArguments?: ArgumentJson[];
  environmentVariables?: KeyValueJson[];
}

export interface RemoteJson {
  type: string;
  url: string;
  headers?: KeyValueJson[];
  variables?: Record<string, InputJson>;
}

export interface ServerPage {
  servers: ServerResponse[];
  nextCursor?: string;
}

export interface RegistryClientOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
}

export class RegistryClient {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;

  constructor(url: string, options: RegistryClientOptions = {}) {
    if (!/^https?:\/\//i.test(url)) throw new RegistryError(`the registry URL must be http:// or https://, got "${url}"`);
    this.base = url.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  /** One page of servers whose name contains `search` (the registry's substring match), latest versions only. */
  async search(search: string, cursor?: string, limit = 30): Promise<ServerPage> {
    const query = new URLSearchParams({ search, version: 'latest', limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    const body = await this.getJson(`/v0.1/servers?${query}`);
    const list = body as { servers?: unknown; metadata?: { nextCursor?: unknown } };
    if (!Array.isArray(list.servers)) throw new RegistryError(`${this.base}/v0.1/servers answered JSON without a "servers" list`);
    const servers = list.servers.filter(isServerResponse);
    const next = list.metadata?.nextCursor;
    return { servers, ...(typeof next === 'string' && next !== '' ? { nextCursor: next } : {}) };
  }

  /** One version of a server (`latest` for the newest). */
  async server(name: string, version = 'latest'): Promise<ServerResponse> {
    const path = `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    const body = await this.getJson(path, `no server "${name}"${version === 'latest' ? '' : ` at version ${version}`} in the registry at ${this.base}`);
    if (!isServerResponse(body)) throw new RegistryError(`${this.base}${path} answered JSON that is not a server (no server.name and server.version)`);
    return body;
  }

  private async getJson(path: string, notFound?: string): Promise<unknown> {
    const url = `${this.base}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'follow' });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError') throw new RegistryError(`the registry did not answer within ${this.timeoutMs / 1000}s: GET ${url}`);
      throw new RegistryError(`cannot reach the registry: GET ${url}: ${(e.cause as Error | undefined)?.message ?? e.message}`);
    }
    const text = await readBounded(response, this.maxBodyBytes, url, this.timeoutMs);
    if (response.status === 404 && notFound) throw new RegistryError(notFound);
    if (!response.ok) throw new RegistryError(`the registry answered HTTP ${response.status} to GET ${url}${errorDetail(text)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new RegistryError(`the registry answered something that is not JSON to GET ${url}`);
    }
  }
}

/** The body as text, or a RegistryError past `max` bytes, on a timeout, or when it breaks off. */
async function readBounded(response: Response, max: number, url: string, timeoutMs: number): Promise<string> {
  try {
    return (await readBody(response, max)).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new RegistryError(`the registry's answer to GET ${url} is larger than ${max} bytes`);
    if ((err as Error).name === 'TimeoutError') throw new RegistryError(`the registry did not answer within ${timeoutMs / 1000}s: GET ${url}`);
    throw new RegistryError(`the registry's answer to GET ${url} broke off: ${(err as Error).message}`);
  }
}

/** The registry's own `{"error": "..."}` (or the first line of its text), short. */
function errorDetail(text: string): string {
  let detail = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; detail?: unknown; title?: unknown };
    detail = String(parsed.detail ?? parsed.error ?? parsed.title ?? '');
  } catch {}
  const line = detail.split('\n')[0]!.trim().slice(0, 200);
  return line ? `: ${line}` : '';
}

function isServerResponse(x: unknown): x is ServerResponse {
  const s = (x as { server?: { name?: unknown; version?: unknown } } | null)?.server;
  return typeof s === 'object' && s !== null && typeof s.name === 'string' && typeof s.version === 'string';
}
