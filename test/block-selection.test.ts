/**
 * `--blocks LIST` selects exactly the cranks a chain block ran (between its
 * begin-block and its end-block-finish; the bootstrap block's) on every
 * command that takes it: the render, top, stats, flow, trace and compare;
 * with --cranks and --vat it means all of them. Checked on chain-A.slog
 * against a plain loop over its lines, in process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chainAHead, ROOT } from './helpers.js';
import { runMain } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const CHAIN_BOT = join(REAL, 'chain-bot.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-block-selection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHAIN_A_HEAD = chainAHead(dir);

type Entry = Record<string, any>;

interface LoopCrank {
  crankNum: number;
  height: number | undefined;
  routing: boolean;
  vatID: string | undefined;
  /** Its first live delivery's kind (message, notify, ...). */
  kind: string | undefined;
  finished: boolean;
}

/** Every crank of the slog with the block it ran in, by a plain loop. */
function loopCranks(file: string): LoopCrank[] {
  const cranks: LoopCrank[] = [];
  let height: number | undefined;
  let bootstrapHeight = 0;
  let crank: LoopCrank | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Entry;
    switch (e.type) {
      case 'cosmic-swingset-init':
        bootstrapHeight = e.blockHeight;
        break;
      case 'cosmic-swingset-begin-block':
        height = e.blockHeight;
        break;
      case 'cosmic-swingset-bootstrap-block-start':
        height = bootstrapHeight;
        break;
      case 'cosmic-swingset-end-block-finish':
      case 'cosmic-swingset-bootstrap-block-finish':
      case 'kernel-init-start':
        height = undefined;
        break;
      case 'crank-start':
        crank = { crankNum: e.crankNum, height, routing: e.crankType === 'routing', vatID: e.vatID ?? e.message?.vatID, kind: undefined, finished: false };
        cranks.push(crank);
        break;
      case 'crank-finish':
        if (crank) crank.finished = true;
        break;
      case 'deliver':
        if (crank && e.replay !== true) {
          crank.kind ??= e.kd?.[0];
          crank.vatID ??= e.vatID;
        }
        break;
      default:
        break;
    }
  }
  return cranks;
}

const inBlocks = (heights: number[]) => (c: LoopCrank): boolean => c.height !== undefined && heights.includes(c.height);
const nums = (cranks: LoopCrank[]): number[] => cranks.map((c) => c.crankNum);

