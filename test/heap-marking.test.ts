/**
 * The heap governor (src/run/heap-governor.ts) turns V8's incremental
 * marking off once a pass has read its first MB, so that V8's full
 * collections are done at once (cheaper in all: docs/performance.md). V8
 * takes the flag although the process has started: `--trace-gc` of the
 * built command line on big-local-1200 shows its full collection made at
 * once, where without the governor (SLOGULATE_HEAP=0) the same collection
 * finishes an incremental marking.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers.js';

const BIG = join(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz');

/** The lines of `--trace-gc` that tell of a full collection (Mark-Compact), `stats` on the big slog. */
function fullCollections(env: NodeJS.ProcessEnv): string[] {
  const r = spawnSync(process.execPath, ['--trace-gc', BIN, 'stats', BIG], { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter((line) => line.includes('Mark-Compact'));
}

describe("V8's full collections in a long pass", () => {
  it('are made at once with the heap governor, and finish an incremental marking without it', () => {
    const governed = fullCollections({});
    expect(governed.length).toBeGreaterThan(0);
    for (const line of governed) expect(line).not.toMatch(/incremental marking/);
    const ungoverned = fullCollections({ SLOGULATE_HEAP: '0' });
    expect(ungoverned.some((line) => /incremental marking/.test(line))).toBe(true);
  }, 60_000);
});
