/**
 * Selections on a per-block folder read only the files that can hold them
 * (source/folder-seek.ts, run/pass-seek.ts): the render and `top` print
 * what reading every file prints (SLOGULATE_SEEK=0's settings), and the
 * files read are those a plain loop over the folder's lines finds holding a
 * selected crank (from the first to the last). On the shared per-block
 * folder and on chain-A split as the per-block writer splits it (a restart
 * in block 85); a file out of order, or one whose range is not known, is
 * read.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelectionSpec } from '../src/analyses/common/selection.js';
import { topOf } from '../src/run/analyses.js';
import type { BadLineReport, PassResult } from '../src/run/pass.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { extractSlog } from '../src/run/extract.js';
import { renderSlog } from '../src/run/render.js';
import { folderFiles } from '../src/source/inputs.js';
import { splitAsTheWriterDoes } from './block-folder.js';
import { expectSameText, ROOT } from './helpers.js';
import { runInProcess } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const BOT = join(REAL, 'block-files-bot');
const SEEK = settingsFrom();
const WHOLE = { ...settingsFrom(), seek: false };

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-folder-seek-'));
const CHAIN = join(tmp, 'chain-A');
beforeAll(() => {
  mkdirSync(CHAIN);
  splitAsTheWriterDoes(join(REAL, 'chain-A.slog'), CHAIN);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Entry = Record<string, unknown>;

/** A folder's files in the order they are read, each with its entries, by a plain loop (gunzip, JSON.parse). */
function folderEntries(dir: string): Array<{ path: string; entries: Entry[] }> {
  return folderFiles(dir).map((path) => {
    const raw = readFileSync(path);
    const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
    const entries: Entry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as Entry);
      } catch {
        entries.push({});
      }
    }
    return { path, entries };
  });
}

/**
 * The files holding a crank the selection takes (or, by blocks, a chain
 * line of a selected height), by a plain loop over the
 * folder as one slog: a crank-start's block is the one whose opener
 * (begin-block, bootstrap-block-start: the init's height, else its first
 * run's) came last before it, until that block's end-block-finish or
 * bootstrap-block-finish.
 */
function filesHolding(dir: string, selection: SelectionSpec): string[] {
  const out: string[] = [];
  let block: number | undefined;
  let initHeight: number | undefined;
  let bootstrapOpen = false;
  const inRanges = (n: number | undefined, ranges: SelectionSpec['cranks']): boolean => ranges === undefined || (n !== undefined && ranges.some((r) => n >= r.from && n <= r.to));
  for (const { path, entries } of folderEntries(dir)) {
    let holds = false;
    for (const e of entries) {
      if (e.type === 'kernel-init-start') block = undefined;
      if (e.type === 'cosmic-swingset-init') initHeight = e.blockHeight as number;
      if (e.type === 'cosmic-swingset-begin-block' || e.type === 'cosmic-swingset-upgrade-start') block = e.blockHeight as number;
      if (e.type === 'cosmic-swingset-bootstrap-block-start') {
        block = initHeight;
        bootstrapOpen = initHeight === undefined;
      }
      if (e.type === 'cosmic-swingset-run-start' && bootstrapOpen) {
        block = e.blockHeight as number;
        bootstrapOpen = false;
      }
      if (e.type === 'cosmic-swingset-end-block-finish' || e.type === 'cosmic-swingset-bootstrap-block-finish') block = undefined;
      // A chain line of a selected height (extract keeps it).
      if (String(e.type).startsWith('cosmic-swingset-') && typeof e.blockHeight === 'number' && selection.blocks && inRanges(e.blockHeight, selection.blocks)) holds = true;
      if (e.type !== 'crank-start') continue;
      const time = e.time as number;
      const timeOk = (selection.since === undefined || time >= selection.since) && (selection.until === undefined || time < selection.until);
      if (inRanges(e.crankNum as number, selection.cranks) && inRanges(block, selection.blocks) && timeOk) holds = true;
    }
    if (holds) out.push(path);
  }
  return out;
}

/** The render (two option sets on the shared folder, the default on the bigger copies of chain-A) and top, seeking and reading every file: the same; the pass of the seeking render. */
async function expectSame(dir: string, selection: SelectionSpec): Promise<PassResult> {
  let pass: PassResult | undefined;
  for (const options of dir === BOT ? [{}, { timing: true, parts: true }] : [{}]) {
    const bad = { seek: [] as BadLineReport[], whole: [] as BadLineReport[] };
    const a = await renderSlog({ inputs: [dir], selection, options, settings: SEEK, onBadLine: (b) => bad.seek.push(b) });
    const b = await renderSlog({ inputs: [dir], selection, options, settings: WHOLE, onBadLine: (b) => bad.whole.push(b) });
    expectSameText(a.text, b.text, `render ${JSON.stringify(options)} ${JSON.stringify(selection)}`);
    expect(a.selected).toBe(b.selected);
    expect(b.folderSeek).toBeUndefined();
    pass = a;
  }
  const ta = await topOf({ inputs: [dir], selection, n: 5, settings: SEEK });
  const tb = await topOf({ inputs: [dir], selection, n: 5, settings: WHOLE });
  expect(JSON.stringify(ta.top)).toBe(JSON.stringify(tb.top));
  expect(ta.cranksSelected).toBe(tb.cranksSelected);
  return pass as PassResult;
}

