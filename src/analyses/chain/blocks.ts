/**
 * The chain view (`slogulate blocks`, `slogulate runs`): one row per block
 * and one per run, made in one streaming pass as the slog's chain entries
 * come by (SLOG-FORMAT.md, "Chain entries as agoric-sdk writes them today").
 *
 * A block is what the node did for one height, from the entry that opens
 * it to its last (its after-commit-stats): its begin-block, its runs, its
 * commit, the kernel's heap after it. Which block and run each entry opens,
 * ends or belongs to, and the block's own figures (times, seconds, heap),
 * are the chain's reading (ChainTracker, model/chain.ts); this file counts
 * the cranks, runs, beans and inbound actions of each, and hands a block's
 * row over when the reading says the block is over (blockEnd), a run's when
 * the run is (runEnd).
 *
 * Every execution shows as it ran: a node that crashes and restarts runs the
 * block it had not committed again, so that block has two rows: the first
 * `abandoned` (a restart came before its commit), the second `again`.
 * Memory: the open block and run only. Its JSON and text forms are in
 * block-text.ts.
 */
import { ChainTracker, type ChainBlock, type ChainRun, type ChainSink, type Inbound } from '../../model/chain.js';
import type { ExecutionSink } from '../../model/executions.js';
import type { Crank } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import { READ_NOTHING, type Reads } from '../../scan/reads.js';
import { BlockIntervals, cosmosSecondsOf, TrailingAverages, type BlockAverages } from './block-times.js';
import { CrankTally } from './crank-tally.js';
import { partFigures, type PartFigures } from './part-figures.js';
import { RunTally, type RunRow } from './runs.js';

/** The version of the JSON lines `blocks --json` prints (docs/chain.md); changes only with a new number. */
export const BLOCKS_JSON_VERSION = 1;

/**
 * What came into a block from outside: bridge messages (by source and
 * message type), mailbox deliveries (by sender), bundle installs, kernel
 * upgrade events, and the timer when its poll woke something (`added`).
 */
export interface InboundAction {
  kind: 'bridge' | 'mailbox' | 'install-bundle' | 'upgrade-events' | 'timer';
  source?: string;
  messageType?: string;
  sender?: string;
  /** Entries of this kind (and source, type or sender) in the block. */
  count: number;
  /** mailbox: the messages they carried. */
  messages?: number;
  /** install-bundle: installs that failed. */
  errors?: number;
}


export interface BlockRow {
  /** The height; null for a group of cranks (crank-groups.ts). */
  height: number | null;
  /** A group's name (`cranks 0-249`, `"open vault" round 2`); absent for a block. */
  group?: string;
  /** The block's time (the chain's consensus time), seconds since the epoch; a group's first crank's start. */
  blockTime: number | null;
  /** begin-block's interBlockSeconds and blockLagSeconds, where the slog has them. */
  interBlockSeconds: number | null;
  blockLagSeconds: number | null;
  /** Runs by phase (in the order first seen). */
  runs: Record<string, number>;
  cranks: number;
  /** Live deliveries (not transcript replays). */
  deliveries: number;
  /** Sum of the live deliveries' computrons (0 where the workers report none). */
  computrons: number;
  /** Sum of the run-finishes' usedBeans (null: no run-finish said). */
  usedBeans: number | null;
  /**
   * The time SwingSet worked on the block, seconds: end-block-start to
   * end-block-finish (the bootstrap block: bootstrap-block-start to -finish);
   * a group: its first crank's start to its last crank's end. Null when
   * the slog does not show both ends.
   */
  seconds: number | null;
  /** commit-block-start to -finish, seconds. */
  commitSeconds: number | null;
  /** begin-block to end-block-start, seconds: cosmos-sdk's modules, before SwingSet (block-times.ts). */
  cosmosSeconds: number | null;
  /** The end-block-finish of the block of height - 1 to this one's, seconds. */
  intervalSeconds: number | null;
  /** begin-block to end-block-finish, over intervalSeconds. */
  processingShare: number | null;
  /** Trailing averages over the last N blocks, this one included when it counts (only when asked: BlocksConfig.average). */
  averages?: BlockAverages;
  /** Its cranks' time by part (part-figures.ts). */
  parts: PartFigures;
  /** The kernel's heap after the commit (after-commit-stats memoryUsage.heapUsed), bytes. */
  heapUsed: number | null;
  inbound: InboundAction[];
  /** The block ran again after a restart. */
  again: boolean;
  /** Its commit-block-finish was seen. */
  committed: boolean;
  /** A restart came before its commit: this execution was not committed (the block runs again). */
  abandoned: boolean;
  /** Its end-block-finish (bootstrap: -finish) was seen. */
  finished: boolean;
  bootstrap: boolean;
  /** The block began with a chain upgrade (upgrade-start .. -finish). */
  upgrade: boolean;
  firstCrank: number | null;
  lastCrank: number | null;
}

