/**
 * The analyses as passes: slog inputs in, each analysis's result out, and
 * which path read the lines. Each analysis declares what it reads of crank
 * entries beside its code (AGGREGATE_READS, TOP_READS...); this is where a
 * consumer meets the pass. The command line (cli/commands/) and the tests
 * call these.
 */
import type { Readable } from 'node:stream';
import { AGGREGATE_READS, SlogAggregator, type SlogAggregate } from '../analyses/stats/aggregate.js';
import { COMPARE_GROWTH_READS, COMPARE_READS, CompareSide, type SideConfig, type SideData } from '../analyses/compare/compare-side.js';
import type { SelectionSpec } from '../analyses/common/selection.js';
import { TOP_READS, TopCollector, type TopKey, type TopResult } from '../analyses/top/top.js';
import { TRACE_READS, type TraceWriter } from '../analyses/trace/trace.js';
import type { Annotations } from '../model/annotations.js';
import type { CrankSink, EntryObserver, ModelPlace } from '../model/assembler.js';
import { CommittedCranks, type ExecutionSink } from '../model/executions.js';
import type { Crank } from '../model/crank.js';
import { KREF_READS, KrefModel, type CrankFacts } from '../model/krefs.js';
import type { VatNames } from '../model/vats.js';
import type { LineFacts, SlogEntry } from '../scan/entry-types.js';
import type { ReadPath } from '../scan/line-reader.js';
import { mergeReads, type Reads } from '../scan/reads.js';
import { GROWTH_READS, GrowthCollector } from '../analyses/growth/growth.js';
import { growthResult, type GrowthResult } from '../analyses/growth/growth-result.js';
import { inputsName } from '../source/inputs.js';
import type { SlogInput, SlogSource } from '../source/open.js';
import type { SeekRange } from '../source/seek.js';
import { runPass, type BadLineReport, type PassConfig, type PassPlace, type PassResult, type PassSeek, type PlanStop } from './pass.js';
import { pastRange, seekRangeOf } from './pass-seek.js';
import { settingsFor, type PassSettings } from './pass-settings.js';
import { canReadAgain, mayRestart } from './restarts.js';

/** What every analysis pass takes besides its own settings. */
export interface AnalysisInput {
  inputs: readonly SlogInput[];
  onBadLine?: (bad: BadLineReport) => void;
  afterBatch?: (bytes: number) => Promise<void> | void;
  onOpen?: (source: SlogSource) => void;
  /** How to read (default: the switches', read once per call; pass-settings.ts). */
  settings?: PassSettings;
  /** `plain` forces the plain path (over `settings`). */
  path?: ReadPath;
  stdin?: Readable;
  /** Told what the figures may get wrong (a restart that ran again more cranks than were held back). */
  onWarning?: (message: string) => void;
}

/**
 * How an analysis pass held cranks back for restarts: `never` (the inputs
 * hold no restart, or were read holding nothing, without meeting one),
 * `throughout` (they may hold one and cannot be read again: stdin, a pipe),
 * `from the first commit` (a file read once, holding from its first commit
 * on: a chain's slog, whose restarts are met holding), `read again` (a
 * restart was met before the first commit: read again from the start,
 * holding).
 */
export type CrankHolding = 'never' | 'throughout' | 'from the first commit' | 'read again';

/** `mayCountTwice`: cranks a restart ran again after they had gone on as committed (model/executions.ts), counted twice. */
export type AnalysisPassResult = PassResult & { held: CrankHolding; mayCountTwice: number };

/** The pass's result, told how it held cranks; a warning when some may be counted twice. */
function heldResult(input: AnalysisInput, result: PassResult, held: CrankHolding, executions: CommittedCranks | undefined): AnalysisPassResult {
  const mayCountTwice = executions?.mayCountTwice ?? 0;
  if (mayCountTwice > 0) {
    input.onWarning?.(
      `${result.name}: a restart ran again cranks already counted (more ran since the last commit than are held back): up to ${mayCountTwice} may be counted twice`,
    );
  }
  return { ...result, held, mayCountTwice };
}

