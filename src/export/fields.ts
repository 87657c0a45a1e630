/**
 * The cells the tables read from deliveries and syscalls. Kernel space
 * (`kd`, `ksc`, `ksr`: krefs) where the entry has it, else vat space (`vd`,
 * `vsc`, `vsr`: vrefs; a replayed entry has only those). Which argument of
 * a syscall is what: model/syscall-call.ts, the one place that knows.
 */
import { deliveryMethod } from '../analyses/common/delivery-method.js';
import type { SyscallPair } from '../model/crank.js';
import { syscallCall, type SyscallCall } from '../model/syscall-call.js';
import { methargsMethod } from '../scan/method-name.js';
import type { DeliverEntry, DeliverResultEntry } from '../scan/entry-types.js';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** `kd`, else `vd`. */
function delivery(entry: DeliverEntry): unknown[] | undefined {
  return Array.isArray(entry.kd) ? entry.kd : Array.isArray(entry.vd) ? entry.vd : undefined;
}

/** `message`, `notify`, `startVat`, `bringOutYourDead`, `dropExports`...; null if unreadable. */
export function deliveryKindOf(entry: DeliverEntry): string | null {
  return entry.kind ?? null;
}

/** A message's method as `stats` names it; for any other delivery, its kind. */
export function deliveryMethodOf(entry: DeliverEntry): string {
  return deliveryMethod(entry);
}

/** A message's target; a notify's first promise; else null. */
export function deliveryTargetOf(entry: DeliverEntry): string | null {
  const d = delivery(entry);
  if (!d) return null;
  if (d[0] === 'message') {
    const target = d[1];
    // Some kernels wrote the target as {kref}.
    return str(target) ?? (target !== null && typeof target === 'object' ? str((target as { kref?: unknown }).kref) : null);
  }
  if (d[0] === 'notify' && Array.isArray(d[1])) {
    const first: unknown = d[1][0];
    return Array.isArray(first) ? str(first[0]) : null;
  }
  return null;
}

/** A message's result promise, else null. */
export function deliveryResultOf(entry: DeliverEntry): string | null {
  const d = delivery(entry);
  if (!d || d[0] !== 'message') return null;
  const message = d[2];
  return message !== null && typeof message === 'object' ? str((message as { result?: unknown }).result) : null;
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

/** The syscall's arguments by name (`ksc`, else `vsc`): read once per syscall, for its target and its method. */
export function syscallCallOf(pair: SyscallPair): SyscallCall | undefined {
  const { ksc, vsc } = pair.call;
  if (Array.isArray(ksc)) return syscallCall(ksc, true);
  if (Array.isArray(vsc)) return syscallCall(vsc, false);
  return undefined;
}

/**
 * What a syscall acts on (its call from syscallCallOf): a send's or
 * invoke's target; the promise of a subscribe, or the first one a resolve
 * settles; a vatstore syscall's key (vatstoreGetAfter: its prior key); the
 * first ref of dropImports, retireImports, retireExports, abandonExports;
 * else null.
 */
export function syscallTargetOf(call: SyscallCall | undefined): string | null {
  if (!call) return null;
  switch (call.name) {
    case 'send':
    case 'invoke':
    case 'callNow':
    case 'subscribe':
      return str(call.target);
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreSet':
    case 'vatstoreDelete':
      return str(call.key);
    case 'vatstoreGetAfter':
      return str(call.priorKey);
    case 'resolve':
      return str(call.resolutions?.[0]?.target);
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports':
      return str(call.refs?.[0]);
    default:
      return null;
  }
}

/** A send's method (as a delivery's is named), an invoke's method (its call from syscallCallOf); else null. */
export function syscallMethodOf(call: SyscallCall | undefined): string | null {
  if (!call) return null;
  if (call.name === 'send') return methargsMethod(call.methargs);
  if (call.name === 'invoke' || call.name === 'callNow') return str(call.method);
  return null;
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
