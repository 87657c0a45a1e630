/**
 * The one streaming pass every command makes: open the slog's inputs (one
 * after the other, as one slog), split them into lines, read each line into
 * an entry as the consumer's reads say (scan/), report bad lines and skip
 * them, and feed the entries to the crank model and the consumer.
 *
 * Which way lines are read (`path`): `fast` (the byte reader, with the plain
 * path for any line it does not take) unless SLOGULATE_FAST=0 or the caller
 * says `plain`. The result says which path ran.
 */
import type { Readable } from 'node:stream';
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import { MODEL_READS } from '../model/reads.js';
import type { BigTextScope } from '../scan/big-string.js';
import { type SlogEntry } from '../scan/entry-types.js';
import { lineReader, type LineReader, type ReadPath } from '../scan/line-reader.js';
import { BadLine } from '../scan/plain-reader.js';
import { mergeReads, type Reads } from '../scan/reads.js';
import { expandInputs, inputsName } from '../source/inputs.js';
import { batchBytes, readLines, type LineBatch } from '../source/lines.js';
import { InputEndsEarly, InputError, openInput, type SlogInput, type SlogSource } from '../source/open.js';
import { HeapGovernor } from './heap-governor.js';
import { switches, type Switches } from './switches.js';

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

export interface PassConfig {
  /** The slog: files (read in order as one slog), folders of per-block files, `-` for stdin, or bytes. None: stdin. */
  inputs: readonly SlogInput[];
  /** What the consumer reads of crank entries (the model's own reads are added). */
  reads: Reads;
  /** Receives outside entries and whole cranks. */
  sink: CrankSink;
  /** Sees every entry, in order, before it is assembled into cranks. */
  observe?: (entry: SlogEntry, line: number) => void;
  /** Told of each line that is not a slog entry (default: nothing). */
  onBadLine?: (bad: BadLineReport) => void;
  /** Awaited after each batch of lines (output backpressure, progress), with the batch's bytes. */
  afterBatch?: (bytes: number) => Promise<void> | void;
  /** Called as each input is opened (a progress display). */
  onOpen?: (source: SlogSource) => void;
  /** Opens a path in place of the usual (following a growing file). May throw InputError. */
  open?: (path: string) => SlogSource | Promise<SlogSource>;
  /** `plain` forces the plain path (default: the switches'). */
  path?: ReadPath;
  /** Stands in for process.stdin (`-`). */
  stdin?: Readable;
  /**
   * Keep the process's heap flat (heap-governor.ts; not with SLOGULATE_HEAP=0).
   * It sets V8 flags for the whole process: for the command line, not for a
   * library caller.
   */
  governHeap?: boolean;
  /**
   * The consumer copes with BigStrings (scan/big-string.ts) in the entries
   * of big lines: it prints them through its BigTextScope (bigTextScope),
   * or never reads them. Otherwise a big line's strings come as strings.
   */
  bigStrings?: boolean;
  /** The scope the consumer prints those BigStrings in (the text render's: they print as its sentinels while it runs). */
  bigTextScope?: BigTextScope;
  /** Lines over this many bytes are read as a stream (default: the switches', 4 MB). */
  bigLineBytes?: number;
}

export interface PassResult {
  /** How the slog is named in messages: its one input, or the first and how many more. */
  name: string;
  /** The inputs read, by name. */
  sources: string[];
  path: ReadPath;
  lines: number;
  entries: number;
  badLines: number;
}

