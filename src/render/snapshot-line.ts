/**
 * What `--parts` adds to a `heap-snapshot-save` line: the save's own times
 * and the heap's sizes, `: compress 1.81s db 0.02s archive 0.11s 14.1 MB -> 2.8 MB`
 * (the slog's `compressSeconds`, `dbSaveSeconds`, `archiveWriteSeconds`,
 * `uncompressedSize` and `compressedSize`; each left out where the entry
 * lacks it; --no-times leaves the sizes).
 */
import type { SnapshotEvent } from '../model/snapshots.js';
import { megabytes, seconds2 } from './format.js';

/** `: compress 1.81s db 0.02s 14.1 MB -> 2.8 MB`, or nothing when the entry says none of these. */
export function snapshotSaveDetails(save: SnapshotEvent, noTimes: boolean): string {
  const pieces: string[] = [];
  if (!noTimes) {
    if (save.compressMicros !== undefined) pieces.push(`compress ${seconds2(save.compressMicros)}`);
    if (save.dbSaveMicros !== undefined) pieces.push(`db ${seconds2(save.dbSaveMicros)}`);
    if (save.archiveWriteMicros !== undefined) pieces.push(`archive ${seconds2(save.archiveWriteMicros)}`);
  }
  const sizes = [save.uncompressedSize, save.compressedSize].filter((b) => b !== undefined).map(megabytes);
  if (sizes.length) pieces.push(sizes.join(' -> '));
  return pieces.length ? `: ${pieces.join(' ')}` : '';
}
