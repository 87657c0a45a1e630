/**
 * The analyses as passes: slog inputs in, each analysis's result out, and
 * which path read the lines. Each analysis declares what it reads of crank
 * entries beside its code (AGGREGATE_READS, TOP_READS...); this is where a
 * consumer meets the pass. The command line (cli/commands/) and the tests
 * call these.
 */
import type { Readable } from 'node:stream';
import { AGGREGATE_READS, SlogAggregator, type SlogAggregate } from '../analyses/aggregate.js';
import { COMPARE_READS, CompareSide, type SideConfig, type SideData } from '../analyses/compare-side.js';
import type { SelectionSpec } from '../analyses/selection.js';
import { TOP_READS, TopCollector, type TopKey, type TopResult } from '../analyses/top.js';
import { TRACE_READS } from '../analyses/trace.js';
import type { Annotations } from '../model/annotations.js';
import type { CrankSink } from '../model/assembler.js';
import { CommittedCranks, type ExecutionSink } from '../model/executions.js';
import type { Crank } from '../model/crank.js';
import { KREF_READS, KrefModel, type CrankFacts } from '../model/krefs.js';
import type { VatNames } from '../model/vats.js';
import type { SlogEntry } from '../scan/entry-types.js';
import type { ReadPath } from '../scan/line-reader.js';
import type { Reads } from '../scan/reads.js';
import type { SlogInput, SlogSource } from '../source/open.js';
import { runPass, type BadLineReport, type PassResult } from './pass.js';
import { mayRestart } from './restarts.js';

/** What every analysis pass takes besides its own settings. */
export interface AnalysisInput {
  inputs: readonly SlogInput[];
  onBadLine?: (bad: BadLineReport) => void;
  afterBatch?: (bytes: number) => Promise<void> | void;
  onOpen?: (source: SlogSource) => void;
  /** `plain` forces the plain path. */
  path?: ReadPath;
  stdin?: Readable;
  /** Keep the process's heap flat (the command line; pass.ts). */
  governHeap?: boolean;
}

/**
 * A pass for an analysis: each crank counted once (CommittedCranks: the
 * executions a restart abandoned go to the sink's `abandoned`).
 */
async function pass(
  input: AnalysisInput,
  reads: Reads,
  sink: ExecutionSink,
  observe?: (entry: SlogEntry, line: number) => void,
  /** The analysis never prints a big line's strings: they may stay BigStrings (pass.ts). */
  bigStrings = false,
): Promise<PassResult & { executions: CommittedCranks | undefined }> {
  // Held back only where a restart may be (restarts.ts): holding costs speed.
  const executions = mayRestart(input.inputs) ? new CommittedCranks(sink) : undefined;
  const result = await runPass({ ...input, reads, sink: executions ?? sink, ...(observe ? { observe } : {}), bigStrings });
  executions?.end();
  return { ...result, executions };
}

/** `slogulate stats`: the aggregate. */
export async function statsOf(
  input: AnalysisInput & { selection?: SelectionSpec; annotations?: Annotations },
): Promise<{ aggregate: SlogAggregate; pass: PassResult }> {
  const aggregator = new SlogAggregator({ selection: input.selection, vatNames: input.annotations?.vatNames });
  const result = await pass(input, AGGREGATE_READS, aggregator, undefined, true);
  return { aggregate: aggregator.result(), pass: result };
}

/** `slogulate top`: the rankings. */
export async function topOf(
  input: AnalysisInput & { keys?: readonly TopKey[]; n: number; selection?: SelectionSpec; annotations?: Annotations },
): Promise<{ top: TopResult; cranksSelected: number; pass: PassResult }> {
  const collector = new TopCollector({ keys: input.keys, n: input.n, selection: input.selection, annotations: input.annotations });
  const result = await pass(input, TOP_READS, collector, undefined, true);
  return { top: collector.result(), cranksSelected: collector.cranksSelected, pass: result };
}

/** One side of `slogulate compare`. `wrap` may put a sink in front (to turn its errors into the command's). */
export async function compareSideOf(
  input: AnalysisInput & { side: SideConfig; wrap?: (sink: ExecutionSink) => ExecutionSink },
): Promise<{ data: SideData; pass: PassResult }> {
  const side = new CompareSide(input.side);
  const result = await pass(input, COMPARE_READS, input.wrap ? input.wrap(side.sink) : side.sink);
  return { data: side.result(), pass: result };
}

/**
 * The kref model (`annotate`, `flow`, `kref`): the whole slog read once;
 * `onCrank` sees each crank right after the model did, with what the model
 * made of it.
 */
export async function krefModelOf(
  input: AnalysisInput & {
    vats: VatNames;
    onCrank?: (crank: Crank, facts: CrankFacts) => void;
    onEntry?: (entry: SlogEntry, line: number) => void;
  },
): Promise<{ model: KrefModel; pass: PassResult }> {
  const model = new KrefModel();
  const sink: CrankSink = {
    entry: (entry, line) => {
      model.entry(entry);
      input.onEntry?.(entry, line);
    },
    crank: (crank) => {
      const facts = model.addCrank(crank);
      input.onCrank?.(crank, facts);
    },
  };
  const result = await pass(input, KREF_READS, sink, (entry) => input.vats.observe(entry));
  return { model, pass: result };
}

/** Any analysis that is a sink with its reads (and tests): each crank counted once. */
export function analysisPass(
  input: AnalysisInput,
  reads: Reads,
  sink: ExecutionSink,
  observe?: (entry: SlogEntry, line: number) => void,
): Promise<PassResult & { executions: CommittedCranks | undefined }> {
  return pass(input, reads, sink, observe);
}

/**
 * The trace: every execution of every crank (one a restart abandoned too, as
 * it ran), written as the slog is read.
 */
export function tracePass(input: AnalysisInput, sink: CrankSink, observe: (entry: SlogEntry, line: number) => void): Promise<PassResult> {
  return runPass({ ...input, reads: TRACE_READS, sink, observe });
}
