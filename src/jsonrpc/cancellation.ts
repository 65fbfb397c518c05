// A cancellation flag with callbacks: what AbortController gives, without its cost on the hot
// path (an AbortController and its EventTarget per request showed in profiles). One per request
// the gateway handles; the client's notifications/cancelled triggers it.

export class Cancellation {
  aborted = false;
  private listeners?: (() => void)[];

  cancel(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const fn of listeners) fn();
  }

  /** Calls `fn` on cancel (at once if already cancelled); returns a function that unregisters it. */
  onCancel(fn: () => void): () => void {
    if (this.aborted) {
      fn();
      return noop;
    }
    (this.listeners ??= []).push(fn);
    return () => {
      const l = this.listeners;
      if (!l) return;
      const i = l.indexOf(fn);
      if (i !== -1) l.splice(i, 1);
    };
  }
}

function noop(): void {}
