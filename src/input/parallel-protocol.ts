/**
 * Messages between the parallel render's main thread and its workers.
 *
 * A worker renders a chunk of lines into text with its own TextRenderer, but
 * anything that depends on what came before the chunk is left to the main
 * thread, which replays it in slog order on the real renderer:
 *
 * - entries outside cranks (kernel and chain lines pair starts with finishes),
 *   and a chunk's first crank and any crank after an outside entry (the real
 *   renderer may owe text before it), and cranks holding kernel-level entries
 *   (vat startup, snapshots...): sent whole, rendered on the main thread;
 * - vat names: the main thread reads ahead, in each chunk as it is cut, the
 *   entries that teach names (create-vat), and tells them to the workers
 *   (`learns`) with the next chunks; a worker renders headers with those. When
 *   the chunk's text is written, the main thread checks that the names it was
 *   told are exactly those learned before it, else renders it again;
 * - entry type counts (`--summarize`): added up in chunk order.
 */
import type { HeapGovernorOptions } from './heap-governor.js';
import type { Annotations } from '../model/annotations.js';
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../model/types.js';
import type { BadLine } from './parse.js';
import type { ReadStats } from './entries.js';

export interface WorkerSetup {
  /** The renderer's options and annotations (structured-cloned). */
  options: unknown;
  annotations: Annotations;
  /** Read lines the options drop without parsing them (render-lines.ts). */
  lite: boolean;
  /** Keep the worker's heap flat (heap-governor.ts); absent: V8's defaults. */
  heap?: HeapGovernorOptions;
}

export interface ChunkRequest {
  seq: number;
  bytes: Uint8Array;
  last: boolean;
  /** Name-teaching entries the worker has not been told yet, in slog order. */
  learns: SlogEntry[];
}

/** One step of a chunk's output, in slog order. */
export type ChunkOp =
  /** Text to write as is. */
  | string
  /** An entry outside cranks: `renderer.entry(entry)`. */
  | { op: 'entry'; entry: SlogEntry; line: number }
  /** A crank to render on the main thread: `renderer.crank(crank)`. */
  | { op: 'crank'; crank: Crank }
  /** An entry that teaches a vat name: `renderer.vats.observe(entry)`. */
  | { op: 'learn'; entry: SlogEntry }
  /** A line that is not a slog entry (line number within the chunk). */
  | { op: 'bad'; bad: BadLine };

export interface ChunkResult {
  seq: number;
  ops: ChunkOp[];
  /** Entry types and their counts, in first-seen order. */
  counts: Array<[string, number]>;
  stats: ReadStats;
  /** The chunk's bytes, handed back (for a second rendering). */
  bytes: Uint8Array;
}

export type WorkerReply = { kind: 'result'; result: ChunkResult } | { kind: 'error'; seq: number; message: string };

/** The vat whose name an entry may teach (what VatNames.observe looks at), if any. */
export function learnedVatID(entry: SlogEntry): string | undefined {
  if (entry.type === 'create-vat') return typeof entry.vatID === 'string' ? entry.vatID : undefined;
  if (entry.type === 'crank-start') {
    const message = (entry as { message?: { type?: unknown; vatID?: unknown } }).message;
    if (message && typeof message === 'object' && message.type === 'create-vat' && typeof message.vatID === 'string') {
      return message.vatID;
    }
  }
  return undefined;
}

/** A copy of a name-teaching entry without what names do not need (a create-vat's source bundle). */
export function learnCopy(entry: SlogEntry): SlogEntry {
  if (entry.type !== 'create-vat' || !('vatSourceBundle' in entry)) return entry;
  const { vatSourceBundle: _bundle, ...rest } = entry;
  return rest as SlogEntry;
}
