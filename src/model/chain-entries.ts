/**
 * What one `cosmic-swingset-*` entry says, field by field (SLOG-FORMAT.md,
 * "Chain entries as agoric-sdk writes them today"): its numbers, what came
 * in with it (a bridge message, a mailbox delivery, a bundle install,
 * kernel upgrade events, a timer poll), what a run it precedes was
 * triggered by, how long a -start/-finish pair took, the heap after a
 * commit. Fields the slog lacks, or holds as something else than the spec
 * says, read as undefined. The tracker (chain.ts) puts these together.
 */
import type { OtherEntry, SlogEntry } from '../scan/entry-types.js';

/** A finite number, else undefined (a field missing, null, or not a number). */
export const numberField = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A string, else undefined. */
export const stringField = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A chain entry's fields, as read: each may be missing or of another type. */
export const fieldsOf = (entry: SlogEntry): OtherEntry => entry as OtherEntry;

/** The entry's `time` (seconds since the epoch). */
export const timeOf = (entry: SlogEntry): number | undefined => numberField(entry.time);

/**
 * A -finish entry's duration, seconds: its own `seconds` (every -finish the
 * chain writes today has one), else its time less its -start's; undefined
 * with neither.
 */
export function tookSeconds(finish: SlogEntry, startTime: number | undefined): number | undefined {
  return numberField(fieldsOf(finish).seconds) ?? elapsedSeconds(finish, startTime);
}

/** The time from a -start (its `time`) to this -finish, seconds; undefined without both. */
export function elapsedSeconds(finish: SlogEntry, startTime: number | undefined): number | undefined {
  const end = timeOf(finish);
  return end !== undefined && startTime !== undefined ? end - startTime : undefined;
}

/** The kernel's heap after a commit (after-commit-stats): memoryUsage.heapUsed, else heapStats.used_heap_size. */
export function heapUsedOf(stats: SlogEntry): number | undefined {
  const e = fieldsOf(stats);
  const usage = e.memoryUsage as { heapUsed?: unknown } | undefined;
  const heap = e.heapStats as { used_heap_size?: unknown } | undefined;
  return numberField(usage?.heapUsed) ?? numberField(heap?.used_heap_size);
}

/** What came in from outside the kernel, from one entry. */
export type Inbound =
  /** `bridge-inbound`: a cosmos message (`source`, and its `body.type`). */
  | { kind: 'bridge'; source?: string; messageType?: string }
  /** `deliver-inbound`: mailbox messages from `sender`, `count` of them. */
  | { kind: 'mailbox'; sender?: string; messages?: number }
  /** `install-bundle`; `failed`: its `error` is set. */
  | { kind: 'install-bundle'; failed: boolean }
  /** `inject-kernel-upgrade-events`. */
  | { kind: 'upgrade-events' }
  /** `timer-poll`; `woke`: its `added` is true (the poll woke something: else it is the poll every block makes). */
  | { kind: 'timer'; woke: boolean };

const INBOUND_TYPES = new Set([
  'cosmic-swingset-bridge-inbound',
  'cosmic-swingset-deliver-inbound',
  'cosmic-swingset-install-bundle',
  'cosmic-swingset-inject-kernel-upgrade-events',
  'cosmic-swingset-timer-poll',
]);

/** Is the entry one of those that bring something in (inboundOf reads it)? */
export const isInbound = (entry: SlogEntry): boolean => INBOUND_TYPES.has(entry.type);

/** What an inbound entry brought in. Precondition: isInbound(entry). */
export function inboundOf(entry: SlogEntry): Inbound {
  const e = fieldsOf(entry);
  switch (entry.type) {
    case 'cosmic-swingset-bridge-inbound': {
      const body = e.body as { type?: unknown } | null | undefined;
      const source = stringField(e.source);
      const messageType = body !== null && typeof body === 'object' ? stringField(body.type) : undefined;
      return { kind: 'bridge', ...(source === undefined ? {} : { source }), ...(messageType === undefined ? {} : { messageType }) };
    }
    case 'cosmic-swingset-deliver-inbound': {
      const sender = stringField(e.sender);
      const messages = numberField(e.count);
      return { kind: 'mailbox', ...(sender === undefined ? {} : { sender }), ...(messages === undefined ? {} : { messages }) };
    }
    case 'cosmic-swingset-install-bundle':
      return { kind: 'install-bundle', failed: e.error !== null && e.error !== undefined };
    case 'cosmic-swingset-inject-kernel-upgrade-events':
      return { kind: 'upgrade-events' };
    default:
      return { kind: 'timer', woke: e.added === true };
  }
}

/** What started a run. */
export interface RunTrigger {
  /** `bridge` (a cosmos message: `source`, `messageType`), `mailbox` (`sender`, `count`), `install-bundle`, `timer`, or the phase's own work: `leftover`, `cleanup`, `bootstrap`, `upgrade`, `unknown`. */
  kind: string;
  source?: string;
  messageType?: string;
  sender?: string;
  count?: number;
}

/** A run's trigger from what came in last before it (since the last run, or its block's start), else its phase. */
export function triggerOf(phase: string, inbound: Inbound | undefined): RunTrigger {
  switch (inbound?.kind) {
    case 'bridge':
      return { ...inbound };
    case 'mailbox': {
      const { sender, messages } = inbound;
      return { kind: 'mailbox', ...(sender === undefined ? {} : { sender }), ...(messages === undefined ? {} : { count: messages }) };
    }
    case 'install-bundle':
      return { kind: 'install-bundle' };
    case 'upgrade-events':
      return { kind: 'upgrade' };
    case 'timer':
      return { kind: 'timer' };
    default:
      return phaseTrigger(phase);
  }
}

/** A run with nothing come in before it: the timer phase's is the timer; leftover and cleanup are their own work. */
function phaseTrigger(phase: string): RunTrigger {
  if (phase === 'timer') return { kind: 'timer' };
  if (phase === 'leftover' || phase === 'cleanup') return { kind: phase };
  return { kind: 'unknown' };
}

/** A trigger in words: `bridge wallet WALLET_SPEND_ACTION`, `mailbox agoric1x (3)`, `timer`. */
export function triggerText(t: RunTrigger): string {
  switch (t.kind) {
    case 'bridge':
      return ['bridge', t.source, t.messageType].filter((x) => x !== undefined).join(' ');
    case 'mailbox':
      return `mailbox${t.sender === undefined ? '' : ` ${t.sender}`}${t.count === undefined ? '' : ` (${t.count})`}`;
    default:
      return t.kind;
  }
}
