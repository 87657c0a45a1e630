/**
 * The one streaming pass every command makes: open the slog's inputs (one
 * after the other, as one slog), split them into lines, read each line into
 * an entry as the consumer's reads say (scan/), report bad lines and skip
 * them, and feed the entries to the crank model and the consumer, until the
 * inputs end or the sink answers 'stop' (model/assembler.ts). Either way
 * the model ends (a crank still open is handed over) and the result says
 * what was read; a pass that fails hands over what it read, then throws.
 *
 * The caller says how to read (`settings`, pass-settings.ts: the fast or the
 * plain path, checked reads, spilling, big lines, the heap governor); the
 * result says how the lines were read (`read`, as the line reader counted).
 */
import type { Readable } from 'node:stream';
import { CrankAssembler, type CrankSink, type EntryObserver, type SinkAnswer } from '../model/assembler.js';
import { MODEL_READS } from '../model/reads.js';
import type { BigTextScope } from '../scan/big-string.js';
import { type SlogEntry } from '../scan/entry-types.js';
import { lineReader, type LineReader, type LinesRead } from '../scan/line-reader.js';
import { BadLine } from '../scan/plain-reader.js';
import { mergeReads, type Reads } from '../scan/reads.js';
import { expandInputs, inputsName } from '../source/inputs.js';
import { batchBytes, readLines, splitLines, type BigLine, type LineBatch } from '../source/lines.js';
import { InputEndsEarly, InputError, openInput, type SlogInput, type SlogSource } from '../source/open.js';
import { GZIP_UNINDEXED, openRange, planSeek, type SeekPlan, type SeekRange, type SeekRefusal } from '../source/seek.js';
import type { FolderPlan, FolderRefusal } from '../source/folder-seek.js';
import type { HeapGovernor } from './heap-governor.js';
import { indexingWhenUnindexed, unindexedGzipNote } from './index-cache.js';
import { folderSeekOf } from './pass-seek.js';
import type { PassSettings } from './pass-settings.js';

/** Why a pass ended early: an input that cannot be opened or read, or is not a slog at all. */
export class PassError extends Error {
  constructor(
    message: string,
    /** `open`: could not be opened (a usage error); `read`: failed while read; `not-a-slog`. */
    readonly kind: 'open' | 'read' | 'not-a-slog',
  ) {
    super(message);
  }
}

/** A line that is not a slog entry. */
export interface BadLineReport {
  /** The input's name (path, or `<stdin>`). */
  source: string;
  line: number;
  why: string;
}

/** After this many bad lines with no good one, an input is not a slog. */
export const NOT_A_SLOG_LINES = 100;

/** A line of the slog: its input (an index into the pass's inputs, as expanded: a folder is its files) and its number there. */
export interface PassPlace {
  input: number;
  line: number;
}

