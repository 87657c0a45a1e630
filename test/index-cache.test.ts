/**
 * The index a selection makes for itself (run/index-cache.ts; docs/gzip-index.md,
 * "The index cache"): a selection on a plain slog with no index, of at
 * least SLOGULATE_INDEX_CACHE_MB, indexes it in the cache folder (never
 * beside it) and plans from that index; the next selection finds it there.
 * Checked on chain-A (a chain slog with a restart): the text is the full
 * read's, first and after; what is written, and where; the one note; the
 * size threshold and `off`; a slog that grew since (indexed again, quietly);
 * a cache folder that cannot be written (one note, the selection still
 * right); a slog that changed under the plan, or grew while it was
 * indexed (a writer appending to it: no index made or kept); a gzipped
 * slog with no index (a note, no index).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { indexOfPlain } from '../src/run/gzip-index.js';
import { indexingWhenUnindexed } from '../src/run/index-cache.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { indexText } from '../src/source/gzip-index.js';
import { planSeek, type SeekPlan, type SeekRange } from '../src/source/seek.js';
import { expectSameText, ROOT, withEnv } from './helpers.js';
import { runMain } from './run-main.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const BIG_LINE = settingsFrom().bigLineBytes;
const tmp = mkdtempSync(join(tmpdir(), 'slogulate-index-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of chain-A alone in a new folder of the temp folder, and a cache folder for it. */
function copied(name: string): { dir: string; file: string; cache: string } {
  const dir = join(tmp, name);
  mkdirSync(dir);
  const file = join(dir, 'chain-A.slog');
  copyFileSync(CHAIN_A, file);
  return { dir, file, cache: join(tmp, `${name}-cache`) };
}

/** The variables of a run that indexes slogs of any size into `cache`. */
const indexing = (cache: string, mb = '0'): Record<string, string> => ({ SLOGULATE_INDEX_CACHE_MB: mb, XDG_CACHE_HOME: cache });

/** The indexes in `cache`'s slogulate folder. */
const cachedIn = (cache: string): string[] => (existsSync(join(cache, 'slogulate')) ? readdirSync(join(cache, 'slogulate')) : []);

const SELECTIONS: string[][] = [
  ['--blocks', '150-152'],
  ['top', '-n', '3', '--blocks', '140-160'],
  ['stats', '--since', '2026-11-23T03:52:00Z', '--until', '2026-11-23T03:52:30Z'],
  // Cranks before chain-A's restart: the plan is refused, the file read whole, with the index or without.
  ['--cranks', '20-30'],
];

