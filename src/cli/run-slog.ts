/**
 * The one streaming pass every command makes: open the slog, parse its lines,
 * report bad lines (`slogulate: FILE:LINE: why`) and skip them, and feed the
 * entries to a crank assembler and its sink.
 *
 * The text render (`render`) may instead run on worker threads
 * (src/input/parallel-render.ts): same bytes, on every core.
 */
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import type { SlogEntry } from '../model/types.js';
import type { TextRenderer } from '../render/text-renderer.js';
import { forEachEntry, type ReadStats } from '../input/entries.js';
import type { AnalysisLineOptions } from '../input/analysis-lines.js';
import { entryLoop } from '../input/byte-entries.js';
import { InputError, openSlog, type SlogSource } from '../input/open.js';
import type { ParallelRenderConfig } from '../input/parallel-render.js';
import { HeapGovernor, type HeapGovernorOptions } from '../input/heap-governor.js';
import { renderLineParser } from '../input/render-lines.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, warn } from './errors.js';

export interface SlogRun {
  /** A path, `-` or undefined for stdin. */
  file: string | undefined;
  /** Sees every entry, in order, before it is assembled into cranks. */
  observe?: (entry: SlogEntry, line: number) => void;
  /** Receives outside entries and whole cranks. */
  sink: CrankSink;
  /** Awaited after each batch of lines (output backpressure). */
  afterBatch?: () => Promise<void> | void;
  /** Called once the source is open (e.g. to start a progress display). */
  onOpen?: (source: SlogSource) => void;
  /** Opens a file (not stdin) in place of openSlog, e.g. to follow a growing file. May throw InputError. */
  open?: (path: string) => SlogSource | Promise<SlogSource>;
  /**
   * The text render: when `sink` is this renderer and `observe` only calls its
   * `observe`, the render may run on worker threads (same bytes; not with
   * `open`, nor with a renderer that selects cranks).
   */
  render?: TextRenderer;
  /**
   * For an analysis that needs only a few fields of most lines: reads the
   * lines it knows from their bytes (analysis-lines.ts, byte-entries.ts;
   * every other line is parsed whole). Not with SLOGULATE_FAST=0 (the plain
   * path).
   */
  analysisLines?: AnalysisLineOptions;
  /**
   * The heap governor with `analysisLines` too (it is on for every other
   * pass): for a pass that makes and keeps more than the analyses do
   * (export: a third less peak memory, at the same speed).
   */
  governHeap?: boolean;
}

/** Chunks of the parallel render: about this many bytes (SLOGULATE_CHUNK_BYTES). */
const CHUNK_BYTES = 1 << 20;
/** The parallel render starts its workers once this many bytes were read (SLOGULATE_WORKERS_AFTER). */
const STARTUP_BYTES = 8 << 20;

/** One per process: its flags are the process's. */
let governor: HeapGovernor | undefined;
function heapOptions(): HeapGovernorOptions {
  return {
    youngCapBytes: (envNumber('SLOGULATE_HEAP_YOUNG_MB') ?? 8) << 20,
    collectEveryBytes: (envNumber('SLOGULATE_HEAP_GC_MB') ?? 32) << 20,
  };
}
function heapGovernor(): HeapGovernor {
  governor ??= new HeapGovernor(heapOptions());
  return governor;
}

/** SLOGULATE_FAST=0: the plain path only (no threads, every line parsed), to compare against. */
function fastPathsOn(): boolean {
  return process.env.SLOGULATE_FAST !== '0';
}

