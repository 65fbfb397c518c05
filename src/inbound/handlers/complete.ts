// completion/complete: routed to the prompt's or the template's server like any request to one
// server, and its values judged on the way back: a value that would name a resource the client may
// not see (the URI it makes in the template, or a URI offered for a prompt's argument) is taken
// out (catalog/relayed-uris.ts), so a completion never lists what the lists hide.

import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { judgeCompletion, promptValueAllowed, templateValueAllowed, uriPairJudge } from '../../catalog/relayed-uris.js';
import type { Handler } from '../context.js';
import { forward, lookup, resourceTargets } from './forward.js';
import { isJsonObject, valueAt } from '../../protocol/json.js';

export const complete: Handler = async (params, context) => {
  // A ref that is not an object has no type: the request is refused below, as it was.
  const ref = isJsonObject(params?.ref) ? params.ref : undefined;
  const { catalog } = context.gateway;
  if (ref?.type === 'ref/prompt') {
    const entry = lookup(context.view.lists.prompts, ref.name, 'prompt');
    const result = await forward(context, entry.server, 'completion/complete', { ...params, ref: { ...ref, name: entry.original } });
    return judgeCompletion(result, (value) => promptValueAllowed(value, catalog, context.view, entry.server));
  }
  if (ref?.type === 'ref/resource') {
    const templates = context.view.lists.resourceTemplates;
    const i = typeof ref.uri === 'string' ? templates.index.get(ref.uri) : undefined;
    const entry = i !== undefined ? templates.entries[i]! : undefined;
    const target = entry !== undefined ? { server: entry.server, uri: entry.original } : resourceTargets(context, ref.uri)[0]!;
    const judge = uriPairJudge(catalog, context.view, target.server);
    const argument = valueAt(params.argument, 'name');
    const forwarded = { ...params, ref: { ...ref, uri: target.uri } };
    if (judge === undefined) return forward(context, target.server, 'completion/complete', forwarded);
    // Values are judged by the variable they fill: without its name there is nothing to judge by.
    if (typeof argument !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'params.argument.name must be a string');
    const result = await forward(context, target.server, 'completion/complete', forwarded);
    // The other arguments' values fill the template's other variables; anything but an object gives none.
    const given = valueAt(params.context, 'arguments');
    const template = { exposed: ref.uri as string, original: target.uri, argument, context: isJsonObject(given) ? given : undefined };
    return judgeCompletion(result, (value) => templateValueAllowed(value, template, judge));
  }
  throw new RpcError(ErrorCode.InvalidParams, 'params.ref must be a ref/prompt or ref/resource');
};
