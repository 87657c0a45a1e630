/**
 * What is in flight between the kernel's queues and the vats: the acts
 * whose deliveries have not come yet (cause.ts). Memory is what is still
 * in flight, never the slog: an item leaves when its delivery comes, or
 * when it can no longer come (a subscription turned into notifies, a GC
 * drop past its GC actions, a vat's older delivery for its reap).
 *
 * `watch` is told of each item queued and of each one that left (the
 * ancestry of `why` keeps the cranks still referred to).
 */
import type { Cause } from './cause.js';

/** Told when an item is queued, and when it leaves (delivered, or no longer deliverable). */
export interface InFlightWatch {
  queued(cause: Cause): void;
  left(cause: Cause): void;
}

const NO_WATCH: InFlightWatch = { queued: () => undefined, left: () => undefined };

/** A first-in first-out queue per key (messages without a result promise, by target and method). */
class KeyedQueues {
  private readonly queues = new Map<string, Cause[]>();
  size = 0;

  push(key: string, cause: Cause): void {
    const queue = this.queues.get(key);
    if (queue) queue.push(cause);
    else this.queues.set(key, [cause]);
    this.size += 1;
  }

  /** The oldest item of `key`, taken out (`take`) or only looked at. */
  first(key: string, take: boolean): Cause | undefined {
    const queue = this.queues.get(key);
    if (!queue?.length) return undefined;
    if (!take) return queue[0];
    const cause = queue.shift();
    if (!queue.length) this.queues.delete(key);
    this.size -= 1;
    return cause;
  }

  /** The oldest item, among the keys `accept` takes, of any key (FIFO by the time each was queued). */
  firstWhere(accept: (key: string) => boolean, take: boolean): Cause | undefined {
    let best: string | undefined;
    let bestCause: Cause | undefined;
    for (const [key, queue] of this.queues) {
      if (!accept(key) || !queue.length) continue;
      const head = queue[0] as Cause;
      if (bestCause === undefined || (head.time ?? Infinity) < (bestCause.time ?? Infinity)) {
        best = key;
        bestCause = head;
      }
    }
    return best === undefined ? undefined : this.first(best, take);
  }
}

export class InFlight {
  /** Messages with a result promise, by it (a result promise is made by one send). */
  private readonly byResult = new Map<string, Cause>();
  /** Messages without one: by `target|method`. */
  private readonly withoutResult = new KeyedQueues();
  /** Subscriptions to promises not yet resolved (as far as the slog says): promise -> vat -> the subscribe. */
  private readonly subscriptions = new Map<string, Map<string, Cause>>();
  /** Notifies queued by a resolve: `vat|promise`. */
  private readonly notifies = new Map<string, Cause>();
  /** GC drops of the last delivery crank: `delivery kind|kref` (dropExports, retireExports, retireImports). */
  private readonly drops = new Map<string, Cause>();
  /** Each vat's last delivery but a bringOutYourDead (its next bringOutYourDead's cause). */
  private readonly lastDelivery = new Map<string, Cause>();
  /** The last delivery crank. */
  private previous: Cause | undefined;
  /** Vat-admin requests (a device `invoke` to create or upgrade a vat), oldest first: the next startVat's or stopVat's cause. */
  private readonly vatRequests: Cause[] = [];

  constructor(private readonly watch: InFlightWatch = NO_WATCH) {}

  /** Items in flight (the bound on this analysis's memory). */
  get size(): number {
    let subscriptions = 0;
    for (const vats of this.subscriptions.values()) subscriptions += vats.size;
    return this.byResult.size + this.withoutResult.size + subscriptions + this.notifies.size + this.drops.size + this.lastDelivery.size + this.vatRequests.length + (this.previous ? 1 : 0);
  }

  /**
   * Queue items in flight: messages sent, notifies queued and vat-admin
   * requests, not yet delivered. The kernel holds them on its acceptance
   * queue until a routing crank moves them to its run queue (or a promise's
   * queue): at every kernel-stats of chain-A this is its runQueueLength plus
   * acceptanceQueueLength (docs/trace.md).
   */
  get queued(): number {
    return this.byResult.size + this.withoutResult.size + this.notifies.size + this.vatRequests.length;
  }

  send(target: string, method: string, result: string | undefined, cause: Cause): void {
    this.watch.queued(cause);
    if (result !== undefined) {
      const earlier = this.byResult.get(result);
      if (earlier) this.watch.left(earlier);
      this.byResult.set(result, cause);
    } else {
      this.withoutResult.push(`${target}|${method}`, cause);
    }
  }

