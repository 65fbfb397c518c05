// Task ids (2025-11-25 tasks) across a shared connection: each task a server creates is exposed
// under an unguessable id of ours, bound to the session that created it (the spec asks receivers
// to bind tasks to their requester), and mapped back on tasks/* requests and status notifications.

import { isJsonObject, type JsonObject, valueAt } from '../protocol/json.js';
import { randomUUID } from 'node:crypto';
import type { Connection, Session } from './session.js';

export interface TaskEntry {
  connection: Connection;
  taskId: string;
  session: Session;
  exposed: string;
}

export class TaskIds {
  private readonly byExposed = new Map<string, TaskEntry>();
  private readonly byServer = new Map<Connection, Map<string, TaskEntry>>();

  /** The exposed id for a server's task, creating it on first sight. */
  expose(connection: Connection, taskId: string, session: Session): string {
    const known = this.byServer.get(connection)?.get(taskId);
    if (known) return known.exposed;
    const entry: TaskEntry = { connection, taskId, session, exposed: `task-${randomUUID()}` };
    this.byExposed.set(entry.exposed, entry);
    let ids = this.byServer.get(connection);
    if (!ids) this.byServer.set(connection, (ids = new Map()));
    ids.set(taskId, entry);
    return entry.exposed;
  }

  /** The task behind an exposed id, only for the session that owns it. */
  lookup(exposed: unknown, session: Session): TaskEntry | undefined {
    const entry = typeof exposed === 'string' ? this.byExposed.get(exposed) : undefined;
    return entry && entry.session === session ? entry : undefined;
  }

  /** The entry for a server's own task id (for notifications), if we exposed it. */
  fromServer(connection: Connection, taskId: unknown): TaskEntry | undefined {
    return typeof taskId === 'string' ? this.byServer.get(connection)?.get(taskId) : undefined;
  }

  /** Every task a session owns. */
  ofSession(session: Session): TaskEntry[] {
    return [...this.byExposed.values()].filter((e) => e.session === session);
  }

  dropSession(session: Session): void {
    for (const entry of this.ofSession(session)) {
      this.byExposed.delete(entry.exposed);
      this.byServer.get(entry.connection)?.delete(entry.taskId);
    }
  }
}

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** A copy of `value` whose `_meta` related-task id is replaced by `map(taskId)`, if it has one. */
export function withRelatedTask<T extends JsonObject>(value: T, map: (taskId: string) => string | undefined): T {
  const related = valueAt(value, '_meta', RELATED_TASK);
  if (!isJsonObject(related) || typeof related.taskId !== 'string') return value;
  const mapped = map(related.taskId);
  if (mapped === undefined) return value;
  // _meta is an object: related was found inside it.
  return { ...value, _meta: { ...(value._meta as JsonObject), [RELATED_TASK]: { ...related, taskId: mapped } } };
}