describe('--blocks on every command', () => {
  const cranks = loopCranks(CHAIN_A_HEAD);
  // A busy block, two in a row, the bootstrap block, an open range.
  const cases: Array<[string, number[]]> = [
    ['8', [8]],
    ['13-14', [13, 14]],
    ['1', [1]],
    ['24-', [24, 25, 26, 27, 28, 29, 30]],
  ];

  it('the plain loop finds cranks in those blocks, and none outside a block', () => {
    for (const [, heights] of cases) expect(cranks.filter(inBlocks(heights)).length).toBeGreaterThan(5);
    expect(cranks.filter((c) => c.height === undefined)).toEqual([]);
  });

  for (const [list, heights] of cases) {
    it(`--blocks ${list}: the render prints exactly the block's cranks`, async () => {
      const r = await runMain(['--blocks', list, CHAIN_A_HEAD]);
      expect(r.status).toBe(0);
      const printed = [...r.stdout.matchAll(/^\/\/ crank (\d+):/gm)].map((m) => Number(m[1]));
      expect(printed).toEqual(nums(cranks.filter(inBlocks(heights))));
    });
  }

  it('stats counts exactly the block\'s cranks', async () => {
    for (const [list, heights] of cases) {
      const block = cranks.filter(inBlocks(heights));
      const stats = JSON.parse((await runMain(['stats', '--json', '--blocks', list, CHAIN_A_HEAD])).stdout) as Entry;
      expect(stats.cranks, list).toMatchObject({ selected: block.length, routing: block.filter((c) => c.routing).length });
      expect(stats.selection).toBe(heights.length === 1 ? `block ${list}` : `blocks ${list}`);
    }
  });

  it('top, flow, trace and compare show exactly the block\'s cranks (chain-bot.slog: the bootstrap block, a busy block)', async () => {
    const bot = loopCranks(CHAIN_BOT);
    for (const [list, heights] of [
      ['1', [1]],
      ['2-', [2, 3, 4]],
    ] as Array<[string, number[]]>) {
      const block = bot.filter(inBlocks(heights));
      expect(block.length, list).toBeGreaterThan(10);
      const top = JSON.parse((await runMain(['top', '--json', '--by', 'total', '-n', '1000', '--blocks', list, CHAIN_BOT])).stdout) as Entry;
      const ranked = (top.rankings[0].cranks as Entry[]).map((c) => c.crankNum as number).sort((a, b) => a - b);
      expect(ranked, list).toEqual(nums(block.filter((c) => !c.routing && c.finished)));

      const flow = (await runMain(['flow', '--blocks', list, CHAIN_BOT])).stdout;
      const flowed = [...flow.matchAll(/^(\d+) (deliver|notify) /gm)].map((m) => Number(m[1])).sort((a, b) => a - b);
      expect(flowed, list).toEqual(nums(block.filter((c) => c.kind === 'message' || c.kind === 'notify')));
      if (list === '2-') expect(flowed.length).toBeGreaterThan(3);

      const trace = JSON.parse((await runMain(['trace', '--blocks', list, CHAIN_BOT])).stdout) as { traceEvents: Entry[] };
      const traced = trace.traceEvents.filter((e) => e.ph === 'X' && (e.cat === 'crank' || e.cat === 'routing')).map((e) => e.args.crank as number);
      expect(traced, list).toEqual(nums(block));

      const compare = JSON.parse((await runMain(['compare', '--format', 'json', '--blocks', list, CHAIN_BOT, CHAIN_BOT])).stdout) as Entry;
      expect(compare.base.cranksSelected, list).toBe(block.length);
      expect(compare.base.selection).toBe(heights.length === 1 ? `block ${list}` : `blocks ${list}`);
    }
  });

  it('with --cranks and --vat it means all of them', async () => {
    const block = cranks.filter(inBlocks([13, 14]));
    const mid = (block[10] as LoopCrank).crankNum;
    const vat = (block.find((c) => c.crankNum > mid && !c.routing) as LoopCrank).vatID as string;
    const run = await runMain(['stats', '--json', '--blocks', '13-14', '--cranks', `${mid}-`, '--vat', vat, CHAIN_A_HEAD]);
    expect(run.stderr).toBe('');
    const stats = JSON.parse(run.stdout) as Entry;
    expect(stats.selection).toBe(`cranks ${mid}- and vat ${vat} and blocks 13-14`);
    expect(stats.cranks.selected).toBe(block.filter((c) => c.crankNum >= mid && c.vatID === vat && !c.routing).length);
    expect(stats.cranks.selected).toBeGreaterThan(0);
    // Written before the command's name, as for --cranks.
    const before = await runMain(['--blocks', '13-14', 'stats', '--json', CHAIN_A_HEAD]);
    expect((JSON.parse(before.stdout) as Entry).cranks.selected).toBe(block.length);
  });

  it('a block without cranks selects nothing (said on stderr); a bad list is a usage error', async () => {
    const none = await runMain(['stats', '--blocks', '85', CHAIN_A]);
    expect(none.status).toBe(0);
    expect(none.stderr).toMatch(/no cranks match block 85\n$/);
    const bad = await runMain(['top', '--blocks', '1-x', CHAIN_A]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('slogulate: --blocks: bad block range "1-x" (expected N, N-M, N- or -M, separated by commas)\n');
  });
});

describe('--nonoise block headers under a selection', () => {
  /** Each printed block header's height and its "(N empty blocks before)", by height. */
  const emptyBefore = async (args: string[]): Promise<Map<string, number>> => {
    const out = new Map<string, number>();
    for (const line of (await runMain(['--nonoise', ...args, CHAIN_A])).stdout.split('\n')) {
      const m = /^\/\/ block (\S+) .*?(?:\((\d+) empty blocks? before\))?(?: \(again after restart\))?$/.exec(line);
      if (m) out.set(m[1] as string, Number(m[2] ?? 0));
    }
    return out;
  };

  it('count the heights of the empty blocks before: a block run again after a restart once (chain-A: 83-87, block 85 twice)', async () => {
    const all = await emptyBefore([]);
    const rows = (await runMain(['blocks', '--json', CHAIN_A])).stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { height: number; cranks: number });
    // Each printed (busy) block: the distinct heights of the empty blocks since the busy one before it.
    let since = new Set<number>();
    const expected = new Map<string, number>();
    for (const row of rows) {
      if (row.cranks === 0) since.add(row.height);
      else {
        expected.set(String(row.height), since.size);
        since = new Set();
      }
    }
    expect(rows.filter((r) => r.height === 85).length).toBe(2);
    expect(all.get('88')).toBe(5);
    for (const [height, n] of all) expect(n, `block ${height}`).toBe(expected.get(height));
  });

  it('count as empty only the blocks without cranks, not those whose cranks the selection left out: as the whole render says', async () => {
    const all = await emptyBefore([]);
    for (const args of [['--blocks', '7'], ['--blocks', '13'], ['--blocks', '150-'], ['--cranks', '1091-1100']]) {
      const selected = await emptyBefore(args);
      expect(selected.size, args.join(' ')).toBeGreaterThan(0);
      // The first block the selection prints: the empty blocks just before it are the whole render's.
      const [height, n] = [...selected][0] as [string, number];
      expect(n, `${args.join(' ')}: block ${height}`).toBe(all.get(height));
    }
  });
});
