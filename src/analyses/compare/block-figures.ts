/**
 * Per-block figures of a chain slog for `slogulate compare`: over its busy
 * blocks (blocks whose runs ran at least one selected crank; not the
 * bootstrap block, which runs once per chain, nor an execution a restart
 * abandoned), the computrons per block and the time SwingSet worked on each
 * (end-block-start to end-block-finish), their mean and p95 (nearest rank).
 *
 * Memory: one count per distinct value (histogram.ts), never the blocks.
 */
import type { ExecutionSink } from '../../model/executions.js';
import type { Crank } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import { BlocksCollector, type BlockRow } from '../chain/blocks.js';
import { MicrosHistogram, type DurationStats } from '../common/histogram.js';

export interface BlockFigures {
  /** Blocks executed (the bootstrap block and abandoned executions left out). */
  blocks: number;
  /** Those that ran a selected crank. */
  busy: number;
  /** Computrons per busy block. */
  computrons: DurationStats;
  /** End-block time per busy block, µs. */
  time: DurationStats;
}

export class BusyBlocks implements ExecutionSink {
  /** As BlocksCollector's: no syscalls read. */
  readonly syscallsUnread = true;
  private readonly collector: BlocksCollector;
  private readonly computrons = new MicrosHistogram();
  private readonly time = new MicrosHistogram();
  private blocks = 0;
  private busy = 0;

  constructor(selectCrank?: (crank: Crank) => boolean) {
    this.collector = new BlocksCollector({ onBlock: (row) => this.add(row), ...(selectCrank ? { selectCrank } : {}) });
  }

  entry(entry: SlogEntry): void {
    this.collector.entry(entry);
  }

  crank(crank: Crank): void {
    this.collector.crank(crank);
  }

  abandoned(crank: Crank): void {
    this.collector.abandoned(crank);
  }

  /** The open crank spills its syscalls: the blocks count only deliveries and computrons, which stay. */
  spill(): void {}

  /** The figures, once the slog was read; undefined for a slog without chain blocks. */
  result(): BlockFigures | undefined {
    this.collector.end();
    if (!this.collector.chain) return undefined;
    return { blocks: this.blocks, busy: this.busy, computrons: this.computrons.stats(), time: this.time.stats() };
  }

  private add(row: BlockRow): void {
    if (row.bootstrap || row.abandoned || row.height === null) return;
    this.blocks += 1;
    if (row.cranks === 0) return;
    this.busy += 1;
    this.computrons.addMicros(row.computrons);
    if (row.seconds !== null) this.time.addSeconds(row.seconds);
  }
}
