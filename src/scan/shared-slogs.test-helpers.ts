/**
 * The shared slogs, read whole, for the scan tests that check every line:
 * the clean ones (../shared/slogs), the node-written ones (real/) and the
 * per-block files (real/block-files-bot), gunzipped. The big one (the
 * bench's, 138 MB) is left out, or stands as its first `bigLines` lines.
 * Only those folders are read, never fixtures/ (what a user left there).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'slogs');

export function sharedSlogs(options: { bigLines?: number } = {}): Array<{ name: string; bytes: Buffer }> {
  const out: Array<{ name: string; bytes: Buffer }> = [];
  for (const dir of [SHARED, join(SHARED, 'real'), join(SHARED, 'real', 'block-files-bot')]) {
    for (const name of readdirSync(dir).sort()) {
      if (!/\.(slog|jsonl|gz)$/.test(name)) continue;
      const big = name.startsWith('big-');
      if (big && options.bigLines === undefined) continue;
      const raw = readFileSync(join(dir, name));
      const bytes = name.endsWith('.gz') ? gunzipSync(raw) : raw;
      out.push({ name, bytes: big ? bytes.subarray(0, nthNewline(bytes, options.bigLines as number) + 1) : bytes });
    }
  }
  return out;
}

/** Where the n-th line ends (its newline), or -1 (then the slice above is empty: a slog that short has no big one). */
function nthNewline(bytes: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i += 1) at = bytes.indexOf(10, at + 1);
  return at;
}
