// Starting the app for a command: a progress line per server while they connect (fed by the
// catalog's snapshots: every state change rebuilds it), and for the one-shot commands (check,
// lock, search) lists that have settled before anything is reported or the app is closed.

import type { App } from '../app/app.js';
import { ConnectProgress, type ProgressOutput } from './progress.js';
import type { Terminal } from './terminal.js';

export interface Started {
  progress: ConnectProgress;
  /** Stops reporting (all servers settled, or the caller is done). */
  unsubscribe(): void;
}

/** Starts every server, reporting each as it settles; `waitMs` as App.start. */
export async function startWithProgress(app: App, terminal: Terminal, output: ProgressOutput, waitMs?: number): Promise<Started> {
  const progress = new ConnectProgress(terminal, output);
  progress.start(app.summary());
  const subscription = app.store.snapshots.subscribe(() => {
    progress.update(app.summary());
    if (progress.waiting.length === 0) queueMicrotask(() => subscription?.unsubscribe());
  });
  await app.start(waitMs);
  progress.update(app.summary());
  return { progress, unsubscribe: () => subscription.unsubscribe() };
}

/**
 * Waits (at most `limitMs`) until no server is refetching a list it was told changed: a server
 * that registers tools once it knows the client sends list_changed right after start, and a
 * report made before that refetch is done would be stale (and closing would cut it short).
 */
export async function listsSettled(app: App, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
  await Promise.race([Promise.all(app.router.connections().map((c) => c.listsSettled())), late]);
  clearTimeout(timer);
  app.store.rebuild();
}