  /**
   * The send of a delivered message: by its result promise, else the oldest
   * send of that method to that target, else (the kernel forwarded it from
   * a promise that resolved to the target) the oldest of that method to a
   * promise. `take`: it is delivered for good (not in a crank the kernel
   * undid, which it delivers again).
   */
  message(target: string, method: string, result: string | undefined, take: boolean): Cause | undefined {
    if (result !== undefined) {
      const cause = this.byResult.get(result);
      if (cause && take) {
        this.byResult.delete(result);
        this.watch.left(cause);
      }
      return cause;
    }
    const suffix = `|${method}`;
    const cause =
      this.withoutResult.first(`${target}|${method}`, take) ??
      this.withoutResult.firstWhere((key) => key.startsWith('kp') && key.endsWith(suffix), take);
    if (cause && take) this.watch.left(cause);
    return cause;
  }

  subscribe(vat: string, promise: string, cause: Cause): void {
    let vats = this.subscriptions.get(promise);
    if (!vats) this.subscriptions.set(promise, (vats = new Map()));
    const earlier = vats.get(vat);
    if (earlier) this.watch.left(earlier);
    this.watch.queued(cause);
    vats.set(vat, cause);
  }

  /** A resolve: a notify queued for each subscriber. */
  resolve(promise: string, cause: Cause): void {
    const vats = this.subscriptions.get(promise);
    if (!vats) return;
    this.subscriptions.delete(promise);
    for (const [vat, subscribed] of vats) {
      this.watch.left(subscribed);
      const key = `${vat}|${promise}`;
      const earlier = this.notifies.get(key);
      if (earlier) this.watch.left(earlier);
      this.watch.queued(cause);
      this.notifies.set(key, cause);
    }
  }

  /**
   * The cause of a notify of `promise` to `vat`: the resolve that queued it;
   * else its subscribe (the promise was resolved already, or by the
   * kernel); else, a promise the kernel rejected for a message it could not
   * deliver, that message's send.
   */
  notify(vat: string, promise: string, take: boolean): Cause | undefined {
    const key = `${vat}|${promise}`;
    const notified = this.notifies.get(key);
    if (notified) {
      if (take) {
        this.notifies.delete(key);
        this.watch.left(notified);
      }
      return notified;
    }
    const vats = this.subscriptions.get(promise);
    const subscribed = vats?.get(vat);
    if (subscribed) {
      if (take) {
        vats?.delete(vat);
        if (!vats?.size) this.subscriptions.delete(promise);
        this.watch.left(subscribed);
      }
      return subscribed;
    }
    const sent = this.byResult.get(promise);
    if (sent && take) {
      // The kernel rejected that message's result: it will not be delivered.
      this.byResult.delete(promise);
      this.watch.left(sent);
    }
    return sent;
  }

  /** A GC syscall naming `kref`, whose GC action the kernel delivers as `delivery`. */
  drop(delivery: string, kref: string, cause: Cause): void {
    const key = `${delivery}|${kref}`;
    const earlier = this.drops.get(key);
    if (earlier) this.watch.left(earlier);
    this.watch.queued(cause);
    this.drops.set(key, cause);
  }

  /** The GC syscall behind a GC delivery of these krefs (the first one found). */
  dropped(delivery: string, krefs: readonly string[], take: boolean): Cause | undefined {
    for (const kref of krefs) {
      const key = `${delivery}|${kref}`;
      const cause = this.drops.get(key);
      if (!cause) continue;
      if (take) {
        this.drops.delete(key);
        this.watch.left(cause);
      }
      return cause;
    }
    return undefined;
  }

  /**
   * A delivery from a run queue (not a GC action): the kernel delivers a
   * crank's GC actions before anything else, so the drops not delivered by
   * now never will be.
   */
  clearDrops(): void {
    for (const cause of this.drops.values()) this.watch.left(cause);
    this.drops.clear();
  }

  /**
   * A delivery crank ended (`cause`: its crank as a `reap` cause): the cause
   * of its vat's next bringOutYourDead when `reapable` (any delivery but a
   * bringOutYourDead), and of a GC action the kernel makes of its own
   * references next.
   */
  delivered(vat: string, cause: Cause, reapable: boolean): void {
    if (reapable) {
      const earlier = this.lastDelivery.get(vat);
      if (earlier) this.watch.left(earlier);
      this.watch.queued(cause);
      this.lastDelivery.set(vat, cause);
    }
    if (this.previous) this.watch.left(this.previous);
    this.watch.queued(cause);
    this.previous = cause;
  }

  /** The vat's delivery before this bringOutYourDead. */
  reap(vat: string): Cause | undefined {
    return this.lastDelivery.get(vat);
  }

  /** The delivery crank before this one (undefined at the first). */
  previousDelivery(): Cause | undefined {
    return this.previous;
  }

  vatRequest(cause: Cause): void {
    this.watch.queued(cause);
    this.vatRequests.push(cause);
  }

  /** The oldest vat-admin request, taken (`take`) or only looked at. */
  vatRequested(take: boolean): Cause | undefined {
    const cause = this.vatRequests[0];
    if (cause && take) {
      this.vatRequests.shift();
      this.watch.left(cause);
    }
    return cause;
  }
}
