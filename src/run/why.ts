/**
 * The causes of deliveries as a pass (`slogulate why`, `sequence`;
 * analyses/why/): each crank once (a restart's abandoned executions left
 * out), read again from the start at a restart met before the first commit
 * (restartableAnalysisPass). `start` makes what reads the causes for each
 * read of the slog; the last one made is handed back.
 */
import { CAUSE_READS, CauseFinder } from '../analyses/why/cause-finder.js';
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
  /** Told of every crank after its cause was found (undefined: not a delivery crank); 'stop' ends the read. */
  crank(crank: Crank, cause: DeliveryCause | undefined): SinkAnswer;
  /** Told of the items put in flight and taken out (the ancestry of `why`). */
  watch?: InFlightWatch;
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
        return undefined;
      },
      crank: (crank: Crank) => reader.crank(crank, finder.crank(crank)),
      spill: (crank: Crank) => finder.spill(crank),
    };
    return { value: { reader, finder, vats }, sink, observe: (entry: SlogEntry) => vats.observe(entry) };
  });
  return { value: value.reader.value, finder: value.finder, vats: value.vats, pass: result };
}
