/**
 * The causes of deliveries as a pass (`slogulate why`, `sequence`;
 * analyses/why/): each crank once (a restart's abandoned executions left
 * out), read again from the start at a restart met before the first commit
 * (restartableAnalysisPass). `start` makes what reads the causes for each
 * read of the slog; the last one made is handed back.
 */
import { Ancestry, type CauseChain } from '../analyses/why/ancestry.js';
import { CAUSE_READS, CauseFinder, ROUTING_READS } from '../analyses/why/cause-finder.js';
import { messageText } from '../analyses/trace/trace.js';
import { ForwardTrees, TreeInFlight, type TreeRoot } from '../analyses/why/forward.js';
import { routingStep, runPlace, stepOf } from '../analyses/why/step.js';
import type { Annotations } from '../model/annotations.js';
import { RenderContext } from '../render/context.js';
import type { RenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import type { DeliveryCause } from '../analyses/why/cause.js';
import type { InFlightWatch } from '../analyses/why/in-flight.js';
import type { CrankSink, SinkAnswer } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import { VatNames } from '../model/vats.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { mergeReads, type Reads } from '../scan/reads.js';
import { restartableAnalysisPass, type AnalysisInput, type AnalysisPassResult } from './analyses.js';

/** What reads the causes, made for each read of the slog. */
export interface CauseReader<T> {
  value: T;
  /** Told of every crank after its cause was found (undefined: not a delivery crank), with the finder (what is in flight after it); 'stop' ends the read. */
  crank(crank: Crank, cause: DeliveryCause | undefined, finder: CauseFinder): SinkAnswer;
  /** Told of the items put in flight and taken out (the ancestry of `why`). */
  watch?: InFlightWatch;
  /** Told of every entry outside cranks (chain entries...); 'stop' ends the read. */
  entry?(entry: SlogEntry): SinkAnswer;
}

export interface CausesResult<T> {
  value: T;
  finder: CauseFinder;
  vats: VatNames;
  pass: AnalysisPassResult;
}

/** The causes, read by what `start` makes; `reads`: what it reads besides (a render's lines). */
export async function causesOf<T>(
  input: AnalysisInput & { start: (vats: VatNames) => CauseReader<T>; reads?: Reads; vatNames?: ReadonlyMap<string, string> },
): Promise<CausesResult<T>> {
  const reads = input.reads ? mergeReads(CAUSE_READS, input.reads) : CAUSE_READS;
  const { value, result } = await restartableAnalysisPass(input, reads, () => {
    const vats = new VatNames(input.vatNames);
    const reader = input.start(vats);
    const finder = new CauseFinder(reader.watch);
    const sink: CrankSink = {
      partsUnread: true,
      entry: (entry: SlogEntry) => {
        finder.entry(entry);
        return reader.entry?.(entry);
      },
      crank: (crank: Crank) => reader.crank(crank, finder.crank(crank), finder),
      spill: (crank: Crank) => finder.spill(crank),
    };
    return { value: { reader, finder, vats }, sink, observe: (entry: SlogEntry) => vats.observe(entry) };
  });
  return { value: value.reader.value, finder: value.finder, vats: value.vats, pass: result };
}

/** What renders the steps: the render's options and the annotations. */
export interface StepRendering {
  options: RenderOptions;
  annotations: Annotations;
}

/**
 * `slogulate why CRANK`: the chain of causes of a crank (undefined when the
 * slog lacks it, or it delivered and routed nothing). A routing crank's
 * chain starts with what it routed, then goes on from what queued that
 * (`seen`: `routing`).
 */
export async function whyChainOf(
  input: AnalysisInput & StepRendering & { crank: number },
): Promise<{ chain: CauseChain | undefined; seen: 'delivery' | 'routing' | 'other' | 'absent'; kept: number; pass: AnalysisPassResult }> {
  const { value, pass } = await causesOf({
    ...input,
    reads: mergeReads(renderReads(input.options), ROUTING_READS),
    vatNames: input.annotations.vatNames,
    start: (vats) => {
      const ctx = new RenderContext(input.options, input.annotations, vats);
      const ancestry = new Ancestry();
      const value: { chain: CauseChain | undefined; seen: 'delivery' | 'routing' | 'other' | 'absent'; ancestry: Ancestry } = { chain: undefined, seen: 'absent', ancestry };
      return {
        value,
        watch: ancestry,
        crank: (crank, cause, finder) => {
          const asked = crank.crankNum === input.crank;
          const step = ancestry.read(cause ? crank.crankNum : undefined, cause ? () => stepOf(ctx, crank, cause) : undefined, asked);
          if (!asked) return undefined;
          const routed = step ? undefined : finder.routed(crank);
          const first = step ?? (routed ? routingStep(ctx, crank, routed, messageText(ctx, crank.start)) : undefined);
          value.seen = step ? 'delivery' : routed ? 'routing' : 'other';
          if (first) value.chain = ancestry.chain(first);
          return 'stop';
        },
      };
    },
  });
  return { chain: value.chain, seen: value.seen, kept: value.ancestry.size, pass };
}

/** `slogulate why --forward`, `--run`, `--blocks` and `sequence`: the trees of the cranks chosen (forward.ts). */
export async function forwardTreesOf(
  input: AnalysisInput & StepRendering & { root: TreeRoot },
): Promise<{ trees: ForwardTrees; midway: boolean; pass: AnalysisPassResult }> {
  const { value, finder, pass } = await causesOf({
    ...input,
    reads: renderReads(input.options),
    vatNames: input.annotations.vatNames,
    start: (vats) => {
      const ctx = new RenderContext(input.options, input.annotations, vats);
      const trees = new ForwardTrees(input.root);
      // A crank's tree: the read ends once nothing in flight can add to it.
      const open = 'crank' in input.root ? new TreeInFlight(trees) : undefined;
      return {
        value: trees,
        ...(open ? { watch: open } : {}),
        entry: (entry) => {
          // A block begins: a selection of blocks may be over (its last block committed: a restart never runs it again).
          const height = entry.type === 'cosmic-swingset-begin-block' ? (entry as { blockHeight?: unknown }).blockHeight : undefined;
          if (typeof height === 'number') trees.blockBegins(height);
          return trees.finished ? 'stop' : undefined;
        },
        crank: (crank, cause) => {
          const run = runPlace(crank);
          trees.passed(crank.crankNum, run?.key);
          if (trees.finished) return 'stop';
          if (cause && trees.belongs(crank.crankNum, cause.cause.crank, run?.key, crank.block?.height)) {
            trees.add(stepOf(ctx, crank, cause));
            open?.joined(crank.crankNum);
          }
          return trees.finished || open?.closed === true ? 'stop' : undefined;
        },
      };
    },
  });
  return { trees: value, midway: finder.startedMidway, pass };
}
