/**
 * `--nonoise` on a chain slog: a block at a glance. A busy block prints one
 * header line, then its cranks (and what came in: bridge messages, mailbox
 * deliveries):
 *
 *     // block 85 2024-06-10T09:31:44Z: runs leftover:1 timer:1 inbound:2 cleanup:1, 12 cranks, 4567 computrons, end-block 31245µs (6 empty blocks before)
 *
 * The chain's own bookkeeping lines (begin-block, end-block, run-start and
 * -finish, kernel-stats, timer-poll, the commit) are not printed; a block
 * without cranks prints nothing, but counts in the next busy block's header.
 * The header needs the whole block's figures, so a block's text is held
 * until the block ends (one block at a time).
 */
import type { Crank } from '../model/crank.js';
import { isReplay } from '../model/crank.js';
import { ChainTracker, type ChainBlock, type ChainRun, type ChainSink } from '../model/chain.js';
import type { DeliverResultEntry, SlogEntry } from '../scan/entry-types.js';
import type { RenderContext } from './context.js';

/** Chain entries the header stands for: not printed under --nonoise. */
const BOOKKEEPING = new Set([
  'cosmic-swingset-begin-block',
  'cosmic-swingset-bootstrap-block-start',
  'cosmic-swingset-bootstrap-block-finish',
  'cosmic-swingset-end-block-start',
  'cosmic-swingset-end-block-finish',
  'cosmic-swingset-run-start',
  'cosmic-swingset-run-finish',
  'cosmic-swingset-timer-poll',
  'cosmic-swingset-commit-block-start',
  'cosmic-swingset-commit-block-finish',
  'cosmic-swingset-after-commit-stats',
  'kernel-stats',
]);

/** A block's header as it is made: from its begin-block (bootstrap-block-start) to its end-block-finish (-finish). */
interface OpenHeader {
  block: ChainBlock;
  runs: Map<string, number>;
  cranks: number;
  /** Cranks a selection (--cranks, --vat, --blocks) left out: the block was not empty. */
  unselected: number;
  computrons: number | undefined;
  /** How long end-block took (the bootstrap block: the block), from the time of one entry to the other's. */
  endTook: number;
  /** The block's text so far (its cranks, and the entries printed between them). */
  text: string[];
}

/** `2024-06-10T09:31:44Z`, from a block time in seconds. */
function utc(blockTime: number | undefined): string {
  if (typeof blockTime !== 'number' || !Number.isFinite(blockTime)) return String(blockTime);
  const d = new Date(blockTime * 1000);
  return Number.isNaN(d.getTime()) ? String(blockTime) : d.toISOString().replace(/\.000Z$/, 'Z');
}

/** A block's height in its header: `bootstrap` for a bootstrap block whose height the slog never says. */
function heightText(block: ChainBlock): string {
  const height = block.ref.height;
  if (!Number.isNaN(height)) return String(height);
  return block.ref.bootstrap ? 'bootstrap' : '?';
}

/** A run's phase in the header: `?` when its run-start does not say (older nodes). */
const phaseText = (phase: string): string => (phase === 'unknown' ? '?' : phase);

/**
 * The headers, from the chain's reading (ChainTracker, model/chain.ts): each
 * ChainSink call it takes has a short handler here. An upgrade (upgrade-start
 * .. -finish, before its block's begin-block) prints as its lines, outside
 * any header, its cranks too.
 */
export class BlockHeaders implements ChainSink {
  private readonly chain = new ChainTracker(this);
  private header: OpenHeader | undefined;
  /** The heights of the empty blocks since the last busy one printed: one run again after a restart counts once. */
  private readonly emptyHeights = new Set<number>();

  constructor(
    private readonly ctx: RenderContext,
    private readonly out: (text: string) => void,
    /** Print the headers (--no-crankbreaks: none, the bookkeeping lines still left out). */
    private readonly headers: boolean,
  ) {}

  /** Is text being held for a block? */
  get holding(): boolean {
    return this.header !== undefined;
  }

  /** Text the render writes: held while a block is open. */
  write(text: string): void {
    if (this.header) this.header.text.push(text);
    else this.out(text);
  }

  /**
   * An entry outside cranks; true when it is the chain's bookkeeping (taken
   * here, not printed).
   */
  entry(entry: SlogEntry): boolean {
    this.chain.entry(entry);
    return BOOKKEEPING.has(entry.type);
  }

  /** ChainSink: a node starts: a block still open is printed as it is. */
  kernelStart(): void {
    this.close(' (not finished)');
  }

  /** ChainSink: a block's begin-block (the bootstrap block's -start): its header opens; one still open is printed as it is. */
  blockBegin(block: ChainBlock): void {
    this.close(' (not finished)');
    this.header = { block, runs: new Map(), cranks: 0, unselected: 0, computrons: undefined, endTook: NaN, text: [] };
  }

  /** ChainSink: end-block-finish (the bootstrap block's -finish): the block is printed. */
  blockFinish(block: ChainBlock): void {
    if (!this.header) return;
    this.header.endTook = block.elapsed ?? NaN;
    this.close('');
  }

  /** ChainSink: a run of the open block, by its phase (from its run-start, or its run-finish when the slog lacks the start). */
  runStart(run: ChainRun): void {
    const header = this.header;
    if (!header) return;
    const phase = phaseText(run.ref.phase);
    header.runs.set(phase, (header.runs.get(phase) ?? 0) + 1);
  }

  /** A crank: counted in its block (its text comes through write()). */
  crank(crank: Crank): void {
    const header = this.header;
    if (!header) return;
    header.cranks += 1;
    for (const item of crank.items) {
      if (item.kind !== 'entry' || item.entry.type !== 'deliver-result' || isReplay(item)) continue;
      const computrons = (item.entry as DeliverResultEntry).computrons;
      if (computrons !== undefined) header.computrons = (header.computrons ?? 0) + computrons;
    }
  }

  /** A crank the selection leaves out: not printed, not counted, but its block is no empty block. */
  crankLeftOut(): void {
    if (this.header) this.header.unselected += 1;
  }

  /** End of input: a block still open is printed as it is. */
  end(): void {
    this.close(' (not finished)');
  }

  /** Prints the open block if it is busy (its header, then its text); else counts it empty. */
  private close(suffix: string): void {
    const header = this.header;
    if (!header) return;
    this.header = undefined;
    const block = header.block;
    if (header.cranks === 0 && header.text.length === 0) {
      // A block whose cranks the selection left out ends a run of empty blocks; one without cranks adds to it.
      if (header.unselected > 0) this.emptyHeights.clear();
      else this.emptyHeights.add(block.ref.height);
      return;
    }
    const runs = [...header.runs].map(([phase, n]) => `${phase}:${n}`).join(' ');
    const parts = [`runs ${runs || 'none'}`, `${header.cranks} cranks`];
    if (header.computrons !== undefined) parts.push(`${header.computrons} computrons`);
    if (!this.ctx.options.noTimes && !Number.isNaN(header.endTook)) parts.push(`end-block${this.ctx.took(header.endTook)}`);
    const n = this.emptyHeights.size;
    const empty = n ? ` (${n} empty block${n === 1 ? '' : 's'} before)` : '';
    this.emptyHeights.clear();
    const again = block.ref.again ? ' (again after restart)' : '';
    const text = `// block ${heightText(block)} ${utc(block.blockTime)}: ${parts.join(', ')}${empty}${suffix}${again}`;
    // Crank texts begin with a blank line; the header gets one of its own.
    if (this.headers) this.out(`\n${text}\n`);
    for (const t of header.text) this.out(t);
  }
}
