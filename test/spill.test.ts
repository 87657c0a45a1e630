/**
 * A crank of many syscalls spills (model/assembler.ts): once it holds
 * SLOGULATE_SPILL syscalls, the sink folds them into its own figures (or
 * text) and they are dropped. Every command that spills must print the same
 * bytes as without spilling: checked here on the real slogs with the
 * threshold at 1 (every syscall spills on its own) and 3 (spills fall
 * between a crank's syscalls) against 0 (never), through the command line
 * in process. The slogs hold what makes a crank hard to fold: replays
 * inside cranks (restart-replay, chain-A), cranks cut by the end of a slog
 * or by a restart and run again (restart-replay, chain-A), a slog that
 * starts mid-crank (mid-crank-start), older kernels' crank-starts without
 * number or type (y2022-create-vat), chain blocks (chain-A, chain-bot).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CrankAssembler, type CrankSink } from '../src/model/assembler.js';
import type { Crank, CrankItem } from '../src/model/crank.js';
import { MODEL_READS } from '../src/model/reads.js';
import { lineReader } from '../src/scan/line-reader.js';
import { BadLine } from '../src/scan/plain-reader.js';
import { READ_ALL } from '../src/scan/reads.js';
import { readLines } from '../src/source/lines.js';
import { openInput } from '../src/source/open.js';
import { mergeReads } from '../src/scan/reads.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-spill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line with SLOGULATE_SPILL at `spill`: its status, stderr and stdout. */
async function run(args: string[], spill: number): Promise<string> {
  const saved = process.env.SLOGULATE_SPILL;
  process.env.SLOGULATE_SPILL = String(spill);
  try {
    const r = await runMain(args);
    return `${r.status}\n${r.stderr}\n${r.stdout}`;
  } finally {
    if (saved === undefined) delete process.env.SLOGULATE_SPILL;
    else process.env.SLOGULATE_SPILL = saved;
  }
}

/** The same output with spills at `spills` as with none. */
async function same(args: string[], spills: readonly number[]): Promise<void> {
  const off = await run(args, 0);
  expect(off.startsWith('0\n'), `${args.join(' ')}: ${off.slice(0, 300)}`).toBe(true);
  for (const spill of spills) {
    const on = await run(args, spill);
    // Not toBe: a diff of two long texts is unreadable; say where they part.
    if (on !== off) {
      let i = 0;
      while (on[i] === off[i]) i += 1;
      expect.fail(`${args.join(' ')} with SLOGULATE_SPILL=${spill} differs at ${i}: ${JSON.stringify(on.slice(i - 80, i + 80))} vs ${JSON.stringify(off.slice(i - 80, i + 80))}`);
    }
  }
}

/** What each slog is run with: renders with their options, the analyses, selections. */
const CASES: string[][] = [
  [],
  ['--nonoise', '--timing'],
  ['stats', '--json'],
  ['top', '--json', '-n', '8'],
  ['trace'],
  ['compare', '--format', 'json', 'SLOG'],
];
/** And the slogs with the most shapes, with these too. */
const MORE_CASES: string[][] = [
  ['--novatstore', '--vatspace'],
  ['--vat', 'v1', '--timing'],
  ['stats', '--json', '--vat', 'v1', '--cranks', '20-'],
  ['trace', '--vat', 'v1'],
  // Syscalls by vat, method and type (compare's scoped thresholds).
  ['compare', '--format', 'json', '--fail-on', 'syscalls,vat=v1:+0', '--fail-on', 'syscalls,method=bootstrap:+0', 'SLOG'],
];

describe.each([
  // name, slog, spill threshold (1: every syscall spills alone; 3: spills fall between syscalls), all cases?
  ['a-xs-3', slogPath('a-xs-3'), 3, false],
  ['b-local-5', slogPath('b-local-5'), 1, false],
  ['restart-replay', join(REAL, 'restart-replay.slog'), 1, true],
  ['mid-crank-start', join(REAL, 'mid-crank-start.slog'), 3, false],
  ['y2022-create-vat', join(REAL, 'y2022-create-vat.slog'), 1, false],
  ['chain-bot', join(REAL, 'chain-bot.slog'), 3, true],
] as const)('%s: the same with spills as without', (_name, slog, spill, more) => {
  it('the render, stats, top, trace, compare', async () => {
    for (const args of [...CASES, ...(more ? MORE_CASES : [])]) await same([...args.map((a) => (a === 'SLOG' ? slog : a)), slog], [spill]);
  });
});

/**
 * chain-A.slog's bootstrap (its lines before block 2) and its blocks 82-90,
 * where the node crashed (in block 85) and ran the block again after a
 * restart that paged vats in (replays): a tenth of its lines.
 */
