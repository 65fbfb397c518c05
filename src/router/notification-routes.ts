// Notifications servers send on their own, routed to the sessions they concern: a log line to the
// client whose request it belongs to (else to the clients whose profile sees that server), resource
// updates to the subscribers, task status to the task's owner, a URL elicitation's completion to
// the client that got it. list_changed never gets here: the catalog consumes it.

import type { JsonObject } from '../protocol/json.js';
import type { Logger } from '../log.js';
import type { JsonRpcNotification } from '../protocol/jsonrpc.js';
import { passesLevel } from '../protocol/mcp.js';
import type { ServerRequestRelay } from './server-request-relay.js';
import type { Connection, RequestOwner, Session } from './session.js';
import type { Subscriptions } from './subscriptions.js';
import type { TaskIds } from './task-ids.js';

export interface NotificationRoutes {
  sessions: Iterable<Session>;
  subscriptions: Subscriptions;
  tasks: TaskIds;
  relay: ServerRequestRelay;
  logger: Logger;
}

export function routeServerNotification(routes: NotificationRoutes, connection: Connection, n: JsonRpcNotification, owner: RequestOwner | undefined): void {
  switch (n.method) {
    case 'notifications/message': {
      const logger = n.params?.logger;
      const params: JsonObject = { ...n.params, logger: typeof logger === 'string' && logger ? `${connection.name}/${logger}` : connection.name };
      const message = { jsonrpc: '2.0' as const, method: n.method, params };
      // A log line of a request goes to the client that made it (on that request's channel when
      // there is one); one that belongs to no request only to the clients whose profile sees that
      // server (another profile's server is not theirs to hear about), at the level each asked for.
      if (owner) {
        if (!owner.client.hears(params.level)) return;
        if (owner.related) owner.related(message);
        else owner.session.send(message);
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
      routes.relay.elicitationComplete(n);
      return;
    default:
      routes.logger.debug({ server: connection.name, method: n.method }, 'notification not forwarded');
  }
}