describe('a selection on a plain slog with no index indexes it into the cache folder', () => {
  it('chain-A: the first selection writes the index `slogulate index` makes, in the cache folder only, with one note; every selection prints the full read\'s text', async () => {
    const { dir, file, cache } = copied('first');
    for (const [i, args] of SELECTIONS.entries()) {
      const full = await runMain([...args, file], { env: { SLOGULATE_SEEK: '0' } });
      expect(full.status, full.stderr).toBe(0);
      const r = await runMain([...args, file], { env: indexing(cache) });
      expect(r.status, r.stderr).toBe(0);
      expectSameText(r.stdout, full.stdout, args.join(' '));
      const [name] = cachedIn(cache);
      if (i === 0) {
        expect(cachedIn(cache)).toHaveLength(1);
        expect(r.stderr).toBe(`slogulate: ${file}: indexed for the selections to come, in ${join(cache, 'slogulate', name as string)} (SLOGULATE_INDEX_CACHE_MB=off: never)\n`);
        expect(name).toMatch(/^chain-A\.slog-[0-9a-f]{16}\.slogidx$/);
        expect(readFileSync(join(cache, 'slogulate', name as string), 'utf8')).toBe(indexText(indexOfPlain(file)));
      } else {
        // Found there: nothing said, nothing written again.
        expect(r.stderr, args.join(' ')).toBe('');
      }
    }
    expect(readdirSync(dir)).toEqual(['chain-A.slog']);
    expect(cachedIn(cache)).toHaveLength(1);
  }, 120_000);

  it('every real slog of ../shared/slogs/real: the first selection (indexing it) and the next (its index cached) print the full read\'s text', async () => {
    const real = join(ROOT, '..', 'shared', 'slogs', 'real');
    const slogs = readdirSync(real).filter((n) => n !== 'README.md' && statSync(join(real, n)).isFile());
    expect(slogs.length).toBeGreaterThanOrEqual(9);
    for (const name of slogs) {
      const cache = join(tmp, `real-${name}-cache`);
      for (const args of [['--cranks', '40-50'], ['--blocks', '3-5'], ['top', '-n', '2', '--since', '30s']]) {
        rmSync(cache, { recursive: true, force: true });
        const full = await runMain([...args, join(real, name)], { env: { SLOGULATE_SEEK: '0' } });
        const first = await runMain([...args, join(real, name)], { env: indexing(cache) });
        const later = await runMain([...args, join(real, name)], { env: indexing(cache) });
        const what = `${name} ${args.join(' ')}`;
        // The note first (the plan is made before the slog is read), then what the full read says.
        expect(first.stderr, what).toBe(`slogulate: ${join(real, name)}: indexed for the selections to come, in ${join(cache, 'slogulate', cachedIn(cache)[0] as string)} (SLOGULATE_INDEX_CACHE_MB=off: never)\n${full.stderr}`);
        expect(later.stderr, what).toBe(full.stderr);
        expectSameText(first.stdout, full.stdout, what);
        expectSameText(later.stdout, full.stdout, what);
        expect(first.status, what).toBe(full.status);
        expect(later.status, what).toBe(full.status);
      }
    }
  }, 120_000);

  it('the plan made with the new index searches a fraction of the file, as with the index of `slogulate index`; without it, every byte', () => {
    const { file, cache } = copied('plan');
    const size = statSync(file).size;
    const range: SeekRange = { key: 'blockHeight', from: 150, to: 153 };
    const notes: string[] = [];
    const first = withEnv('XDG_CACHE_HOME', cache, () => planSeek(file, range, BIG_LINE, indexingWhenUnindexed(0, (t) => notes.push(t)))) as SeekPlan;
    expect(notes).toHaveLength(1);
    expect(first.searched).toBeLessThan(size / 2);
    const later = withEnv('XDG_CACHE_HOME', cache, () => planSeek(file, range, BIG_LINE)) as SeekPlan;
    expect(later).toMatchObject({ start: first.start, end: first.end, searched: first.searched });
    const elsewhere = withEnv('XDG_CACHE_HOME', join(tmp, 'plan-other-cache'), () => planSeek(file, range, BIG_LINE)) as SeekPlan;
    expect(elsewhere).toMatchObject({ start: first.start, end: first.end });
    expect(elsewhere.searched).toBeGreaterThanOrEqual(size);
  });

  it('a slog under SLOGULATE_INDEX_CACHE_MB, or the cache turned off: nothing written, the same text', async () => {
    const { dir, file, cache } = copied('small');
    const expected = (await runMain(['--blocks', '150', file], { env: { SLOGULATE_SEEK: '0' } })).stdout;
    // chain-A is 11.96 MB (of 2^20 bytes).
    for (const mb of ['12', 'off']) {
      const r = await runMain(['--blocks', '150', file], { env: indexing(cache, mb) });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expectSameText(r.stdout, expected, `SLOGULATE_INDEX_CACHE_MB=${mb}`);
    }
    expect(cachedIn(cache)).toEqual([]);
    const over = await runMain(['--blocks', '150', file], { env: indexing(cache, '11') });
    expect(over.stderr).toContain('indexed for the selections to come');
    expect(cachedIn(cache)).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['chain-A.slog']);
  });

  it('a slog that grew after its index was kept: indexed again without a note, the grown slog\'s text', async () => {
    const whole = readFileSync(CHAIN_A);
    const { file, cache } = copied('grown');
    // The first 8 MB (blocks to 140), cut at a line end; the rest appended later.
    const cut = whole.lastIndexOf(10, 8 << 20) + 1;
    writeFileSync(file, whole.subarray(0, cut));
    const first = await runMain(['--blocks', '150', file], { env: indexing(cache) });
    expect(first.stderr).toContain('indexed for the selections to come');
    appendFileSync(file, whole.subarray(cut));
    const full = await runMain(['top', '--blocks', '155-165', file], { env: { SLOGULATE_SEEK: '0' } });
    const r = await runMain(['top', '--blocks', '155-165', file], { env: indexing(cache) });
    expect(r.stderr).toBe('');
    expectSameText(r.stdout, full.stdout, 'top --blocks 155-165 of the grown slog');
    const [name] = cachedIn(cache);
    expect(readFileSync(join(cache, 'slogulate', name as string), 'utf8')).toBe(indexText(indexOfPlain(file)));
  }, 60_000);

  it('a cache folder that cannot be written: one note, the selection still planned from the index and right', async () => {
    const { file } = copied('unwritable');
    // XDG_CACHE_HOME names a file: no folder can be made in it.
    const blocker = join(tmp, 'a-file');
    writeFileSync(blocker, '');
    const full = await runMain(['--blocks', '150', file], { env: { SLOGULATE_SEEK: '0' } });
    const r = await runMain(['--blocks', '150', file], { env: indexing(blocker) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^slogulate: ${file}: its index could not be kept in ${join(blocker, 'slogulate')} \\(.+; SLOGULATE_INDEX_CACHE_MB=off: never tried\\)\\n$`));
    expectSameText(r.stdout, full.stdout);
  });

  it('a gzipped slog with no index is read whole, not indexed: a note says how to make it seek when its slog is big enough; none once indexed', async () => {
    const dir = join(tmp, 'gz');
    mkdirSync(dir);
    const gz = join(dir, 'chain-A.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(CHAIN_A)));
    const cache = join(tmp, 'gz-cache');
    const full = (await runMain(['--blocks', '150', CHAIN_A], { env: { SLOGULATE_SEEK: '0' } })).stdout;
    // chain-A.slog.gz is 1.48 MB (of 2^20 bytes): taken for 11.9 MB of slog.
    const small = await runMain(['--blocks', '150', gz], { env: indexing(cache, '256') });
    expect(small.stderr).toBe('');
    for (const mb of ['0', '11']) {
      const r = await runMain(['--blocks', '150', gz], { env: indexing(cache, mb) });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe(`slogulate: ${gz}: read whole, a gzipped slog with no index: slogulate index ${gz} makes the next selections seek (docs/gzip-index.md)\n`);
      expectSameText(r.stdout, full);
    }
    expect((await runMain(['--blocks', '150', gz], { env: indexing(cache, '12') })).stderr).toBe('');
    expect((await runMain(['--blocks', '150', gz], { env: indexing(cache, 'off') })).stderr).toBe('');
    expect(cachedIn(cache)).toEqual([]);
    expect(readdirSync(dir)).toEqual(['chain-A.slog.gz']);
    expect((await runMain(['index', gz])).status).toBe(0);
    const indexed = await runMain(['--blocks', '150', gz], { env: indexing(cache) });
    expect(indexed.stderr).toBe('');
    expectSameText(indexed.stdout, full);
  }, 60_000);

  it('a live slog (a writer appending to it): an index is made only when it did not grow meanwhile, and kept only then', async () => {
    const { file, cache } = copied('live');
    // Four copies of chain-A (48 MB): an index takes some tens of ms to make.
    const whole = readFileSync(file);
    for (let i = 0; i < 3; i += 1) appendFileSync(file, whole);
    const line = whole.subarray(0, whole.indexOf(10) + 1).toString('latin1');
    const writer = spawn(process.execPath, ['-e', `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'a'); process.stdout.write('ready\\n'); setInterval(() => fs.writeSync(fd, ${JSON.stringify(line)}), 1);`]);
    try {
      await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
      let refused = 0;
      for (let attempt = 0; attempt < 50 && refused < 3; attempt += 1) {
        const before = statSync(file).size;
        const notes: string[] = [];
        const made = withEnv('XDG_CACHE_HOME', cache, () => indexingWhenUnindexed(0, (t) => notes.push(t))(file, before));
        if (made === undefined) {
          // It grew while it was indexed: nothing made, kept or said.
          refused += 1;
          expect(notes).toEqual([]);
        } else {
          // Else an index of exactly the bytes the plan saw.
          expect(made.slog.size).toBe(before);
        }
        for (const name of cachedIn(cache)) expect((JSON.parse(readFileSync(join(cache, 'slogulate', name), 'utf8')) as { slog: { size: number } }).slog.size).toBeLessThanOrEqual(before);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(refused, 'indexings given up because the slog grew').toBe(3);
    } finally {
      writer.kill();
    }
  }, 60_000);

  it('the cache folder: an index used is marked so; one unused for 30 days is removed when another is written; nothing else is', async () => {
    const { file, cache } = copied('prune');
    const folder = join(cache, 'slogulate');
    mkdirSync(folder, { recursive: true });
    const old = new Date(Date.now() - 31 * 86_400_000);
    const recent = new Date(Date.now() - 29 * 86_400_000);
    const put = (name: string, when: Date): void => {
      writeFileSync(join(folder, name), '{}');
      utimesSync(join(folder, name), when, when);
    };
    put('gone.slog-0123456789abcdef.slogidx', old);
    put('recent.slog-0123456789abcdef.slogidx', recent);
    put('not-ours.txt', old);
    put('chain-A.slog.gz.slogidx', old);
    const first = await runMain(['--blocks', '150', file], { env: indexing(cache) });
    expect(first.stderr).toContain('indexed for the selections to come');
    const [made] = cachedIn(cache).filter((n) => n.startsWith('chain-A.slog-'));
    expect(cachedIn(cache).sort()).toEqual(['chain-A.slog.gz.slogidx', made, 'not-ours.txt', 'recent.slog-0123456789abcdef.slogidx'].sort());
    // Used: its time is now, whatever it was.
    utimesSync(join(folder, made as string), old, old);
    const later = await runMain(['--blocks', '151', file], { env: indexing(cache) });
    expect(later.stderr).toBe('');
    expect(Date.now() - statSync(join(folder, made as string)).mtimeMs).toBeLessThan(86_400_000);
  });

  it('a slog whose size is not the plan\'s (written to meanwhile): no index made or kept', () => {
    const { file, cache } = copied('changed');
    const notes: string[] = [];
    const made = withEnv('XDG_CACHE_HOME', cache, () => indexingWhenUnindexed(0, (t) => notes.push(t))(file, statSync(file).size - 1));
    expect(made).toBeUndefined();
    expect(notes).toEqual([]);
    expect(cachedIn(cache)).toEqual([]);
  });
});
