/**
 * The one reading of a chain's states (SLOG-FORMAT.md, "Chain entries as
 * agoric-sdk writes them today"). A chain node logs, per block,
 * `cosmic-swingset-begin-block`, then inside `end-block-start` ..
 * `end-block-finish` one or more runs (`run-start` .. `run-finish`, each of
 * a phase: leftover, forced, priority, timer, inbound, cleanup), each run
 * triggered by what came in before it (a `bridge-inbound`, a mailbox
 * `deliver-inbound`, an `install-bundle`, the `timer-poll`), then the
 * commit (`commit-block-start` .. `-finish`) and `after-commit-stats`. The
 * bootstrap block (`bootstrap-block-start` .. `-finish`) is block
 * `cosmic-swingset-init.blockHeight`; an upgrade (`upgrade-start` ..
 * `-finish`, at a node's start) belongs to the block of its `blockHeight`,
 * which begins right after it.
 *
 * The tracker reads those entries as the slog streams and says, at each
 * moment, which block and run cranks belong to (`block`, `run`: the crank
 * model stamps every crank with them, assembler.ts), and tells a ChainSink
 * (chain-states.ts) as blocks and runs open, begin, finish and end. How it
 * reads what real slogs hold:
 *
 * - A restart (a second `kernel-init-start`) ends the open run and block;
 *   the block, uncommitted, was abandoned, and a block up to the highest
 *   seen before the restart runs again (`again`).
 * - A slog that starts inside a block: its entries before the next block's
 *   opener belong to no block open here; a run-start there opens a run of
 *   the block its `blockHeight` names, and the cranks from it to the
 *   end-block-finish are stamped with that block (no ChainBlock: the slog
 *   lacks its start). A slog that starts inside a run: the cranks before
 *   its run-finish went by before it: of no block.
 * - A run-finish inside a block whose run-start the slog lacks names its
 *   run (`startless`); outside every block it is left alone.
 * - A -finish (end-block, commit, bootstrap-block) is the open block's,
 *   whatever height or blockTime it names (the render prints a mismatch,
 *   render/kernel-lines.ts).
 * - A slog whose nodes write no after-commit-stats (older nodes): known
 *   once a committed block ends without one; from then on a block ends at
 *   its commit.
 *
 * Memory: the open block and run.
 */
import type { SlogEntry } from '../scan/entry-types.js';
import { elapsedSeconds, fieldsOf, heapUsedOf, inboundOf, isInbound, numberField, stringField, timeOf, tookSeconds, triggerOf, type Inbound, type RunTrigger } from './chain-entries.js';
import type { BlockRef, ChainBlock, ChainRun, ChainSink, RunRef } from './chain-states.js';

export type { BlockRef, ChainBlock, ChainRun, ChainSink, RunRef } from './chain-states.js';
export { triggerText, type Inbound, type RunTrigger } from './chain-entries.js';

export class ChainTracker {
  /** The block cranks belong to now (its opener to its end-block-finish, bootstrap-block-finish or upgrade-finish). */
  block: BlockRef | undefined;
  /** Does the slog show chain blocks at all (a block opener was seen)? */
  chain = false;
  /** The block whose entries are read now (its opener to its last entry). */
  private open: ChainBlock | undefined;
  /** The run open now (run-start to run-finish). */
  private openRun: ChainRun | undefined;
  /** What came in last since the last run (or the block's start): what the next run does. */
  private inbound: Inbound | undefined;
  private bootstrapHeight: number | undefined;
  private kernelStarts = 0;
  /** The highest block seen, and the highest seen before the last restart (blocks up to it ran before). */
  private maxHeight = -1;
  private ranBefore = -1;
  /** The slog's nodes write after-commit-stats: assumed until a committed block ends without one. */
  private afterCommitStats = true;

  constructor(private readonly sink: ChainSink = {}) {}

  /** The run cranks belong to now (run-start to run-finish). */
  get run(): RunRef | undefined {
    return this.openRun?.ref;
  }

