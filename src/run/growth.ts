/**
 * `slogulate growth` as a pass: the growth collector (analyses/growth/) fed
 * each committed crank once (restartableAnalysisPass: a file holding a
 * restart is read again, holding), its round-mark errors made usage errors;
 * or beside the kref model (which reads every field, growth's among them),
 * whose automatic names `growth --alive` lists the entries alive with.
 */
import { GROWTH_READS, GrowthCollector, type GrowthConfig } from '../analyses/growth/growth.js';
import type { KrefModel } from '../model/krefs.js';
import { inputsName } from '../source/inputs.js';
import { krefModelOf, restartableAnalysisPass, type AnalysisInput, type AnalysisPassResult } from './analyses.js';
import { MarkErrors } from './mark-errors.js';

/** The collector after the whole slog (its open periods ended), and the pass. */
export async function growthOf(input: AnalysisInput & { config?: GrowthConfig }): Promise<{ growth: GrowthCollector; pass: AnalysisPassResult }> {
  const slogName = inputsName(input.inputs);
  const { value, result } = await restartableAnalysisPass(input, GROWTH_READS, () => {
    const growth = new GrowthCollector({ ...input.config, slogName });
    return { value: growth, sink: new MarkErrors(growth), observe: growth.observe };
  });
  value.end();
  return { growth: value, pass: result };
}

/** The same, with the kref model (for `growth --alive`: names, and how each kref was made). */
export async function growthWithKrefsOf(
  input: AnalysisInput & { config?: GrowthConfig },
): Promise<{ growth: GrowthCollector; model: KrefModel; pass: AnalysisPassResult }> {
  const slogName = inputsName(input.inputs);
  const { model, reader, pass } = await krefModelOf({
    ...input,
    start: () => {
      const growth = new GrowthCollector({ ...input.config, slogName });
      const sink = new MarkErrors(growth);
      return { vats: growth.vats, value: growth, onCrank: (crank) => sink.crank(crank), onEntry: (entry, line) => sink.entry(entry, line) };
    },
  });
  reader.value.end();
  return { growth: reader.value, model, pass };
}