/** What the blocks collector reads of crank entries: nothing beyond the crank model's own reads. */
export const BLOCKS_READS: Reads = READ_NOTHING;

export interface BlocksConfig {
  /** Each block's row, as the block ends. */
  onBlock?: (row: BlockRow) => void;
  /** Each run's row, as the run ends. */
  onRun?: (row: RunRow) => void;
  /** Which cranks count (default all; `compare` counts its selection's). */
  selectCrank?: (crank: Crank) => boolean;
  /** Trailing averages over this many blocks on each block's row. */
  average?: number;
}

/** The key a block's inbound actions are counted under: kind, and source and message type, or sender. */
function actionKey(a: Omit<InboundAction, 'count'>): string {
  return `${a.kind}\u0000${a.source ?? ''}\u0000${a.messageType ?? ''}\u0000${a.sender ?? ''}`;
}

/** An inbound action's kind and what it is counted by (its other fields are counts). */
function actionOf(inbound: Inbound): Omit<InboundAction, 'count'> {
  switch (inbound.kind) {
    case 'bridge':
      return { ...inbound };
    case 'mailbox':
      return { kind: 'mailbox', ...(inbound.sender === undefined ? {} : { sender: inbound.sender }) };
    default:
      return { kind: inbound.kind };
  }
}

/** The figures of a block's cranks and runs, as the slog streams by: from its blockOpen to its blockEnd. */
class BlockTally extends CrankTally {
  /** Runs by phase, in the order first seen. */
  readonly runs: Record<string, number> = {};
  usedBeans: number | null = null;
  readonly inbound: InboundAction[] = [];
  private readonly actions = new Map<string, InboundAction>();

  run(phase: string): void {
    this.runs[phase] = (this.runs[phase] ?? 0) + 1;
  }

  beans(used: number): void {
    this.usedBeans = (this.usedBeans ?? 0) + used;
  }

  /** Counted with the actions of its kind (and source and type, or sender) so far. */
  action(inbound: Inbound): void {
    const action = actionOf(inbound);
    const key = actionKey(action);
    let known = this.actions.get(key);
    if (!known) {
      known = { ...action, count: 0 };
      this.actions.set(key, known);
      this.inbound.push(known);
    }
    known.count += 1;
    if (inbound.kind === 'mailbox') known.messages = (known.messages ?? 0) + (inbound.messages ?? 0);
    if (inbound.kind === 'install-bundle' && inbound.failed) known.errors = (known.errors ?? 0) + 1;
  }
}

/** A block's row: the chain's figures (model/chain.ts), its times beyond SwingSet's (block-times.ts) and its cranks' tally. */
function blockRow(block: ChainBlock, tally: BlockTally, intervals: BlockIntervals): BlockRow {
  const height = block.ref.height;
  const { intervalSeconds, processingShare } = intervals.next(block);
  return {
    height: Number.isNaN(height) ? null : height,
    blockTime: block.blockTime ?? null,
    interBlockSeconds: block.interBlockSeconds ?? null,
    blockLagSeconds: block.blockLagSeconds ?? null,
    runs: tally.runs,
    cranks: tally.cranks,
    deliveries: tally.deliveries,
    computrons: tally.computrons,
    usedBeans: tally.usedBeans,
    seconds: block.seconds ?? null,
    commitSeconds: block.commitSeconds ?? null,
    cosmosSeconds: cosmosSecondsOf(block) ?? null,
    intervalSeconds: intervalSeconds ?? null,
    processingShare: processingShare ?? null,
    parts: partFigures(tally.parts),
    heapUsed: block.heapUsed ?? null,
    inbound: tally.inbound,
    again: block.ref.again,
    committed: block.committed,
    abandoned: block.abandoned,
    finished: block.finished,
    bootstrap: block.ref.bootstrap,
    upgrade: block.ref.upgrade === true,
    firstCrank: tally.firstCrank,
    lastCrank: tally.lastCrank,
  };
}

