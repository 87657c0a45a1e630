/**
 * The environment switches, read in one place. None is needed to use
 * slogulate; they are for comparing its paths and tuning its memory:
 *
 * | variable | effect |
 * |---|---|
 * | SLOGULATE_FAST=0 | the plain path: every line JSON.parse'd (the reference the fast path is tested against) |
 * | SLOGULATE_CHECK_READS=1 | entries throw when a consumer reads a field it did not ask for (the tests set it) |
 * | SLOGULATE_HEAP=0 | no heap governor (run/heap-governor.ts) |
 * | SLOGULATE_HEAP_YOUNG_MB, SLOGULATE_HEAP_GC_MB | the governor's young-generation cap, and the old generation's growth that makes it collect |
 * | SLOGULATE_SPILL=N | a crank spills its syscalls into its sink's figures at N held (default 1024, model/assembler.ts; 0 never): the tests make it small |
 * | SLOGULATE_SEEK=0 | selections read every byte of a plain file instead of seeking (source/seek.ts): the reference seeking is tested against |
 * | SLOGULATE_INDEX_CACHE_MB=N | a selection on a plain slog of at least N MB (default 256) with no index indexes it and keeps the index in the cache folder (run/index-cache.ts); `off`: never |
 * | SLOGULATE_BIG_LINE_BYTES=N | lines over N bytes are read as a stream of tokens (default 4 MB, source/lines.ts; tests use small N) |
 *
 * The pass reads none of them: its callers (run/'s entry points, cli/) read
 * them once and hand it what they say (pass-settings.ts).
 */

import { BIG_LINE_BYTES } from '../source/lines.js';

export interface Switches {
  fast: boolean;
  checkReads: boolean;
  heap: boolean;
  heapYoungMb: number;
  heapGcMb: number;
  /** Syscalls an open crank holds before it spills (undefined: the default). */
  spill: number | undefined;
  bigLineBytes: number;
  seek: boolean;
  /** A selection on a plain slog of at least this many bytes with no index makes one (undefined: never). */
  indexCacheBytes: number | undefined;
}

/** Plain slogs from this size on are indexed by their first selection (SLOGULATE_INDEX_CACHE_MB). */
export const INDEX_CACHE_MB = 256;

function envNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function switches(env: NodeJS.ProcessEnv = process.env): Switches {
  return {
    fast: env.SLOGULATE_FAST !== '0',
    checkReads: env.SLOGULATE_CHECK_READS === '1',
    heap: env.SLOGULATE_HEAP !== '0',
    heapYoungMb: envNumber(env, 'SLOGULATE_HEAP_YOUNG_MB') ?? 8,
    heapGcMb: envNumber(env, 'SLOGULATE_HEAP_GC_MB') ?? 8,
    spill: envNumber(env, 'SLOGULATE_SPILL'),
    bigLineBytes: envNumber(env, 'SLOGULATE_BIG_LINE_BYTES') ?? BIG_LINE_BYTES,
    seek: env.SLOGULATE_SEEK !== '0',
    indexCacheBytes: env.SLOGULATE_INDEX_CACHE_MB === 'off' ? undefined : (envNumber(env, 'SLOGULATE_INDEX_CACHE_MB') ?? INDEX_CACHE_MB) * 2 ** 20,
  };
}
