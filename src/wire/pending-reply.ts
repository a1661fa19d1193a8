/**
 * The reply a request waits for, as a state machine: `pending → resolved | cancelled`. The first
 * transition wins; later ones are ignored. A cancelled reply still has an answer (the request type's
 * cancel outcome), so whoever waits always gets a value of the expected shape.
 */
export type ReplyState<A> =
  | { readonly status: 'pending' }
  | { readonly status: 'resolved'; readonly answer: A }
  | { readonly status: 'cancelled'; readonly answer: A; readonly reason: string };

export class PendingReply<A> {
  private current: ReplyState<A> = { status: 'pending' };
  // Created on the first wait only: most requests on a replayed file are never awaited.
  private settled: Promise<A> | null = null;
  private release: ((answer: A) => void) | null = null;

  get state(): ReplyState<A> {
    return this.current;
  }

  resolve(answer: A): boolean {
    return this.settle({ status: 'resolved', answer });
  }

  cancel(answer: A, reason: string): boolean {
    return this.settle({ status: 'cancelled', answer, reason });
  }

  /**
   * The answer once there is one. If `signal` aborts first, the returned promise rejects with the
   * signal's reason; the reply itself stays pending for other waiters.
   */
  wait(signal?: AbortSignal): Promise<A> {
    const state = this.current;
    if (state.status !== 'pending') return Promise.resolve(state.answer);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.settled === null) {
      this.settled = new Promise<A>((resolve) => {
        this.release = resolve;
      });
    }
    if (!signal) return this.settled;
    const settled = this.settled;
    return new Promise<A>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void settled.then((answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  private settle(next: Exclude<ReplyState<A>, { status: 'pending' }>): boolean {
    if (this.current.status !== 'pending') return false;
    this.current = next;
    this.release?.(next.answer);
    this.release = null;
    return true;
  }
}
