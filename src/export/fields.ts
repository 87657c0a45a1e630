/**
 * The cells the tables read from deliveries and syscalls. Kernel space
 * (`kd`, `ksc`, `ksr`: krefs) where the entry has it, else vat space (`vd`,
 * `vsc`, `vsr`: vrefs; a replayed entry has only those). A delivery's
 * target and result promise and a syscall's target and method are the
 * entry's own fields, which the scan layer takes from its arguments without
 * reading them whole (scan/call-heads.ts: which argument is what).
 */
import { deliveryMethod } from '../analyses/common/delivery-method.js';
import type { SyscallPair } from '../model/crank.js';
import type { DeliverEntry, DeliverResultEntry } from '../scan/entry-types.js';

/** `message`, `notify`, `startVat`, `bringOutYourDead`, `dropExports`...; null if unreadable. */
export function deliveryKindOf(entry: DeliverEntry): string | null {
  return entry.kind ?? null;
}

/** A message's method as `stats` names it; for any other delivery, its kind. */
export function deliveryMethodOf(entry: DeliverEntry): string {
  return deliveryMethod(entry);
}

/** A message's target (some kernels wrote it as `{kref}`); a notify's first promise; else null. */
export function deliveryTargetOf(entry: DeliverEntry): string | null {
  return entry.target ?? null;
}

/** A message's result promise, else null. */
export function deliveryResultOf(entry: DeliverEntry): string | null {
  return entry.resultPromise ?? null;
}

/** `dr[0]`: `ok`, `error`...; null without a result. */
export function deliveryStatusOf(result: DeliverResultEntry | undefined): string | null {
  return result?.status ?? null;
}

/** `dr[2].compute`, where the worker reports it. */
export function computronsOf(result: DeliverResultEntry | undefined): number | null {
  const compute = result?.computrons;
  return typeof compute === 'number' && Number.isFinite(compute) ? compute : null;
}

/**
 * What a syscall acts on: a send's or invoke's target; the promise of a
 * subscribe, or the first one a resolve settles; a vatstore syscall's key
 * (vatstoreGetAfter: its prior key); the first ref of dropImports,
 * retireImports, retireExports, abandonExports; else null.
 */
export function syscallTargetOf(pair: SyscallPair): string | null {
  return pair.call.target ?? null;
}

/** A send's method (as a delivery's is named), an invoke's method; else null. */
export function syscallMethodOf(pair: SyscallPair): string | null {
  return pair.call.method ?? null;
}

/** `ksr[0]` (else `vsr[0]`): `ok`, `error`; null without a result. */
export function syscallStatusOf(pair: SyscallPair): string | null {
  return pair.result?.status ?? null;
}

/** Seconds to whole microseconds (the slog's times have microsecond resolution); null if not finite. */
export function micros(seconds: number): number | null {
  return Number.isFinite(seconds) ? Math.round(seconds * 1_000_000) : null;
}

/** A finite number, else null. */
export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