/** Runs one pass; resolves when every input was read and the model handed everything over. */
export async function runPass(config: PassConfig): Promise<PassResult> {
  let inputs: SlogInput[];
  try {
    inputs = expandInputs(config.inputs);
  } catch (err) {
    if (err instanceof InputError) throw new PassError(err.message, 'open');
    throw err;
  }
  const s = switches();
  const path: ReadPath = config.path ?? (s.fast ? 'fast' : 'plain');
  const reader = lineReader(mergeReads(MODEL_READS, config.reads), {
    fast: path === 'fast',
    checkReads: s.checkReads,
    bigStrings: config.bigStrings === true,
    printedIn: config.bigTextScope,
  });
  const bigLineBytes = config.bigLineBytes ?? s.bigLineBytes;
  const assembler = new CrankAssembler(config.sink, s.spill === undefined ? {} : { spillAt: s.spill });
  const governor = config.governHeap && s.heap ? processGovernor(s) : undefined;
  const observe = config.observe;
  const result: PassResult = { name: inputsName(inputs), sources: [], path, lines: 0, entries: 0, badLines: 0 };

  for (const input of inputs) {
    let source: SlogSource;
    try {
      source =
        config.open && typeof input === 'string' && input !== '-' ? await config.open(input) : await openInput(input, config.stdin);
    } catch (err) {
      if (err instanceof InputError) throw new PassError(err.message, 'open');
      throw err;
    }
    result.sources.push(source.name);
    assembler.source = source.name;
    config.onOpen?.(source);
    const bad = new BadLines(source.name, config.onBadLine);
    try {
      for await (const batch of readLines(source.chunks(), { bigLineBytes })) {
        if (batch.big) {
          // A line too big to hold, read as it streams (scan/big-line.ts); the heap kept flat as it goes.
          if (governor) batch.big.onChunk = (bytes) => governor.tickBig(bytes);
          const entry = await reader.readBig(batch.big);
          result.lines += 1;
          const line = batch.firstLine;
          if (entry instanceof BadLine) {
            result.badLines += 1;
            bad.add(line, entry.why);
          } else if (entry !== undefined) {
            if (bad.pending) bad.flush();
            bad.good += 1;
            result.entries += 1;
            if (observe) observe(entry, line);
            assembler.push(entry, line);
          }
          if (governor || config.afterBatch) {
            if (config.afterBatch) await config.afterBatch(batch.big.bytes);
          }
          continue;
        }
        feedBatch(batch, reader, assembler, observe, bad, result);
        if (governor || config.afterBatch) {
          // The slog's bytes, not the file's: 32 MB of gzip is some 200 MB of lines.
          const bytes = batchBytes(batch);
          governor?.tick(bytes);
          if (config.afterBatch) await config.afterBatch(bytes);
        }
      }
    } catch (err) {
      try {
        if (!(err instanceof InputEndsEarly)) throw err;
        // Gzip data cut short (a live node's newest per-block file, a copy made mid-write): every line it held
        // was read, its unfinished last line as a plain file's. One warning, counted as a bad line (--strict),
        // and on with the next input.
        result.badLines += 1;
        bad.add(err.line, err.warning);
      } catch (failure) {
        // Whatever was read so far is still handed over.
        assembler.end();
        if (failure instanceof PassError) throw failure;
        if (failure instanceof InputError) throw new PassError(failure.message, 'read');
        throw failure;
      }
    }
    bad.flush();
  }
  assembler.end();
  return result;
}

/**
 * Reads a batch's lines into entries and hands them to the model. A plain
 * function of its own, called once per batch: V8 optimises it as a whole
 * (no on-stack replacement inside the async pass, whose loop runs once per
 * batch), so the per-line loop is compiled once instead of once for
 * on-stack replacement and again after.
 */
function feedBatch(
  batch: LineBatch,
  reader: LineReader,
  assembler: CrankAssembler,
  observe: PassConfig['observe'],
  bad: BadLines,
  result: PassResult,
): void {
  const count = batch.spans.length / 2;
  for (let i = 0; i < count; i += 1) {
    const entry = reader.read(batch, i);
    if (entry === undefined) continue;
    if (entry instanceof BadLine) {
      result.badLines += 1;
      bad.add(batch.firstLine + i, entry.why);
      continue;
    }
    if (bad.pending) bad.flush();
    bad.good += 1;
    result.entries += 1;
    const line = batch.firstLine + i;
    if (observe) observe(entry, line);
    assembler.push(entry, line);
  }
  result.lines += count;
}

/** One per process: its flags are the process's. */
let governor: HeapGovernor | undefined;

/** A pass's results were dropped (analyses.ts): where the heap is governed, its garbage is collected now. */
export function passDropped(): void {
  governor?.dropped();
}
function processGovernor(s: Switches): HeapGovernor {
  governor ??= new HeapGovernor({ youngCapBytes: s.heapYoungMb << 20, promotedBytes: s.heapGcMb << 20 });
  return governor;
}

/**
 * The bad lines of one input: reported as they come once a good line was
 * seen; before that they wait, so that an input whose first
 * NOT_A_SLOG_LINES lines are all bad (a binary file, another log) ends the
 * pass with one line instead of a hundred warnings.
 */
class BadLines {
  good = 0;
  private readonly held: Array<{ line: number; why: string }> = [];

  constructor(
    private readonly source: string,
    private readonly report: ((bad: BadLineReport) => void) | undefined,
  ) {}

  get pending(): boolean {
    return this.held.length > 0;
  }

  add(line: number, why: string): void {
    if (this.good > 0) {
      this.report?.({ source: this.source, line, why });
      return;
    }
    this.held.push({ line, why });
    if (this.held.length >= NOT_A_SLOG_LINES) {
      throw new PassError(`${this.source}: not a slog (first ${NOT_A_SLOG_LINES} lines are not slog entries)`, 'not-a-slog');
    }
  }

  flush(): void {
    for (const { line, why } of this.held) this.report?.({ source: this.source, line, why });
    this.held.length = 0;
  }
}