/** What an analysis pass hands the pass besides its input and sink. */
interface AnalysisReading {
  observe?: EntryObserver;
  onOpen?: (source: SlogSource) => void;
  /** The analysis never prints a big line's strings: they may stay BigStrings (pass.ts). */
  bigStrings?: boolean;
  seek?: PassSeek;
}

/**
 * A pass for an analysis: each crank counted once (CommittedCranks: the
 * executions a restart abandoned go to the sink's `abandoned`).
 */
async function pass(input: AnalysisInput, reads: Reads, sink: ExecutionSink, reading: AnalysisReading = {}): Promise<AnalysisPassResult> {
  // Held back only where a restart may be (restarts.ts): holding costs speed.
  const executions = mayRestart(input.inputs) ? new CommittedCranks(sink) : undefined;
  const result = await runPass({ ...input, ...reading, settings: settingsFor(input), reads, sink: executions ?? sink });
  executions?.end();
  return heldResult(input, result, executions ? 'throughout' : 'never', executions);
}

/**
 * What an analysis that can start over makes for each read: its state, its
 * sink, what sees every entry first, and what is told of each input opened
 * (besides the input's own `onOpen`).
 */
export interface Made<T> {
  value: T;
  sink: ExecutionSink;
  observe?: EntryObserver;
  onOpen?: (source: SlogSource) => void;
  /** The analysis may read only the bytes of its selection (pass.ts, pass-seek.ts). */
  seek?: PassSeek;
}

/** An analysis's value and its pass's result. */
interface Analysed<T> {
  value: T;
  result: AnalysisPassResult;
}

/**
 * A pass for an analysis whose whole state `make` makes (so that it can
 * start over): each crank counted once. Inputs that can be read again
 * (files) are read holding nothing back until their first commit
 * (CommittedCranks' `fromFirstCommit`); at a restart before it, that read
 * stops, and a second read from the start, with a new state, holds cranks
 * throughout. Other inputs: as `pass`.
 */
async function restartablePass<T>(
  input: AnalysisInput,
  reads: Reads,
  make: () => Made<T>,
  options: { bigStrings: boolean },
): Promise<Analysed<T>> {
  // Made once for every read: the second reads as the first did.
  const settings = settingsFor(input);
  if (!canReadAgain(input.inputs)) {
    const made = make();
    const reading = { ...readingOf(input, made), bigStrings: options.bigStrings };
    return { value: made.value, result: await pass({ ...input, settings }, reads, made.sink, reading) };
  }
  /** The pass of one read: what `made` sees of it, and its sink. */
  const config = (made: Made<T>, sink: CrankSink): PassConfig => ({
    ...input,
    ...readingOf(input, made),
    settings,
    reads,
    sink,
    bigStrings: options.bigStrings,
  });
  const first = await readFromFirstCommit(input, make, config);
  if ('value' in first) return first;
  // What the first read built is garbage: collected now, not kept beside the cranks the second read holds.
  settings.heap?.dropped();
  const again = make();
  const executions = new CommittedCranks(again.sink);
  // The first read reported the bad lines up to the restart it stopped at: the second reports those after it.
  const result = await runPass({ ...config(again, executions), reportedThrough: first.stoppedAt });
  executions.end();
  return { value: again.value, result: heldResult(input, result, 'read again', executions) };
}

/**
 * The first read of inputs that can be read again: holding nothing back
 * until the first commit. The analysis, or, where a restart came before
 * that commit (the read stopped there), the place it stopped.
 */
async function readFromFirstCommit<T>(
  input: AnalysisInput,
  make: () => Made<T>,
  config: (made: Made<T>, sink: CrankSink) => PassConfig,
): Promise<Analysed<T> | { stoppedAt: PassPlace | undefined }> {
  const made = make();
  const once = new CommittedCranks(made.sink, { fromFirstCommit: true });
  const result = await runPass(config(made, once));
  if (once.stopped) return { stoppedAt: result.stopped };
  once.end();
  return { value: made.value, result: heldResult(input, result, once.heldAny ? 'from the first commit' : 'never', once) };
}