  /** Any entry of the slog (those not of the chain's leave it as it was). */
  entry(entry: SlogEntry): void {
    switch (entry.type) {
      case 'kernel-init-start':
        return this.kernelStart();
      case 'cosmic-swingset-init':
        return this.init(entry);
      case 'cosmic-swingset-bootstrap-block-start':
        return this.bootstrapBlockStart(entry);
      case 'cosmic-swingset-upgrade-start':
        return this.upgradeStart(entry);
      case 'cosmic-swingset-begin-block':
        return this.beginBlock(entry);
      case 'cosmic-swingset-end-block-start':
        return this.endBlockStart(entry);
      case 'cosmic-swingset-end-block-finish':
        return this.endBlockFinish(entry);
      case 'cosmic-swingset-bootstrap-block-finish':
        return this.bootstrapBlockFinish(entry);
      case 'cosmic-swingset-upgrade-finish':
        return this.upgradeFinish();
      case 'cosmic-swingset-run-start':
        return this.runStart(entry);
      case 'cosmic-swingset-run-finish':
        return this.runFinish(entry);
      case 'cosmic-swingset-commit-block-start':
        return this.commitBlockStart(entry);
      case 'cosmic-swingset-commit-block-finish':
        return this.commitBlockFinish(entry);
      case 'cosmic-swingset-after-commit-stats':
        return this.afterCommit(entry);
      default:
        if (isInbound(entry)) this.inboundEntry(entry);
    }
  }

  /** End of input: the open run and block end as they are. */
  end(): void {
    this.cutRun();
    this.endBlock(false);
  }

  /** kernel-init-start: a node starts; after the first, a restart: what was open will not finish, and the blocks run so far may run again. */
  private kernelStart(): void {
    this.cutRun();
    this.endBlock(true);
    this.kernelStarts += 1;
    if (this.kernelStarts > 1) this.ranBefore = Math.max(this.ranBefore, this.maxHeight);
    this.block = undefined;
    this.inbound = undefined;
    this.sink.kernelStart?.(this.kernelStarts > 1);
  }

  /** cosmic-swingset-init: the node's chain starts; it names the bootstrap block's height. A block still open is over. */
  private init(entry: SlogEntry): void {
    this.endBlock(false);
    this.bootstrapHeight = numberField(fieldsOf(entry).blockHeight);
  }

  /** bootstrap-block-start: the bootstrap block opens and begins (it has no begin-block). */
  private bootstrapBlockStart(entry: SlogEntry): void {
    // Its height is the init's (a per-block file of it lacks the init: its first run-start says, runStart).
    const block = this.openBlock(entry, this.bootstrapHeight ?? NaN, true, false);
    this.sink.blockBegin?.(block);
  }

  /** upgrade-start: the block of its height opens with the upgrade (its begin-block comes after upgrade-finish). */
  private upgradeStart(entry: SlogEntry): void {
    this.openBlock(entry, numberField(fieldsOf(entry).blockHeight) ?? NaN, false, true);
  }

  /** begin-block: a block opens and begins, or the block an upgrade of its height opened begins. */
  private beginBlock(entry: SlogEntry): void {
    const e = fieldsOf(entry);
    const height = numberField(e.blockHeight) ?? NaN;
    const open = this.open;
    const upgraded = open !== undefined && open.ref.upgrade === true && !open.begun && open.ref.height === height;
    const block = upgraded ? this.goOn(open, entry, height) : this.openBlock(entry, height, false, false);
    block.begun = true;
    block.beginTime = timeOf(entry);
    block.blockTime = numberField(e.blockTime) ?? block.blockTime;
    block.interBlockSeconds = numberField(e.interBlockSeconds);
    block.blockLagSeconds = numberField(e.blockLagSeconds);
    this.sink.blockBegin?.(block);
  }

  /** end-block-start: the open block's runs come next. */
  private endBlockStart(entry: SlogEntry): void {
    if (this.open) this.open.endBlockTime = timeOf(entry);
  }

