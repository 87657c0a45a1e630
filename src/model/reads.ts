/**
 * What the crank model reads of each crank entry (assembler.ts: cranks,
 * syscall pairs and timings; vats.ts: names): every pass reads at least
 * this, whatever its consumer asks for besides (scan/reads.ts).
 */
import type { Reads } from '../scan/reads.js';

export const MODEL_READS: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageHead', 'time'],
  'crank-finish': ['crankNum', 'time'],
  syscall: ['crankNum', 'vatID', 'replay', 'time'],
  'syscall-result': ['crankNum', 'replay', 'time'],
  deliver: ['crankNum', 'vatID', 'replay'],
  'deliver-result': ['crankNum', 'vatID', 'replay', 'computrons'],
  clist: ['crankNum', 'vatID'],
};
