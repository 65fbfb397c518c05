// ping and logging/setLevel: requests the gateway answers as itself (initialize is the session's
// own, with served.ts).

import { LOG_LEVELS } from '../../protocol/mcp.js';
import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { Handler } from '../context.js';

export const ping: Handler = async () => ({});

/** Sets this session's level; the gateway filters per session and tells servers the most verbose level wanted. */
export const setLogLevel: Handler = async (params, { sessionState, session }) => {
  const level = params?.level;
  if (typeof level !== 'string' || !(LOG_LEVELS as readonly string[]).includes(level)) throw new RpcError(ErrorCode.InvalidParams, `Invalid log level: ${String(level)}`);
  session.setLogLevel(level);
  await sessionState.logLevelChanged();
  return {};
};
