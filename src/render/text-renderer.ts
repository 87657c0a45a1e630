/**
 * The text render (SLOG-FORMAT.md, "The text, line by line"): a CrankSink
 * that writes each outside entry as it comes and each crank as a whole when
 * it finishes (its header carries the crank's timings). A crank of many
 * syscalls is held as its text, not its entries: it spills them
 * (model/assembler.ts) and they are rendered then.
 *
 * A big line's huge strings (scan/big-string.ts) are in its lines as
 * sentinels, made inside this render's BigTextScope, and written out piece
 * by piece as the text goes out: the render never holds their text.
 */
import type { Annotations } from '../model/annotations.js';
import type { CrankSink } from '../model/assembler.js';
import { isReplay, type Crank, type CrankItem, type SyscallPair } from '../model/crank.js';
import { BigTextScope } from '../scan/big-string.js';
import type { SlogEntry, SyscallEntry, SyscallResultEntry } from '../scan/entry-types.js';
import { VatNames } from '../model/vats.js';
import { vatOf } from '../scan/entry-types.js';
import { RenderContext } from './context.js';
import {
  appendCrankBody,
  appendCrankFinish,
  appendCrankItems,
  appendCrankStart,
  appendReplayLines,
  crankHeader,
  entryLines,
} from './crank-text.js';
import { BlockHeaders } from './block-headers.js';
import { KernelLines } from './kernel-lines.js';
import type { RenderOptions } from './options.js';
import { syscallLines } from './syscall-lines.js';

/** Where text goes: called with whole lines joined by '\n', ending with '\n'. */
export type TextOut = (text: string) => void;

export interface TextRendererConfig {
  options: RenderOptions;
  annotations: Annotations;
  out: TextOut;
  /** Which cranks to print (default: all). Unselected cranks still teach names. */
  selectCrank?: (crank: Crank) => boolean;
  /** Print entries outside cranks (default true). */
  printOutside?: boolean;
  /** The vat names to use (default: new ones from the annotations); the report's crank texts pass those its first pass learned. */
  vats?: VatNames;
}

export class TextRenderer implements CrankSink {
  readonly ctx: RenderContext;
  readonly vats: VatNames;
  private readonly kernel: KernelLines;
  private readonly out: TextOut;
  private readonly blocks: BlockHeaders | undefined;
  private readonly counts = new Map<string, number>();
  private readonly selectCrank: ((crank: Crank) => boolean) | undefined;
  private readonly printOutside: boolean;
  private outsideSyscall: SyscallPair | undefined;
  /** The open crank's text so far, made at its spills (model/assembler.ts): the lines of each spill, joined. */
  private spilledText: { crank: Crank; chunks: string[] } | undefined;
  /** Kernel starts printed: every one after the first is a restart. */
  private kernelStarts = 0;
  /** Where this render's big strings are sentinels: its reader makes them for it (run/render.ts). */
  readonly bigText = new BigTextScope();
  /** Only `--parts` prints the time split: without it, the model makes none (CrankSink.partsUnread). */
  readonly partsUnread: boolean;

  constructor(readonly config: TextRendererConfig) {
    this.vats = config.vats ?? new VatNames(config.annotations.vatNames);
    this.ctx = new RenderContext(config.options, config.annotations, this.vats, this.bigText);
    this.partsUnread = config.options.parts !== true;
    this.kernel = new KernelLines(this.ctx);
    // The text out, each big string's sentinel replaced by its text.
    const bigText = this.bigText;
    const out: TextOut = (text) => bigText.write(text, config.out);
    // --nonoise on a chain slog: a header per busy block instead of the chain's bookkeeping lines.
    if (config.options.nonoise) {
      const blocks = new BlockHeaders(this.ctx, out, config.options.crankbreaks);
      this.blocks = blocks;
      this.out = (text) => blocks.write(text);
    } else {
      this.out = out;
    }
    this.selectCrank = config.selectCrank;
    this.printOutside = config.printOutside ?? true;
  }

  /** Every entry, in slog order, before it is assembled: counts (printed by --summarize) and names. */
  observe(entry: SlogEntry): void {
    if (this.ctx.options.summarize) this.counts.set(entry.type, (this.counts.get(entry.type) ?? 0) + 1);
    this.vats.observe(entry);
  }

  begin(): void {
    const { annotations, options } = this.ctx;
    const lines: string[] = [];
    if (annotations.comment !== undefined) lines.push(`// ${annotations.comment}`, '');
    if (options.crankbreaks) lines.push('// startup');
    if (lines.length) this.out(`${lines.join('\n')}\n`);
  }

  entry(entry: SlogEntry): void {
    this.inScope(() => this.printEntry(entry));
  }

  /**
   * Runs `fn` with big strings printing as sentinels; forgets those not
   * written (dropped), unless text not written yet holds them: a block's
   * (--nonoise), or a spilling crank's.
   */
  private inScope(fn: () => void): void {
    this.bigText.run(fn);
    if (this.bigText.holding && !this.blocks?.holding && this.spilledText === undefined) this.bigText.release();
  }

