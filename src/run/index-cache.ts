/**
 * The index a selection makes for itself (docs/selections.md, "The index
 * cache"). A selection on a plain slog that has no index matching it must
 * search the whole file (source/seek.ts); on a slog of at least the
 * setting's size, it indexes the file instead, in the same one read
 * (gzip-index.ts, indexOfPlain), plans from that index, and keeps it in the
 * cache folder, never beside the slog, so that the next selection on that
 * slog reads only its bytes. The command line's passes only
 * (pass-settings.ts, indexCacheBytes). A gzipped slog is not indexed so
 * (that costs an inflate of its own): a big one gets a note instead.
 */
import { statSync } from 'node:fs';
import { cacheFolder, writeCachedIndex, type GzipIndex } from '../source/gzip-index.js';
import { describe, InputError } from '../source/open.js';
import type { WhenUnindexed } from '../source/seek.js';
import { indexOfPlain } from './gzip-index.js';

const OFF = 'SLOGULATE_INDEX_CACHE_MB=off';

/**
 * Makes the index of an unindexed plain slog of at least `minBytes` and
 * keeps it in the cache folder, telling `note` where the first time (not
 * when it replaces the index of a slog that grew), or that it could not be
 * kept. A slog that changes while it is indexed (a live one) gets none: it
 * is searched as before.
 */
export function indexingWhenUnindexed(minBytes: number, note: ((text: string) => void) | undefined): WhenUnindexed {
  return (path, size) => {
    if (size < minBytes) return undefined;
    let index: GzipIndex;
    try {
      index = indexOfPlain(path);
    } catch (err) {
      if (err instanceof InputError) return undefined;
      throw err;
    }
    // Grown since the plan looked at it: the plan's bytes are not the index's.
    if (index.slog.size !== size) return undefined;
    try {
      const kept = writeCachedIndex(path, index);
      if (!kept.replaced) note?.(`${path}: indexed for the selections to come, in ${kept.path} (${OFF}: never)`);
    } catch (err) {
      note?.(`${path}: its index could not be kept in ${cacheFolder()} (${describe(err)}; ${OFF}: never tried)`);
    }
    return index;
  };
}

/** A gzipped slog is about this many times smaller than its slog (big-local-1200: 7.2; chain-A: 8.3). */
const GZIP_RATIO = 8;

/**
 * The note for a selection on a gzipped slog with no index, which reads it
 * whole: when its slog is about `minBytes` or more, how to make the next
 * ones seek. Undefined: a smaller one, said nothing of.
 */
export function unindexedGzipNote(path: string, minBytes: number): string | undefined {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return undefined;
  }
  if (size * GZIP_RATIO < minBytes) return undefined;
  return `${path}: read whole, a gzipped slog with no index: slogulate index ${path} makes the next selections seek (docs/gzip-index.md)`;
}
