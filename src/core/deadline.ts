/**
 * A signal that fires after a time limit or when a parent signal fires, held strongly until cleared.
 *
 * Node's `AbortSignal.timeout` keeps only a weak reference to its signal, and `AbortSignal.any` builds a
 * signal that its sources hold weakly: when nothing else keeps such a signal alive (fetch follows its
 * signal weakly), a garbage collection can drop it and the time limit never fires — a request to a server
 * that hangs then waits forever. Here the timer holds the controller, so the limit always fires; callers
 * call `clear()` when the work is done, which also detaches the parent.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when the time limit (not the parent) ended the work. */
  expired(): boolean;
  /** Stop the timer and detach from the parent. Safe to call more than once. */
  clear(): void;
}

export function deadline(ms: number, parent?: AbortSignal | null): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
  }, ms);
  // The timer never keeps a process alive on its own; while it is pending it still holds the controller.
  timer.unref?.();
  if (parent) {
    if (parent.aborted) onParentAbort();
    else parent.addEventListener('abort', onParentAbort, { once: true });
  }
  return {
    signal: controller.signal,
    expired: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