/**
 * The rows, from the chain's reading (ChainTracker, model/chain.ts: which
 * block and run each entry opens, ends or belongs to) and the cranks: each
 * ChainSink call has a short handler here, which only counts.
 */
export class BlocksCollector implements ExecutionSink, ChainSink {
  /** Blocks and runs read a crank's sums and deliveries, none of its syscalls: the crank model holds none (model/assembler.ts). */
  readonly syscallsUnread = true;
  private readonly tracker = new ChainTracker(this);
  private readonly intervals = new BlockIntervals();
  private readonly trailing: TrailingAverages | undefined;
  /** The open block's tally (blockOpen to blockEnd). */
  private open: BlockTally | undefined;
  /** The open run's (runStart to runEnd). */
  private run: RunTally | undefined;
  /** Cranks of the open block while no run is open: a run whose run-start the slog lacks (the contextual form) has them. */
  private loose: RunTally | undefined;
  /** Blocks and runs handed over, and cranks that ran in no block. */
  blocks = 0;
  runs = 0;
  cranksOutside = 0;

  constructor(private readonly config: BlocksConfig) {
    if (config.average !== undefined) this.trailing = new TrailingAverages(config.average);
  }

  /** Does the slog show chain blocks at all? */
  get chain(): boolean {
    return this.tracker.chain;
  }

  entry(entry: SlogEntry): void {
    this.tracker.entry(entry);
  }

  crank(crank: Crank): void {
    if (this.config.selectCrank && !this.config.selectCrank(crank)) return;
    if (!crank.block || !this.open) {
      this.cranksOutside += 1;
      // A run of a block the slog starts inside (model/chain.ts): no block row, but the run has its cranks.
      if (crank.block && this.run) this.run.add(crank);
      return;
    }
    this.open.add(crank);
    if (this.run) this.run.add(crank);
    else (this.loose ??= new RunTally(crank.block)).add(crank);
  }

  /** An execution a restart abandoned (a pass that counts each crank once): it ran, in its block. */
  abandoned(crank: Crank): void {
    this.crank(crank);
  }

  /** End of input: the open run and block are handed over as they are. */
  end(): void {
    this.tracker.end();
  }

  /** ChainSink: a block opens. Precondition: the one before it has ended (blockEnd). */
  blockOpen(): void {
    this.open = new BlockTally();
    this.loose = undefined;
  }

  /** ChainSink: the block is over: its row is handed over. */
  blockEnd(block: ChainBlock): void {
    const tally = this.open;
    this.open = undefined;
    this.loose = undefined;
    if (!tally) return;
    this.blocks += 1;
    const row = blockRow(block, tally, this.intervals);
    if (this.trailing) {
      // A block that began and whose end-block-finish came counts, as monitor-slog-block-time.py prints them.
      if (block.beginTime !== undefined && block.endBlockFinishTime !== undefined) this.trailing.add(row);
      row.averages = this.trailing.averages();
    }
    this.config.onBlock?.(row);
  }

  /** ChainSink: a run starts; one known only from its run-finish has the open block's cranks since its last run. Precondition: the run before it has ended (runEnd). */
  runStart(run: ChainRun): void {
    this.open?.run(run.ref.phase);
    this.run = (run.startless ? this.loose : undefined) ?? new RunTally(run.block);
    this.loose = undefined;
  }

  /** ChainSink: a run ends: its beans count in the open block, its row is handed over. */
  runEnd(run: ChainRun): void {
    if (run.usedBeans !== undefined) this.open?.beans(run.usedBeans);
    const tally = this.run;
    this.run = undefined;
    if (!tally) return;
    this.runs += 1;
    this.config.onRun?.(tally.row(run));
  }

  /** ChainSink: something came into the open block. */
  inbound(inbound: Inbound): void {
    this.open?.action(inbound);
  }
}