export interface PassConfig {
  /** The slog: files (read in order as one slog), folders of per-block files, `-` for stdin, or bytes. None: stdin. */
  inputs: readonly SlogInput[];
  /** What the consumer reads of crank entries (the model's own reads are added). */
  reads: Reads;
  /** Receives outside entries and whole cranks; its 'stop' ends the reading. */
  sink: CrankSink;
  /** How to read: the caller's (pass-settings.ts). */
  settings: PassSettings;
  /** Sees every entry, in order, before it is assembled into cranks, with the model's place before it. */
  observe?: EntryObserver;
  /** Told of each line that is not a slog entry (default: nothing). */
  onBadLine?: (bad: BadLineReport) => void;
  /**
   * The bad lines up to this place were reported by an earlier read of the
   * same inputs, which stopped here (analyses.ts reads a slog again after
   * a restart): they are counted, not reported again.
   */
  reportedThrough?: PassPlace;
  /** Awaited after each batch of lines (output backpressure, progress), with the batch's bytes. */
  afterBatch?: (bytes: number) => Promise<void> | void;
  /** Called as each input is opened (a progress display). */
  onOpen?: (source: SlogSource) => void;
  /** Opens a path in place of the usual (following a growing file). May throw InputError. */
  open?: (path: string) => SlogSource | Promise<SlogSource>;
  /** Stands in for process.stdin (`-`). */
  stdin?: Readable;
  /**
   * The consumer copes with BigStrings (scan/big-string.ts) in the entries
   * of big lines: it prints them through its BigTextScope (bigTextScope),
   * or never reads them. Otherwise a big line's strings come as strings.
   */
  bigStrings?: boolean;
  /** The scope the consumer prints those BigStrings in (the text render's: they print as its sentinels while it runs). */
  bigTextScope?: BigTextScope;
  /**
   * Read only the bytes of these cranks or blocks (source/seek.ts), when the
   * inputs are one plain file and the plan is sure to give what a whole
   * read gives the consumer (it says which consumers: pass-seek.ts).
   * `learn` is given the entries outside those bytes that name vats, in
   * file order (those before first); they go nowhere else. Without a plan
   * (`settings.seek` false, or the plan refused) the whole file is read.
   */
  seek?: PassSeek;
  /**
   * For a consumer that needs every line before its selection but none
   * after it (trace: its time origin, run queue and causes come from every
   * crank before): the pass plans a seek for `range` as `seek` does, reads
   * every line all the same, and tells `planned` whether the plan holds
   * before it reads. When it holds, no crank past the range's end (by its
   * key: crankNum, block height or start time; in the last kernel run, as
   * a selected crank is) comes before a selected one, and the consumer may
   * answer 'stop' after the first that ends once it has drawn one. Not
   * with `seek`; a folder is not planned (`planned(false)`).
   */
  planStop?: PlanStop;
}

/** What planStop plans for, and who is told whether the plan holds. */
export interface PlanStop {
  range: SeekRange;
  planned: (holds: boolean) => void;
}

/** What a pass may seek to, and who learns the vat names from outside it. */
export interface PassSeek {
  range: SeekRange;
  learn: (entry: SlogEntry) => void;
}

export interface PassResult {
  /** How the slog is named in messages: its one input as given (a folder by its name), or the first and how many more. */
  name: string;
  /** The inputs read, by name. */
  sources: string[];
  /** The lines read each way, as the line reader counted them. */
  read: Readonly<LinesRead>;
  /** Lines read (a pass the sink stopped read none after the line it stopped at). */
  lines: number;
  entries: number;
  badLines: number;
  /** Where the sink answered 'stop': the line whose entry it answered to. Undefined: every input was read to its end. */
  stopped: PassPlace | undefined;
  /** The seek's plan (line numbers count from its range's start, but a bad line's report: linesBefore), or why there was none; undefined when none was asked for. */
  seek?: SeekPlan | SeekRefusal;
  /** A folder's seek (source/folder-seek.ts): the files it read, or why it read them all; undefined when none was asked for or the input is not one folder. */
  folderSeek?: FolderPlan | FolderRefusal;
}

