/**
 * The text render on every core: the main thread reads the slog (file,
 * stdin or gzip) and cuts it into chunks at crank-start lines; worker threads
 * and the main thread itself parse and render the chunks (parallel-chunk.ts);
 * the main thread writes their text in slog order and replays, on the real
 * renderer, what depends on earlier chunks (parallel-protocol.ts). The bytes
 * are exactly those of the plain render.
 *
 * A chunk goes to a worker with room in its queue, else the main thread
 * renders it: whoever is free takes the next one.
 *
 * Input too small for one chunk, or a stretch without any crank-start too
 * long to cut, is rendered on the main thread as usual. The workers start
 * only once `startWorkersAfter` bytes were cut: the main thread renders the
 * chunks before that itself, so a small slog never waits for a worker to load.
 *
 * Opt-in (SLOGULATE_WORKERS=N, run-slog.ts): on the two-vCPU machines it was
 * measured on, two threads did about 1.2 threads' worth of work, so one
 * thread was faster; a second V8 heap also costs 30-40 MB.
 */
import { Worker } from 'node:worker_threads';
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import type { SlogEntry } from '../model/types.js';
import type { TextRenderer } from '../render/text-renderer.js';
import type { HeapGovernor, HeapGovernorOptions } from './heap-governor.js';
import { forEachEntryInBuffer } from './buffer-entries.js';
import { forEachEntry, type ReadStats } from './entries.js';
import type { SlogSource } from './open.js';
import { ChunkRenderer } from './parallel-chunk.js';
import { ChunkBuffers, readSlogChunks, type SlogChunk } from './parallel-chunks.js';
import { parseLine, type BadLine } from './parse.js';
import { renderLineParser } from './render-lines.js';
import {
  learnCopy,
  learnedVatID,
  type ChunkRequest,
  type ChunkResult,
  type WorkerReply,
  type WorkerSetup,
} from './parallel-protocol.js';

export interface ParallelRenderConfig {
  /** Read lines the options drop without parsing them (render-lines.ts). */
  lite: boolean;
  /** Worker threads (at least 1); the main thread renders chunks too. */
  workers: number;
  /** Chunk size to aim for, bytes. */
  chunkBytes: number;
  /** No crank-start within this many bytes: render the rest on the main thread. */
  maxChunkBytes: number;
  /** Does the main thread render chunks when every worker is busy? */
  mainRenders: boolean;
  /**
   * Start the workers only once this many bytes were cut into chunks (the main
   * thread renders those): a small slog is done before a worker could load.
   */
  startWorkersAfter?: number;
  /** Young generation of each worker's heap, MB (0: V8's default). */
  workerYoungMb?: number;
  /** Keep every thread's heap flat (heap-governor.ts): the main thread's governor, and the workers' settings. */
  heap?: { main: HeapGovernor; workers: HeapGovernorOptions };
  onBadLine: (bad: BadLine) => void;
  /** Awaited after each chunk is written (output backpressure). */
  afterBatch?: () => Promise<void> | void;
}

/** Chunks a worker may have waiting. */
const WORKER_QUEUE = 2;
/**
 * Chunks the main thread may render ahead of the first one still being
 * rendered by a worker (whose text must be written first): rather than wait
 * for it, the main thread takes the next chunks itself. Bounded, as each
 * holds its bytes and text until written.
 */
const MAIN_AHEAD = 4;