/** The files a seek read: a run from the first file holding a selected crank to the last (none when none holds one). */
function expectReadExactly(pass: PassResult, holding: readonly string[], all: readonly string[]): void {
  const plan = pass.folderSeek;
  expect(plan, 'a plan').toBeDefined();
  expect(plan && 'files' in plan, JSON.stringify(plan && 'refused' in plan ? plan : '')).toBe(true);
  if (!plan || !('files' in plan)) return;
  if (holding.length === 0) {
    expect(plan.files).toEqual([]);
    return;
  }
  const from = all.indexOf(holding[0] as string);
  const to = all.indexOf(holding[holding.length - 1] as string);
  expect(plan.files.map((f) => basename(f))).toEqual(all.slice(from, to + 1).map((f) => basename(f)));
  expect(pass.sources.map((f) => basename(f))).toEqual(plan.files.map((f) => basename(f)));
  expect(plan.skipped).toBe(all.length - plan.files.length);
}

const blocks = (from: number, to = from): SelectionSpec => ({ blocks: [{ from, to }] });
const cranks = (from: number, to = from): SelectionSpec => ({ cranks: [{ from, to }] });

describe('the shared per-block folder (block-files-bot): only the files of the selection', () => {
  const all = folderFiles(BOT);
  for (const [what, selection] of [
    ['its first block, 2', blocks(2)],
    ['a middle block, 3', blocks(3)],
    ['its last block, 4', blocks(4)],
    ['blocks 3-4, across files', blocks(3, 4)],
    ['a block it does not hold, 9', blocks(9)],
    ['cranks 20-30', cranks(20, 30)],
    ['its last crank on', cranks(48, Infinity)],
  ] as const) {
    it(what, async () => {
      const pass = await expectSame(BOT, selection);
      const holding = filesHolding(BOT, selection);
      expectReadExactly(pass, holding, all);
    });
  }

  it('the bootstrap block (1): its file and what comes before, as the whole read', async () => {
    const holding = filesHolding(BOT, blocks(1));
    expect(holding.map((f) => basename(f).replace(/_\d+\.gz$/, ''))).toEqual(['slogfile_bootstrap']);
    const pass = await expectSame(BOT, blocks(1));
    const plan = pass.folderSeek;
    // The bootstrap file, and the init before it (read from the first file: the plan would read all, so it is refused) or not.
    expect(plan && 'files' in plan ? plan.files.map((f) => basename(f)) : []).not.toContain(basename(all[all.length - 1] as string));
  });
});