  /** end-block-finish: the block's runs are over (its commit follows). */
  private endBlockFinish(entry: SlogEntry): void {
    this.cutRun();
    this.block = undefined;
    if (!this.open) return;
    this.open.endBlockFinishTime = timeOf(entry);
    this.finishBlock(this.open, entry, this.open.endBlockTime);
  }

  /** bootstrap-block-finish: the bootstrap block is over (it does not commit). */
  private bootstrapBlockFinish(entry: SlogEntry): void {
    this.cutRun();
    this.block = undefined;
    const block = this.open;
    if (!block) return;
    this.finishBlock(block, entry, block.ref.bootstrap ? block.openTime : undefined);
    this.endBlock(false);
  }

  /** upgrade-finish: the upgrade's runs are over; its block's begin-block comes next. */
  private upgradeFinish(): void {
    this.cutRun();
    this.block = undefined;
  }

  /** run-start: a run of the block open now (if any), triggered by what came in last. */
  private runStart(entry: SlogEntry): void {
    this.cutRun();
    const e = fieldsOf(entry);
    const phase = stringField(e.phase) ?? 'unknown';
    const height = numberField(e.blockHeight);
    // A slog that starts inside a block: the run is of the block it names.
    if (this.block === undefined && this.open === undefined && height !== undefined) this.block = this.partialBlock(height);
    const block = this.block;
    // A bootstrap block whose init the slog lacks (a per-block file of it) learns its height from its first run.
    if (block && Number.isNaN(block.height) && height !== undefined) block.height = height;
    const trigger: RunTrigger = block?.bootstrap ? { kind: 'bootstrap' } : block?.upgrade ? { kind: 'upgrade' } : triggerOf(phase, this.inbound);
    this.inbound = undefined;
    this.startRun({ num: numberField(e.runNum) ?? NaN, phase, trigger }, false, timeOf(entry));
  }

  /** run-finish: the open run ends; without one, inside a block, the run whose run-start the slog lacks starts and ends. */
  private runFinish(entry: SlogEntry): void {
    const run = this.openRun ?? this.startlessRun(entry);
    this.openRun = undefined;
    if (!run) return;
    const e = fieldsOf(entry);
    run.finished = true;
    run.usedBeans = numberField(e.usedBeans);
    run.seconds = tookSeconds(entry, run.startTime);
    this.sink.runEnd?.(run);
  }

  /**
   * The run a run-finish names when the slog lacks its run-start (the
   * contextual writer drops the bootstrap block's): its trigger is the
   * bootstrap, the upgrade before its block's begin-block, else unknown.
   * Precondition: no run is open. Undefined outside every block.
   */
  private startlessRun(entry: SlogEntry): ChainRun | undefined {
    const open = this.open;
    if (!open) return undefined;
    const e = fieldsOf(entry);
    const trigger: RunTrigger = open.ref.bootstrap ? { kind: 'bootstrap' } : open.ref.upgrade === true && !open.begun ? { kind: 'upgrade' } : { kind: 'unknown' };
    return this.startRun({ num: numberField(e.runNum) ?? NaN, phase: stringField(e.phase) ?? 'unknown', trigger }, true, undefined);
  }

  /** commit-block-start: the open block commits. */
  private commitBlockStart(entry: SlogEntry): void {
    if (this.open) this.open.commitTime = timeOf(entry);
  }

  /** commit-block-finish: the open block is committed; in a slog without after-commit-stats, it is over. */
  private commitBlockFinish(entry: SlogEntry): void {
    const block = this.open;
    if (!block) return;
    block.commitSeconds = tookSeconds(entry, block.commitTime);
    block.committed = true;
    if (!this.afterCommitStats) this.endBlock(false);
  }

  /** after-commit-stats: the kernel's heap after the commit; the committed block is over. */
  private afterCommit(entry: SlogEntry): void {
    this.afterCommitStats = true;
    const block = this.open;
    if (!block || !block.committed) return;
    block.stats = true;
    block.heapUsed = heapUsedOf(entry);
    this.endBlock(false);
  }

