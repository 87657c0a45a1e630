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
 *
 * Light first: where both slogs are files (they can be read again) and
 * `--entries` is not asked, the side-by-side read takes no values that
 * only entries compare (DIVERGE_LIGHT_READS: no message, ksc, ksr, kd, vd,
 * dr, most of a slog's bytes): crankhashes tell where the slogs diverge.
 * Then the one crank that diverged first is read again on each side, whole
 * (a seek to it in a plain file), for its entries and first difference. A
 * pair without crankhashes (only entries compare it) stops the light read,
 * and both slogs are read again whole from the start.
 */
import { digestOf, DIVERGE_LIGHT_READS, DIVERGE_READS, type CrankDigest } from '../analyses/diverge/crank-digest.js';
import { DivergeMatcher, withEntries, type DivergeResult, type SideIndex } from '../analyses/diverge/diverge.js';
import type { ExecutionSink } from '../model/executions.js';
import { VatNames } from '../model/vats.js';
import type { SlogEntry } from '../scan/entry-types.js';
import type { Reads } from '../scan/reads.js';
import { analysisPass, type AnalysisInput, type AnalysisPassResult } from './analyses.js';
import type { BadLineReport } from './pass.js';
import { canReadAgain } from './restarts.js';

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
  /** Read every value from the start, without the light read (the same result, slower: for tests). */
  wholeRead?: boolean;
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
    private readonly light: boolean,
  ) {
    this.vats = new VatNames(vatNames);
    // A light read stops where only entries can compare a pair (needsEntries): the slogs are read again whole.
    // Its digests read no syscall of a crank (only the sums of its time split): the model holds none.
    this.sink = {
      entry: () => (matcher.needsEntries ? 'stop' : undefined),
      crank: (crank) => {
        matcher.push(side, digestOf(crank, this.vats, light));
        return matcher.needsEntries ? 'stop' : undefined;
      },
      abandoned: () => matcher.abandoned(side),
      syscallsUnread: light,
    };
  }

  readonly sink: ExecutionSink;

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
  const light = !input.wholeRead && !input.compareEntries && canReadAgain(input.a.inputs) && canReadAgain(input.b.inputs);
  if (!light) return withoutFlag(await sideBySide(input, DIVERGE_READS, false));
  // Bad lines the light read reported are not reported again by a whole read after it.
  const told = new Set<string>();
  const tell = (side: AnalysisInput): AnalysisInput => ({
    ...side,
    onBadLine: (bad) => {
      told.add(badLineKey(bad));
      side.onBadLine?.(bad);
    },
  });
  const read = await sideBySide({ ...input, a: tell(input.a), b: tell(input.b) }, DIVERGE_LIGHT_READS, true);
  if (read.needsEntries) {
    const untold = (side: AnalysisInput): AnalysisInput => ({ ...side, onBadLine: (bad) => (told.has(badLineKey(bad)) ? undefined : side.onBadLine?.(bad)) });
    return withoutFlag(await sideBySide({ ...input, a: untold(input.a), b: untold(input.b) }, DIVERGE_READS, false));
  }
  const outcome = withoutFlag(read);
  const first = outcome.result.first;
  if (first === undefined || first.partial) return outcome;
  const [a, b] = await Promise.all([crankAgain(input.a, first.crankNum, input.vatNames), crankAgain(input.b, first.crankNum, input.vatNames)]);
  // Not found again (the slog changed since): read both whole, as without the light read.
  if (a === undefined || b === undefined) return withoutFlag(await sideBySide(input, DIVERGE_READS, false));
  return { ...outcome, result: { ...outcome.result, first: withEntries(first, a, b) } };
}

const withoutFlag = ({ needsEntries: _n, ...outcome }: DivergeOutcome & { needsEntries: boolean }): DivergeOutcome => outcome;

const badLineKey = (bad: BadLineReport): string => `${bad.source}\n${bad.line}`;

/**
 * One crank of a slog read again whole (its digest, entries and all): the
 * execution the side-by-side read compared (analysisPass hands each crank
 * once, a restart's abandoned executions apart), found by a seek in a plain
 * file. What the first read said of the slog (bad lines, warnings, progress)
 * is not said again.
 */
async function crankAgain(side: AnalysisInput, crankNum: number, vatNames: ReadonlyMap<string, string> | undefined): Promise<CrankDigest | undefined> {
  const vats = new VatNames(vatNames);
  let found: CrankDigest | undefined;
  const sink: ExecutionSink = {
    entry: () => undefined,
    crank: (crank) => {
      if (crank.crankNum !== crankNum) return undefined;
      found = digestOf(crank, vats);
      return 'stop';
    },
  };
  const observe = (entry: SlogEntry): void => vats.observe(entry);
  const quiet: AnalysisInput = { inputs: side.inputs, ...(side.settings ? { settings: side.settings } : {}), ...(side.path ? { path: side.path } : {}) };
  await analysisPass(quiet, DIVERGE_READS, sink, observe, { range: { key: 'crankNum', from: crankNum, to: crankNum }, learn: observe });
  return found;
}

/** Both slogs read side by side, with `reads`; `light`: the matcher finds the first divergence without its entries. */
async function sideBySide(input: DivergeInput, reads: Reads, light: boolean): Promise<DivergeOutcome & { needsEntries: boolean }> {
  let feedA: SideFeed | undefined;
  let feedB: SideFeed | undefined;
  const matcher = new DivergeMatcher({
    largest: input.largest,
    compareEntries: input.compareEntries,
    entriesLater: light,
    vatLabel: (vatID) => {
      const name = feedA?.vats.lookup(vatID) ?? feedB?.vats.lookup(vatID);
      return vatID === undefined ? '<no vat>' : name === undefined ? vatID : `${vatID} ${name}`;
    },
  });
  const window = input.window ?? WINDOW;
  feedA = new SideFeed(0, window, matcher, input.vatNames, () => feedB as SideFeed, light);
  feedB = new SideFeed(1, window, matcher, input.vatNames, () => feedA as SideFeed, light);
  const read = async (feed: SideFeed, side: AnalysisInput): Promise<AnalysisPassResult> => {
    const afterBatch = async (bytes: number): Promise<void> => {
      await side.afterBatch?.(bytes);
      await feed.afterBatch();
    };
    try {
      return await analysisPass({ ...side, afterBatch }, reads, feed.sink, feed.observe);
    } finally {
      feed.ended();
    }
  };
  const [passA, passB] = await Promise.all([read(feedA, input.a), read(feedB, input.b)]);
  return { result: matcher.result(), passA, passB, maxQueued: Math.max(feedA.maxQueued, feedB.maxQueued), needsEntries: matcher.needsEntries };
}
