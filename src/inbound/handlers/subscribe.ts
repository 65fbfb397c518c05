// resources/subscribe and resources/unsubscribe: routed like a read, shared per URI on the
// server's connection (see ../subscriptions.ts).

import type { Handler } from '../context.js';
import { connectionFor, resourceTargets } from './forward.js';

export const subscribe: Handler = async (params, context) => {
  const target = resourceTargets(context, params?.uri)[0]!;
  const connection = await connectionFor(context, target.server);
  await context.router.subscriptions.subscribe(connection, target.uri, context.session, params.uri);
  return {};
};

export const unsubscribe: Handler = async (params, context) => {
  const target = resourceTargets(context, params?.uri)[0]!;
  const connection = await connectionFor(context, target.server);
  await context.router.subscriptions.unsubscribe(connection, target.uri, context.session);
  return {};
};
