/**
 * Flat memory for a long streaming pass. Left alone, V8 keeps growing the
 * young generation (to 32 MB) and puts off collecting the old one as a pass
 * goes on, so that peak RSS creeps up with the slog's length although what
 * is live stays a few MB: 94 MB for the big slog, 115 MB for 8 copies of it.
 * The governor stops the young generation at `youngCapBytes`, and runs a
 * full collection every `collectEveryBytes` of input (a few ms each: the
 * live heap is small). Measured: 85 MB and 89 MB, at the same speed.
 *
 * Since lines are decoded just before they are read (lines.ts), the text
 * render peaks at 70-72 MB for the slog and 79 MB for 8 copies of it (the
 * difference is outside the JS heap, whose size stays flat: the same 8
 * copies without their megabyte create-vat lines peak at 68 MB, one copy at
 * 69 MB). A 16 or 32 MB young generation ran 2.5-3% fewer instructions
 * (callgrind) for 10-20 MB more: 8 MB and 32 MB stay.
 *
 * A pass that holds cranks back for a restart (model/executions.ts: 8
 * copies of the slog end to end look like 7 restarts) promotes nearly all
 * it reads: every 32 MB of input, its old generation grew from 12 MB to
 * 40 MB of which 28 MB were garbage (113 MB peak). The governor also
 * collects once the old generation grew by a quarter of the interval since
 * the last collection (`promotedBytes`, checked at each tick): 91 MB, the
 * same CPU; a pass that promotes little is collected as before.
 *
 * V8's flags are the process's: only the command line uses this (a pass
 * with `governHeap`, pass.ts), never a library caller.
 */
import { getHeapSpaceStatistics, setFlagsFromString, type HeapSpaceInfo } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapGovernorOptions {
  youngCapBytes: number;
  collectEveryBytes: number;
  /**
   * A full collection also once the old generation grew this much since the
   * last one (default: a quarter of `collectEveryBytes`), checked at each
   * tick. A pass that holds objects past the young generation (cranks held
   * back for a restart, model/executions.ts) promotes nearly all it reads,
   * and its garbage would otherwise pile up for `collectEveryBytes` of input.
   */
  promotedBytes?: number;
  /** Stand-ins for V8's (tests): the old generation's used bytes, and a full collection. */
  oldSpaceUsed?: () => number;
  collect?: () => void;
}

/** One of V8's heap spaces (`new_space`, `old_space`), if V8 has it. */
function heapSpace(name: string): HeapSpaceInfo | undefined {
  return getHeapSpaceStatistics().find((s) => s.space_name === name);
}

function v8OldSpaceUsed(): number {
  return heapSpace('old_space')?.space_used_size ?? 0;
}

export class HeapGovernor {
  private capped = false;
  private sinceCollect = 0;
  /** V8's gc(), fetched the first time it is needed (a small slog never needs it). */
  private collect: (() => void) | null | undefined;
  private readonly promotedBytes: number;
  private readonly oldSpaceUsed: () => number;
  /** The old generation's used bytes after the last full collection (or at the first tick). */
  private oldAfter = -1;
  /** Full collections run (tests). */
  collections = 0;

  constructor(private readonly options: HeapGovernorOptions) {
    this.promotedBytes = options.promotedBytes ?? options.collectEveryBytes / 4;
    this.oldSpaceUsed = options.oldSpaceUsed ?? v8OldSpaceUsed;
    if (options.collect) this.collect = options.collect;
  }

  private collector(): (() => void) | null {
    if (this.collect === undefined) {
      this.collect = null;
      try {
        setFlagsFromString('--expose-gc');
        const gc = runInNewContext('gc') as unknown;
        if (typeof gc === 'function') this.collect = gc as () => void;
      } catch {
        this.collect = null;
      }
    }
    return this.collect;
  }

  /**
   * To call as a big line (source/lines.ts) is read, with each chunk's
   * size: a full collection every quarter of `collectEveryBytes`. Reading
   * one makes garbage at a higher rate than lines do (a token object for
   * each piece of a string), and the chunks it was read from, promoted
   * meanwhile, are freed only then (a gzipped slog's are fresh buffers):
   * every 32 MB, a 213 MB slog of three huge lines peaked at 107-115 MB;
   * every 8 MB, at 88-96 MB.
   */
  tickBig(newBytes: number): void {
    this.tick(newBytes * 4);
  }

  /** To call now and then (each batch of lines) with the input bytes read since the last call. */
  tick(newBytes: number): void {
    if (!this.capped) {
      const young = heapSpace('new_space');
      if (!young || young.space_size >= this.options.youngCapBytes) {
        setFlagsFromString('--semi-space-growth-factor=1');
        this.capped = true;
      }
    }
    this.sinceCollect += newBytes;
    if (this.oldAfter < 0) this.oldAfter = this.oldSpaceUsed();
    if (this.sinceCollect >= this.options.collectEveryBytes || this.oldSpaceUsed() - this.oldAfter > this.promotedBytes) {
      this.sinceCollect = 0;
      const collect = this.collector();
      if (!collect) return;
      collect();
      this.collections += 1;
      this.oldAfter = this.oldSpaceUsed();
    }
  }
}
