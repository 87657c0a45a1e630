/**
 * Why a delivery ran: what queued it (SLOG-FORMAT.md; docs/why.md). The
 * kernel runs a vat only for something on one of its queues, and each queue
 * item was put there by one act:
 *
 * - `send`: a vat's `send` syscall queued the message (whatever promise it
 *   went through: the kernel forwards it to the promise's decider, or holds
 *   it on a kernel-decided promise until that resolves);
 * - `resolve`: a vat's `resolve` syscall queued a notify to each vat that
 *   had subscribed to the promise;
 * - `subscribe`: a vat subscribed to a promise already resolved, and the
 *   kernel queued its notify at once;
 * - `gc`: a `dropImports` / `retireImports` / `retireExports` /
 *   `abandonExports` syscall named the kref of a dropExports /
 *   retireExports / retireImports delivery; without one, the kernel dropped
 *   its own reference after the crank before (`syscallNum` -1);
 * - `reap`: a bringOutYourDead, which the kernel schedules after a vat's
 *   deliveries: the vat's delivery before it;
 * - `create`: a startVat, stopVat or changeVatOptions that a vat-admin
 *   device call (an `invoke` of `createByBundleID`, `upgradeVat`...) asked
 *   for; a vat started with the kernel: `outside`;
 * - `outside`: no vat's syscall in the slog queued it: the run's trigger on
 *   a chain (a bridge message, the mailbox, the timer, a bundle install:
 *   `trigger` says which), or, without runs, the kernel or a device
 *   (bootstrap, a device's callback);
 * - `before-slog`: the slog starts after the kernel did, and nothing in it
 *   queued this: the act that did came before its first line.
 */

export type CauseKind = 'send' | 'resolve' | 'subscribe' | 'gc' | 'reap' | 'create' | 'outside' | 'before-slog';

/** What queued a delivery. */
export interface Cause {
  kind: CauseKind;
  /** The crank of the act (-1: `outside`, `before-slog`). */
  crank: number;
  /** That crank's vat. */
  vat: string | undefined;
  /** The syscall's number in its crank, from 0 (-1: not a syscall: `reap`, a kernel's `gc`, no crank). */
  syscallNum: number;
  /** When it was queued: the syscall's time, else the crank's end (undefined: not known). */
  time: number | undefined;
  /** `outside` in a chain run: the run's trigger in words (`bridge wallet WALLET_SPEND_ACTION`, `timer`). */
  trigger?: string;
}

/** The cause of a delivery crank, and what it delivered. */
export interface DeliveryCause {
  crankNum: number;
  vatID: string | undefined;
  /** The delivery's kind: `message`, `notify`, `bringOutYourDead`, `dropExports`, `startVat`... */
  delivery: string;
  /** When the crank started (seconds). */
  time: number | undefined;
  cause: Cause;
  /** Cause's time to the crank's start, µs (undefined: either time unknown). */
  queueMicros: number | undefined;
  /** The message's target, method (as the render prints it) and result promise; a notify's promise in `target`. */
  target?: string;
  method?: string;
  result?: string;
}

