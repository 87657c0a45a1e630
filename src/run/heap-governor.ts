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
 * V8's flags are the process's: only the command line uses this (a pass
 * with `governHeap`, pass.ts), never a library caller.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface HeapGovernorOptions {
  youngCapBytes: number;
  collectEveryBytes: number;
}

export class HeapGovernor {
  private capped = false;
  private sinceCollect = 0;
  /** V8's gc(), fetched the first time it is needed (a small slog never needs it). */
  private collect: (() => void) | null | undefined;

  constructor(private readonly options: HeapGovernorOptions) {}

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
      const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      if (!young || young.space_size >= this.options.youngCapBytes) {
        setFlagsFromString('--semi-space-growth-factor=1');
        this.capped = true;
      }
    }
    this.sinceCollect += newBytes;
    if (this.sinceCollect >= this.options.collectEveryBytes) {
      this.sinceCollect = 0;
      this.collector()?.();
    }
  }
}
