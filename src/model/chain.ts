/**
 * Where a crank ran on a chain: its block and its run (SLOG-FORMAT.md,
 * "Chain entries as agoric-sdk writes them today"). A chain node logs, per
 * block, `cosmic-swingset-begin-block`, then inside `end-block-start` ..
 * `end-block-finish` one or more runs (`run-start` .. `run-finish`, each of
 * a phase: leftover, forced, priority, timer, inbound, cleanup), each run
 * triggered by what came in before it (a `bridge-inbound`, a mailbox
 * `deliver-inbound`, an `install-bundle`, the `timer-poll`), then the
 * commit. The bootstrap block (`bootstrap-block-start` .. `-finish`) is
 * block `cosmic-swingset-init.blockHeight`; an upgrade (`upgrade-start` ..
 * `-finish`, at a node's start) belongs to the block of its `blockHeight`,
 * which begins right after it.
 *
 * The tracker reads those entries as the slog streams and says, at each
 * moment, which block and run cranks belong to; the crank model stamps every
 * crank with it (assembler.ts). A block run again after a restart (the
 * kernel had run it, not committed it) is marked `again`.
 */
import type { SlogEntry } from '../scan/entry-types.js';

/** What started a run. */
export interface RunTrigger {
  /** `bridge` (a cosmos message: `source`, `messageType`), `mailbox` (`sender`, `count`), `install-bundle`, `timer`, or the phase's own work: `leftover`, `cleanup`, `bootstrap`, `upgrade`, `unknown`. */
  kind: string;
  source?: string;
  messageType?: string;
  sender?: string;
  count?: number;
}

export interface BlockRef {
  height: number;
  /** Block time, seconds since the epoch (the chain's consensus time). */
  blockTime?: number;
  /** The block ran again after a restart. */
  again: boolean;
  /** The bootstrap block (the chain's first, which boots the kernel). */
  bootstrap: boolean;
  /** The chain upgrade run at a node's start (`upgrade-start` .. `-finish`), before its block's begin-block. */
  upgrade?: boolean;
}

export interface RunRef {
  /** `runNum` (from 0 in each block). */
  num: number;
  phase: string;
  trigger: RunTrigger;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A run's trigger from the entries since the last run (or the block's start) and its phase. */
function triggerOf(phase: string, inbound: SlogEntry | undefined): RunTrigger {
  if (inbound) {
    switch (inbound.type) {
      case 'cosmic-swingset-bridge-inbound': {
        const body = inbound.body as { type?: unknown } | null | undefined;
        const t: RunTrigger = { kind: 'bridge' };
        const source = str(inbound.source);
        const messageType = body !== null && typeof body === 'object' ? str(body.type) : undefined;
        if (source !== undefined) t.source = source;
        if (messageType !== undefined) t.messageType = messageType;
        return t;
      }
      case 'cosmic-swingset-deliver-inbound': {
        const t: RunTrigger = { kind: 'mailbox' };
        const sender = str(inbound.sender);
        const count = num(inbound.count);
        if (sender !== undefined) t.sender = sender;
        if (count !== undefined) t.count = count;
        return t;
      }
      case 'cosmic-swingset-install-bundle':
        return { kind: 'install-bundle' };
      case 'cosmic-swingset-inject-kernel-upgrade-events':
        return { kind: 'upgrade' };
      case 'cosmic-swingset-timer-poll':
        return { kind: 'timer' };
      default:
        break;
    }
  }
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

const INBOUND = new Set([
  'cosmic-swingset-bridge-inbound',
  'cosmic-swingset-deliver-inbound',
  'cosmic-swingset-install-bundle',
  'cosmic-swingset-inject-kernel-upgrade-events',
  'cosmic-swingset-timer-poll',
]);

export class ChainTracker {
  /** The block cranks belong to now (begin-block to end-block-finish; the bootstrap block). */
  block: BlockRef | undefined;
  /** The run cranks belong to now (run-start to run-finish). */
  run: RunRef | undefined;
  /** The last inbound entry since the last run: what the next run does. */
  private inbound: SlogEntry | undefined;
  private bootstrapHeight: number | undefined;
  private kernelStarts = 0;
  /** The highest block seen, and the highest seen before the last restart (blocks up to it ran before). */
  private maxHeight = -1;
  private ranBefore = -1;

  /** Does the slog show chain blocks at all (a begin-block or a bootstrap block was seen)? */
  chain = false;

  entry(entry: SlogEntry): void {
    switch (entry.type) {
      case 'kernel-init-start':
        this.kernelStarts += 1;
        if (this.kernelStarts > 1) this.ranBefore = Math.max(this.ranBefore, this.maxHeight);
        this.block = undefined;
        this.run = undefined;
        this.inbound = undefined;
        return;
      case 'cosmic-swingset-init':
        this.bootstrapHeight = num(entry.blockHeight);
        return;
      case 'cosmic-swingset-bootstrap-block-start':
        // Its height is the init's (a per-block file of it lacks the init: its first run says, below).
        this.open(this.bootstrapHeight ?? NaN, num(entry.blockTime), true);
        return;
      case 'cosmic-swingset-upgrade-start':
        this.open(num(entry.blockHeight) ?? NaN, num(entry.blockTime), false, true);
        return;
      case 'cosmic-swingset-begin-block':
        this.open(num(entry.blockHeight) ?? NaN, num(entry.blockTime), false);
        return;
      case 'cosmic-swingset-end-block-finish':
      case 'cosmic-swingset-bootstrap-block-finish':
      case 'cosmic-swingset-upgrade-finish':
        this.block = undefined;
        this.run = undefined;
        return;
      case 'cosmic-swingset-run-start': {
        const phase = str(entry.phase) ?? 'unknown';
        const height = num(entry.blockHeight);
        if (this.block && Number.isNaN(this.block.height) && height !== undefined) this.block.height = height;
        const trigger = this.block?.bootstrap ? { kind: 'bootstrap' } : this.block?.upgrade ? { kind: 'upgrade' } : triggerOf(phase, this.inbound);
        this.run = { num: num(entry.runNum) ?? NaN, phase, trigger };
        this.inbound = undefined;
        return;
      }
      case 'cosmic-swingset-run-finish':
        this.run = undefined;
        return;
      default:
        if (INBOUND.has(entry.type)) this.inbound = entry;
    }
  }

  private open(height: number, blockTime: number | undefined, bootstrap: boolean, upgrade = false): void {
    this.chain = true;
    this.block = {
      height,
      ...(blockTime === undefined ? {} : { blockTime }),
      again: this.kernelStarts > 1 && height <= this.ranBefore,
      bootstrap,
      ...(upgrade ? { upgrade } : {}),
    };
    this.run = undefined;
    this.inbound = undefined;
    if (height > this.maxHeight) this.maxHeight = height;
  }
}