/** Runs one pass; resolves when every input was read (or the sink said stop) and the model handed everything over. */
export async function runPass(config: PassConfig): Promise<PassResult> {
  let inputs = expandOrFail(config.inputs);
  const { settings } = config;
  const reader = lineReader(mergeReads(MODEL_READS, config.reads), {
    fast: settings.path === 'fast',
    checkReads: settings.checkReads,
    bigStrings: config.bigStrings === true,
    printedIn: config.bigTextScope,
  });
  const assembler = new CrankAssembler(config.sink, settings.spillAt === undefined ? {} : { spillAt: settings.spillAt });
  const result: PassResult = { name: inputsName(config.inputs), sources: [], read: reader.linesRead, lines: 0, entries: 0, badLines: 0, stopped: undefined };
  const feed = new Feed(reader, assembler, config.observe, result);
  const folder = config.seek && settings.seek !== false && !config.open ? await folderPlan(inputs, config) : undefined;
  const folderSeek = folder !== undefined && 'files' in folder ? folder : undefined;
  if (folder !== undefined) {
    result.folderSeek = folder;
    if (folderSeek) inputs = folderSeek.files;
  }
  if (folderSeek) learn(reader, folderSeek.prelude, (config.seek as PassSeek).learn);
  const plan = config.seek && settings.seek !== false && folder === undefined ? seekPlan(inputs, config.seek.range, config) : undefined;
  if (plan !== undefined) keepPlan(plan, result, settings);
  if (config.planStop) config.planStop.planned(stopPlanHolds(inputs, config.planStop.range, result, config));
  const seek = plan !== undefined && 'start' in plan ? plan : undefined;
  for (let input = 0; input < inputs.length; input += 1) {
    if (seek) learn(reader, seek.prelude.map((l) => l.bytes), (config.seek as PassSeek).learn);
    const source = seek ? openRange(inputs[0] as string, seek.start, seek.end) : await openOrFail(inputs[input] as SlogInput, config);
    result.sources.push(source.name);
    assembler.source = source.name;
    config.onOpen?.(source);
    const bad = new BadLines(source.name, reportedThrough(config.reportedThrough, input), seek ? inFile(config.onBadLine, seek) : config.onBadLine);
    let stoppedAt: number | undefined;
    try {
      stoppedAt = await readInput(source, feed, bad, config);
    } catch (err) {
      // Whatever was read so far is still handed over.
      assembler.end();
      throw err instanceof InputError ? new PassError(err.message, 'read') : err;
    }
    if (stoppedAt !== undefined) {
      result.stopped = { input, line: stoppedAt };
      break;
    }
    if (seek) learn(reader, seek.postlude.map((l) => l.bytes), (config.seek as PassSeek).learn);
  }
  if (folderSeek && result.stopped === undefined) learn(reader, folderSeek.postlude, (config.seek as PassSeek).learn);
  assembler.end();
  return result;
}

/** planStop's plan, made and kept as a seek's: does it hold? (Not with SLOGULATE_SEEK=0: no plan is made.) */
function stopPlanHolds(inputs: readonly SlogInput[], range: SeekRange, result: PassResult, config: PassConfig): boolean {
  if (config.settings.seek === false) return false;
  const plan = seekPlan(inputs, range, config);
  keepPlan(plan, result, config.settings);
  return 'start' in plan;
}

/** A plan made (a seek's, or planStop's): in the result's `seek`, its note told the user. */
function keepPlan(plan: SeekPlan | SeekRefusal, result: PassResult, settings: PassSettings): void {
  result.seek = plan;
  if (plan.note !== undefined) settings.note?.(plan.note);
}

/** A plan for a seek to `range`, or why there is none (not one plain file, or the plan refused). */
function seekPlan(inputs: readonly SlogInput[], range: SeekRange, config: PassConfig): SeekPlan | SeekRefusal {
  const only = inputs[0];
  if (inputs.length !== 1 || typeof only !== 'string' || only === '-') return { refused: 'not one file' };
  if (config.open) return { refused: 'opened its own way (followed)' };
  const { indexCacheBytes, note, bigLineBytes } = config.settings;
  const plan = planSeek(only, range, bigLineBytes, indexCacheBytes === undefined ? undefined : indexingWhenUnindexed(indexCacheBytes, note));
  // A gzipped slog with no index is read whole: the command line says how to make it seek.
  if (indexCacheBytes === undefined || !('refused' in plan) || plan.refused !== GZIP_UNINDEXED || plan.note !== undefined) return plan;
  const hint = unindexedGzipNote(only, indexCacheBytes);
  return hint === undefined ? plan : { ...plan, note: hint };
}

