/**
 * The order of a per-block folder's files (source/inputs.ts): one run of a
 * node reads init, bootstrap, upgrades, then blocks by height; a folder
 * that holds a restart (a second init file) reads it where it happened,
 * before the block run again. Checked on chain-A.slog, which restarts in
 * block 85, split into files the way agoric-sdk's per-block writer
 * (packages/telemetry/src/block-slog.js) splits a slog.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockFile, chainOrder, folderFiles, type BlockFile } from '../src/source/inputs.js';
import { splitAsTheWriterDoes } from './block-folder.js';
import { ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-block-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
