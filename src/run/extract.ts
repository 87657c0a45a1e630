/**
 * `slogulate extract`: the raw lines of a selection, with the lines the
 * crank model needs to make of them what it made of the whole slog, so that
 * the extract, rendered with the same selection, prints what the slog did.
 *
 * Two steps. The pass (pass.ts, seeking as the render does: pass-seek.ts)
 * reads the slog and notes which lines to keep, by number:
 *
 * - every line of each selected crank (the same CrankSelection as the
 *   render's, told every entry's vat names in the same order);
 * - with `--blocks` (or `--run H:N`), the chain's lines of each selected
 *   block (those that give its `blockHeight`: begin-block, run-start...,
 *   commit-block-finish), and when a selected crank ran in the bootstrap
 *   block, the `cosmic-swingset-init` and bootstrap block lines (its height
 *   is the init's): the model stamps each crank with the block and run open
 *   then;
 * - with `--blocks`, every other line outside a crank from a selected
 *   block's begin-block to its commit-block-finish (`kernel-stats`, the
 *   `cosmic-swingset-bridge-inbound` that set a run going), as agoric-sdk's
 *   extract-block.py keeps them; not a kernel start (a restart ends the
 *   block's lines: the model marks cranks `again` from it);
 * - when a selected crank (or its block) ran again after a restart, each
 *   kernel-init-start and -finish, and before each restart the crank of
 *   the highest number run so far (the cranks a restart runs again, up to
 *   it, are marked `again`);
 * - the lines that name the vats the selected cranks name (their
 *   create-vat entries, and the cranks whose crank-start creates one).
 *
 * Then copy-lines.ts copies those lines' bytes, in file order: the seek's
 * range only when the pass sought (its lines from outside the range that
 * name vats come from the plan, before and after), else each input whole.
 * Memory: the kept spans (one per selected crank at most, merged) and the
 * lines of each vat's naming, not the lines themselves.
 */
import { CrankSelection, isSelecting, type CrankRange, type SelectionSpec } from '../analyses/common/selection.js';
import type { CrankSink } from '../model/assembler.js';
import type { Crank, CrankItem } from '../model/crank.js';
import { VatNames } from '../model/vats.js';
import type { SlogEntry } from '../scan/entry-types.js';
import type { Reads } from '../scan/reads.js';
import { copyLines, mergedSpans, type LineSpan } from '../source/copy-lines.js';
import type { FolderPlan, FolderRefusal } from '../source/folder-seek.js';
import { expandInputs } from '../source/inputs.js';
import { InputError, openInput, type SlogInput } from '../source/open.js';
import { openRange, type NamingLine, type SeekPlan, type SeekRange } from '../source/seek.js';
import { PassError, runPass, type BadLineReport } from './pass.js';
import { seekRangeOf } from './pass-seek.js';
import { settingsFor, type PassSettings } from './pass-settings.js';

/** A run of a chain block (`--run 150:2`): the block's height and the run's number in it. */
export interface RunSpec {
  height: number;
  num: number;
}

export interface ExtractConfig {
  /** The slog's files (read in order as one slog) or folders of per-block files; not stdin (read twice). */
  inputs: readonly string[];
  /** The selection (`--cranks`, `--blocks`, `--since`, `--until`, `--vat`). */
  selection: SelectionSpec;
  /** `--run H:N`: only that run's cranks (with the selection's). */
  run?: RunSpec;
  /** Where the bytes go (each buffer lent: valid only during the call). */
  write: (bytes: Buffer) => void;
  /** Awaited after each chunk written (backpressure). */
  drained?: () => Promise<void>;
  onBadLine?: (bad: BadLineReport) => void;
  settings?: PassSettings;
}

export interface ExtractResult {
  /** How the slog is named in messages. */
  name: string;
  /** Cranks selected, and lines written. */
  cranks: number;
  lines: number;
  /** The seek's plan, or why there was none (as the pass's result). */
  seek?: SeekPlan | { refused: string };
  /** A folder's seek: the files read, or why all were (as the pass's result). */
  folderSeek?: FolderPlan | FolderRefusal;
}

