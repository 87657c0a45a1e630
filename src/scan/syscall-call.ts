/**
 * A syscall's positional arguments by name: the one place that knows where
 * each syscall keeps what, in kernel space (`ksc`) and in vat space (`vsc`).
 * Kernel-space forms carry the vat's ID as their first argument where the
 * vat-space ones do not: `['subscribe', 'v1', 'kp40']` / `['subscribe', 'p+5']`.
 *
 * | syscall | arguments after the name (vat space) |
 * |---|---|
 * | send | target, `{methargs, result}` (2021: target, `{method, args, result}`; older vats: target, methargs, result) |
 * | resolve | `[[promise, rejected, data], ...]` |
 * | invoke (older: callNow) | device, method, args (capdata) |
 * | subscribe | promise |
 * | vatstoreGet, vatstoreGetNextKey, vatstoreDelete | key |
 * | vatstoreSet | key, value |
 * | vatstoreGetAfter | priorKey, lowerBound, upperBound |
 * | dropImports, retireImports, retireExports, abandonExports | refs (the first list) |
 * | exit | failure, info (capdata) |
 *
 * The name is the slog's own: an older kernel's `callNow` stays `callNow`
 * here (stats count it so); model/syscall-call.ts's `printedName` is the
 * one the text prints. In the scan layer so that the readers can take a
 * syscall's target and method from it (call-heads.ts).
 */
import { isMessage, messageMethargs } from './message.js';

export interface Resolution {
  target: unknown;
  rejected: boolean;
  data: unknown;
}

export type SyscallCall =
  | { name: 'send'; target: unknown; methargs: unknown; result: unknown }
  /** `resolutions` undefined: not a list. */
  | { name: 'resolve'; resolutions: Resolution[] | undefined }
  | { name: 'invoke' | 'callNow'; target: unknown; method: unknown; args: unknown }
  | { name: 'subscribe'; target: unknown }
  | { name: 'vatstoreGet' | 'vatstoreGetNextKey' | 'vatstoreDelete'; key: unknown }
  | { name: 'vatstoreSet'; key: unknown; value: unknown }
  | { name: 'vatstoreGetAfter'; priorKey: unknown; lowerBound: unknown; upperBound: unknown }
  | { name: 'dropImports' | 'retireImports' | 'retireExports' | 'abandonExports'; refs: unknown[] | undefined }
  | { name: 'exit'; failure: unknown; info: unknown }
  | { name: 'unknown'; called: string };

/** Syscalls whose kernel-space form has the vat's ID first. */
const VAT_FIRST = new Set([
  'resolve',
  'subscribe',
  'vatstoreGet',
  'vatstoreGetNextKey',
  'vatstoreDelete',
  'vatstoreSet',
  'vatstoreGetAfter',
  'exit',
]);

/** Where the arguments after a kernel-space form's vat ID begin: 2 for a syscall of VAT_FIRST in kernel space, else 1. */
export function argumentsAt(name: string, kernelSpace: boolean): number {
  return kernelSpace && VAT_FIRST.has(name) ? 2 : 1;
}

/** A `ksc` (kernelSpace) or `vsc` read by name. */
export function syscallCall(call: readonly unknown[], kernelSpace: boolean): SyscallCall {
  const name = String(call[0]);
  const at = argumentsAt(name, kernelSpace);
  switch (name) {
    case 'send': {
      const third = call[2];
      // A message of either shape (scan/message.ts), its methargs as today's; its result, else one after it.
      if (isMessage(third)) {
        const result = 'result' in (third as object) ? (third as { result?: unknown }).result : call[3];
        return { name, target: call[1], methargs: messageMethargs(third), result };
      }
      return { name, target: call[1], methargs: third, result: call[3] };
    }
    case 'resolve': {
      const list = call[at];
      if (!Array.isArray(list)) return { name, resolutions: undefined };
      const resolutions = list.map((r: unknown): Resolution => {
        const [target, rejected, data] = Array.isArray(r) ? (r as unknown[]) : [];
        return { target, rejected: rejected === true, data };
      });
      return { name, resolutions };
    }
    case 'invoke':
    case 'callNow':
      return { name, target: call[1], method: call[2], args: call[3] };
    case 'subscribe':
      return { name, target: call[at] };
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreDelete':
      return { name, key: call[at] };
    case 'vatstoreSet':
      return { name, key: call[at], value: call[at + 1] };
    case 'vatstoreGetAfter':
      return { name, priorKey: call[at], lowerBound: call[at + 1], upperBound: call[at + 2] };
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports': {
      let refs: unknown[] | undefined;
      for (let i = 1; i < call.length && refs === undefined; i += 1) if (Array.isArray(call[i])) refs = call[i] as unknown[];
      return { name, refs };
    }
    case 'exit':
      return { name, failure: call[at], info: call[at + 1] };
    default:
      return { name: 'unknown', called: name };
  }
}
