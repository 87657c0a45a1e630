/**
 * The chain's states as the tracker (chain.ts) reads them, and what it tells
 * a consumer: the block and run each crank belongs to (BlockRef, RunRef,
 * stamped on every crank), each block from its first entry to its last
 * (ChainBlock), each run from its start to its end (ChainRun), and the calls
 * a ChainSink gets as they open, begin, finish and end. The blocks and runs
 * tables (analyses/chain/blocks.ts) and the `--nonoise` block headers
 * (render/block-headers.ts) are ChainSinks.
 */
import type { Inbound, RunTrigger } from './chain-entries.js';

/** The block a crank ran in. */
export interface BlockRef {
  /** NaN until known: a bootstrap block whose cosmic-swingset-init the slog lacks learns it from its first run-start. */
  height: number;
  /** Block time, seconds since the epoch (the chain's consensus time). */
  blockTime?: number;
  /** The block ran again after a restart. */
  again: boolean;
  /** The bootstrap block (the chain's first, which boots the kernel). */
  bootstrap: boolean;
  /** The chain upgrade run at a node's start (`upgrade-start` .. `-finish`), before its block's begin-block. */
  upgrade?: boolean;
  /** The slog starts inside this block: its opener is not in it, nor the cranks before its first run-start seen (chain.ts). */
  partial?: boolean;
}

/** The run a crank ran in. */
export interface RunRef {
  /** `runNum` (from 0 in each block); NaN when the entry does not say. */
  num: number;
  /** The run-start's `phase` (leftover, forced, priority, timer, inbound, cleanup); `unknown` when it does not say (older nodes). */
  phase: string;
  trigger: RunTrigger;
}

/**
 * A block from the entry that opens it (begin-block, bootstrap-block-start,
 * upgrade-start) to its last: its after-commit-stats, or its commit in a
 * slog whose nodes write no after-commit-stats, or the bootstrap block's
 * -finish (it does not commit); or, cut short, whatever shows it is over: a
 * restart, the node's cosmic-swingset-init, another block, the end of the
 * slog. An upgrade and the begin-block of its height are one block.
 * Undefined fields: the slog did not say (yet).
 */
export interface ChainBlock {
  /** As its cranks are stamped with: its opener's (for an upgrade's block, the upgrade's; the cranks after its begin-block have the begin-block's). */
  readonly ref: BlockRef;
  /** Its begin-block's blockTime, else its opener's. */
  blockTime: number | undefined;
  /** The opener's `time`. */
  readonly openTime: number | undefined;
  /** begin-block's interBlockSeconds and blockLagSeconds. */
  interBlockSeconds: number | undefined;
  blockLagSeconds: number | undefined;
  /** Its begin-block was seen (an upgrade's block waits for it). */
  begun: boolean;
  /** begin-block's `time` (undefined for the bootstrap block, which has none). */
  beginTime: number | undefined;
  /** end-block-start's and commit-block-start's `time`. */
  endBlockTime: number | undefined;
  /** end-block-finish's `time` (not the bootstrap block's -finish). */
  endBlockFinishTime: number | undefined;
  commitTime: number | undefined;
  /**
   * The time SwingSet worked on it: end-block-start to end-block-finish
   * (the bootstrap block: bootstrap-block-start to -finish), the -finish's
   * `seconds`, else the time between the two; `elapsed`: the time between
   * the two only.
   */
  seconds: number | undefined;
  elapsed: number | undefined;
  /** Its end-block-finish (bootstrap: -finish) was seen. */
  finished: boolean;
  /** commit-block-start to -finish, as `seconds` is. */
  commitSeconds: number | undefined;
  /** Its commit-block-finish was seen. */
  committed: boolean;
  /** Its after-commit-stats (after the commit) was seen, and what it says of the kernel's heap, bytes. */
  stats: boolean;
  heapUsed: number | undefined;
  /** A restart came before its commit: this execution was not committed (the block runs again). Never the bootstrap block. */
  abandoned: boolean;
}

/** A run, from its run-start (or, lacking that, its run-finish) to its end. */
export interface ChainRun {
  readonly ref: RunRef;
  /** The block its cranks are stamped with (undefined: a run-start outside every block, in a slog that starts inside one). */
  readonly block: BlockRef | undefined;
  /** Known only from its run-finish: the slog lacks its run-start (the contextual writer drops the bootstrap block's). */
  readonly startless: boolean;
  /** The run-start's `time`. */
  readonly startTime: number | undefined;
  /** Its run-finish was seen (false: cut short by the end of its block, another block, another run-start, a restart, the end of the slog). */
  finished: boolean;
  /** run-finish.usedBeans. */
  usedBeans: number | undefined;
  /** run-finish's `seconds`, else its time less the run-start's. */
  seconds: number | undefined;
}

/**
 * What the tracker tells a consumer, in slog order, each call once the
 * tracker's own state has moved on. Every call is optional. A block gets
 * blockOpen once, then blockBegin, blockFinish, at most once each, then
 * blockEnd once; a run gets runStart once, then runEnd once. What ends
 * is ended before what opens: runEnd, blockEnd, then blockOpen.
 */
export interface ChainSink {
  /** kernel-init-start: a node starts; `restart`: not the slog's first. The run and block open before it have ended (the block abandoned if uncommitted). */
  kernelStart?(restart: boolean): void;
  /** A block opens (begin-block, bootstrap-block-start, upgrade-start). */
  blockOpen?(block: ChainBlock): void;
  /** Its begin-block-to-end-block part begins: its begin-block, or the bootstrap block's bootstrap-block-start (it has none). An upgrade's runs come before. */
  blockBegin?(block: ChainBlock): void;
  /** end-block-finish (the bootstrap block: its -finish): SwingSet's work on it is over (block.seconds, elapsed). */
  blockFinish?(block: ChainBlock): void;
  /** The block is over (ChainBlock says what ends it). */
  blockEnd?(block: ChainBlock): void;
  /** A run starts: its run-start, or, for a run-finish inside a block whose run-start the slog lacks (run.startless), just before its runEnd. */
  runStart?(run: ChainRun): void;
  /** A run ends: its run-finish (run.finished), or what cut it short. */
  runEnd?(run: ChainRun): void;
  /** Something came into the open block (a timer poll only when it woke something). */
  inbound?(inbound: Inbound, block: ChainBlock): void;
}
