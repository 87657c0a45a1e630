/**
 * The few pieces of a delivery and of a syscall that the export's tables
 * read (export/fields.ts), as entry fields (entry-types.ts): a delivery's
 * `target` and `resultPromise`, a syscall's `target` and `method`. The
 * rules are here, once, for both readers: the plain path applies them to
 * the parsed `kd`/`vd` or `ksc`/`vsc` (entries.ts); the byte reader reads
 * the same pieces from the line's bytes (head-bytes.ts, by callHeads'
 * positions) and applies these to any piece it parses.
 *
 * Each is read from the kernel-space form when the line has one, else from
 * the vat-space one (a transcript replay has only that).
 */
import { methargsMethod } from './method-name.js';
import { isMessage, messageMethargs } from './message.js';
import { argumentsAt } from './syscall-call.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** How a piece is read from the argument callHeads points at. */
export const HEAD_NONE = 0;
/** The argument, if a string. */
export const HEAD_STR = 1;
/** The first element of the argument's first element, both lists (a resolve's first promise). */
export const HEAD_FIRST_OF_FIRST = 2;
/** The first element of the first argument that is a list (a drop's, retire's or abandon's first ref); `at` is where the search starts. */
export const HEAD_FIRST_LIST = 3;
/** A send's method, from its message (sendMethod). */
export const HEAD_MESSAGE = 4;

/** Where a syscall's target and method are (their argument's index in the call, and how each is read). */
export interface CallHeads {
  readonly target: number;
  readonly targetKind: number;
  readonly method: number;
  readonly methodKind: number;
}

const heads = (target: number, targetKind: number, method = -1, methodKind = HEAD_NONE): CallHeads => ({ target, targetKind, method, methodKind });
const NONE = heads(-1, HEAD_NONE);
const SEND = heads(1, HEAD_STR, 2, HEAD_MESSAGE);
const INVOKE = heads(1, HEAD_STR, 2, HEAD_STR);
const KEY = [heads(1, HEAD_STR), heads(2, HEAD_STR)];
const RESOLVE = [heads(1, HEAD_FIRST_OF_FIRST), heads(2, HEAD_FIRST_OF_FIRST)];
const REFS = heads(1, HEAD_FIRST_LIST);

/**
 * A syscall's target and method by its name (syscall-call.ts's positions):
 * a send's or invoke's target (an invoke's device), a subscribe's promise, a
 * vatstore syscall's key (vatstoreGetAfter: its prior key), the first
 * promise a resolve settles, the first ref of dropImports, retireImports,
 * retireExports, abandonExports; a send's method (as a delivery's is
 * named), an invoke's method. Any other syscall has neither.
 */
export function callHeads(name: string, kernelSpace: boolean): CallHeads {
  switch (name) {
    case 'send':
      return SEND;
    case 'invoke':
    case 'callNow':
      return INVOKE;
    case 'subscribe':
    case 'vatstoreGet':
    case 'vatstoreGetNextKey':
    case 'vatstoreSet':
    case 'vatstoreDelete':
    case 'vatstoreGetAfter':
      return KEY[argumentsAt(name, kernelSpace) - 1] as CallHeads;
    case 'resolve':
      return RESOLVE[argumentsAt(name, kernelSpace) - 1] as CallHeads;
    case 'dropImports':
    case 'retireImports':
    case 'retireExports':
    case 'abandonExports':
      return REFS;
    default:
      return NONE;
  }
}

/** A message's target: a ref, or (some kernels) `{kref}`. */
export function refOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  return target !== null && typeof target === 'object' ? str((target as { kref?: unknown }).kref) : undefined;
}

/** A message's result promise (`{..., result}`). */
export function resultOf(message: unknown): string | undefined {
  return message !== null && typeof message === 'object' ? str((message as { result?: unknown }).result) : undefined;
}

/** The first element of a list's first element, when both are lists: a notify's or resolve's first promise. */
export function firstOfFirst(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const first: unknown = list[0];
  return Array.isArray(first) ? str(first[0]) : undefined;
}

/** A send's method from its third element: a message of either shape (message.ts), else (older vats) methargs itself. */
export function sendMethod(third: unknown): string {
  return methargsMethod(isMessage(third) ? messageMethargs(third) : third);
}

/** A message's method, as a delivery's is named (a message of either shape: message.ts). */
export function messageMethod(message: unknown): string {
  return methargsMethod(messageMethargs(message));
}

/** A piece of `call` read as `kind` says from its argument `at`. */
function pieceOf(call: readonly unknown[], at: number, kind: number): string | undefined {
  switch (kind) {
    case HEAD_STR:
      return str(call[at]);
    case HEAD_FIRST_OF_FIRST:
      return firstOfFirst(call[at]);
    case HEAD_FIRST_LIST:
      for (let i = at; i < call.length; i += 1) if (Array.isArray(call[i])) return str((call[i] as unknown[])[0]);
      return undefined;
    case HEAD_MESSAGE:
      return sendMethod(call[at]);
    default:
      return undefined;
  }
}

/** A syscall's target (callHeads) from its `ksc` (kernelSpace) or `vsc`; undefined when it is not a list. */
export function callTarget(call: unknown, kernelSpace: boolean): string | undefined {
  if (!Array.isArray(call)) return undefined;
  const h = callHeads(String(call[0]), kernelSpace);
  return pieceOf(call, h.target, h.targetKind);
}

/** A syscall's method (callHeads) from its `ksc` (kernelSpace) or `vsc`; undefined when it is not a list. */
export function callMethod(call: unknown, kernelSpace: boolean): string | undefined {
  if (!Array.isArray(call)) return undefined;
  const h = callHeads(String(call[0]), kernelSpace);
  return pieceOf(call, h.method, h.methodKind);
}

/** A delivery's target: a message's (refOf), a notify's first promise; else undefined. */
export function deliveryTarget(delivery: unknown): string | undefined {
  if (!Array.isArray(delivery)) return undefined;
  if (delivery[0] === 'message') return refOf(delivery[1]);
  if (delivery[0] === 'notify') return firstOfFirst(delivery[1]);
  return undefined;
}

/** A message delivery's result promise; else undefined. */
export function deliveryResultPromise(delivery: unknown): string | undefined {
  return Array.isArray(delivery) && delivery[0] === 'message' ? resultOf(delivery[2]) : undefined;
}
