/**
 * Syscall names as the model and the render take them: which are vatstore
 * syscalls, and the name a syscall prints as. Where each syscall keeps what
 * (its positional arguments by name) is scan/syscall-call.ts's, given on
 * from here.
 */
export { syscallCall, type Resolution, type SyscallCall } from '../scan/syscall-call.js';

export const VATSTORE_SYSCALLS: ReadonlySet<string> = new Set([
  'vatstoreGet',
  'vatstoreGetNextKey',
  'vatstoreSet',
  'vatstoreDelete',
  'vatstoreGetAfter',
]);

/** Is `name` a vatstore syscall (dropped by --novatstore, counted apart)? */
export function isVatstore(name: string | undefined): boolean {
  return name !== undefined && VATSTORE_SYSCALLS.has(name);
}

/**
 * The name a syscall prints as (SLOG-FORMAT.md: "syscall invoke (older:
 * callNow)"): in kernel space an older kernel's `callNow` is `invoke`, as
 * today's kernel writes it; a vat's own `callNow` (vat space) keeps its name.
 */
export function printedName(name: string, kernelSpace: boolean): string {
  return kernelSpace && name === 'callNow' ? 'invoke' : name;
}
