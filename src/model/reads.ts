/**
 * What the crank model reads of each crank entry (assembler.ts: cranks,
 * syscall pairs and timings; time-split.ts: where a crank's time went;
 * stalls.ts: gaps between entries; vats.ts: names): every pass reads at
 * least this, whatever its consumer asks for besides (scan/reads.ts).
 *
 * `crankNum` on every crank entry (where cranks begin and end, when their
 * crank-start or crank-finish is missing), `replay` (transcript replays are
 * not the crank's work), `time` on every type (timings, the time split,
 * stalls; a crank whose crank-start the slog lacks began at its first
 * entry's, crank.ts `crankStartTime`), a crank-finish's `seconds` (the time
 * of a crank whose crank-start the slog lacks), the vats entries name; for
 * the time split, a delivery's `kind` and `deliveryNum` and a
 * deliver-result's worker `timestamps` (docs/time-split.md). Other entry
 * types are read whole.
 */
import type { Reads } from '../scan/reads.js';

export const MODEL_READS: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageHead', 'time'],
  'crank-finish': ['crankNum', 'time', 'seconds'],
  syscall: ['crankNum', 'vatID', 'replay', 'time'],
  'syscall-result': ['crankNum', 'vatID', 'replay', 'time'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'time'],
  'deliver-result': ['crankNum', 'vatID', 'replay', 'computrons', 'timestamps', 'time'],
  clist: ['crankNum', 'vatID', 'time'],
};