/** What one read made to see its entries and inputs (told of each input after the caller's own `onOpen`). */
function readingOf<T>(input: AnalysisInput, made: Made<T>): AnalysisReading {
  const own = made.onOpen;
  const outer = input.onOpen;
  const onOpen =
    own && outer
      ? (source: SlogSource): void => {
          outer(source);
          own(source);
        }
      : (own ?? outer);
  return { ...(onOpen ? { onOpen } : {}), ...(made.observe ? { observe: made.observe } : {}), ...(made.seek ? { seek: made.seek } : {}) };
}

/** `slogulate stats`: the aggregate, with the stalls of more than `stallSeconds` (default 1). */
export async function statsOf(
  input: AnalysisInput & { selection?: SelectionSpec; annotations?: Annotations; stallSeconds?: number; growth?: boolean },
): Promise<{ aggregate: SlogAggregate; growth?: GrowthResult; pass: AnalysisPassResult }> {
  const { value, result } = await restartablePass(
    input,
    input.growth ? mergeReads(AGGREGATE_READS, GROWTH_READS) : AGGREGATE_READS,
    () => {
      // Made for each read: a slog read again after a restart finds its stalls once.
      const made = new SlogAggregator({ selection: input.selection, vatNames: input.annotations?.vatNames, stallSeconds: input.stallSeconds });
      // Round marks out of place are skipped: stats has no usage error to give for them.
      const growth = input.growth ? new GrowthCollector({ slogName: inputsName(input.inputs), vatNames: input.annotations?.vatNames, skipBadMarks: true }) : undefined;
      const observe = (entry: SlogEntry, line: number, place: ModelPlace, facts: Readonly<LineFacts>): void => {
        made.observe(entry, place, facts);
        growth?.observe(entry, line, place, facts);
      };
      return { value: { made, growth }, sink: growth ? withGrowth(made, growth) : made, observe };
    },
    // Growth reads krefs, methods and round marks (short strings), never a big line's arguments: they may stay BigStrings.
    { bigStrings: true },
  );
  if (!value.growth) return { aggregate: value.made.result(), pass: result };
  value.growth.end();
  return { aggregate: value.made.result(), growth: growthResult(value.growth, result.name), pass: result };
}

/** The aggregator, and growth beside it: each told of every entry and crank (growth of every crank, whatever the selection). */
function withGrowth(made: SlogAggregator, growth: GrowthCollector): ExecutionSink {
  return {
    entry: (entry, line) => {
      made.entry(entry);
      growth.entry(entry, line);
    },
    crank: (crank) => {
      made.crank(crank);
      growth.crank(crank);
    },
    spill: (crank) => {
      made.spill(crank);
      growth.spill(crank);
    },
    abandoned: (crank) => {
      made.abandoned(crank);
      growth.abandoned(crank);
    },
  };
}

/** `slogulate top`: the rankings. */
export async function topOf(
  input: AnalysisInput & { keys?: readonly TopKey[]; n: number; selection?: SelectionSpec; annotations?: Annotations; textOnly?: boolean },
): Promise<{ top: TopResult; cranksSelected: number; pass: AnalysisPassResult }> {
  const { value: collector, result } = await restartablePass(
    input,
    TOP_READS,
    () => {
      const made = new TopCollector({ keys: input.keys, n: input.n, selection: input.selection, annotations: input.annotations, textOnly: input.textOnly });
      // top prints only the selected cranks: it may seek to them (pass-seek.ts).
      const range = seekRangeOf(input.selection);
      return { value: made, sink: made, ...(range ? { seek: { range, learn: (entry: SlogEntry) => made.entry(entry) } } : {}) };
    },
    { bigStrings: true },
  );
  return { top: collector.result(), cranksSelected: collector.cranksSelected, pass: result };
}

/**
 * One side of `slogulate compare`, growth followed in the same pass when
 * the side asks (`side.growth`: the `growth.*` metrics; what it reads costs
 * the pass some 15%). `wrap` may put a sink in front (to turn
 * its errors into the command's). Per benchmark round, the side's `rounds`
 * take the marks as the slog is read, once: that pass holds cranks where a
 * restart may be instead of starting over.
 */