describe('chain-A split per block (170 blocks, a restart in block 85)', () => {
  const selections: Array<[string, SelectionSpec]> = [
    ['the first block after the bootstrap, 2 (no cranks)', blocks(2)],
    ['the first block with cranks, 7', blocks(7)],
    ['a middle block, 98', blocks(98)],
    ['blocks 103-105, across files', blocks(103, 105)],
    ['the last block, 170', blocks(170)],
    ['a block it does not hold, 500', blocks(500)],
    ['blocks 86-88, after the restart', blocks(86, 88)],
    ['cranks 1500-1510', cranks(1500, 1510)],
  ];
  for (const [what, selection] of selections) {
    it(what, async () => {
      const all = folderFiles(CHAIN);
      const pass = await expectSame(CHAIN, selection);
      expectReadExactly(pass, filesHolding(CHAIN, selection), all);
    }, 60_000);
  }

  it('blocks 85-88: 85 ran before the restart and again after it, read from the first file (the restart between must be one)', async () => {
    const all = folderFiles(CHAIN);
    const holding = filesHolding(CHAIN, blocks(85, 88));
    expect(holding.filter((f) => basename(f).startsWith('slogfile_block_85_')).length).toBe(2);
    const pass = await expectSame(CHAIN, blocks(85, 88));
    const plan = pass.folderSeek;
    expect(plan && 'files' in plan ? plan.files : []).toEqual(all.slice(0, all.indexOf(holding[holding.length - 1] as string) + 1));
  }, 60_000);

  it('cranks across the restart: read from the first file (the restart must be one), not after the selection', async () => {
    const all = folderFiles(CHAIN);
    const files = folderEntries(CHAIN);
    const restart = files.findIndex((f, i) => i > 0 && f.entries.some((e) => e.type === 'kernel-init-start'));
    expect(restart).toBeGreaterThan(0);
    const nums = (f: { entries: Entry[] }): number[] => f.entries.filter((e) => e.type === 'crank-start').map((e) => e.crankNum as number);
    const before = Math.max(...files.slice(0, restart).flatMap(nums));
    const after = Math.min(...files.slice(restart).flatMap(nums));
    const selection = cranks(before - 2, after + 2);
    const holding = filesHolding(CHAIN, selection);
    expect(holding.length).toBeGreaterThan(1);
    const pass = await expectSame(CHAIN, selection);
    const plan = pass.folderSeek;
    expect(plan && 'files' in plan ? plan.files : []).toEqual(all.slice(0, all.indexOf(holding[holding.length - 1] as string) + 1));
  }, 60_000);

  it('a time range: the files of the cranks begun in it', async () => {
    const starts = folderEntries(CHAIN).flatMap((f) => f.entries.filter((e) => e.type === 'crank-start').map((e) => e.time as number));
    const mid = starts[Math.floor(starts.length * 0.7)] as number;
    const selection: SelectionSpec = { since: mid, until: mid + 20 };
    const pass = await expectSame(CHAIN, selection);
    expectReadExactly(pass, filesHolding(CHAIN, selection), folderFiles(CHAIN));
  }, 60_000);

  it('the command line: the same bytes, and `extract` of a folder renders as the selection does', async () => {
    const seek = await runInProcess(['--blocks', '120-121', CHAIN]);
    const prev = process.env.SLOGULATE_SEEK;
    process.env.SLOGULATE_SEEK = '0';
    try {
      const whole = await runInProcess(['--blocks', '120-121', CHAIN]);
      expectSameText(seek.stdout, whole.stdout, 'cli');
    } finally {
      if (prev === undefined) delete process.env.SLOGULATE_SEEK;
      else process.env.SLOGULATE_SEEK = prev;
    }
    const out = join(tmp, 'extract.slog');
    const ex = await runInProcess(['extract', '--blocks', '120-121', CHAIN, '-o', out]);
    expect(ex.status).toBe(0);
    const again = await runInProcess(['--blocks', '120-121', out]);
    expectSameText(again.stdout, seek.stdout, 'extract rendered');
    // It read only the files of blocks 120 and 121, and wrote what reading every file writes.
    const chunks = { seek: [] as Buffer[], whole: [] as Buffer[] };
    const a = await extractSlog({ inputs: [CHAIN], selection: blocks(120, 121), write: (b) => chunks.seek.push(Buffer.from(b)), settings: SEEK });
    const b = await extractSlog({ inputs: [CHAIN], selection: blocks(120, 121), write: (b) => chunks.whole.push(Buffer.from(b)), settings: WHOLE });
    expect(Buffer.concat(chunks.seek).equals(Buffer.concat(chunks.whole))).toBe(true);
    expect(Buffer.concat(chunks.seek).toString('utf8')).toBe(readFileSync(out, 'utf8'));
    const plan = a.folderSeek;
    expect(plan && 'files' in plan ? plan.files.map((f) => basename(f).replace(/_\d+\.gz$/, '')) : []).toEqual(['slogfile_block_120', 'slogfile_block_121']);
    expect(b.folderSeek).toBeUndefined();
  }, 60_000);
});

