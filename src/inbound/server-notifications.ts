// Notifications servers send on their own, routed to the sessions they concern: a log line to the
// client whose call it belongs to (or every client that wants its level), resource updates to
// the subscribers, task status to the task's owner, a URL elicitation's completion to the client
// that got it. list_changed never gets here: the catalog consumes it.

import type { JsonRpcNotification } from '../jsonrpc/types.js';
import type { Logger } from '../log.js';
import { passesLevel } from '../mcp/log-levels.js';
import type { ServerConnection } from '../outbound/server-connection.js';
import type { RequestContext, SessionHandle } from './context.js';
import type { ServerRequests } from './server-requests.js';
import type { Subscriptions } from './subscriptions.js';
import type { TaskIds } from './task-ids.js';

export interface NotificationRoutes {
  sessions: Iterable<SessionHandle & { readonly view: { seesServer(server: string): boolean } }>;
  subscriptions: Subscriptions;
  tasks: TaskIds;
  serverRequests: ServerRequests;
  logger: Logger;
}

export function routeServerNotification(
  routes: NotificationRoutes,
  connection: ServerConnection,
  n: JsonRpcNotification,
  owner: RequestContext | SessionHandle | undefined,
): void {
  const session = owner && 'session' in owner ? owner.session : owner;
  switch (n.method) {
    case 'notifications/message': {
      const logger = n.params?.logger;
      const params: Record<string, any> = { ...n.params, logger: typeof logger === 'string' && logger ? `${connection.name}/${logger}` : connection.name };
      const message = { jsonrpc: '2.0' as const, method: n.method, params };
      // A log line of a request goes to the client that made it; one that belongs to no request
      // only to the clients whose profile sees that server (another profile's server is not
      // theirs to hear about), at the level each asked for.
      if (owner && 'related' in owner && owner.related) {
        if (passesLevel(params.level, owner.session.logLevel)) owner.related(message);
      } else if (session) {
        if (passesLevel(params.level, session.logLevel)) session.send(message);
      } else {
        for (const s of routes.sessions) if (s.view.seesServer(connection.name) && passesLevel(params.level, s.logLevel)) s.send(message);
      }
      return;
    }
    case 'notifications/resources/updated':
      routes.subscriptions.updated(connection, n.params ?? {});
      return;
    case 'notifications/tasks/status': {
      const entry = routes.tasks.fromServer(connection, n.params?.taskId);
      if (entry) entry.session.send({ jsonrpc: '2.0', method: n.method, params: { ...n.params, taskId: entry.exposed } });
      return;
    }
    case 'notifications/elicitation/complete':
      routes.serverRequests.elicitationComplete(n);
      return;
    default:
      routes.logger.debug({ server: connection.name, method: n.method }, 'notification not forwarded');
  }
}
