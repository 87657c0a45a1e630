/**
 * `slogulate diverge A B` as passes: the two slogs read side by side, each
 * in one streaming pass (analysisPass: each crank once, a restart's
 * abandoned executions apart), their cranks handed as digests to one
 * matcher (analyses/diverge/diverge.ts). After each batch of lines a side
 * lets the matcher match what it can, and, while it holds more than
 * WINDOW cranks the other side has not reached, waits for the other side:
 * memory is bounded by the window (and a chain's cranks held between
 * commits, model/executions.ts), not by either slog's size.
 *
 * No deadlock: a side waits only while its own queue is over the window
 * after a drain, which leaves the other side's queue empty (a drain stops
 * only when one queue is empty), so the other side is reading; each of
 * its batches, and its end, wakes the waiting side.
 */
import { digestOf, DIVERGE_READS } from '../analyses/diverge/crank-digest.js';
import { DivergeMatcher, type DivergeResult, type SideIndex } from '../analyses/diverge/diverge.js';
import type { ExecutionSink } from '../model/executions.js';
import { VatNames } from '../model/vats.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { analysisPass, type AnalysisInput, type AnalysisPassResult } from './analyses.js';

/** Cranks a side may hold ahead of the other before it waits. */
export const WINDOW = 2000;

export interface DivergeInput {
  /** Each side's inputs and reporting (one slog each: files of one slog, a per-block folder). */
  a: AnalysisInput;
  b: AnalysisInput;
  /** The deliveries of largest time difference listed (default 10). */
  largest?: number;
  /** Annotated vat names (they win over the slog's). */
  vatNames?: ReadonlyMap<string, string>;
  /** Compare the entries of cranks whose crankhashes agree too (slower). */
  compareEntries?: boolean;
  /** Cranks a side may hold ahead of the other before it waits (default WINDOW). */
  window?: number;
}

export interface DivergeOutcome {
  result: DivergeResult;
  /** The most cranks a side held ahead of the other after a batch (the window, plus what one batch brought). */
  maxQueued: number;
  passA: AnalysisPassResult;
  passB: AnalysisPassResult;
}

/** One side's reading: its sink and vat names, and the wait for the other side. */
class SideFeed {
  readonly vats: VatNames;
  private wake: (() => void) | undefined;

  /** The most cranks this side held ahead of the other, seen after a batch. */
  maxQueued = 0;

  constructor(
    private readonly side: SideIndex,
    private readonly window: number,
    private readonly matcher: DivergeMatcher,
    vatNames: ReadonlyMap<string, string> | undefined,
    private readonly other: () => SideFeed,
  ) {
    this.vats = new VatNames(vatNames);
  }

  readonly sink: ExecutionSink = {
    entry: () => undefined,
    crank: (crank) => {
      this.matcher.push(this.side, digestOf(crank, this.vats));
    },
    abandoned: () => this.matcher.abandoned(this.side),
  };

  readonly observe = (entry: SlogEntry): void => this.vats.observe(entry);

  /** After a batch: match what can be, wake the other side, and wait while this side is over the window. */
  readonly afterBatch = async (): Promise<void> => {
    this.matcher.drain();
    this.other().poke();
    this.maxQueued = Math.max(this.maxQueued, this.matcher.queued(this.side));
    while (this.matcher.queued(this.side) > this.window) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.matcher.drain();
    }
  };

  /** The other side read a batch, or ended: look again. */
  poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** This side ended: the other side no longer waits for it. */
  ended(): void {
    this.matcher.end(this.side);
    this.matcher.drain();
    this.other().poke();
  }
}

/** Reads both slogs side by side and compares them. */
export async function divergeOf(input: DivergeInput): Promise<DivergeOutcome> {
  let feedA: SideFeed | undefined;
  let feedB: SideFeed | undefined;
  const matcher = new DivergeMatcher({
    largest: input.largest,
    compareEntries: input.compareEntries,
    vatLabel: (vatID) => {
      const name = feedA?.vats.lookup(vatID) ?? feedB?.vats.lookup(vatID);
      return vatID === undefined ? '<no vat>' : name === undefined ? vatID : `${vatID} ${name}`;
    },
  });
  const window = input.window ?? WINDOW;
  feedA = new SideFeed(0, window, matcher, input.vatNames, () => feedB as SideFeed);
  feedB = new SideFeed(1, window, matcher, input.vatNames, () => feedA as SideFeed);
  const read = async (feed: SideFeed, side: AnalysisInput): Promise<AnalysisPassResult> => {
    const afterBatch = async (bytes: number): Promise<void> => {
      await side.afterBatch?.(bytes);
      await feed.afterBatch();
    };
    try {
      return await analysisPass({ ...side, afterBatch }, DIVERGE_READS, feed.sink, feed.observe);
    } finally {
      feed.ended();
    }
  };
  const [passA, passB] = await Promise.all([read(feedA, input.a), read(feedB, input.b)]);
  return { result: matcher.result(), passA, passB, maxQueued: Math.max(feedA.maxQueued, feedB.maxQueued) };
}
