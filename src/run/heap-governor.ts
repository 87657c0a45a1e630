/**
 * Flat memory for a long streaming pass, at little cost in speed.
 *
 * Left alone, V8 grows the young generation (to 32 MB) and puts off
 * collecting the old one, so that peak RSS creeps up with the slog's length
 * although what is live stays a few MB. The governor:
 * - stops the young generation at `youngCapBytes` (8 MB);
 * - runs a full collection once the old generation grew `promotedBytes`
 *   (8 MB) since the last one. A pass that promotes little (the render, or
 *   an analysis of a slog without restarts) is then never collected; one
 *   that holds cranks back for a restart (model/executions.ts) promotes
 *   nearly all it reads, and is collected every few times that much input;
 * - while a huge line is read (`tickBig`), collects every `bigLineBytes`
 *   of it: reading one makes garbage faster than lines do, and the chunks
 *   it was read from are freed only then.
 *
 * It does not collect every so many MB of input: each forced collection
 * deoptimises the pass's hot functions (V8 drops optimised code whose
 * embedded objects died: "weak objects") and they are compiled again, which
 * costs more than the few MB of RSS it saves (docs/performance.md).
 *
 * The heap is looked at once per `checkEveryBytes` of input (1 MB), the
 * first time after the first MB (a small slog never loads `node:v8`), not
 * for each batch of lines: `getHeapSpaceStatistics()` builds an object for
 * each of V8's heap spaces, too dear for every 64 KB batch.
 *
 * V8's flags are the process's: only the command line makes one (its
 * passes' settings, run/pass-settings.ts), never a library caller.
 */
import type { HeapSpaceInfo } from 'node:v8';
import { v8, vm } from '../source/builtins.js';

export interface HeapGovernorOptions {
  youngCapBytes: number;
  /** A full collection once the old generation grew this much since the last one (or since the first look). */
  promotedBytes: number;
  /** While a huge line is read: a full collection every this many bytes of it (default 8 MB). */
  bigLineBytes?: number;
  /** How much input goes by between two looks at the heap (default 1 MB). */
  checkEveryBytes?: number;
  /** Stand-ins for V8's (tests): the old generation's used bytes, and a full collection. */
  oldSpaceUsed?: () => number;
  collect?: () => void;
}

/** One of V8's heap spaces (`new_space`, `old_space`), if V8 has it. */
function heapSpace(name: string): HeapSpaceInfo | undefined {
  return v8().getHeapSpaceStatistics().find((s) => s.space_name === name);
}

function v8OldSpaceUsed(): number {
  return heapSpace('old_space')?.space_used_size ?? 0;
}

export class HeapGovernor {
  private capped: boolean;
  /** Input since the last look at the heap. */
  private sinceCheck = 0;
  /** Bytes of huge lines since the last collection. */
  private sinceBigCollect = 0;
  /** V8's gc(), fetched the first time it is needed (a small slog never needs it). */
  private collect: (() => void) | null | undefined;
  private readonly checkEveryBytes: number;
  private readonly bigLineBytes: number;
  private readonly oldSpaceUsed: () => number;
  /** The old generation's used bytes after the last full collection (or at the first look). */
  private oldAfter = -1;
  /** Full collections run (tests). */
  collections = 0;
  /** Looks at the heap (tests). */
  checks = 0;

  constructor(private readonly options: HeapGovernorOptions) {
    this.checkEveryBytes = options.checkEveryBytes ?? 1 << 20;
    this.bigLineBytes = options.bigLineBytes ?? 8 << 20;
    this.oldSpaceUsed = options.oldSpaceUsed ?? v8OldSpaceUsed;
    if (options.collect) this.collect = options.collect;
    // Nothing to cap (tests that stand in for V8 set no flags).
    this.capped = !Number.isFinite(options.youngCapBytes);
  }

  private collector(): (() => void) | null {
    if (this.collect === undefined) {
      this.collect = null;
      try {
        v8().setFlagsFromString('--expose-gc');
        const gc = vm().runInNewContext('gc') as unknown;
        if (typeof gc === 'function') this.collect = gc as () => void;
      } catch {
        this.collect = null;
      }
    }
    return this.collect;
  }

  private collectNow(): void {
    const collect = this.collector();
    if (!collect) return;
    collect();
    this.collections += 1;
    this.oldAfter = this.oldSpaceUsed();
  }

  /**
   * What a pass had built is garbage now (analyses.ts drops a pass that met
   * a restart and reads again): collected at once, so that the heap the
   * next pass grows is not kept beside it.
   */
  dropped(): void {
    this.collectNow();
  }

  /** To call as a huge line (source/lines.ts) is read, with each chunk's size. */
  tickBig(newBytes: number): void {
    this.sinceBigCollect += newBytes;
    if (this.sinceBigCollect >= this.bigLineBytes) {
      this.sinceBigCollect = 0;
      this.collectNow();
      return;
    }
    this.tick(newBytes);
  }

  /** To call now and then (each batch of lines) with the input bytes read since the last call. */
  tick(newBytes: number): void {
    // The first look, after the first MB too: a small slog never loads node:v8 (builtins.ts).
    this.sinceCheck += newBytes;
    if (this.sinceCheck < this.checkEveryBytes) return;
    this.sinceCheck = 0;
    this.checks += 1;
    if (!this.capped) {
      const young = heapSpace('new_space');
      if (!young || young.space_size >= this.options.youngCapBytes) {
        v8().setFlagsFromString('--semi-space-growth-factor=1');
        this.capped = true;
      }
    }
    const used = this.oldSpaceUsed();
    if (this.oldAfter < 0) this.oldAfter = used;
    else if (used - this.oldAfter > this.options.promotedBytes) this.collectNow();
  }
}
