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
import type { DeliverResultEntry, OtherEntry, SlogEntry } from '../scan/entry-types.js';
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

interface OpenBlock {
  height: unknown;
  blockTime: unknown;
  again: boolean;
  runs: Map<string, number>;
  cranks: number;
  /** Cranks a selection (--cranks, --vat, --blocks) left out: the block was not empty. */
  unselected: number;
  computrons: number | undefined;
  /** When the block began (its begin-block), its end-block-start, and how long end-block took. */
  beginTime: unknown;
  endStart: number;
  endTook: number;
  /** The block's text so far (its cranks, and the entries printed between them). */
  text: string[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

/** `2024-06-10T09:31:44Z`, from a block time in seconds. */
function utc(blockTime: unknown): string {
  if (typeof blockTime !== 'number' || !Number.isFinite(blockTime)) return String(blockTime);
  const d = new Date(blockTime * 1000);
  return Number.isNaN(d.getTime()) ? String(blockTime) : d.toISOString().replace(/\.000Z$/, 'Z');
}

export class BlockHeaders {
  private block: OpenBlock | undefined;
  /** The bootstrap block's height (cosmic-swingset-init.blockHeight). */
  private initHeight: unknown;
  /** The heights of the empty blocks since the last busy one printed: one run again after a restart counts once. */
  private readonly emptyHeights = new Set<unknown>();
  private kernelStarts = 0;
  /** A run-start was seen and its run-finish not yet. */
  private runOpen = false;
  /** The highest block seen, and the highest before the last restart. */
  private maxHeight = -Infinity;
  private ranBefore = -Infinity;

  constructor(
    private readonly ctx: RenderContext,
    private readonly out: (text: string) => void,
    /** Print the headers (--no-crankbreaks: none, the bookkeeping lines still left out). */
    private readonly headers: boolean,
  ) {}

  /** Is text being held for a block? */
  get holding(): boolean {
    return this.block !== undefined;
  }

  /** Text the render writes: held while a block is open. */
  write(text: string): void {
    if (this.block) this.block.text.push(text);
    else this.out(text);
  }

  /**
   * An entry outside cranks; true when it is the chain's bookkeeping (taken
   * here, not printed).
   */
  entry(entry: SlogEntry): boolean {
    const e = entry as OtherEntry;
    switch (entry.type) {
      case 'kernel-init-start':
        this.kernelStarts += 1;
        if (this.kernelStarts > 1) this.ranBefore = Math.max(this.ranBefore, this.maxHeight);
        this.runOpen = false;
        this.close(' (not finished)');
        return false;
      case 'cosmic-swingset-init':
        this.initHeight = e.blockHeight;
        return false;
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-begin-block': {
        this.close(' (not finished)');
        // The bootstrap block is the block cosmic-swingset-init names.
        const boot = entry.type === 'cosmic-swingset-bootstrap-block-start';
        const height = boot ? num(this.initHeight) : num(e.blockHeight);
        this.block = {
          height: boot ? (this.initHeight ?? 'bootstrap') : e.blockHeight,
          blockTime: e.blockTime,
          again: this.kernelStarts > 1 && height <= this.ranBefore,
          runs: new Map(),
          cranks: 0,
          unselected: 0,
          computrons: undefined,
          beginTime: e.time,
          endStart: NaN,
          endTook: NaN,
          text: [],
        };
        if (height > this.maxHeight) this.maxHeight = height;
        return true;
      }
      case 'cosmic-swingset-end-block-start':
        if (this.block) this.block.endStart = num(e.time);
        return true;
      case 'cosmic-swingset-bootstrap-block-finish':
        if (this.block) this.block.endTook = num(e.time) - num(this.block.beginTime);
        this.close('');
        return true;
      case 'cosmic-swingset-end-block-finish':
        if (this.block) this.block.endTook = num(e.time) - this.block.endStart;
        this.close('');
        return true;
      case 'cosmic-swingset-run-finish':
        // Its run-start is not in the slog (the contextual writer drops the bootstrap block's): the run-finish names the run, as blocks takes it (analyses/chain/blocks.ts).
        if (!this.runOpen) this.countRun(e);
        this.runOpen = false;
        return true;
      case 'cosmic-swingset-run-start':
        this.runOpen = true;
        this.countRun(e);
        // A bootstrap block whose cosmic-swingset-init the slog lacks (a per-block file of it): its runs name its height, as model/chain.ts takes it.
        if (this.block?.height === 'bootstrap' && typeof e.blockHeight === 'number') {
          this.block.height = e.blockHeight;
          if (e.blockHeight > this.maxHeight) this.maxHeight = e.blockHeight;
        }
        return true;
      default:
        return BOOKKEEPING.has(entry.type);
    }
  }

  /** A crank: counted in its block (its text comes through write()). */
  crank(crank: Crank): void {
    const block = this.block;
    if (!block) return;
    block.cranks += 1;
    for (const item of crank.items) {
      if (item.kind !== 'entry' || item.entry.type !== 'deliver-result' || isReplay(item)) continue;
      const computrons = (item.entry as DeliverResultEntry).computrons;
      if (computrons !== undefined) block.computrons = (block.computrons ?? 0) + computrons;
    }
  }

  /** A run of the open block, by its phase (from its run-start, or its run-finish when the slog lacks the start). */
  private countRun(e: OtherEntry): void {
    if (!this.block) return;
    const phase = typeof e.phase === 'string' ? e.phase : '?';
    this.block.runs.set(phase, (this.block.runs.get(phase) ?? 0) + 1);
  }

  /** A crank the selection leaves out: not printed, not counted, but its block is no empty block. */
  crankLeftOut(): void {
    if (this.block) this.block.unselected += 1;
  }

  /** End of input: a block still open is printed as it is. */
  end(): void {
    this.close(' (not finished)');
  }

  /** Prints the open block if it is busy (its header, then its text); else counts it empty. */
  private close(suffix: string): void {
    const block = this.block;
    if (!block) return;
    this.block = undefined;
    if (block.cranks === 0 && block.text.length === 0) {
      // A block whose cranks the selection left out ends a run of empty blocks; one without cranks adds to it.
      if (block.unselected > 0) this.emptyHeights.clear();
      else this.emptyHeights.add(block.height);
      return;
    }
    const runs = [...block.runs].map(([phase, n]) => `${phase}:${n}`).join(' ');
    const parts = [`runs ${runs || 'none'}`, `${block.cranks} cranks`];
    if (block.computrons !== undefined) parts.push(`${block.computrons} computrons`);
    if (!this.ctx.options.noTimes && !Number.isNaN(block.endTook)) parts.push(`end-block${this.ctx.took(block.endTook)}`);
    const n = this.emptyHeights.size;
    const empty = n ? ` (${n} empty block${n === 1 ? '' : 's'} before)` : '';
    this.emptyHeights.clear();
    const again = block.again ? ' (again after restart)' : '';
    const header = `// block ${String(block.height)} ${utc(block.blockTime)}: ${parts.join(', ')}${empty}${suffix}${again}`;
    // Crank texts begin with a blank line; the header gets one of its own.
    if (this.headers) this.out(`\n${header}\n`);
    for (const text of block.text) this.out(text);
  }
}