export async function compareSideOf(
  input: AnalysisInput & { side: SideConfig; wrap?: (sink: ExecutionSink) => ExecutionSink },
): Promise<{ data: SideData; pass: AnalysisPassResult }> {
  const make = (): { value: CompareSide; sink: ExecutionSink } => {
    const side = new CompareSide(input.side);
    return { value: side, sink: input.wrap ? input.wrap(side.sink) : side.sink };
  };
  const reads = input.side.growth ? COMPARE_GROWTH_READS : COMPARE_READS;
  if (input.side.rounds) {
    const { value, sink } = make();
    const result = await pass(input, reads, sink);
    return { data: value.result(), pass: result };
  }
  const { value: side, result } = await restartablePass(input, reads, make, { bigStrings: false });
  return { data: side.result(), pass: result };
}

/** What reads a slog beside the kref model: made again for each read of the slog (see krefModelOf). */
export interface KrefReader<T> {
  /** The vat names, learned from every entry as it is read. */
  vats: VatNames;
  /** Sees each crank right after the model did, with what the model made of it. */
  onCrank?: (crank: Crank, facts: CrankFacts) => void;
  /** Sees each entry outside cranks right after the model did (kernel-stats, chain entries). */
  onEntry?: (entry: SlogEntry, line: number) => void;
  /** Whatever else the caller keeps of this read. */
  value: T;
}

/**
 * The kref model (`annotate`, `flow`, `kref`): the whole slog read once, or
 * from the start again when a file holds a restart (restartablePass):
 * `start` makes what reads beside the model for each read, and the last
 * one made is handed back.
 */
export async function krefModelOf<T>(
  input: AnalysisInput & { start: () => KrefReader<T> },
): Promise<{ model: KrefModel; reader: KrefReader<T>; pass: AnalysisPassResult }> {
  const { value, result } = await restartablePass(
    input,
    KREF_READS,
    () => {
      const model = new KrefModel();
      const reader = input.start();
      const sink: CrankSink = {
        entry: (entry, line) => {
          model.entry(entry);
          reader.onEntry?.(entry, line);
        },
        crank: (crank) => {
          const facts = model.addCrank(crank);
          reader.onCrank?.(crank, facts);
        },
      };
      return { value: { model, reader }, sink, observe: (entry: SlogEntry) => reader.vats.observe(entry) };
    },
    { bigStrings: false },
  );
  return { model: value.model, reader: value.reader, pass: result };
}

/** Any analysis that is a sink with its reads (and tests): each crank counted once. */
export function analysisPass(
  input: AnalysisInput,
  reads: Reads,
  sink: ExecutionSink,
  observe?: EntryObserver,
  seek?: PassSeek,
): Promise<AnalysisPassResult> {
  return pass(input, reads, sink, { ...(observe ? { observe } : {}), ...(seek ? { seek } : {}) });
}

/**
 * An analysis whose whole state `make` makes, so that it can start over:
 * files are read holding no cranks back, and read again, holding, at a
 * restart (see restartablePass). What a read's callbacks touch is made by
 * `make` too (Made's `observe`, `onOpen`).
 */
export function restartableAnalysisPass<T>(
  input: AnalysisInput,
  reads: Reads,
  make: () => Made<T>,
): Promise<{ value: T; result: AnalysisPassResult }> {
  return restartablePass(input, reads, make, { bigStrings: false });
}

/**
 * The trace: every execution of every crank (one a restart abandoned too, as
 * it ran), written as the slog is read. With `range` (the selection's:
 * pass-seek.ts seekRangeOf), the read ends after the first crank past it
 * where the seek's plan holds (pass.ts planStop; TraceWriter.stopPast): the
 * trace needs every line before its selection, none after.
 */
export function tracePass(input: AnalysisInput, trace: TraceWriter, range?: SeekRange): Promise<PassResult> {
  const planStop: PlanStop | undefined = range && {
    range,
    planned: (holds) => {
      trace.stopPast = holds ? (crank: Crank) => pastRange(range, crank) : undefined;
    },
  };
  return runPass({ ...input, settings: settingsFor(input), reads: TRACE_READS, sink: trace, observe: (entry) => trace.observe(entry), ...(planStop ? { planStop } : {}) });
}