function envNumber(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Worker threads for the text render: SLOGULATE_WORKERS=N (the main thread
 * renders chunks too, so one per core but one is the sensible N). Off by
 * default: on the two-vCPU machines measured, two threads gave about 1.2
 * cores' worth of work, so one thread was faster, and a second heap breaks
 * the memory target (README, Performance).
 */
function workerCount(): number {
  return Math.min(envNumber('SLOGULATE_WORKERS') ?? 0, 15);
}

/**
 * How to render in parallel, or undefined to render on this thread. Workers
 * start only once the slog proved big (STARTUP_BYTES): a small slog is
 * rendered on the main thread before a worker could have loaded.
 */
function parallelPlan(renderer: TextRenderer, source: SlogSource): Omit<ParallelRenderConfig, 'onBadLine' | 'afterBatch'> | undefined {
  if (renderer.config.selectCrank || renderer.config.printOutside === false) return undefined;
  const workers = workerCount();
  if (workers < 1) return undefined;
  const chunkBytes = Math.max(1, envNumber('SLOGULATE_CHUNK_BYTES') ?? CHUNK_BYTES);
  const startWorkersAfter = envNumber('SLOGULATE_WORKERS_AFTER') ?? STARTUP_BYTES;
  // A small plain file: no thread would help.
  if (!source.gzipped && source.rawSize !== undefined && source.rawSize < Math.max(chunkBytes * 2, startWorkersAfter)) return undefined;
  try {
    structuredClone({ options: renderer.config.options, annotations: renderer.config.annotations });
  } catch {
    return undefined;
  }
  const heap = process.env.SLOGULATE_HEAP !== '0' ? { main: heapGovernor(), workers: heapOptions() } : undefined;
  return { lite: true, workers, chunkBytes, startWorkersAfter, mainRenders: true, ...(heap ? { heap } : {}), maxChunkBytes: envNumber('SLOGULATE_MAX_CHUNK_BYTES') ?? Math.max(chunkBytes * 16, 64 << 20) };
}

export interface SlogRunResult extends ReadStats {
  source: SlogSource;
}

/** The text renderer, when this pass is a text render that may take the fast paths. */
function fastRenderer(run: SlogRun): TextRenderer | undefined {
  return run.render && run.sink === run.render && fastPathsOn() ? run.render : undefined;
}

export async function runSlog(run: SlogRun): Promise<SlogRunResult> {
  const renderer = fastRenderer(run);
  // Threads only for a slog this pass opens itself (not a followed file).
  const threadable = renderer && !run.open ? renderer : undefined;
  // Loaded before the slog is opened: nothing may come between opening a stream and reading it.
  const parallel =
    threadable && workerCount() > 0 ? await import('../input/parallel-render.js') : undefined;
  let source: SlogSource;
  try {
    source = run.open && run.file !== undefined && run.file !== '-' ? await run.open(run.file) : await openSlog(run.file);
  } catch (err) {
    if (err instanceof InputError) throw new CliError(err.message, EXIT_USAGE);
    throw err;
  }
  run.onOpen?.(source);
  const assembler = new CrankAssembler(run.sink);
  const observe = run.observe;
  const onBadLine = (bad: { line: number; why: string }): void => warn(`${source.name}:${bad.line}: ${bad.why}`);
  const plan = parallel && threadable ? parallelPlan(threadable, source) : undefined;
  let stats: ReadStats;
  try {
    if (plan && parallel && threadable) {
      stats = await parallel.renderInParallel(source, threadable, { ...plan, onBadLine, afterBatch: run.afterBatch });
    } else {
      // Not for the analyses' line reader: it keeps little alive, and its heap stays flat
      // (65 MB, 73 MB for 8 times the big slog) without the governor's collections, which cost it 10%.
      const governor = fastPathsOn() && process.env.SLOGULATE_HEAP !== '0' && (!run.analysisLines || run.governHeap) ? heapGovernor() : undefined;
      const afterBatch = run.afterBatch;
      stats = await entryLoop(fastPathsOn() ? run.analysisLines : undefined)(
        source,
        (entry, line) => {
          if (observe) observe(entry, line);
          assembler.push(entry, line);
        },
        onBadLine,
        governor
          ? (bytes: number) => {
              // The slog's bytes, not the file's: 32 MB of gzip is some 200 MB of
              // lines, whose dead read buffers would wait that long for a collection.
              governor.tick(bytes);
              return afterBatch?.();
            }
          : afterBatch,
        // The render reads lines its options drop without parsing them.
        renderer ? renderLineParser(renderer.config.options, assembler) : undefined,
      );
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = err instanceof InputError ? err.why : code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? `not valid gzip data (${(err as Error).message})` : (err as Error).message;
    // Whatever was read so far is still handed over.
    assembler.end();
    throw new CliError(`${source.name}: ${why}`, EXIT_FAILURE);
  }
  assembler.end();
  return { ...stats, source };
}
