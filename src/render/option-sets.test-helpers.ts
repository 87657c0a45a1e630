/**
 * For tests: the render option sets that the fast path is checked against
 * the plain path with. Each makes different reads (render/reads.ts), so each
 * is checked line by line in the byte reader (scan/fast-reader.test.ts) and
 * end to end in the pass (test/paths.test.ts).
 */
import type { RenderOptions } from './options.js';

export const RENDER_OPTION_SETS: ReadonlyArray<Partial<RenderOptions>> = [
  {},
  { nonoise: true, novatstore: true, timing: true },
  { novatstore: true },
  { vatspace: true, nonoise: true, novatstore: true, timing: true },
  { summarize: true, clist: false, crankbreaks: false, usesloggertags: true },
  { noTimes: true, timing: true },
  { timing: true, parts: true },
];
