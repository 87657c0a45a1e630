/**
 * Restarts and the analyses' passes. After a restart (a second kernel
 * start) the kernel runs again the cranks it had not committed; counting
 * each crank once means holding cranks back until the slog says whether
 * they ran again (model/executions.ts), which costs a pass speed (held
 * objects outlive the young generation). So a pass holds nothing where it
 * can know there is no restart:
 * - `canReadAgain`: inputs that can be read again from the start (plain or
 *   gzip files) are read without holding until their first commit (a
 *   chain's slog holds from then on, between commits, and meets its
 *   restarts holding), and again, holding, only if a restart is met before
 *   any commit (analyses.ts);
 * - `mayRestart`: for passes whose consumers cannot start over (their
 *   output goes out as they go), a slog in plain files is looked at first
 *   for the bytes `"kernel-init-start"` (a read from the page cache, some
 *   70 ms for 138 MB): fewer than two, and nothing is held. Anything else
 *   (stdin, a pipe, gzip) may hold one.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { bytesAt } from '../source/bytes-at.js';
import { expandInputs } from '../source/inputs.js';
import { isGzipMagic, type SlogInput } from '../source/open.js';

/**
 * Read in pieces under glibc's 128 KB mmap threshold: a bigger buffer is
 * mmapped, and freeing it raises the threshold to its size for the rest of
 * the process (and the heap's trim threshold to twice that), so that every
 * later allocation under that size stays in malloc's arenas: malloc heap
 * the process never gives back.
 */
export const SCAN_CHUNK = 64 << 10;
export const MARK = Buffer.from('"kernel-init-start"');
/** The mark's first `-`, and where it is in the mark. */
const DASH = 0x2d;
const MARK_DASH = MARK.indexOf(DASH);

/** How many times `MARK` is in a plain regular file; undefined when the file is not one (or cannot be read). */
function kernelStarts(path: string, enough: number): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.allocUnsafe(SCAN_CHUNK + MARK.length);
    let carry = 0;
    let count = 0;
    let first = true;
    for (;;) {
      const n = readSync(fd, buf, carry, SCAN_CHUNK, null);
      if (first && isGzipMagic(buf.subarray(0, n))) return undefined;
      first = false;
      if (n === 0) return count;
      const end = carry + n;
      // Each `-` (memchr: some 3 bytes in 1000 of a slog), then the mark around it: 3-4 times
      // quicker than Buffer.indexOf of the whole mark, which was half of this scan's time.
      for (let dash = buf.indexOf(DASH, MARK_DASH); dash >= 0 && dash < end; dash = buf.indexOf(DASH, dash + 1)) {
        if (!bytesAt(buf, dash - MARK_DASH, end, MARK)) continue;
        count += 1;
        if (count >= enough) return count;
      }
      // The last bytes again next time: a mark may span two reads.
      carry = Math.min(MARK.length - 1, end);
      buf.copy(buf, 0, end - carry, end);
    }
  } finally {
    closeSync(fd);
  }
}

/** May the slog in these inputs hold a restart? */
export function mayRestart(inputs: readonly SlogInput[]): boolean {
  let starts = 0;
  let files: SlogInput[];
  try {
    files = expandInputs(inputs);
  } catch {
    return true;
  }
  for (const input of files) {
    if (typeof input !== 'string' || input === '-') return true;
    const n = kernelStarts(input, 2 - starts);
    if (n === undefined) return true;
    starts += n;
    if (starts >= 2) return true;
  }
  return false;
}

/**
 * Can these inputs be read again from the start: plain or gzip regular
 * files, or bytes? A pass over them need not hold cranks back before their
 * first commit: it can read them again, holding, if it meets a restart
 * before one (analyses.ts).
 */
export function canReadAgain(inputs: readonly SlogInput[]): boolean {
  let files: SlogInput[];
  try {
    files = expandInputs(inputs);
  } catch {
    return false;
  }
  return files.every((input) => (typeof input === 'string' ? input !== '-' && isRegularFile(input) : 'bytes' in input));
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
