/**
 * `slogulate blocks --follow`: a live monitor on a chain slog still being
 * written. The bin is spawned on the first blocks of chain-A.slog; the rest
 * is appended in pieces (one ending mid-line), then the file is rotated (a
 * new file under its name, as logrotate does); each block's line must
 * appear once the block committed (its after-commit-stats written) and not
 * before (checked once the bin has read the file through: readThrough), and
 * Ctrl-C (SIGINT) ends the run with the lines `blocks` prints for the whole
 * slog.
 */
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers.js';
import { readThrough, startLive, until, type Running } from './live-process.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-chain-follow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (args: string[]): Running => startLive(args, dir);

/** The line index just after block `height`'s after-commit-stats. */
function afterCommitOf(lines: string[], height: number): number {
  const i = lines.findIndex((l) => l.includes('"cosmic-swingset-after-commit-stats"') && l.includes(`"blockHeight":${height},`));
  if (i < 0) throw new Error(`no after-commit-stats of block ${height}`);
  return i + 1;
}

const heights = (text: string): number[] =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { height: number }).height);

describe('blocks --follow', () => {
  it('prints each block as it commits, across a rotation; Ctrl-C ends with the rows of the whole slog', async () => {
    // Only the first 40 blocks: enough for three pieces and a rotation, and quick.
    const all = readFileSync(CHAIN_A, 'utf8').split(/(?<=\n)/);
    const lines = all.slice(0, afterCommitOf(all, 40));
    const file = join(dir, 'live.slog');
    const cut1 = afterCommitOf(lines, 10);
    writeFileSync(file, lines.slice(0, cut1).join(''));
    const run = start(['blocks', '--follow', '--json', file]);
    try {
      await until('block 10', () => heights(run.stdout()).includes(10));
      // Read to its end: block 11 has begun in no byte yet, and nothing ended the run.
      const marks = await readThrough(run, file);
      expect(heights(run.stdout())).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(run.child.exitCode).toBeNull();

      // Up to block 20's commit, the last piece stopping in the middle of block 21's begin-block line.
      const cut2 = afterCommitOf(lines, 20);
      const half = lines[cut2] as string;
      appendFileSync(file, lines.slice(cut1, cut2).join('') + half.slice(0, 40));
      await until('block 20', () => heights(run.stdout()).includes(20));
      expect(heights(run.stdout()).at(-1)).toBe(20);

      // Block 21's line is not printed before its after-commit-stats is written: read through to it, still 20.
      const commit21 = afterCommitOf(lines, 21);
      appendFileSync(file, half.slice(40) + lines.slice(cut2 + 1, commit21 - 1).join(''));
      marks.push(...(await readThrough(run, file)));
      expect(heights(run.stdout()).at(-1)).toBe(20);
      appendFileSync(file, lines[commit21 - 1] as string);
      await until('block 21', () => heights(run.stdout()).includes(21));

      // Rotated: the old file renamed away, the rest of the slog written to a new file of the same name.
      renameSync(file, join(dir, 'live.slog.1'));
      writeFileSync(file, lines.slice(commit21).join(''));
      await until('block 40', () => heights(run.stdout()).includes(40));

      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      // On stderr: the test's marks (not JSON: skipped, as any bad line), then the rotation.
      expect(run.stderr()).toBe(`${marks.join('\n')}\nslogulate: ${file}: file replaced (rotated); reading the new file from its start\n`);
      // The rows of the whole slog, without the marks.
      const whole = join(dir, 'whole.slog');
      writeFileSync(whole, lines.join(''));
      const plain = await runCli(['blocks', '--json', whole]);
      expect(run.stdout()).toBe(plain.stdout);
      expect(heights(plain.stdout)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 30_000);

  it('text: the header first, then a line per block', async () => {
    const all = readFileSync(CHAIN_A, 'utf8').split(/(?<=\n)/);
    const file = join(dir, 'text.slog');
    writeFileSync(file, all.slice(0, 10).join(''));
    const run = start(['blocks', '--follow', file]);
    try {
      await until('the header', () => run.stdout().startsWith('  height  time (UTC)'));
      appendFileSync(file, all.slice(10, afterCommitOf(all, 3)).join(''));
      await until('block 3', () => /^ +3 {2}2024-06-10T09:16:52Z /m.test(run.stdout()));
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      expect(run.stdout().split('\n').length).toBe(5);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 30_000);
});
