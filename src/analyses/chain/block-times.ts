/**
 * A block's time beyond SwingSet's, as agoric-sdk's
 * `packages/SwingSet/misc-tools/monitor-slog-block-time.py` reads it
 * (docs/chain.md, "Where a block's time went"):
 *
 * - cosmos: begin-block to end-block-start (cosmos-sdk's modules, before
 *   SwingSet runs);
 * - the block interval: the end-block-finish of the block before (height - 1)
 *   to this block's;
 * - the processing share: begin-block to end-block-finish, over the
 *   interval (1 means the node had no idle time between blocks);
 * - trailing averages over the last N blocks.
 *
 * Every figure is a difference of the entries' `time` (seconds), as the
 * script's. Memory: the end-block-finish times of the last two heights, and
 * the N blocks of the averages' window.
 */
import type { ChainBlock } from '../../model/chain.js';

/** begin-block to end-block-start, seconds; undefined without both. */
export function cosmosSecondsOf(block: ChainBlock): number | undefined {
  if (block.beginTime === undefined || block.endBlockTime === undefined) return undefined;
  return block.endBlockTime - block.beginTime;
}

/**
 * The end-block-finish times of the blocks seen last, by height: the block
 * interval of a height is from its height - 1's (the last execution of
 * that height, as the script keeps one time per height).
 */
export class BlockIntervals {
  private readonly finishes = new Map<number, number>();

  /** A block's interval and processing share (undefined: a time is missing, or the interval is not above 0); its finish is kept for the next height. */
  next(block: ChainBlock): { intervalSeconds: number | undefined; processingShare: number | undefined } {
    const height = block.ref.height;
    const finish = block.endBlockFinishTime;
    if (finish === undefined || !Number.isFinite(height)) return { intervalSeconds: undefined, processingShare: undefined };
    const before = this.finishes.get(height - 1);
    this.finishes.set(height, finish);
    // Only the heights a later block can ask for stay.
    for (const h of this.finishes.keys()) if (h < height - 1) this.finishes.delete(h);
    const interval = before === undefined ? undefined : finish - before;
    if (interval === undefined || !(interval > 0)) return { intervalSeconds: interval, processingShare: undefined };
    const processing = block.beginTime === undefined ? undefined : finish - block.beginTime;
    return { intervalSeconds: interval, processingShare: processing === undefined ? undefined : processing / interval };
  }
}

/** Trailing averages over the last N blocks; each figure over the blocks of the window where it is known (null: none). */
export interface BlockAverages {
  /** Blocks in the window (at most N). */
  blocks: number;
  cranks: number | null;
  /** end-block-start to -finish (SwingSet). */
  seconds: number | null;
  cosmosSeconds: number | null;
  processingShare: number | null;
  intervalSeconds: number | null;
}

/** What a block puts in the window. */
export interface WindowFigures {
  cranks: number;
  seconds: number | null;
  cosmosSeconds: number | null;
  processingShare: number | null;
  intervalSeconds: number | null;
}

const FIGURES = ['cranks', 'seconds', 'cosmosSeconds', 'processingShare', 'intervalSeconds'] as const;

/**
 * The last N blocks' figures. A block is in the window when it began (a
 * begin-block: not the bootstrap block) and its end-block-finish was seen,
 * as the script counts the blocks it prints.
 */
export class TrailingAverages {
  private readonly window: WindowFigures[] = [];

  constructor(readonly n: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError('blocks to average must be a whole number above 0');
  }

  /** Puts a block's figures in the window (the oldest out past N). */
  add(figures: WindowFigures): void {
    this.window.push(figures);
    if (this.window.length > this.n) this.window.shift();
  }

  /** The averages over the window now. */
  averages(): BlockAverages {
    const out: BlockAverages = { blocks: this.window.length, cranks: null, seconds: null, cosmosSeconds: null, processingShare: null, intervalSeconds: null };
    for (const key of FIGURES) {
      let sum = 0;
      let count = 0;
      for (const f of this.window) {
        const v = f[key];
        if (v === null) continue;
        sum += v;
        count += 1;
      }
      out[key] = count === 0 ? null : sum / count;
    }
    return out;
  }
}
