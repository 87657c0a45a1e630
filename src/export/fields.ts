/**
 * The cells the tables read from deliveries and syscalls. Kernel space
 * (`kd`, `ksc`, `ksr`: krefs) where the entry has it, else vat space (`vd`,
 * `vsc`, `vsr`: vrefs; a replayed entry has only those).
 */
import { deliveryMethod } from '../analyses/delivery-method.js';
import type { SyscallPair } from '../model/crank.js';
import type { DeliverEntry, DeliverResultEntry } from '../model/types.js';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** `kd`, else `vd`. */
function delivery(entry: DeliverEntry): unknown[] | undefined {
  return Array.isArray(entry.kd) ? entry.kd : Array.isArray(entry.vd) ? entry.vd : undefined;
}

/** `message`, `notify`, `startVat`, `bringOutYourDead`, `dropExports`...; null if unreadable. */
export function deliveryKindOf(entry: DeliverEntry): string | null {
  return str(delivery(entry)?.[0]);
}

/**
 * Methods already named, by message body: the line reader's bodies are cut
 * after the method (`#["deposit",`), so few and short; naming one costs a
 * regular expression, a JSON.parse and more (a tenth of the export's time).
 */
const methodCache = new Map<string, string>();
const CACHED_BODY_LENGTH = 80;
const CACHE_SIZE = 10_000;

/** The method of a `{methargs, result}` message, as `stats` names it. */
function messageMethod(target: unknown, message: unknown): string {
  const methargs = message !== null && typeof message === 'object' ? (message as { methargs?: unknown }).methargs : undefined;
  const body = methargs !== null && typeof methargs === 'object' ? (methargs as { body?: unknown }).body : undefined;
  const short = typeof body === 'string' && body.length <= CACHED_BODY_LENGTH;
  if (short) {
    const hit = methodCache.get(body);
    if (hit !== undefined) return hit;
  }
  const method = deliveryMethod({ type: 'deliver', kd: ['message', target, message] });
  if (short && methodCache.size < CACHE_SIZE) methodCache.set(body, method);
  return method;
}

/** A message's method as `stats` names it; for any other delivery, its kind. */
export function deliveryMethodOf(entry: DeliverEntry): string {
  const d = delivery(entry);
  return d && d[0] === 'message' ? messageMethod(d[1], d[2]) : deliveryMethod(entry);
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
    const first = d[1][0];
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
  return result && Array.isArray(result.dr) ? str(result.dr[0]) : null;
}

/** `dr[2].compute`, where the worker reports it. */
export function computronsOf(result: DeliverResultEntry | undefined): number | null {
  const usage = result && Array.isArray(result.dr) ? result.dr[2] : undefined;
  const compute = usage !== null && typeof usage === 'object' ? usage.compute : undefined;
  return typeof compute === 'number' && Number.isFinite(compute) ? compute : null;
}

/** The syscall's arguments (`ksc`, else `vsc`) and whether they are the kernel's. */
function syscallCall(pair: SyscallPair): { call: unknown[]; kernel: boolean } | undefined {
  const { ksc, vsc } = pair.call;
  if (Array.isArray(ksc)) return { call: ksc, kernel: true };
  if (Array.isArray(vsc)) return { call: vsc, kernel: false };
  return undefined;
}

/**
 * What a syscall acts on: a send's or invoke's target; the promise of a
 * subscribe, or the first one a resolve settles; a vatstore syscall's key;
 * the first ref of dropImports, retireImports, retireExports,
 * abandonExports; else null.
 */
export function syscallTargetOf(pair: SyscallPair, type: string): string | null {
  const found = syscallCall(pair);
  if (!found) return null;
  const { call, kernel } = found;
  // The kernel's form has the vat ID first where the vat's has nothing.
  const vatArg = kernel ? 2 : 1;
  switch (type) {
    case 'send':
    case 'invoke':
    case 'callNow':
      return str(call[1]);
    case 'subscribe':
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreSet':
    case 'vatstoreDelete':
    case 'vatstoreGetAfter':
      return str(call[vatArg]);
    case 'resolve': {
      const resolutions = call[vatArg];
      const first = Array.isArray(resolutions) ? resolutions[0] : undefined;
      return Array.isArray(first) ? str(first[0]) : null;
    }
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      for (let i = 1; i < call.length; i += 1) {
        const refs = call[i];
        if (Array.isArray(refs)) return str(refs[0]);
      }
      return null;
    }
    default:
      return null;
  }
}

/** A send's method (as a delivery's is named), an invoke's method; else null. */
export function syscallMethodOf(pair: SyscallPair, type: string): string | null {
  const found = syscallCall(pair);
  if (!found) return null;
  const { call } = found;
  if (type === 'send') {
    const third = call[2] as { methargs?: unknown } | null | undefined;
    // Kernel form [target, {methargs, result}]; older vat form [target, methargs, result].
    const message = third !== null && typeof third === 'object' && 'methargs' in third ? third : { methargs: third };
    return messageMethod(call[1], message);
  }
  if (type === 'invoke' || type === 'callNow') return str(call[2]);
  return null;
}

/** `ksr[0]` (else `vsr[0]`): `ok`, `error`; null without a result. */
export function syscallStatusOf(pair: SyscallPair): string | null {
  const result = pair.result;
  if (!result) return null;
  const sr = Array.isArray(result.ksr) ? result.ksr : Array.isArray(result.vsr) ? result.vsr : undefined;
  return sr ? str(sr[0]) : null;
}

/** Seconds to whole microseconds (the slog's times have microsecond resolution); null if not finite. */
export function micros(seconds: number): number | null {
  return Number.isFinite(seconds) ? Math.round(seconds * 1_000_000) : null;
}

/** A finite number, else null. */
export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
