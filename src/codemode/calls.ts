// The gate every nested call of a run passes: counts calls against the per-run limit, holds calls
// past the in-flight limit in a first-come queue, gives each call its own AbortSignal, and
// records what happened. close() aborts what is in flight and refuses what waits.

export type CallKind = 'tool' | 'search' | 'describe';

export interface CallRecord {
  kind: CallKind;
  server?: string;
  tool?: string;
  ok: boolean;
  /** Milliseconds from the call's start (after any wait for a slot) to its answer. */
  ms: number;
  /** Milliseconds spent waiting for a slot (in-flight limit). */
  waitedMs: number;
  error?: { code: number; message: string };
}

export class CallLimitError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} nested calls in one run (limit codeMode.maxCalls)`);
  }
}

export class CallGate {
  readonly records: CallRecord[] = [];
  private count = 0;
  private active = 0;
  private readonly waiting: { start: () => void; refuse: (err: Error) => void }[] = [];
  private readonly controllers = new Set<AbortController>();
  private closed: Error | undefined;

  constructor(
    private readonly maxCalls: number,
    private readonly maxInFlight: number,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  get admitted(): number {
    return Math.min(this.count, this.maxCalls);
  }

  /** Counts the call now (it may be refused at once), then runs it when a slot is free. */
  admit(): void {
    if (this.closed) throw this.closed;
    if (++this.count > this.maxCalls) throw new CallLimitError(this.maxCalls);
  }

  async run<T>(label: Pick<CallRecord, 'kind' | 'server' | 'tool'>, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const queued = performance.now();
    if (this.active >= this.maxInFlight) {
      await new Promise<void>((start, refuse) => this.waiting.push({ start, refuse }));
    }
    if (this.closed) throw this.closed;
    const started = performance.now();
    this.active++;
    const controller = new AbortController();
    this.controllers.add(controller);
    const record: CallRecord = { ...label, ok: false, ms: 0, waitedMs: started - queued };
    try {
      const value = await fn(controller.signal);
      record.ok = true;
      return value;
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      record.error = { code: typeof e?.code === 'number' ? e.code : -32603, message: String(e?.message ?? err) };
      throw err;
    } finally {
      record.ms = performance.now() - started;
      this.records.push(record);
      this.active--;
      this.controllers.delete(controller);
      this.waiting.shift()?.start();
    }
  }

  /** Ends the run's calls: in-flight ones see their signal abort, waiting ones are refused. */
  close(reason: Error): void {
    if (this.closed) return;
    this.closed = reason;
    for (const c of this.controllers) c.abort(reason);
    for (const w of this.waiting.splice(0)) w.refuse(reason);
  }
}
