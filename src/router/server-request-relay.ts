// Requests servers send to clients (sampling, elicitation, roots/list): relayed to the session
// that caused them — the owner of the request they arrived with — on that request's channel,
// with our own ids. A request no session can be told to own gets an error that says how to fix
// it, never a guess: sending one client's sampling request to another client would be a leak.
// roots/list that no client can answer (no owner: at start-up, say; or a client that declared no
// roots) gets the configured roots, which are the operator's and no client's.

import type { JsonObject } from '../protocol/json.js';
import { RpcError } from '../errors.js';
import type { Logger } from '../log.js';
import { ErrorCode, type JsonRpcNotification, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { REQUESTS_TO_CLIENTS } from '../protocol/mcp.js';
import { judgeSamplingRequest, type UriJudge } from '../catalog/relayed-uris.js';
import type { Connection, RequestOwner, Session } from './session.js';

export class ServerRequestRelay {
  /** URL-mode elicitations in progress: their completion goes only to the client that got them. */
  private readonly elicitations = new Map<string, Session>();

  constructor(
    private readonly logger: Logger,
    /** How many client sessions there are: a request while there are none is no one's, and no news. */
    private readonly sessionCount: () => number,
    /** The judge of resource URIs `server` names to `session` (undefined: no rule judges any). */
    private readonly uriJudge: (session: Session, server: string) => UriJudge | undefined = () => undefined,
    /** The configured roots for `session` (its profile's, else the top-level ones); undefined: none configured. */
    private readonly configuredRoots: (session: Session | undefined) => readonly { uri: string; name: string }[] | undefined = () => undefined,
  ) {}

  async relay(connection: Connection, request: JsonRpcRequest, owner: RequestOwner | undefined, signal: AbortSignal): Promise<JsonObject> {
    const { method } = request;
    let params = request.params;
    if (!REQUESTS_TO_CLIENTS.has(method)) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    if (method === 'roots/list') {
      // Servers commonly ask for roots as they start, before any client exists: the gateway answers
      // with its own (none unless configured), so a filesystem server keeps the folders it was given.
      if (!owner) return { roots: [...(this.configuredRoots(undefined) ?? [])] };
      const roots = owner.client.rootsFromConfig ? this.configuredRoots(owner.session) : undefined;
      if (roots !== undefined) return { roots: [...roots] };
    }
    if (!owner) {
      if (this.sessionCount() === 0) {
        this.logger.debug({ server: connection.name, method }, 'server request while no client is connected');
        throw new RpcError(ErrorCode.InternalError, `no client is connected to Switchboard to answer ${method}; ask again during a client's request`);
      }
      this.logger.warn({ server: connection.name, method }, 'server request with no way to tell which client it is for');
      throw new RpcError(
        ErrorCode.InternalError,
        `Switchboard cannot tell which client ${method} is for: it came outside any client's request, or while several clients were using server "${connection.name}". Set isolation: per-session on that server.`,
      );
    }
    // What it names passes the client's policy, like a tool's result (catalog/relayed-uris.ts).
    if (method === 'sampling/createMessage') params = judgeSamplingRequest(params, this.uriJudge(owner.session, connection.name));
    // A client of the stateless revision takes no requests: they become its input rounds.
    if (owner.inputs) return owner.inputs.park(method, params, signal);
    const unaskable = owner.client.unaskable;
    if (unaskable !== undefined) throw new RpcError(ErrorCode.MethodNotFound, `the client cannot be asked for ${method} during this request (${unaskable})`);
    const result = await owner.session.requestClient(method, params, owner.related, signal);
    if (method === 'elicitation/create' && params?.mode === 'url' && typeof params.elicitationId === 'string') {
      this.elicitations.set(params.elicitationId, owner.session);
    }
    return result;
  }

  dropSession(session: Session): void {
    for (const [id, s] of this.elicitations) if (s === session) this.elicitations.delete(id);
  }

  elicitationComplete(n: JsonRpcNotification): void {
    const id = n.params?.elicitationId;
    if (typeof id !== 'string') return;
    const session = this.elicitations.get(id);
    if (!session) return;
    this.elicitations.delete(id);
    session.send(n);
  }
}