  /** Something came in (bridge, mailbox, bundle, upgrade events, timer poll): the next run's trigger, and the open block's. */
  private inboundEntry(entry: SlogEntry): void {
    const inbound = inboundOf(entry);
    this.inbound = inbound;
    // The timer is polled every block: it brought something in only when the poll woke something.
    if (this.open && (inbound.kind !== 'timer' || inbound.woke)) this.sink.inbound?.(inbound, this.open);
  }

  /** A block opens: the open run and block are over first. */
  private openBlock(entry: SlogEntry, height: number, bootstrap: boolean, upgrade: boolean): ChainBlock {
    this.cutRun();
    this.endBlock(false);
    const ref = this.stamp(entry, height, bootstrap, upgrade);
    const block: ChainBlock = {
      ref,
      blockTime: ref.blockTime,
      openTime: timeOf(entry),
      interBlockSeconds: undefined,
      blockLagSeconds: undefined,
      begun: false,
      beginTime: undefined,
      endBlockTime: undefined,
      endBlockFinishTime: undefined,
      commitTime: undefined,
      seconds: undefined,
      elapsed: undefined,
      finished: false,
      commitSeconds: undefined,
      committed: false,
      stats: false,
      heapUsed: undefined,
      abandoned: false,
    };
    this.open = block;
    this.sink.blockOpen?.(block);
    return block;
  }

  /** The block an upgrade opened goes on with its begin-block: the cranks from here on are stamped with the begin-block's ref. */
  private goOn(block: ChainBlock, entry: SlogEntry, height: number): ChainBlock {
    this.cutRun();
    this.stamp(entry, height, false, false);
    return block;
  }

  /** The ref cranks are stamped with from this opener on. */
  private stamp(entry: SlogEntry, height: number, bootstrap: boolean, upgrade: boolean): BlockRef {
    const blockTime = numberField(fieldsOf(entry).blockTime);
    this.chain = true;
    this.inbound = undefined;
    this.block = {
      height,
      ...(blockTime === undefined ? {} : { blockTime }),
      again: this.kernelStarts > 1 && height <= this.ranBefore,
      bootstrap,
      ...(upgrade ? { upgrade } : {}),
    };
    if (height > this.maxHeight) this.maxHeight = height;
    return this.block;
  }

  /** The ref of a block the slog starts inside, from its runs' `blockHeight`: no opener, so no ChainBlock. */
  private partialBlock(height: number): BlockRef {
    if (height > this.maxHeight) this.maxHeight = height;
    return { height, again: this.kernelStarts > 1 && height <= this.ranBefore, bootstrap: false, partial: true };
  }

  /** The block's runs are over (its -finish seen: seconds and elapsed from `startTime`). */
  private finishBlock(block: ChainBlock, finish: SlogEntry, startTime: number | undefined): void {
    block.seconds = tookSeconds(finish, startTime);
    block.elapsed = elapsedSeconds(finish, startTime);
    block.finished = true;
    this.sink.blockFinish?.(block);
  }

  /** Opens a run. Precondition: none is open. */
  private startRun(ref: RunRef, startless: boolean, startTime: number | undefined): ChainRun {
    const run: ChainRun = { ref, block: this.block, startless, startTime, finished: false, usedBeans: undefined, seconds: undefined };
    this.openRun = run;
    this.sink.runStart?.(run);
    return run;
  }

  /** The open run ends without its run-finish. */
  private cutRun(): void {
    const run = this.openRun;
    if (!run) return;
    this.openRun = undefined;
    this.sink.runEnd?.(run);
  }

  /** The open block is over; `restart`: a restart ended it (uncommitted, it was abandoned). */
  private endBlock(restart: boolean): void {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    if (restart && !block.committed && !block.ref.bootstrap) block.abandoned = true;
    // A committed block ended by something else than its after-commit-stats: this slog's nodes write none.
    if (block.committed && !restart) this.afterCommitStats = block.stats;
    this.sink.blockEnd?.(block);
  }
}