/** The extract reads nothing of crank entries beyond what the model reads (model/reads.ts: crankNum, vatID, time, messageHead...). */
const EXTRACT_READS: Reads = { 'crank-start': [], 'crank-finish': [], syscall: [], 'syscall-result': [], deliver: [], 'deliver-result': [], clist: [] };

/** Chain lines without a `blockHeight` that say which block is open: the bootstrap block's (its height is the init's). */
const CHAIN_CONTEXT = new Set(['cosmic-swingset-init', 'cosmic-swingset-bootstrap-block-start', 'cosmic-swingset-bootstrap-block-finish']);

/** A number field of an outside entry (chain entries are read whole). */
function numberOf(entry: SlogEntry, key: string): number | undefined {
  const v = (entry as unknown as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function inRanges(ranges: readonly CrankRange[], n: number): boolean {
  return ranges.some((r) => n >= r.from && n <= r.to);
}

/** The vats a crank names: its own, and those its entries and syscalls say. */
function vatsOf(crank: Crank, into: Set<string>): void {
  if (crank.vatID !== undefined) into.add(crank.vatID);
  for (const item of crank.items as readonly CrankItem[]) {
    // A crank-finish names no vat (and its vatID is not read: model/reads.ts).
    if (item.kind === 'entry' && item.entry.type === 'crank-finish') continue;
    const vatID = item.kind === 'entry' ? (item.entry as { vatID?: unknown }).vatID : item.call.vatID;
    if (typeof vatID === 'string') into.add(vatID);
  }
}

/** The lines of one input to keep, noted as the pass reads it. */
class KeptLines {
  spans: LineSpan[] = [];
  /** Lines that name each vat (create-vat entries; spans of cranks that create one). */
  naming = new Map<string, LineSpan[]>();

  keep(from: number, to: number): void {
    this.spans.push({ from, to });
  }

  names(vatID: string, span: LineSpan): void {
    let list = this.naming.get(vatID);
    if (!list) this.naming.set(vatID, (list = []));
    list.push(span);
  }

  /** The spans to copy: those kept, and the naming of the vats involved. */
  all(involved: ReadonlySet<string>): LineSpan[] {
    const out = [...this.spans];
    for (const [vatID, spans] of this.naming) if (involved.has(vatID)) out.push(...spans);
    return mergedSpans(out);
  }
}

/**
 * The pass's sink and observer: what to keep of each input. Entries are
 * told to the vat names in slog order (as the render's `observe` does),
 * cranks matched when they end (as the render's selectCrank).
 */
class Keeper implements CrankSink {
  readonly vats = new VatNames();
  readonly selection: CrankSelection;
  readonly inputs: KeptLines[] = [];
  readonly involved = new Set<string>();
  cranks = 0;
  private current: KeptLines = new KeptLines();
  private kernelStarts = 0;
  /**
   * The kernel starts' lines, and before each restart the span of the crank
   * of the highest number run so far: kept once a selected crank is run
   * again (`again`), which they make the model see (until then they are
   * not needed, and a seek, which reads after the last restart, has none).
   */
  private restarts: Array<{ input: KeptLines; span: LineSpan }> | undefined = [];
  /** The init and bootstrap block lines: kept once a selected crank ran in the bootstrap block (held until then, as `restarts`). */
  private bootstrap: Array<{ input: KeptLines; span: LineSpan }> | undefined = [];
  /** The span of the crank of the highest number ended so far. */
  private highest: { num: number; span: LineSpan; input: KeptLines } | undefined;
  /** The block heights whose chain lines are kept (`--blocks`, `--run`'s block); undefined: none. */
  private readonly heights: readonly CrankRange[] | undefined;
  /** `--blocks`: between a selected block's begin-block and its commit-block-finish, where every line outside a crank is kept. */
  private readonly blocks: readonly CrankRange[] | undefined;
  private inBlock = false;
  /** Between a crank-start and its crank-finish (those lines are the crank's, kept with it or not). */
  private inCrank = false;

  constructor(
    spec: SelectionSpec,
    private readonly run: RunSpec | undefined,
  ) {
    this.selection = new CrankSelection(spec, this.vats);
    this.blocks = spec.blocks?.length ? spec.blocks : undefined;
    const heights = [...(spec.blocks ?? []), ...(run ? [{ from: run.height, to: run.height }] : [])];
    this.heights = heights.length ? heights : undefined;
  }

  /** A new input begins (pass's onOpen). */
  beginInput(): void {
    this.current = new KeptLines();
    this.inputs.push(this.current);
  }

  /** Every entry, in slog order, before the model (the pass's observe). */
  observe(entry: SlogEntry, line: number): void {
    this.vats.observe(entry);
    if (entry.type === 'create-vat' && typeof entry.vatID === 'string') this.current.names(entry.vatID, { from: line, to: line });
    else if (entry.type.startsWith('cosmic-swingset-')) this.chain(entry, line);
    if (this.blocks !== undefined) this.blockLine(entry, line, this.blocks);
  }

  /** `--blocks`: a line kept when it lies outside any crank inside a selected block (see the file's comment). */
  private blockLine(entry: SlogEntry, line: number, blocks: readonly CrankRange[]): void {
    const { type } = entry;
    if (type === 'crank-start') this.inCrank = true;
    if (type === 'cosmic-swingset-begin-block') {
      const height = numberOf(entry, 'blockHeight');
      this.inBlock = height !== undefined && inRanges(blocks, height);
    }
    if (type === 'kernel-init-start') this.inBlock = false;
    if (this.inBlock && !this.inCrank && type !== 'kernel-init-finish') this.current.keep(line, line);
    if (type === 'cosmic-swingset-commit-block-finish') this.inBlock = false;
    if (type === 'crank-finish') this.inCrank = false;
  }

  /** A chain line: kept when it is of a selected block, or says which block is open without a height. */
  private chain(entry: SlogEntry, line: number): void {
    if (this.heights === undefined) return;
    if (CHAIN_CONTEXT.has(entry.type)) {
      if (this.bootstrap) this.bootstrap.push({ input: this.current, span: { from: line, to: line } });
      else this.current.keep(line, line);
      return;
    }
    const height = numberOf(entry, 'blockHeight');
    if (height !== undefined && inRanges(this.heights, height)) this.current.keep(line, line);
  }

  entry(entry: SlogEntry, line: number): undefined {
    if (entry.type === 'kernel-init-start') {
      this.kernelStarts += 1;
      // A restart: the cranks up to the highest run before are marked `again` when they run again.
      if (this.kernelStarts > 1 && this.highest) this.restart(this.highest.input, this.highest.span);
    }
    if (entry.type === 'kernel-init-start' || entry.type === 'kernel-init-finish') this.restart(this.current, { from: line, to: line });
    return undefined;
  }

  /** A line of a kernel start: kept now if a selected crank ran again, else held until one does. */
  private restart(input: KeptLines, span: LineSpan): void {
    if (this.restarts) this.restarts.push({ input, span });
    else input.keep(span.from, span.to);
  }

  crank(crank: Crank): undefined {
    const span = { from: crank.firstLine, to: crank.lastLine };
    if (crank.crankNum > (this.highest?.num ?? -1)) this.highest = { num: crank.crankNum, span, input: this.current };
    // A create-vat message's crank-start names the vat (model/vats.ts): that line (a seek's plan holds only it, from before its range).
    const message = crank.start?.message;
    if (message?.type === 'create-vat' && typeof message.vatID === 'string') this.current.names(message.vatID, { from: span.from, to: span.from });
    const run = this.run;
    const inRun = run === undefined || (crank.block?.height === run.height && crank.run?.num === run.num);
    if (!inRun || !this.selection.matches(crank)) return undefined;
    this.cranks += 1;
    this.current.keep(span.from, span.to);
    if ((crank.again || crank.block?.again === true) && this.restarts) {
      for (const r of this.restarts) r.input.keep(r.span.from, r.span.to);
      this.restarts = undefined;
    }
    if (crank.block?.bootstrap === true && this.bootstrap) {
      for (const r of this.bootstrap) r.input.keep(r.span.from, r.span.to);
      this.bootstrap = undefined;
    }
    vatsOf(crank, this.involved);
    return undefined;
  }
}

/** The vatID a line that names a vat names (a create-vat's, or a create-vat message's), read from its first bytes; undefined: none there. */
function namedVat(line: Buffer): string | undefined {
  const head = line.toString('latin1', 0, Math.min(line.length, 4096));
  if (!head.includes('"create-vat"')) return undefined;
  return /"vatID":"(v\d+)"/.exec(head)?.[1];
}

const CR = Buffer.from('\r');

/**
 * A naming line as the slog has it: the plan's own bytes of a line lack
 * the \r a CRLF slog has before its \n (which the whole read's copy
 * keeps), and an index's stand-in for a long line (source/naming-line.ts)
 * is not the line: read from the slog. Throws PassError.
 */
function ownBytes(path: string, line: NamingLine): Buffer {
  if (!line.standIn) return line.end - line.start > line.bytes.length ? Buffer.concat([line.bytes, CR]) : line.bytes;
  try {
    // Each chunk is lent until the next is asked for: copied as it comes.
    const pieces: Buffer[] = [];
    for (const piece of openRange(path, line.start, line.end).chunks() as Iterable<Buffer>) pieces.push(Buffer.from(piece));
    return Buffer.concat(pieces);
  } catch (err) {
    if (err instanceof InputError) throw new PassError(err.message, 'read');
    throw err;
  }
}

/** The selection's range to seek to: `--run`'s block (its begin-block and run-start are kept), else the render's (pass-seek.ts). */
function rangeOf(config: ExtractConfig): SeekRange | undefined {
  const spec = config.selection;
  if (config.run) return { key: 'blockHeight', from: config.run.height, to: config.run.height };
  return seekRangeOf(spec);
}

/** Reads the slog, then writes the lines the selection needs (see the file's comment). Throws PassError. */
export async function extractSlog(config: ExtractConfig): Promise<ExtractResult> {
  if (!isSelecting(config.selection) && config.run === undefined) throw new Error('extract needs a selection');
  const inputs = expandInputs(config.inputs);
  const keeper = new Keeper(config.selection, config.run);
  const range = rangeOf(config);
  const result = await runPass({
    inputs: config.inputs,
    reads: EXTRACT_READS,
    sink: keeper,
    observe: (entry, line) => keeper.observe(entry, line),
    onOpen: () => keeper.beginInput(),
    settings: settingsFor(config),
    ...(config.onBadLine ? { onBadLine: config.onBadLine } : {}),
    ...(range ? { seek: { range, learn: (entry: SlogEntry) => keeper.vats.observe(entry) } } : {}),
  });
  const plan = result.seek !== undefined && 'start' in result.seek ? result.seek : undefined;
  // A folder's seek read only some of its files (source/folder-seek.ts): the kept lines are of those.
  const folder = result.folderSeek !== undefined && 'files' in result.folderSeek ? result.folderSeek : undefined;
  const files: readonly SlogInput[] = folder ? folder.files : inputs;
  let lines = 0;
  const named = (list: readonly (Buffer | NamingLine)[]): void => {
    for (const item of list) {
      const line = Buffer.isBuffer(item) ? item : ownBytes(inputs[0] as string, item);
      const vatID = namedVat(line);
      if (vatID === undefined || !keeper.involved.has(vatID)) continue;
      config.write(line);
      config.write(Buffer.from('\n'));
      lines += 1;
    }
  };
  if (plan) {
    named(plan.prelude);
    const kept = keeper.inputs[0]?.all(keeper.involved) ?? [];
    lines += await copyLines(openRange(inputs[0] as string, plan.start, plan.end), 1, kept, config.write, config.drained);
    named(plan.postlude);
  } else {
    if (folder) named(folder.prelude);
    for (let i = 0; i < keeper.inputs.length; i += 1) {
      const kept = (keeper.inputs[i] as KeptLines).all(keeper.involved);
      if (kept.length === 0) continue;
      let source;
      try {
        source = await openInput(files[i] as SlogInput);
      } catch (err) {
        if (err instanceof InputError) throw new PassError(err.message, 'open');
        throw err;
      }
      try {
        lines += await copyLines(source, 1, kept, config.write, config.drained);
      } catch (err) {
        if (err instanceof InputError) throw new PassError(err.message, 'read');
        throw err;
      }
    }
    if (folder) named(folder.postlude);
  }
  return { name: result.name, cranks: keeper.cranks, lines, ...(result.seek ? { seek: result.seek } : {}), ...(result.folderSeek ? { folderSeek: result.folderSeek } : {}) };
}
