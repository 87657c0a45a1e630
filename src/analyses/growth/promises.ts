/**
 * Promises not resolved: every kernel promise the slog shows being made or
 * handed to a vat (a send's result, a vat's export of a promise, an import
 * of one), until a vat resolves it (`resolve` syscall), a vat is notified of
 * its resolution (the kernel settled it: a message to a dead object, a
 * terminated decider), or its decider vat is terminated (the kernel rejects
 * what it decided). What is left at the end was never resolved.
 *
 * The decider: the vat a message carrying it as its result was delivered to;
 * a promise a vat exports it decides until it sends it as a result. The
 * method: the message whose result it is, where the slog shows that send.
 *
 * Memory: one record per unresolved promise.
 */

export interface PendingPromise {
  /** The vat that decides it; undefined: the kernel (a result still queued), or the slog does not say. */
  decider: string | undefined;
  /** The method of the message whose result it is; undefined when it is no message's result (or that send is not in the slog). */
  method: string | undefined;
  /** The crank it first appeared in (NaN: outside cranks). */
  crank: number;
  /** How it first appeared. */
  how: 'result' | 'exported' | 'imported';
}

export class UnresolvedPromises {
  private readonly pending = new Map<string, PendingPromise>();
  /** Promises settled (each counted once per settling seen). */
  resolved = 0;

  get size(): number {
    return this.pending.size;
  }

  all(): IterableIterator<[string, PendingPromise]> {
    return this.pending.entries();
  }

  /** A vat's send with `kp` as its result (the send may come before or after the vat's export of it). */
  sent(kp: string, method: string, crank: number): void {
    const p = this.pending.get(kp);
    if (p) {
      p.method ??= method;
      p.how = 'result';
      p.decider = undefined;
      return;
    }
    this.pending.set(kp, { decider: undefined, method, crank, how: 'result' });
  }

  /** A message with `kp` as its result was routed to the run-queue (a routing crank): known from now on, if not already. */
  queued(kp: string, method: string, crank: number): void {
    if (!this.pending.has(kp)) this.pending.set(kp, { decider: undefined, method, crank, how: 'result' });
  }

  /** A message with `kp` as its result was delivered to `vatID`: it decides it now. */
  delivered(kp: string, vatID: string, method: string, crank: number): void {
    const p = this.pending.get(kp);
    if (p) {
      p.decider = vatID;
      p.method ??= method;
      return;
    }
    this.pending.set(kp, { decider: vatID, method, crank, how: 'result' });
  }

  /** A c-list entry for `kp`: a vat's export of a promise (`p+`) makes it its decider; an import of one unseen so far is noted. */
  seen(kp: string, vatID: string, exported: boolean, crank: number): void {
    if (this.pending.has(kp)) return;
    this.pending.set(kp, { decider: exported ? vatID : undefined, method: undefined, crank, how: exported ? 'exported' : 'imported' });
  }

  /** Resolved (a resolve syscall, or a notify delivery of it). */
  settle(kp: string): void {
    if (this.pending.delete(kp)) this.resolved += 1;
  }

  /** The kernel starts over from nothing: no promise is left. */
  reset(): void {
    this.pending.clear();
  }

  /** A terminated vat: the kernel rejects the promises it decided. */
  deciderGone(vatID: string): void {
    for (const [kp, p] of this.pending) {
      if (p.decider === vatID) {
        this.pending.delete(kp);
        this.resolved += 1;
      }
    }
  }
}