describe('files out of order, or whose range is not known, are read', () => {
  /** A copy of the chain-A folder, changed by `change`. */
  function changedCopy(name: string, change: (dir: string, files: string[]) => void): string {
    const dir = join(tmp, name);
    mkdirSync(dir);
    for (const f of readdirSync(CHAIN)) copyFileSync(join(CHAIN, f), join(dir, f));
    change(dir, readdirSync(dir).sort());
    return dir;
  }
  const named = (files: string[], prefix: string): string => files.find((f) => f.startsWith(prefix)) as string;

  it("a block's file renamed to an earlier height: read from where it lies to the selection's end", async () => {
    const dir = changedCopy('renamed', (d, files) => {
      const f = named(files, 'slogfile_block_120_');
    expect(gunzipSync(readFileSync(join(d, f))).includes('"crank-start"')).toBe(true);
      renameSync(join(d, f), join(d, f.replace('block_120_', 'block_60_')));
    });
    const all = folderFiles(dir);
    const holding = filesHolding(dir, blocks(118, 121));
    // The plain loop finds block 120's cranks in the file named block 60.
    expect(holding.some((f) => basename(f).startsWith('slogfile_block_60_'))).toBe(true);
    const pass = await expectSame(dir, blocks(118, 121));
    expectReadExactly(pass, holding, all);
    const plan = pass.folderSeek;
    expect(plan && 'files' in plan ? plan.files.length : 0).toBeGreaterThan(60);
  }, 60_000);

  it("a block's file without its begin-block (its range not known): read, and all before it up to the selection", async () => {
    const dir = changedCopy('headless', (d, files) => {
      const f = join(d, named(files, 'slogfile_block_111_'));
      const lines = gunzipSync(readFileSync(f)).toString('utf8').split('\n');
      expect(JSON.parse(lines[0] as string).type).toBe('cosmic-swingset-begin-block');
      writeFileSync(f, gzipSync(lines.slice(1).join('\n')));
    });
    const all = folderFiles(dir);
    const pass = await expectSame(dir, blocks(130));
    const plan = pass.folderSeek;
    const read = plan && 'files' in plan ? plan.files.map((f) => basename(f)) : all.map((f) => basename(f));
    const headless = basename(all.find((f) => basename(f).startsWith('slogfile_block_111_')) as string);
    // Its cranks may be of block 130 for all the search knows (the whole read takes none of them): it is read, and so is all up to block 130.
    expect(gunzipSync(readFileSync(join(dir, headless))).includes('"crank-start"')).toBe(true);
    expect(read).toContain(headless);
    // Its first line opens no block: what came before it may make its cranks another block's, so the run read starts at the first file.
    expect(read[0]).toBe(basename(all[0] as string));
    expect(read[read.length - 1]).toMatch(/^slogfile_block_130_/);
  }, 60_000);

  it("a crank left open at a file's end: read on to the folder's last file", async () => {
    const dir = changedCopy('open-crank', (d, files) => {
      const f = join(d, named(files, 'slogfile_block_120_'));
      const lines = gunzipSync(readFileSync(f)).toString('utf8').split('\n');
      const last = lines.findLastIndex((l) => l.includes('"type":"crank-finish"'));
      expect(last).toBeGreaterThan(0);
      lines.splice(last, 1);
      writeFileSync(f, gzipSync(lines.join('\n')));
    });
    const all = folderFiles(dir);
    const pass = await expectSame(dir, blocks(120));
    const plan = pass.folderSeek;
    const read = plan && 'files' in plan ? plan.files : [];
    expect(basename(read[0] as string)).toMatch(/^slogfile_block_120_/);
    expect(read[read.length - 1]).toBe(all[all.length - 1]);
  }, 60_000);

  it('contextual lines (a file the search cannot read): every file is read', async () => {
    const dir = join(tmp, 'contextual');
    mkdirSync(dir);
    const lines = readFileSync(join(REAL, 'contextual-bot.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
    const half = Math.floor(lines.length / 2);
    writeFileSync(join(dir, 'part-1.jsonl'), `${lines.slice(0, half).join('\n')}\n`);
    writeFileSync(join(dir, 'part-2.jsonl'), `${lines.slice(half).join('\n')}\n`);
    const pass = await expectSame(dir, cranks(5, 8));
    expect(pass.folderSeek).toMatchObject({ refused: expect.any(String) });
    expect(pass.sources.length).toBe(2);
  }, 60_000);

  it('a gzip file cut short (still being written) is read, and warned of, as the whole read does', async () => {
    const dir = join(tmp, 'cut-short');
    mkdirSync(dir);
    for (const f of readdirSync(BOT)) copyFileSync(join(BOT, f), join(dir, f));
    const last = readdirSync(dir).find((f) => f.startsWith('slogfile_block_4_')) as string;
    const bytes = readFileSync(join(dir, last));
    writeFileSync(join(dir, last), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const all = folderFiles(dir);
    for (const selection of [blocks(2), blocks(4), cranks(20, 30)]) {
      const pass = await expectSame(dir, selection);
      const plan = pass.folderSeek;
      expect(plan && 'files' in plan ? plan.files : all).toContain(all[all.length - 1]);
    }
    const seek = await runInProcess(['--blocks', '2', dir]);
    const prev = process.env.SLOGULATE_SEEK;
    process.env.SLOGULATE_SEEK = '0';
    try {
      const whole = await runInProcess(['--blocks', '2', dir]);
      expect(seek.stdout).toBe(whole.stdout);
      expect(seek.stderr).toBe(whole.stderr);
      expect(seek.stderr).not.toBe('');
    } finally {
      if (prev === undefined) delete process.env.SLOGULATE_SEEK;
      else process.env.SLOGULATE_SEEK = prev;
    }
  }, 60_000);
});