/** A folder's seek plan (pass-seek.ts), or undefined when the pass's input is not one folder. */
async function folderPlan(inputs: readonly SlogInput[], config: PassConfig): Promise<FolderPlan | FolderRefusal | undefined> {
  try {
    return await folderSeekOf(config.inputs, inputs, (config.seek as PassSeek).range, config.settings.bigLineBytes);
  } catch (err) {
    if (err instanceof InputError) throw new PassError(err.message, 'open');
    throw err;
  }
}

/** A bad line of a seek's range, reported with its number in the file (the pass numbers the range's lines from 1). */
function inFile(report: PassConfig['onBadLine'], seek: SeekPlan): PassConfig['onBadLine'] {
  if (report === undefined) return undefined;
  return (bad) => report({ ...bad, line: bad.line + seek.linesBefore() });
}

/** Lines outside the seek's range that name vats (or an index's stand-ins for them), read as the pass reads every line, to `learn`. */
function learn(reader: LineReader, lines: readonly Buffer[], to: (entry: SlogEntry) => void): void {
  for (const bytes of lines) {
    const entry = reader.read(splitLines(bytes), 0);
    if (entry !== undefined && !(entry instanceof BadLine)) to(entry);
  }
}

function expandOrFail(inputs: readonly SlogInput[]): SlogInput[] {
  try {
    return expandInputs(inputs);
  } catch (err) {
    if (err instanceof InputError) throw new PassError(err.message, 'open');
    throw err;
  }
}

/** Opens an input (a usage error when it cannot be). What was read of the inputs before it stays in the model. */
async function openOrFail(input: SlogInput, config: PassConfig): Promise<SlogSource> {
  try {
    return config.open && typeof input === 'string' && input !== '-' ? await config.open(input) : await openInput(input, config.stdin);
  } catch (err) {
    if (err instanceof InputError) throw new PassError(err.message, 'open');
    throw err;
  }
}

/** The last line of input `input` whose bad line was reported before (0: none, Infinity: all). */
function reportedThrough(place: PassPlace | undefined, input: number): number {
  if (place === undefined || input > place.input) return 0;
  return input < place.input ? Infinity : place.line;
}

/**
 * Reads one input into the model, batch by batch, to its end (undefined)
 * or to the line whose entry the sink answered 'stop' to (its number).
 * Gzip data cut short (a live node's newest per-block file, a copy made
 * mid-write) ends it as its end would: every line it held was read, its
 * unfinished last line as a plain file's, and one warning is counted as a
 * bad line (--strict). Any other failure is thrown.
 */
async function readInput(source: SlogSource, feed: Feed, bad: BadLines, config: PassConfig): Promise<number | undefined> {
  const { heap, bigLineBytes } = config.settings;
  let lines = 0;
  try {
    for await (const batch of readLines(source.chunks(), { bigLineBytes })) {
      lines = batch.big ? batch.firstLine : batch.firstLine + batch.spans.length / 2 - 1;
      const stoppedAt = batch.big ? await feed.bigLine(batch.big, batch.firstLine, bad, heap) : feed.batch(batch, bad);
      if (stoppedAt !== undefined) return stoppedAt;
      if (batch.big) {
        if (config.afterBatch) await config.afterBatch(batch.big.bytes);
      } else if (heap || config.afterBatch) {
        // The slog's bytes, not the file's: 32 MB of gzip is some 200 MB of lines.
        const bytes = batchBytes(batch);
        heap?.tick(bytes);
        if (config.afterBatch) await config.afterBatch(bytes);
      }
    }
  } catch (err) {
    if (!(err instanceof InputEndsEarly)) throw err;
    feed.countBad();
    bad.add(err.line, err.warning);
    // Gzip cut short is a slog still being written: what it held is reported, not judged.
    bad.flush();
    return undefined;
  }
  bad.end(lines);
  return undefined;
}

/**
 * Lines into the model: each entry to `observe` and the assembler, each
 * bad line to its input's BadLines, all counted in the result. Its methods
 * are not async: V8 optimises the per-line loop as a whole, once (no
 * on-stack replacement inside the async pass, whose loop runs once per
 * batch).
 */
