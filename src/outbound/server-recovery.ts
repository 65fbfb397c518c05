// What a ServerConnection does after it fails or drops: the state it goes to and the timer that
// brings it back. backing-off: a retry after the backoff's delay; needs-login: the token store
// looked at again every so often (no backoff, no crash-loop count: retrying cannot help until
// someone logs in); failed: at the crash-loop limit, on a final failure, or with reconnect off.

import type { Logger } from '../log.js';
import type { Backoff } from './backoff.js';
import type { ServerLogin } from './server-login.js';
import type { ServerState } from './server-connection-types.js';

export interface RecoveryHost {
  readonly logger: Logger;
  readonly backoff: Backoff;
  readonly login: ServerLogin;
  /** Reconnect after failures (ServerConnectionOptions.reconnect; `check` turns it off). */
  readonly reconnect: boolean;
  state(): ServerState;
  /** Connects again. */
  attempt(): Promise<void>;
}

export class Recovery {
  /** When the next attempt is due (backing-off). */
  retryAt?: number;
  // A plain timer, not rxjs: at most one is pending, cancelled by a state change.
  private timer?: NodeJS.Timeout;

  constructor(private readonly host: RecoveryHost) {}

  /**
   * The state after failure `err` (`problem`, `detail`: as the connection describes it), its timer
   * set and its line logged. `wasWaiting`: the connection was waiting for a login already.
   */
  after(err: unknown, final: boolean, wasWaiting: boolean, problem: string, detail: string | undefined): ServerState {
    const { logger, backoff, reconnect } = this.host;
    if (this.host.login.needed(err)) {
      if (!wasWaiting) logger.warn({ problem }, 'server needs an OAuth login');
      if (reconnect) this.lookForLoginLater();
      return 'needs-login';
    }
    const delay = !reconnect || final ? undefined : backoff.failed();
    if (delay === undefined) {
      const why = !reconnect || final ? '' : ` (gave up after ${backoff.failureCount - 1} attempts in a row)`;
      logger.error({ problem, detail }, `server failed${why}`);
      return 'failed';
    }
    this.retryAt = Date.now() + delay;
    this.timer = setTimeout(() => void this.host.attempt(), delay);
    logger.warn({ problem, detail, retryInMs: delay }, 'server down; reconnecting');
    return 'backing-off';
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  private lookForLoginLater(): void {
    this.timer = setTimeout(() => void this.lookForLogin(), this.host.login.checkEveryMs());
  }

  /** needs-login: connect again once the token store has a token for us (a login elsewhere). */
  private async lookForLogin(): Promise<void> {
    const arrived = await this.host.login.tokenArrived();
    if (this.host.state() !== 'needs-login') return;
    if (!arrived) return this.lookForLoginLater();
    await this.host.attempt();
  }
}
