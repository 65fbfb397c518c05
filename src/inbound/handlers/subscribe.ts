// resources/subscribe and resources/unsubscribe: routed like a read, shared per URI on the
// server's connection (see ../subscriptions.ts).

import type { Handler } from '../context.js';
import { connectionFor, resourceTargets } from './forward.js';

export const subscribe: Handler = async (params, context) => {
  const target = resourceTargets(context, params?.uri)[0]!;
  const connection = await connectionFor(context, target.server);
  // resourceTargets refused a URI that is not a string.
  await context.sessionState.subscriptions.subscribe(connection, target.uri, context.session, params.uri as string);
  context.session.noteSubscription(params.uri as string, true);
  return {};
};

export const unsubscribe: Handler = async (params, context) => {
  const subscriptions = context.sessionState.subscriptions;
  let routed: ReturnType<typeof resourceTargets>[number];
  try {
    routed = resourceTargets(context, params?.uri)[0]!;
  } catch (err) {
    // The catalog or the profile no longer leads there: the slot is freed all the same.
    const held = typeof params?.uri === 'string' ? subscriptions.heldAs(context.session, params.uri) : undefined;
    if (!held) throw err;
    await subscriptions.unsubscribe(held.connection, held.uri, context.session);
    context.session.noteSubscription(params.uri as string, false);
    return {};
  }
  const connection = await connectionFor(context, routed.server);
  await subscriptions.unsubscribe(connection, routed.uri, context.session);
  context.session.noteSubscription(params.uri as string, false);
  return {};
};
