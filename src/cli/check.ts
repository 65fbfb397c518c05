// `switchboard check`: starts every server of the config once (no reconnect), waits for their
// lists to settle, and prints the merged catalog and the problems on stdout. Progress, one line
// per server, goes to stderr. Exit 0: all connected (warnings or not); 1: some did not. Per-user
// servers are listed as such, not connected (per-user-report.ts).

import { App } from '../app/app.js';
import type { ClientProfile, ConfigProblem, GatewayConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import { openStore } from '../state/open-store.js';
import { describeState } from '../state/redis-url.js';
import { listsSettled, startWithProgress } from './connect.js';
import { perUserReport, sharedServers } from './per-user-report.js';
import { catalogReport, renderReport, type CatalogReport } from './report.js';
import { skillsReport } from './skills-report.js';
import type { Terminal } from './terminal.js';

const DONE = '✓';
const FAILED = '✗';

export async function runCheck(config: GatewayConfig, logger: Logger, terminal: Terminal, profile?: ClientProfile, configWarnings: readonly ConfigProblem[] = []): Promise<CatalogReport> {
  // Per-user servers connect as a user, and check has none: they are reported, never started (their
  // headers and env still hold the ${user.NAME} text).
  const app = new App(sharedServers(config), logger, { reconnect: false });
  const perUser = perUserReport(config);
  const mark = (down: boolean) => (terminal.tty ? (down ? `\x1b[31m${FAILED}\x1b[0m ` : `\x1b[32m${DONE}\x1b[0m `) : '');
  const started = await startWithProgress(app, terminal, {
    done: (text, down) => terminal.line(mark(down) + text),
    note: (text) => terminal.line(text),
  });
  // With state.redis, whether it can be reached (while the servers start); memory needs no look.
  const state = config.state.redis === undefined ? Promise.resolve({ store: describeState(config.state) }) : reachStore(config, logger);
  try {
    await listsSettled(app, config.limits.startupWaitMs);
    // Exact o200k figures for the report; with no tool there is nothing to count.
    if (app.catalog.lists.tools.entries.length > 0) await app.exactTokens();
    const report = catalogReport(app, profile, configWarnings);
    const skills = await skillsReport(app, profile);
    report.skills = skills.skills;
    report.problems.push(...skills.problems);
    report.state = await state;
    if (report.state.reachable === false) report.problems.push({ server: 'state', problem: `${report.state.store}: unreachable, so new sessions would be refused` });
    const users = await perUser;
    if (users) {
      report.perUser = users;
      if (users.problem) report.problems.push({ server: 'credentials', problem: users.problem });
      if (users.warning) report.warnings.push({ where: 'per-user servers', warning: users.warning });
    }
    return report;
  } finally {
    started.unsubscribe();
    await app.close();
  }
}

/** Opens the Redis store (its module loads only here) long enough to see it up, then closes it. */
async function reachStore(config: GatewayConfig, logger: Logger): Promise<{ store: string; reachable: boolean }> {
  const store = await openStore(config, logger, { connectWaitMs: 3000 });
  const reachable = store.health === 'up';
  await store.close();
  return { store: describeState(config.state), reachable };
}

export function renderCheck(report: CatalogReport, json: boolean): string {
  return json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report);
}