  private printEntry(entry: SlogEntry): void {
    if (this.blocks?.entry(entry)) return;
    // In the entry's vat: what it prints, and an outside syscall it settles.
    const ctx = this.ctx.inVat(vatOf(entry));
    const replay = (entry as { replay?: unknown }).replay === true;
    let lines: string[];
    if (entry.type === 'syscall') {
      // A replay outside any crank (a vat paged in as the kernel starts):
      // its syscalls are paired with their results as inside a crank.
      lines = this.settleOutsideSyscall(ctx);
      this.outsideSyscall = { kind: 'syscall', call: entry as SyscallEntry, seconds: 0, replay };
    } else if (entry.type === 'syscall-result' && this.outsideSyscall) {
      const pair = this.outsideSyscall;
      this.outsideSyscall = undefined;
      pair.result = entry as SyscallResultEntry;
      pair.seconds = (entry.time ?? NaN) - (pair.call.time ?? NaN);
      lines = this.itemLines(ctx, pair);
    } else {
      lines = [...this.settleOutsideSyscall(ctx), ...this.itemLines(ctx, { kind: 'entry', entry })];
      if (entry.type === 'kernel-init-start') {
        // Every kernel start but the first is a restart (SLOG-FORMAT.md, "Restarts").
        if (this.kernelStarts > 0 && this.ctx.options.crankbreaks) lines.unshift('', '// restart');
        this.kernelStarts += 1;
      }
    }
    if (this.printOutside && lines.length) this.out(`${lines.join('\n')}\n`);
  }

  /** The lines of an entry or syscall outside any crank, in `ctx` (a replayed one marked and in vat space). */
  private itemLines(ctx: RenderContext, item: CrankItem): string[] {
    const lines: string[] = [];
    if (isReplay(item)) {
      if (!ctx.options.nonoise) appendReplayLines(ctx, this.kernel, item, lines);
      return lines;
    }
    if (item.kind === 'syscall') return syscallLines(ctx, item);
    return entryLines(ctx, this.kernel, item.entry);
  }

  /** An outside syscall whose result never came, before a crank or the end: in its own vat (the last entry printed). */
  private flushOutsideSyscall(): void {
    const pair = this.outsideSyscall;
    if (pair === undefined) return;
    const lines = this.settleOutsideSyscall(this.ctx.inVat(vatOf(pair.call)));
    if (this.printOutside && lines.length) this.out(`${lines.join('\n')}\n`);
  }

  /** The lines of an outside syscall whose result never came, in `ctx`. */
  private settleOutsideSyscall(ctx: RenderContext): string[] {
    const pair = this.outsideSyscall;
    this.outsideSyscall = undefined;
    return pair ? this.itemLines(ctx, pair) : [];
  }

  /**
   * The open crank spills (model/assembler.ts): the held items become text,
   * kept until the crank's header can be made. The render is the same as
   * at the crank's end: the context evolves in item order, and nothing else
   * is written in between.
   */
  spill(crank: Crank): void {
    this.inScope(() => this.spillCrank(crank));
  }

  private spillCrank(crank: Crank): void {
    this.flushOutsideSyscall();
    // --nonoise prints no routing crank's lines.
    if (this.ctx.options.nonoise && crank.crankType === 'routing') return;
    let held = this.spilledText;
    if (held?.crank !== crank) {
      held = { crank, chunks: [] };
      this.spilledText = held;
    }
    const lines: string[] = [];
    appendCrankItems(this.ctx, this.kernel, crank, crank.spilled ?? 0, lines);
    if (lines.length) held.chunks.push(lines.join('\n'));
  }

  crank(crank: Crank): void {
    this.inScope(() => this.printCrank(crank));
  }

  private printCrank(crank: Crank): void {
    this.flushOutsideSyscall();
    const { options } = this.ctx;
    const held = this.spilledText;
    this.spilledText = undefined;
    if (options.nonoise && crank.crankType === 'routing') {
      if (!this.selectCrank || this.selectCrank(crank)) this.blocks?.crank(crank);
      else this.blocks?.crankLeftOut();
      return;
    }
    if (held?.crank === crank) {
      this.spilledCrank(crank, held.chunks);
      return;
    }
    // With crank breaks: a blank line and the header (made once the body is) come first.
    const lines: string[] = options.crankbreaks ? ['', ''] : [];
    appendCrankBody(this.ctx, this.kernel, crank, lines);
    if (this.selectCrank && !this.selectCrank(crank)) {
      this.blocks?.crankLeftOut();
      return;
    }
    this.blocks?.crank(crank);
    if (options.crankbreaks) lines[1] = crankHeader(this.ctx, crank);
    if (lines.length === 0) return;
    // A last empty line: the text ends with '\n'.
    lines.push('');
    this.out(lines.join('\n'));
  }

  /** A crank that spilled: its header and first line, the text its spills made, and the rest. */
  private spilledCrank(crank: Crank, chunks: string[]): void {
    const { options } = this.ctx;
    const head: string[] = options.crankbreaks ? ['', ''] : [];
    appendCrankStart(this.ctx, crank, head);
    const rest: string[] = [];
    appendCrankItems(this.ctx, this.kernel, crank, crank.spilled ?? 0, rest);
    appendCrankFinish(this.ctx, crank, rest);
    if (this.selectCrank && !this.selectCrank(crank)) {
      this.blocks?.crankLeftOut();
      return;
    }
    this.blocks?.crank(crank);
    if (options.crankbreaks) head[1] = crankHeader(this.ctx, crank);
    // The same text as crank() writes, in pieces (never one string of it all): each line ends with '\n'.
    if (head.length) this.out(`${head.join('\n')}\n`);
    for (const chunk of chunks) this.out(`${chunk}\n`);
    if (rest.length) this.out(`${rest.join('\n')}\n`);
  }

  end(): void {
    this.inScope(() => this.printEnd());
  }

  private printEnd(): void {
    this.flushOutsideSyscall();
    this.blocks?.end();
    const lines: string[] = [];
    if (this.ctx.options.crankbreaks) lines.push('', '// end of slog');
    if (this.ctx.options.summarize) {
      lines.push('summary:');
      for (const [type, count] of this.counts) lines.push(`  ${type}: ${count}`);
    }
    if (lines.length) this.out(`${lines.join('\n')}\n`);
  }
}