function chainAPart(): string {
  const lines = readFileSync(join(REAL, 'chain-A.slog'), 'utf8').split(/(?<=\n)/);
  const begin = (height: number): number => lines.findIndex((l) => l.startsWith(`{"type":"cosmic-swingset-begin-block","blockHeight":${height},`));
  const file = join(dir, 'chain-A-part.slog');
  writeFileSync(file, [...lines.slice(0, begin(2)), ...lines.slice(begin(82), begin(91))].join(''));
  return file;
}

describe('chain-A, blocks 82-90 (a restart inside a block, replays): the same with spills as without', () => {
  const slog = chainAPart();
  it('the render, stats, top, trace, compare, --blocks', async () => {
    await same(['--nonoise', '--timing', slog], [3]);
    await same(['stats', '--json', slog], [1]);
    await same(['top', '--json', '--blocks', '85-87', slog], [3]);
    await same(['trace', slog], [1]);
    await same(['compare', '--format', 'json', slog, slog], [1]);
    // Blocks and runs read no syscalls (the model holds none unless spilling is off).
    await same(['blocks', '--json', slog], [1]);
    await same(['runs', '--json', slog], [1]);
  });
});

/**
 * Every crank of a slog as the assembler hands it over, with spills at
 * `spillAt` (0: none): its items in order, the spilled ones included. With
 * `syscallsUnread`, the sink says it reads no syscalls.
 */
async function assemble(
  file: string,
  spillAt: number,
  syscallsUnread = false,
): Promise<{ cranks: Array<{ crank: Crank; items: CrankItem[] }>; spills: number }> {
  const cranks: Array<{ crank: Crank; items: CrankItem[] }> = [];
  let shown: CrankItem[] = [];
  let spills = 0;
  const sink: CrankSink = {
    entry: () => undefined,
    crank: (crank) => {
      cranks.push({ crank, items: [...shown, ...crank.items.slice(crank.spilled ?? 0)] });
      shown = [];
    },
    spill: (crank) => {
      spills += 1;
      const from = crank.spilled ?? 0;
      // What a spill shows: the items it has not shown before, in order; those before are the crank's other entries.
      expect(crank.items.slice(0, from).every((item) => item.kind === 'entry')).toBe(true);
      shown.push(...crank.items.slice(from));
    },
    ...(syscallsUnread ? { syscallsUnread } : {}),
  };
  const assembler = new CrankAssembler(sink, { spillAt });
  const reader = lineReader(mergeReads(MODEL_READS, READ_ALL), { fast: true });
  for await (const batch of readLines((await openInput(file)).chunks())) {
    for (let i = 0; i < batch.spans.length / 2; i += 1) {
      const entry = reader.read(batch, i);
      if (entry !== undefined && !(entry instanceof BadLine)) assembler.push(entry, batch.firstLine + i);
    }
  }
  assembler.end();
  return { cranks, spills };
}

/** What a crank is, besides its items and timing: the same whether its syscalls were held, spilled or unread. */
const crankFacts = (c: Crank): unknown[] => [c.crankNum, c.vatID, c.crankType, c.opening, c.again, c.firstLine, c.lastLine];

