/**
 * The shapes of slog entries, as the SwingSet kernel writes them.
 *
 * A slog is JSON Lines: one object per line, each with a `type`, a wall-clock
 * `time` (seconds, float) and a `monotime`. Only the fields slogulate reads are
 * typed; everything else passes through untouched.
 */

/** A kernel ref (`ko12` object, `kp40` promise, `kd3` device) or a vat ref (`o+5`, `p-60`, `d-70`). */
export type Ref = string;

/** Marshalled data: `body` is smallcaps (`#...`) or legacy JSON; `slots` are refs. */
export interface CapData {
  body: string;
  slots: Ref[];
}

/** A message as the kernel sees it (deliver `kd`, syscall `ksc` send). */
export interface KernelMessage {
  methargs: CapData;
  result?: Ref | null;
}

/** Every entry has these. */
export interface EntryBase {
  type: string;
  time?: number;
  monotime?: number;
  crankNum?: number;
  vatID?: string;
  [key: string]: unknown;
}

export interface CrankStartEntry extends EntryBase {
  type: 'crank-start';
  crankNum: number;
  crankType: 'routing' | 'delivery' | string;
  messageType?: string;
  message?: {
    type?: string;
    vatID?: string;
    target?: Ref;
    dynamicOptions?: { name?: string };
    [key: string]: unknown;
  };
}

export interface CrankFinishEntry extends EntryBase {
  type: 'crank-finish';
  crankNum: number;
}

/**
 * What a vat receives. `kd` is kernel space, `vd` vat space:
 * - `['message', target, {methargs, result}]` (kd) / `['message', target, {methargs, result}]` (vd)
 * - `['notify', [[kpid, {state, data}]...]]` (kd) / `['notify', [[vpid, rejected, data]...]]` (vd)
 * - `['dropExports'|'retireExports'|'retireImports', refs]`
 * - `['startVat', vatParameters]`, `['bringOutYourDead']`, `['stopVat', data]`,
 *   `['changeVatOptions', options]`
 */
export type Delivery = [string, ...unknown[]];

export interface DeliverEntry extends EntryBase {
  type: 'deliver';
  kd?: Delivery;
  vd?: Delivery;
}

/** `dr` is `[status, problem, usage]`; with XS workers `usage.compute` is computrons. */
export interface DeliverResultEntry extends EntryBase {
  type: 'deliver-result';
  dr?: [string, unknown, { compute?: number } | null | undefined];
}

/** What a vat asks the kernel: `ksc` kernel space, `vsc` vat space, `[name, ...args]`. */
export type Syscall = [string, ...unknown[]];

export interface SyscallEntry extends EntryBase {
  type: 'syscall';
  syscall?: string;
  ksc?: Syscall;
  vsc?: Syscall;
}

/** `ksr` / `vsr` are `[status, value]`. */
export interface SyscallResultEntry extends EntryBase {
  type: 'syscall-result';
  ksr?: [string, unknown];
  vsr?: [string, unknown];
}

export interface ClistEntry extends EntryBase {
  type: 'clist';
  mode: string;
  vatID: string;
  kobj: Ref;
  vobj: Ref;
}

export interface ConsoleEntry extends EntryBase {
  type: 'console';
  level?: string;
  state?: string;
  source?: string;
  args?: unknown[];
}

export interface CreateVatEntry extends EntryBase {
  type: 'create-vat';
  vatID: string;
  name?: string;
  dynamic?: boolean;
  description?: string;
}

export type SlogEntry = EntryBase;
