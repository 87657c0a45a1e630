/**
 * The order of a per-block folder's files (source/inputs.ts): one run of a
 * node reads init, bootstrap, upgrades, then blocks by height; a folder
 * that holds a restart (a second init file) reads it where it happened,
 * before the block run again. Checked on chain-A.slog, which restarts in
 * block 85, split into files the way agoric-sdk's per-block writer
 * (packages/telemetry/src/block-slog.js) splits a slog.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { blockFile, chainOrder, folderFiles, type BlockFile } from '../src/source/inputs.js';
import { ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-block-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A slog split as the per-block writer splits it: a file opened at each
 * kernel-init-start, bootstrap-block-start, upgrade-start and begin-block,
 * closed after kernel-init-finish, bootstrap-block-finish, upgrade-finish
 * and after-commit-stats, named with a clock that moves on at each file;
 * lines between a close and the next open are lost, as there.
 */
function splitAsTheWriterDoes(slog: string, folder: string): void {
  const opens: Record<string, (e: { blockHeight?: number }) => string> = {
    'kernel-init-start': () => 'init',
    'cosmic-swingset-bootstrap-block-start': () => 'bootstrap',
    'cosmic-swingset-upgrade-start': () => 'upgrade',
    'cosmic-swingset-begin-block': (e) => `block_${e.blockHeight}`,
  };
  const closes = new Set(['kernel-init-finish', 'cosmic-swingset-bootstrap-block-finish', 'cosmic-swingset-upgrade-finish', 'cosmic-swingset-after-commit-stats']);
  let clock = 1_795_404_821_000;
  let current: { name: string; lines: string[] } | undefined;
  const close = (): void => {
    if (current) writeFileSync(join(folder, `slogfile_${current.name}_${clock}.gz`), gzipSync(`${current.lines.join('\n')}\n`));
    current = undefined;
  };
  for (const line of readFileSync(slog, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; blockHeight?: number };
    const open = opens[e.type];
    if (open) {
      close();
      clock += 10;
      current = { name: open(e), lines: [] };
    }
    current?.lines.push(line);
    if (closes.has(e.type)) close();
  }
  close();
}

const names = (files: BlockFile[]): string[] => files.map((f) => f.name.replace(/_\d+\.gz$/, ''));
const file = (name: string, stamp: number): BlockFile => blockFile(`slogfile_${name}_${stamp}.gz`) as BlockFile;

describe('chain order of per-block files', () => {
  it('one run: init, bootstrap, upgrades, blocks by height as a number (the shared folder too)', () => {
    const run = [file('block_10', 50), file('block_9', 40), file('bootstrap', 20), file('init', 10), file('upgrade', 30)];
    expect(names(chainOrder(run))).toEqual(['slogfile_init', 'slogfile_bootstrap', 'slogfile_upgrade', 'slogfile_block_9', 'slogfile_block_10']);
    const shared = folderFiles(join(REAL, 'block-files-bot')).map((f) => f.replace(/^.*\//, '').replace(/_\d+\.gz$/, ''));
    expect(shared).toEqual(['slogfile_init', 'slogfile_bootstrap', 'slogfile_block_2', 'slogfile_block_3', 'slogfile_block_4']);
  });

  it('a restart and an upgrade come before the first block written after them, a block run again after its first run', () => {
    const runs = [
      file('init', 10),
      file('bootstrap', 20),
      file('block_1', 30),
      file('block_2', 40),
      file('init', 50),
      file('block_2', 60),
      file('block_3', 70),
      file('init', 80),
      file('upgrade', 90),
      file('block_4', 100),
    ];
    const shuffled = [...runs].reverse();
    expect(chainOrder(shuffled).map((f) => f.stamp)).toEqual(runs.map((f) => f.stamp));
  });

  it('chain-A.slog split as the writer splits it reads as the slog: its restart in block 85, block 85 not committed, then run again', async () => {
    const folder = join(dir, 'chain-A');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    splitAsTheWriterDoes(join(REAL, 'chain-A.slog'), folder);
    expect(readdirSync(folder).filter((n) => n.startsWith('slogfile_init_'))).toHaveLength(2);
    const fromSlog = await runInProcess(['blocks', join(REAL, 'chain-A.slog')]);
    const fromFolder = await runInProcess(['blocks', folder]);
    expect(fromFolder.status).toBe(0);
    expect(fromFolder.stdout).toBe(fromSlog.stdout);
    expect(fromFolder.stdout).toMatch(/^ +85 .*not committed \(restart\)$/m);
    expect(fromFolder.stdout).toMatch(/^ +85 .* again$/m);
  });
});