describe('the crank model spills', () => {
  it.each([
    ['restart-replay', join(REAL, 'restart-replay.slog')],
    ['mid-crank-start', join(REAL, 'mid-crank-start.slog')],
    ['y2022-create-vat', join(REAL, 'y2022-create-vat.slog')],
  ])('%s: what spills showed and what the crank still holds are its items, in order; its timings are whole', async (_name, file) => {
    const whole = await assemble(file, 0);
    expect(whole.spills).toBe(0);
    for (const spillAt of [1, 2, 5]) {
      const spilled = await assemble(file, spillAt);
      expect(spilled.spills).toBeGreaterThan(spillAt === 1 ? 200 : 20);
      expect(spilled.cranks.length).toBe(whole.cranks.length);
      spilled.cranks.forEach(({ crank, items }, i) => {
        const w = whole.cranks[i] as { crank: Crank; items: CrankItem[] };
        expect(items).toEqual(w.items);
        // Only syscalls are dropped: the other items stay.
        expect(crank.items.filter((item) => item.kind === 'entry')).toEqual(w.items.filter((item) => item.kind === 'entry'));
        expect(crank.timing).toEqual(w.crank.timing);
        expect(crankFacts(crank)).toEqual(crankFacts(w.crank));
      });
    }
  });

  it.each([
    ['restart-replay', join(REAL, 'restart-replay.slog')],
    ['mid-crank-start', join(REAL, 'mid-crank-start.slog')],
    ['y2022-create-vat', join(REAL, 'y2022-create-vat.slog')],
    ['chain-A', join(REAL, 'chain-A.slog')],
  ])('%s: a sink that reads no syscalls gets none, and the same cranks and timings', async (_name, file) => {
    const whole = await assemble(file, 0);
    // Spilling off: every item held, whatever the sink says (the reference).
    expect(await assemble(file, 0, true)).toEqual(whole);
    const unread = await assemble(file, 5, true);
    expect(unread.spills).toBe(0);
    expect(unread.cranks.length).toBe(whole.cranks.length);
    expect(whole.cranks.some(({ items }) => items.some((item) => item.kind === 'syscall'))).toBe(true);
    unread.cranks.forEach(({ crank, items }, i) => {
      const w = whole.cranks[i] as { crank: Crank; items: CrankItem[] };
      // Gone: the syscalls, and a result whose call the slog lacks; every other item stays.
      const notSyscall = (item: CrankItem): boolean => item.kind === 'entry' && item.entry.type !== 'syscall-result';
      expect(items).toEqual(w.items.filter(notSyscall));
      expect(crank.timing).toEqual(w.crank.timing);
      expect(crankFacts(crank)).toEqual(crankFacts(w.crank));
    });
  });

  it('a crank-start written twice with syscalls between: the first is handed over unfinished, its syscalls counted, as when they are held', async () => {
    const file = join(dir, 'start-twice.slog');
    const line = (o: object): string => JSON.stringify(o);
    const head = { crankNum: 7, vatID: 'v3', deliveryNum: 1, syscallNum: 0, replay: false, syscall: 'vatstoreGet' };
    writeFileSync(
      file,
      [
        line({ type: 'crank-start', crankType: 'delivery', crankNum: 7, time: 1, monotime: 1 }),
        line({ type: 'syscall', ...head, ksc: ['vatstoreGet', 'v3', 'k'], vsc: ['vatstoreGet', 'k'], time: 1.5, monotime: 1.5 }),
        line({ type: 'syscall-result', ...head, ksr: ['ok', null], vsr: ['ok', null], time: 1.75, monotime: 1.75 }),
        line({ type: 'crank-start', crankType: 'delivery', crankNum: 7, time: 2, monotime: 2 }),
        line({ type: 'crank-finish', crankType: 'delivery', crankNum: 7, time: 3, monotime: 3, seconds: 1 }),
        '',
      ].join('\n'),
    );
    const whole = await assemble(file, 0);
    const unread = await assemble(file, 5, true);
    expect(whole.cranks.map(({ crank }) => crank.timing)).toEqual([
      { total: NaN, syscall: 0.25, syscallCount: 1 },
      { total: 1, syscall: 0, syscallCount: 0 },
    ]);
    expect(unread.cranks.map(({ crank }) => [crank.timing, crank.finish === undefined])).toEqual(whole.cranks.map(({ crank }) => [crank.timing, crank.finish === undefined]));
  });

  it('a wrapper passes syscallsUnread on from its inner sink', async () => {
    const { CommittedCranks } = await import('../src/model/executions.js');
    const { MarkErrors } = await import('../src/run/mark-errors.js');
    const { TopCollector } = await import('../src/analyses/top/top.js');
    const top = new TopCollector({ n: 3 });
    expect(new CommittedCranks(top).syscallsUnread).toBe(true);
    expect(new MarkErrors(top).syscallsUnread).toBe(true);
    expect(new CommittedCranks({ entry: () => undefined, crank: () => undefined }).syscallsUnread).toBeUndefined();
  });

  it('a sink without `spill` gets every item (a wrapper passes spill on only when its inner sink has it)', async () => {
    const { CommittedCranks } = await import('../src/model/executions.js');
    expect(new CommittedCranks({ entry: () => undefined, crank: () => undefined }).spill).toBeUndefined();
    let items = 0;
    const plain: CrankSink = {
      entry: () => undefined,
      crank: (crank) => {
        items = Math.max(items, crank.items.length);
      },
    };
    const assembler = new CrankAssembler(plain, { spillAt: 1 });
    const reader = lineReader(MODEL_READS, { fast: true });
    for await (const batch of readLines((await openInput(slogPath('a-xs-3'))).chunks())) {
      for (let i = 0; i < batch.spans.length / 2; i += 1) {
        const entry = reader.read(batch, i);
        if (entry !== undefined && !(entry instanceof BadLine)) assembler.push(entry, batch.firstLine + i);
      }
    }
    assembler.end();
    expect(items).toBeGreaterThan(100);
  });
});
