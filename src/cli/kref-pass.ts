/**
 * The one streaming pass that builds the kref model (src/model/krefs.ts),
 * shared by `annotate`, `flow` and `kref`.
 */
import type { Crank } from '../model/crank.js';
import { KrefModel, type CrankFacts } from '../model/krefs.js';
import type { SlogEntry } from '../model/types.js';
import type { VatNames } from '../model/vats.js';
import { runSlog, type SlogRunResult } from './run-slog.js';

export interface KrefPass {
  model: KrefModel;
  vats: VatNames;
  run: SlogRunResult;
}

/**
 * Reads the whole slog once into a kref model; `onCrank` sees each crank
 * right after the model did, with what the model made of it.
 */
export async function readKrefModel(
  file: string | undefined,
  vats: VatNames,
  onCrank?: (crank: Crank, facts: CrankFacts) => void,
  onEntry?: (entry: SlogEntry, line: number) => void,
): Promise<KrefPass> {
  const model = new KrefModel();
  const run = await runSlog({
    file,
    observe: (entry) => vats.observe(entry),
    sink: {
      entry: (entry, line) => {
        model.entry(entry);
        onEntry?.(entry, line);
      },
      crank: (crank) => {
        const facts = model.addCrank(crank);
        onCrank?.(crank, facts);
      },
    },
  });
  return { model, vats, run };
}