class Feed {
  constructor(
    private readonly reader: LineReader,
    private readonly assembler: CrankAssembler,
    private readonly observe: PassConfig['observe'],
    private readonly result: PassResult,
  ) {}

  /** A batch's lines, in order, to its end (undefined) or to the one whose entry the sink answered 'stop' to (its number). */
  batch(batch: LineBatch, bad: BadLines): number | undefined {
    const count = batch.spans.length / 2;
    for (let i = 0; i < count; i += 1) {
      if (this.line(this.reader.read(batch, i), batch.firstLine + i, bad) === 'stop') {
        this.result.lines += i + 1;
        return batch.firstLine + i;
      }
    }
    this.result.lines += count;
    return undefined;
  }

  /** A line too big to hold, read as it streams (scan/big-line.ts), the heap kept flat as it goes: as `batch`. */
  async bigLine(big: BigLine, line: number, bad: BadLines, heap: HeapGovernor | undefined): Promise<number | undefined> {
    if (heap) big.onChunk = (bytes) => heap.tickBig(bytes);
    const entry = await this.reader.readBig(big);
    this.result.lines += 1;
    return this.line(entry, line, bad) === 'stop' ? line : undefined;
  }

  /** A bad line found outside the reader (gzip cut short). */
  countBad(): void {
    this.result.badLines += 1;
  }

  /** One line read: its entry to the model (and the sink's answer), its bad line to `bad`, or nothing (a blank line). */
  private line(entry: SlogEntry | BadLine | undefined, line: number, bad: BadLines): SinkAnswer {
    if (entry === undefined) return undefined;
    if (entry instanceof BadLine) {
      this.countBad();
      bad.add(line, entry.why);
      return undefined;
    }
    if (bad.pending) bad.flush();
    bad.good += 1;
    this.result.entries += 1;
    if (this.observe) this.observe(entry, line, this.assembler, this.reader.facts);
    return this.assembler.push(entry, line);
  }
}

/**
 * The bad lines of one input: reported as they come once a good line was
 * seen; before that they wait (NOT_A_SLOG_LINES at most), so that an input
 * with no slog entry in it (a binary file, another log, a package.json)
 * ends the pass with one line instead of a warning per line: at its
 * NOT_A_SLOG_LINES-th bad line, or at its end when it is shorter. An input
 * with no line at all, or only blank ones, is an empty slog, not an error.
 */
class BadLines {
  good = 0;
  private readonly held: Array<{ line: number; why: string }> = [];

  constructor(
    private readonly source: string,
    /** Lines up to this one were reported by an earlier read (PassConfig's `reportedThrough`). */
    private readonly reportedThrough: number,
    private readonly report: ((bad: BadLineReport) => void) | undefined,
  ) {}

  get pending(): boolean {
    return this.held.length > 0;
  }

  add(line: number, why: string): void {
    if (this.good > 0) {
      this.say(line, why);
      return;
    }
    this.held.push({ line, why });
    if (this.held.length >= NOT_A_SLOG_LINES) {
      throw new PassError(`${this.source}: not a slog (first ${NOT_A_SLOG_LINES} lines are not slog entries)`, 'not-a-slog');
    }
  }

  /** The input ended after `lines` lines: not a slog if it held bad lines and no entry; else its bad lines are reported. */
  end(lines: number): void {
    if (this.good === 0 && this.held.length > 0) {
      const none = lines === 1 ? 'its one line is not a slog entry' : `none of its ${lines} lines is a slog entry`;
      throw new PassError(`${this.source}: not a slog (${none})`, 'not-a-slog');
    }
    this.flush();
  }

  flush(): void {
    for (const { line, why } of this.held) this.say(line, why);
    this.held.length = 0;
  }

  private say(line: number, why: string): void {
    if (line > this.reportedThrough) this.report?.({ source: this.source, line, why });
  }
}