class WorkerLane {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: ChunkResult) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;
  /** How many name-teaching entries it was told. */
  told = 0;

  constructor(setup: WorkerSetup, youngMb: number | undefined) {
    this.worker = new Worker(new URL('./parallel-worker.js', import.meta.url), {
      workerData: setup,
      ...(youngMb ? { resourceLimits: { maxYoungGenerationSizeMb: youngMb } } : {}),
    });
    this.worker.on('message', (reply: WorkerReply) => {
      const seq = reply.kind === 'result' ? reply.result.seq : reply.seq;
      const waiter = this.waiting.get(seq);
      this.waiting.delete(seq);
      if (reply.kind === 'result') waiter?.resolve(reply.result);
      else waiter?.reject(new Error(`render worker: ${reply.message}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => {
      if (this.waiting.size) this.fail(new Error(`render worker stopped (exit code ${code})`));
    });
  }

  get queued(): number {
    return this.waiting.size;
  }

  run(request: ChunkRequest): Promise<ChunkResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.set(request.seq, { resolve, reject });
      this.worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.waiting.values()) waiter.reject(err);
    this.waiting.clear();
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

interface InFlight {
  seq: number;
  last: boolean;
  /** How many names had been learned when it was sent. */
  learnsAtSend: number;
  result: Promise<ChunkResult>;
  /** Set once the result is in. */
  ready: boolean;
}

/** Renders `source` into `renderer` (whose begin() and end() are the caller's). */
export async function renderInParallel(
  source: SlogSource,
  renderer: TextRenderer,
  config: ParallelRenderConfig,
): Promise<ReadStats> {
  const total: ReadStats = { lines: 0, entries: 0, badLines: 0 };
  const input: AsyncIterator<Buffer> = source.chunks
    ? source.chunks()
    : (source.stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  /** Chunks in flight (sent or rendered, not yet written) before the main thread waits. */
  const maxInFlight = config.workers * WORKER_QUEUE + (config.mainRenders ? MAIN_AHEAD : 1);
  const buffers = new ChunkBuffers(Math.ceil(config.chunkBytes * 1.25) + (1 << 20), maxInFlight + 2);
  const chunks = readSlogChunks(input, { targetBytes: config.chunkBytes, maxBytes: config.maxChunkBytes, buffers });

  const addStats = (stats: ReadStats): void => {
    total.lines += stats.lines;
    total.entries += stats.entries;
    total.badLines += stats.badLines;
  };
  /** Main-thread rendering of bytes that are not cut into chunks. */
  const renderHere = async (bytes: Buffer, last: boolean, rest: boolean): Promise<void> => {
    const assembler = new CrankAssembler(renderer);
    const parse = config.lite ? renderLineParser(renderer.config.options, assembler) : parseLine;
    const offset = total.lines;
    const onEntry = (entry: SlogEntry, line: number): void => {
      renderer.observe(entry);
      assembler.push(entry, line + offset);
    };
    const onBadLine = (bad: BadLine): void => config.onBadLine({ line: bad.line + offset, why: bad.why });
    if (!rest) {
      addStats(forEachEntryInBuffer(bytes, { last, parse, onEntry, onBadLine }));
    } else {
      async function* all(): AsyncGenerator<Buffer> {
        yield bytes;
        for (;;) {
          const next = await input.next();
          if (next.done) return;
          yield next.value;
        }
      }
      const restSource: SlogSource = {
        name: source.name,
        stream: source.stream,
        rawBytesRead: source.rawBytesRead,
        rawSize: source.rawSize,
        gzipped: source.gzipped,
        chunks: all,
      };
      addStats(await forEachEntry(restSource, onEntry, onBadLine, config.afterBatch, parse));
    }
    assembler.end();
  };

  const first = await chunks.next();
  if (first.done) return total;
  if (first.value.kind === 'rest' || first.value.last) {
    await renderHere(first.value.bytes, first.value.kind === 'chunk', first.value.kind === 'rest');
    return total;
  }

  const setup: WorkerSetup = {
    options: renderer.config.options,
    annotations: renderer.config.annotations,
    lite: config.lite,
    ...(config.heap ? { heap: config.heap.workers } : {}),
  };
  const workers: WorkerLane[] = [];
  let cutBytes = 0;
  const startWorkers = (): void => {
    for (let i = 0; i < config.workers; i += 1) workers.push(new WorkerLane(setup, config.workerYoungMb));
  };
  if (!config.startWorkersAfter) startWorkers();
  const here = new ChunkRenderer(setup);
  const out = renderer.config.out;
  const sink: CrankSink = renderer;
  /** Name-teaching entries in slog order, as the chunks' text has taught them. */
  const learns: SlogEntry[] = [];
  /**
   * The same, found ahead by scanning each chunk as it is cut (scanLearns):
   * what chunks are told, so that a vat created in one chunk is named in the
   * next ones although its text is not written yet.
   */
  const foreseen: SlogEntry[] = [];
  /** learns[0, checked) equal foreseen's; `diverged` once they did not. */
  let checked = 0;
  let diverged = false;
  const inFlight: InFlight[] = [];
  let nextSeq = 0;

  /** The name-teaching entries of a chunk, read ahead (the lines holding "create-vat"). */
  const scanLearns = (bytes: Buffer, last: boolean): SlogEntry[] => {
    const found: SlogEntry[] = [];
    let at = bytes.indexOf('"create-vat"');
    while (at >= 0) {
      const start = bytes.lastIndexOf(10, at) + 1;
      let end = bytes.indexOf(10, at);
      const terminated = end >= 0;
      if (!terminated) end = bytes.length;
      let stop = end;
      if (stop > start && bytes[stop - 1] === 13) stop -= 1;
      const entry = parseLine(bytes.toString('utf8', start, stop), !terminated && last);
      if (entry !== undefined && typeof entry !== 'string' && learnedVatID(entry) !== undefined) found.push(learnCopy(entry));
      at = terminated ? bytes.indexOf('"create-vat"', end) : -1;
    }
    return found;
  };
  const dispatch = (bytes: Buffer, last: boolean): void => {
    const seq = nextSeq;
    nextSeq += 1;
    cutBytes += bytes.length;
    if (workers.length === 0 && config.startWorkersAfter && cutBytes >= config.startWorkersAfter) startWorkers();
    const learnsAtSend = foreseen.length;
    const ahead = scanLearns(bytes, last);
    const lane =
      workers.find((w) => w.queued < WORKER_QUEUE) ?? (config.mainRenders ? undefined : workers[seq % workers.length]);
    let result: Promise<ChunkResult>;
    if (lane) {
      const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      result = lane.run({ seq, bytes: view, last, learns: foreseen.slice(lane.told) });
      lane.told = foreseen.length;
    } else {
      result = Promise.resolve(here.render({ seq, bytes, last, learns: [] }, foreseen));
    }
    for (const entry of ahead) foreseen.push(entry);
    const flight: InFlight = { seq, last, learnsAtSend, result, ready: false };
    result.then(
      () => (flight.ready = true),
      () => (flight.ready = true),
    );
    inFlight.push(flight);
  };
  /** Was the chunk told other names than those its text comes after? */
  const stale = (learnsAtSend: number): boolean => {
    if (learns.length !== learnsAtSend) return true;
    for (; checked < learns.length && !diverged; checked += 1) {
      if (JSON.stringify(learns[checked]) !== JSON.stringify(foreseen[checked])) diverged = true;
    }
    return diverged;
  };
  const apply = (result: ChunkResult): void => {
    const offset = total.lines;
    for (const op of result.ops) {
      if (typeof op === 'string') {
        out(op);
        continue;
      }
      switch (op.op) {
        case 'entry':
          sink.entry(op.entry, op.line + offset);
          break;
        case 'crank':
          op.crank.firstLine += offset;
          op.crank.lastLine += offset;
          sink.crank(op.crank);
          break;
        case 'learn':
          renderer.vats.observe(op.entry);
          learns.push(op.entry);
          break;
        case 'bad':
          config.onBadLine({ line: op.bad.line + offset, why: op.bad.why });
          break;
      }
    }
    renderer.addTypeCounts(result.counts);
    addStats(result.stats);
  };
  const finishHead = async (): Promise<void> => {
    const head = inFlight.shift() as InFlight;
    let result = await head.result;
    // Told other names than those before it (never, unless scanning ahead missed one): render it again.
    if (stale(head.learnsAtSend)) result = here.render({ seq: head.seq, bytes: result.bytes, last: head.last, learns: [] }, learns);
    apply(result);
    config.heap?.main.tick(result.bytes.byteLength);
    buffers.give(result.bytes);
    if (config.afterBatch) await config.afterBatch();
  };
  /** Writes what is ready, in order, without waiting. */
  const finishReady = async (): Promise<void> => {
    while (inFlight.length && (inFlight[0] as InFlight).ready) await finishHead();
  };

  try {
    dispatch(first.value.bytes, false);
    for (;;) {
      let next: IteratorResult<SlogChunk>;
      try {
        next = await chunks.next();
      } catch (err) {
        while (inFlight.length) await finishHead();
        throw err;
      }
      if (next.done) break;
      const chunk = next.value;
      if (chunk.kind === 'rest') {
        while (inFlight.length) await finishHead();
        await renderHere(chunk.bytes, false, true);
        break;
      }
      await finishReady();
      while (inFlight.length >= maxInFlight) await finishHead();
      dispatch(chunk.bytes, chunk.last);
    }
    while (inFlight.length) await finishHead();
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
  return total;
}
