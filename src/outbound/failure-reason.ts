// Why a server went down, as one of a few fixed words: the label of
// switchboard_server_failures_total and the `reason` of /status. A closed set, so a server cannot
// grow the metric's label values with the text of its errors.

import { GatewayError } from '../errors.js';
import { isLoginNeeded } from './auth/errors.js';
import { ListLimitError } from './list-fetch.js';

export const FAILURE_REASONS = ['list_items', 'list_bytes', 'list_time', 'timeout', 'closed', 'protocol', 'http', 'login', 'other'] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

export function failureReason(err: unknown): FailureReason {
  if (err instanceof ListLimitError) return `list_${err.bound}`;
  if (isLoginNeeded(err)) return 'login';
  if (!(err instanceof GatewayError)) return 'other';
  switch (err.code) {
    case 'SERVER_TIMEOUT':
      return 'timeout';
    case 'CONNECTION_CLOSED':
      return 'closed';
    case 'HTTP_ERROR':
      return 'http';
    case 'PROTOCOL_ERROR':
    case 'PROTOCOL_MISMATCH':
    case 'MESSAGE_TOO_LARGE':
    case 'MESSAGE_TOO_DEEP':
      return 'protocol';
    default:
      return 'other';
  }
}

/** Whether retrying cannot help: the server's list is over a size bound, and would be again. */
export function isFinal(err: unknown): boolean {
  return err instanceof ListLimitError && err.bound !== 'time';
}
