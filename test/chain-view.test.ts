/**
 * `slogulate blocks` and `slogulate runs` (issue 14), in process: on the
 * real chain slog chain-A.slog, the per-block and per-run figures (cranks,
 * live deliveries, computrons, runs per phase) are those an independent
 * plain loop over its JSON lines finds; the block run again after the
 * restart appears twice, marked; the formats, filters and rankings; and the
 * same table for slogs without blocks (--every, --round-marks).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainAHead, ROOT, slogPath, withRoundMarks } from './helpers.js';
import { runMain } from './run-main.js';
import { chainFacts, type BlockFacts } from './slog-facts.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHAIN_A_HEAD = chainAHead(dir);

type Entry = Record<string, any>;

/** The blocks and runs of chainFacts (slog-facts.ts), with the figures `blocks --json` and `runs --json` are compared on. */
function plainLoop(file: string): {
  blocks: Array<{ height: number; cranks: number; deliveries: number; computrons: number; runs: Record<string, number> }>;
  runs: Array<{ height: number; run: number; phase: string; cranks: number; deliveries: number; computrons: number }>;
} {
  const facts = chainFacts(file);
  return {
    blocks: facts.blocks.map((b) => ({ height: b.height, cranks: b.cranks, deliveries: b.deliveries, computrons: b.computrons, runs: b.runs })),
    runs: facts.runs.map((r) => ({ height: r.height, run: r.run, phase: r.phase, cranks: r.cranks, deliveries: r.deliveries, computrons: r.computrons })),
  };
}

/** Lines of a slog of each type, parsed, by a plain filter. */
const linesOf = (file: string, type: string): Entry[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"type":"${type}"`))
    .map((l) => JSON.parse(l) as Entry);

/** A regular expression matching `text` as it is. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Block `height`'s cells as `blocks` prints them, each from the slog's own
 * lines: time (begin-block's blockTime), since and lag (its interBlockSeconds
 * and blockLagSeconds), runs by phase (L T I, a count after a letter for more
 * than one), cranks, deliveries, computrons and beans (chainFacts), end-block
 * and commit seconds (end-block-finish, commit-block-finish), heap MiB
 * (after-commit-stats' heapUsed).
 */
function blockCells(file: string, height: number): string[] {
  const one = (type: string): Entry => linesOf(file, type).find((e) => e.blockHeight === height) as Entry;
  const begin = one('cosmic-swingset-begin-block');
  const block = chainFacts(file).blocks.find((b) => b.height === height) as BlockFacts;
  const letters: Record<string, string> = { leftover: 'L', timer: 'T', inbound: 'I' };
  const runs = Object.entries(block.runs).map(([phase, n]) => `${letters[phase]}${n > 1 ? n : ''}`).join(' ');
  return [
    String(height),
    new Date(begin.blockTime * 1000).toISOString().replace('.000Z', 'Z'),
    begin.interBlockSeconds.toFixed(3),
    begin.blockLagSeconds.toFixed(3),
    runs,
    String(block.cranks),
    String(block.deliveries),
    String(block.computrons),
    String(block.usedBeans),
    one('cosmic-swingset-end-block-finish').seconds.toFixed(3),
    one('cosmic-swingset-commit-block-finish').seconds.toFixed(3),
    (one('cosmic-swingset-after-commit-stats').memoryUsage.heapUsed / 2 ** 20).toFixed(1),
  ];
}

async function jsonLines(args: string[]): Promise<Entry[]> {
  const r = await runMain(args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Entry);
}

describe('slogulate blocks and runs on chain-A.slog', () => {
  const loop = plainLoop(CHAIN_A);
  let blocks: Entry[];
  let runs: Entry[];
  beforeAll(async () => {
    [blocks, runs] = [await jsonLines(['blocks', '--json', CHAIN_A]), await jsonLines(['runs', '--json', CHAIN_A])];
  });

  it('a row per block execution, with the cranks, live deliveries, computrons and runs per phase of a plain loop', () => {
    // Each begin-block (block 85's twice: a restart ran it again) and the bootstrap block.
    expect(loop.blocks.length).toBe(linesOf(CHAIN_A, 'cosmic-swingset-begin-block').length + linesOf(CHAIN_A, 'cosmic-swingset-bootstrap-block-start').length);
    expect(loop.blocks.filter((b) => b.cranks > 0).length).toBeGreaterThan(50);
    expect(blocks.map((b) => ({ height: b.height, cranks: b.cranks, deliveries: b.deliveries, computrons: b.computrons, runs: b.runs }))).toEqual(loop.blocks);
  });

  it('a row per run, with its block, number, phase, cranks, live deliveries and computrons', () => {
    expect(loop.runs.length).toBe(linesOf(CHAIN_A, 'cosmic-swingset-run-start').length);
    expect(
      runs.map((r) => ({ height: r.height, run: r.run, phase: r.phase, cranks: r.cranks, deliveries: r.deliveries, computrons: r.computrons })),
    ).toEqual(loop.runs);
    // Every crank of the slog is in a run of a block.
    expect(runs.reduce((n, r) => n + (r.cranks as number), 0)).toBe(blocks.reduce((n, b) => n + (b.cranks as number), 0));
  });

  it('the rows are JSON lines of version 1 with the documented keys', () => {
    for (const b of blocks) {
      expect(b.version).toBe(1);
      for (const key of ['height', 'time', 'cranks', 'deliveries', 'computrons', 'runs', 'again']) expect(b, key).toHaveProperty(key);
    }
    for (const r of runs) {
      expect(r.version).toBe(1);
      for (const key of ['height', 'run', 'phase', 'trigger', 'cranks', 'deliveries', 'computrons']) expect(r, key).toHaveProperty(key);
    }
    // Each block's time, since and lag are its begin-block's; committed: its commit-block-finish is there.
    const begins = linesOf(CHAIN_A, 'cosmic-swingset-begin-block');
    const commits = new Set(linesOf(CHAIN_A, 'cosmic-swingset-commit-block-finish').map((e) => e.blockHeight));
    const facts = chainFacts(CHAIN_A).blocks;
    for (const [i, b] of blocks.entries()) {
      const begin = begins.find((e) => e.blockHeight === b.height);
      if (b.bootstrap) {
        expect(begin).toBeUndefined();
        continue;
      }
      expect(b, `block ${b.height}`).toMatchObject({
        time: new Date((begin?.blockTime as number) * 1000).toISOString().replace('.000Z', 'Z'),
        blockTime: begin?.blockTime,
        interBlockSeconds: begin?.interBlockSeconds,
        blockLagSeconds: begin?.blockLagSeconds,
        committed: facts[i]?.committed,
      });
      expect(b.committed).toBe(commits.has(b.height) && !facts[i]?.abandoned);
    }
    const bootstrap = linesOf(CHAIN_A, 'cosmic-swingset-init')[0] as Entry;
    expect(blocks[0]).toMatchObject({ height: bootstrap.blockHeight, bootstrap: true, runs: chainFacts(CHAIN_A).blocks[0]?.runs });
  });

  it('the block the restart ran again appears twice: the first not committed, the second marked again', () => {
    const at85 = blocks.filter((b) => b.height === 85);
    expect(at85.map((b) => [b.again, b.committed, b.abandoned])).toEqual([
      [false, false, true],
      [true, true, false],
    ]);
    expect(blocks.filter((b) => b.again).map((b) => b.height)).toEqual([85]);
    expect(blocks.filter((b) => b.abandoned).map((b) => b.height)).toEqual([85]);
    expect(runs.filter((r) => r.height === 85).map((r) => [r.run, r.again])).toEqual([
      [0, false],
      [1, false],
      [2, false],
      [0, true],
      [1, true],
      [2, true],
    ]);
  });

  it('beans, end-block and commit times, heap, inbound actions and triggers are the slog\'s', () => {
    const text = readFileSync(CHAIN_A, 'utf8');
    const entries = text.split('\n').filter((l) => l.includes('"cosmic-swingset-')).map((l) => JSON.parse(l) as Entry);
    const at = (type: string, height: number): Entry[] => entries.filter((e) => e.type === type && e.blockHeight === height);
    const b8 = blocks.find((b) => b.height === 8) as Entry;
    expect(b8.usedBeans).toBe(at('cosmic-swingset-run-finish', 8).reduce((n, e) => n + (e.usedBeans as number), 0));
    expect(b8.seconds).toBe(at('cosmic-swingset-end-block-finish', 8)[0]?.seconds);
    expect(b8.commitSeconds).toBe(at('cosmic-swingset-commit-block-finish', 8)[0]?.seconds);
    expect(b8.heapUsed).toBe(at('cosmic-swingset-after-commit-stats', 8)[0]?.memoryUsage.heapUsed);
    // Every execution's inbound actions and every run's trigger, as the plain loop finds them in the slog's lines.
    const facts = chainFacts(CHAIN_A);
    const sorted = (xs: unknown[]): string[] => xs.map((x) => JSON.stringify(x, Object.keys(x as object).sort())).sort();
    blocks.forEach((b, i) => expect(sorted(b.inbound as Entry[]), `block ${b.height}`).toEqual(sorted(facts.blocks[i]?.inbound ?? [])));
    expect(runs.map((r) => r.trigger.kind)).toEqual(facts.runs.map((r) => r.trigger));
    expect(new Set(facts.runs.map((r) => r.trigger))).toEqual(new Set(['bootstrap', 'leftover', 'timer', 'bridge', 'mailbox', 'cleanup']));
    // A bridge trigger names its message: each bridge-inbound, in slog order, starts one run.
    const bridgeRuns = runs.filter((r) => r.trigger.kind === 'bridge').map((r) => [r.trigger.source, r.trigger.messageType]);
    const bridgeInbound = entries.filter((e) => e.type === 'cosmic-swingset-bridge-inbound');
    expect(bridgeInbound.length).toBeGreaterThan(10);
    expect(bridgeRuns).toEqual(bridgeInbound.map((e) => [e.source, e.body.type]));
    // The timer is an inbound action only where its poll woke something.
    const timerBlocks = blocks.filter((b) => (b.inbound as Entry[]).some((a) => a.kind === 'timer')).map((b) => b.height);
    expect(timerBlocks).toEqual(entries.filter((e) => e.type === 'cosmic-swingset-timer-poll' && e.added === true).map((e) => e.blockHeight));
  });

  it('--busy leaves out the blocks without cranks; --blocks keeps those heights; --sort -n ranks', async () => {
    const head = plainLoop(CHAIN_A_HEAD);
    expect(head.blocks.map((b) => b.height)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const busy = await jsonLines(['blocks', '--json', '--busy', CHAIN_A_HEAD]);
    expect(busy.map((b) => b.height)).toEqual(head.blocks.filter((b) => b.cranks > 0).map((b) => b.height));
    expect(busy.length).toBeGreaterThan(5);
    const some = await jsonLines(['blocks', '--json', '--blocks', '7-8,13,27-', CHAIN_A_HEAD]);
    expect(some.map((b) => b.height)).toEqual([7, 8, 13, 27, 28, 29, 30]);
    expect(blocks.filter((b) => b.height === 85).length).toBe(2);
    const top = await jsonLines(['blocks', '--json', '--sort', 'computrons', '-n', '3', CHAIN_A_HEAD]);
    const byComputrons = [...head.blocks].sort((a, b) => b.computrons - a.computrons).slice(0, 3);
    expect(top.map((b) => b.height)).toEqual(byComputrons.map((b) => b.height));
    const slowest = await jsonLines(['blocks', '--json', '--sort', 'time', CHAIN_A_HEAD]);
    expect(slowest.length).toBe(10);
    const seconds = slowest.map((b) => b.seconds as number);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    expect(seconds[0]).toBe(Math.max(...blocks.filter((b) => (b.height as number) <= 30).map((b) => (b.seconds as number | null) ?? 0)));
    const busiestRuns = await jsonLines(['runs', '--json', '--busy', '--sort', 'cranks', '-n', '2', CHAIN_A_HEAD]);
    expect(busiestRuns.map((r) => r.cranks)).toEqual([...head.runs].map((r) => r.cranks).sort((a, b) => b - a).slice(0, 2));
    const blocks85 = await jsonLines(['runs', '--json', '--blocks', '85', CHAIN_A]);
    expect(blocks85.map((r) => [r.height, r.run, r.again])).toEqual(runs.filter((r) => r.height === 85).map((r) => [r.height, r.run, r.again]));
  });

  it('text: aligned columns, a line per block; markdown and csv: the same cells', async () => {
    const text = (await runMain(['blocks', '--blocks', '7-8,85', CHAIN_A])).stdout.split('\n');
    // (The only pass of the whole slog in this test: the others read its first 30 blocks.)
    expect(text[0]).toMatch(/^ {2}height {2}time \(UTC\) +since +lag {2}runs +cranks {2}deliveries +computrons +beans {2}end-block {2}commit {2}heap MiB {2}note {2}inbound$/);
    // Block 7's cells, each from the slog's lines, and its one inbound action, a mailbox delivery.
    const mailbox = chainFacts(CHAIN_A_HEAD).blocks.find((b) => b.height === 7)?.inbound;
    expect(mailbox).toEqual([{ kind: 'mailbox', sender: 'agoric1relayerB', count: 1, messages: 2 }]);
    const cells7 = blockCells(CHAIN_A_HEAD, 7).map(literal);
    expect(text[1]).toMatch(new RegExp(`^ +${cells7.slice(0, 4).join(' +')} {2}${cells7.slice(4).join(' +')} +mailbox agoric1relayerB \\(2 msgs\\)$`));
    expect(text[2]).toMatch(/ L T I3 .* bridge bank VBANK_BALANCE_UPDATE, bridge wallet WALLET_SPEND_ACTION ×2$/);
    expect(text[3]).toMatch(/^ +85 .* not committed \(restart\)$/);
    expect(text[4]).toMatch(/^ +85 .* again$/);
    expect(text.slice(1, 5).map((l) => l.indexOf(' L T'))).toEqual([text[1]?.indexOf(' L T'), text[1]?.indexOf(' L T'), text[1]?.indexOf(' L T'), text[1]?.indexOf(' L T')]);
    const md = (await runMain(['blocks', '--format', 'markdown', '--blocks', '8', CHAIN_A_HEAD])).stdout.split('\n');
    expect(md[0]).toMatch(/^\| height \| time \(UTC\) \| since \|/);
    expect(md[1]).toMatch(/^\| ---: \| --- \| ---: \|/);
    const cells8 = blockCells(CHAIN_A_HEAD, 8);
    expect(cells8[4]).toBe('L T I3');
    expect(md[2]).toMatch(new RegExp(`^\\| ${cells8.slice(0, 8).map(literal).join(' \\| ')} \\|`));
    const csv = (await runMain(['blocks', '--format', 'csv', '--blocks', '8', CHAIN_A_HEAD])).stdout.split('\r\n');
    expect(csv[0]).toBe('height,time (UTC),since,lag,runs,cranks,deliveries,computrons,beans,end-block,commit,heap MiB,note,inbound');
    expect(csv[1]).toBe(`${cells8.join(',')},,"bridge bank VBANK_BALANCE_UPDATE, bridge wallet WALLET_SPEND_ACTION ×2"`);
    const runsText = (await runMain(['runs', '--blocks', '8', CHAIN_A_HEAD])).stdout.split('\n');
    expect(runsText[0]).toMatch(/^ {2}height {2}run {2}phase +cranks {2}deliveries +computrons +beans {2}seconds {2}note +trigger$/);
    // Block 8's third run (run 2), its figures from the slog's lines.
    const run2 = chainFacts(CHAIN_A_HEAD).runs.find((r) => r.height === 8 && r.run === 2);
    const finish2 = linesOf(CHAIN_A_HEAD, 'cosmic-swingset-run-finish').find((e) => e.blockHeight === 8 && e.runNum === 2) as Entry;
    expect(run2?.trigger).toBe('bridge');
    const runCells = [8, 2, 'inbound', run2?.cranks, run2?.deliveries, run2?.computrons, run2?.usedBeans, finish2.seconds.toFixed(3)].map((c) => literal(String(c)));
    expect(runsText[3]).toMatch(new RegExp(`^ +${runCells.slice(0, 2).join(' +')} {2}${runCells.slice(2).join(' +')} +bridge bank VBANK_BALANCE_UPDATE$`));
  });

  it('stats: deliveries and computrons by run trigger, as the runs add up', async () => {
    const stats = JSON.parse((await runMain(['stats', '--json', CHAIN_A])).stdout) as Entry;
    const byKey = new Map<string, { cranks: number; deliveries: number; computrons: number }>();
    for (const r of runs) {
      const t = r.trigger as Entry;
      const key = t.kind === 'bridge' ? `bridge ${t.source} ${t.messageType}` : t.kind;
      const acc = byKey.get(key) ?? { cranks: 0, deliveries: 0, computrons: 0 };
      acc.cranks += r.cranks;
      acc.deliveries += r.deliveries;
      acc.computrons += r.computrons;
      byKey.set(key, acc);
    }
    const rows = (stats.deliveriesByTrigger as Entry[]).map((t) => [t.trigger, { cranks: t.cranks, deliveries: t.deliveries, computrons: t.computrons ?? 0 }]);
    expect(new Map(rows as Array<[string, unknown]>)).toEqual(new Map([...byKey].filter(([, v]) => v.cranks > 0)));
    expect(rows.map(([k]) => k)).toEqual(expect.arrayContaining(['bootstrap', 'mailbox', 'timer', 'leftover', 'bridge wallet WALLET_SPEND_ACTION']));
    const text = (await runMain(['stats', CHAIN_A_HEAD])).stdout;
    const boot = chainFacts(CHAIN_A_HEAD).runs.filter((r) => r.trigger === 'bootstrap');
    const sumOf = (f: 'cranks' | 'deliveries' | 'computrons'): number => boot.reduce((n, r) => n + r[f], 0);
    expect(text).toMatch(
      new RegExp(`\\nDeliveries by run trigger:\\ntrigger +cranks {2}deliveries {2}crank time {2}computrons +share\\nbootstrap +${sumOf('cranks')} +${sumOf('deliveries')} +\\d+\\.\\d\\d m?s +${sumOf('computrons')} +\\d+\\.\\d\\d%\\n`),
    );
    const benchmark = JSON.parse((await runMain(['stats', '--json', slogPath('a-xs-3')])).stdout) as Entry;
    expect(benchmark.deliveriesByTrigger).toEqual([]);
    expect((await runMain(['stats', slogPath('a-xs-3')])).stdout).not.toContain('by run trigger');
  });

  it('compare: computrons and end-block time per busy block, mean and p95, usable in --fail-on', async () => {
    const entries = readFileSync(CHAIN_A, 'utf8').split('\n').filter((l) => l.includes('"cosmic-swingset-end-block-finish"')).map((l) => JSON.parse(l) as Entry);
    const figures = (file: string): { busy: number; computrons: number[]; micros: number[] } => {
      // Busy: a block (not the bootstrap block) whose runs ran cranks; its time is its end-block-finish's seconds.
      const busy = plainLoop(file).blocks.filter((b) => b.height !== 1 && b.cranks > 0);
      const seconds = (h: number): number => entries.filter((e) => e.blockHeight === h).at(-1)?.seconds as number;
      return { busy: busy.length, computrons: busy.map((b) => b.computrons), micros: busy.map((b) => seconds(b.height) * 1e6) };
    };
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const p95 = (xs: number[]): number => [...xs].map(Math.round).sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1] as number;
    const base = figures(CHAIN_A);
    const head = figures(CHAIN_A_HEAD);
    const r = await runMain(['compare', '--format', 'json', '--fail-on', 'blocks.computrons.mean:+0', '--fail-on', 'blocks.time.p95:+1000%', CHAIN_A, CHAIN_A_HEAD]);
    const json = JSON.parse(r.stdout) as Entry;
    const rows = new Map<string, Entry>((json.sections as Entry[]).filter((x) => x.id === 'blocks' || x.id === 'blockTime').flatMap((x) => x.rows as Entry[]).map((x) => [x.key as string, x]));
    expect([...rows.keys()]).toEqual(['blocks.busy', 'blocks.computrons.mean', 'blocks.computrons.p95', 'blocks.time.mean', 'blocks.time.p95']);
    expect(rows.get('blocks.busy')).toMatchObject({ base: base.busy, head: head.busy });
    expect(rows.get('blocks.computrons.mean')?.base).toBeCloseTo(mean(base.computrons), 6);
    expect(rows.get('blocks.computrons.mean')?.head).toBeCloseTo(mean(head.computrons), 6);
    expect(rows.get('blocks.computrons.p95')).toMatchObject({ base: p95(base.computrons), head: p95(head.computrons) });
    expect(rows.get('blocks.time.mean')?.base).toBeCloseTo(mean(base.micros), 3);
    expect(rows.get('blocks.time.p95')).toMatchObject({ base: p95(base.micros), head: p95(head.micros) });
    expect((json.sections as Entry[]).map((x) => x.id)).toEqual(['cranks', 'deliveriesByVat', 'deliveriesByVatMethod', 'syscallsByType', 'computronsByVat', 'replays', 'blocks', 'time', 'timeByPart', 'blockTime']);
    // The head's busy blocks average more computrons than the whole slog's: the first threshold is exceeded.
    expect(mean(head.computrons)).toBeGreaterThan(mean(base.computrons));
    expect(json.thresholds.map((t: Entry) => [t.metric, t.exceeded])).toEqual([
      ['blocks.computrons.mean', true],
      ['blocks.time.p95', false],
    ]);
    expect(r.status).toBe(1);
    const none = await runMain(['compare', '--fail-on', 'blocks.busy:+0', slogPath('a-xs-3'), slogPath('a-xs-3')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe('slogulate: --fail-on: blocks.busy: neither slog has chain blocks\n');
    const text = (await runMain(['compare', CHAIN_A_HEAD, CHAIN_A_HEAD])).stdout;
    expect(text).toMatch(/\nPer busy block \(chain blocks that ran cranks\):\nper busy block +base +head +delta +delta%\nbusy blocks +\d+ +\d+ +0 +0\.00%\n/);
  });

  it('usage errors: -n without --sort, --sort with --follow, --blocks with --every, a bad --blocks', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['blocks', '-n', '3', CHAIN_A], /^slogulate: -n needs --sort/],
      [['blocks', '--sort', 'time', '--follow', CHAIN_A], /^slogulate: --sort waits for the end of the slog: not with --follow/],
      [['blocks', '--every', '10', '--blocks', '5', CHAIN_A], /^slogulate: --blocks selects chain blocks: not with --every or --round-marks/],
      [['runs', '--blocks', '9-3', CHAIN_A], /^slogulate: --blocks: bad block range "9-3" \(3 is before 9\)/],
      [['blocks', '--sort', 'beans', CHAIN_A], /^slogulate: option '--sort <key>' argument 'beans' is invalid/],
      [['blocks', '--follow', CHAIN_A, CHAIN_A], /^slogulate: --follow needs one slog file/],
    ];
    for (const [args, message] of cases) {
      const r = await runMain(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout, args.join(' ')).toBe('');
    }
  });
});

describe('the chain view on the other chain slogs', () => {
  it('chain-bot.slog and the same slog as per-block files give the same rows', async () => {
    const plain = await jsonLines(['blocks', '--json', join(REAL, 'chain-bot.slog')]);
    const bot = chainFacts(join(REAL, 'chain-bot.slog')).blocks;
    expect(bot.length).toBe(4);
    expect(plain.map((b) => [b.height, b.cranks, b.bootstrap])).toEqual(bot.map((b) => [b.height, b.cranks, b.bootstrap]));
    const perBlock = await jsonLines(['blocks', '--json', join(REAL, 'block-files-bot')]);
    expect(perBlock.map((b) => [b.height, b.cranks, b.deliveries, b.computrons, b.runs])).toEqual(
      plain.map((b) => [b.height, b.cranks, b.deliveries, b.computrons, b.runs]),
    );
  });

  it('the contextual form of chain-bot.slog gives its rows, though its writer dropped the bootstrap\'s run-start', async () => {
    expect(readFileSync(join(REAL, 'contextual-bot.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"cosmic-swingset-run-start"')).length).toBe(9);
    for (const command of ['blocks', 'runs']) {
      const contextual = await jsonLines([command, '--json', join(REAL, 'contextual-bot.jsonl')]);
      const plain = await jsonLines([command, '--json', join(REAL, 'chain-bot.slog')]);
      expect(contextual, command).toEqual(plain);
      expect(contextual.length).toBeGreaterThan(3);
    }
  });

  it('the render\'s block headers (--nonoise) of the per-block and contextual forms are chain-bot.slog\'s: block 1, not "bootstrap"; its runs from a run-finish whose run-start was dropped', async () => {
    const headers = async (slog: string): Promise<string[]> =>
      (await runMain(['--nonoise', slog])).stdout.split('\n').filter((l) => l.startsWith('// block '));
    const plain = await headers(join(REAL, 'chain-bot.slog'));
    expect(plain[0]).toMatch(/^\/\/ block 1 .*: runs forced:1, 15 cranks/);
    expect(await headers(join(REAL, 'block-files-bot'))).toEqual(plain);
    expect(await headers(join(REAL, 'contextual-bot.jsonl'))).toEqual(plain);
  });

  it('chain-shapes: an upgrade opens its block, an install failure is counted, a block cut short is unfinished', async () => {
    const rows = await jsonLines(['blocks', '--json', join(REAL, 'chain-shapes.synthetic.slog')]);
    expect(rows.map((b) => [b.height, b.upgrade, b.committed, b.finished])).toEqual([
      [19000000, true, true, true],
      [19000001, false, true, true],
      [19000002, false, false, false],
    ]);
    expect(rows[0]?.runs).toEqual({ forced: 1, leftover: 1 });
    expect(rows[1]?.inbound).toContainEqual({ kind: 'install-bundle', count: 1, errors: 1 });
    expect(rows[2]?.interBlockSeconds).toBe(null);
    const text = (await runMain(['blocks', join(REAL, 'chain-shapes.synthetic.slog')])).stdout;
    expect(text).toMatch(/19000002 .* unfinished\n$/);
  });

  it('a slog without blocks: a warning naming --every and --round-marks, the header only, exit 0', async () => {
    const r = await runMain(['blocks', slogPath('a-xs-3')]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').length).toBe(2);
    expect(r.stderr).toMatch(/a-xs-3\.slog: no chain blocks .* use --every N or --round-marks\n$/);
    const runs = await runMain(['runs', slogPath('a-xs-3')]);
    expect(runs.stderr).toMatch(/a-xs-3\.slog: no chain runs/);
  });
});

describe('blocks --every and --round-marks on a benchmark slog', () => {
  /** Crank figures of a fixture slog, by a plain loop: per crank-start, its number, live deliveries and computrons. */
  function plainCranks(file: string): Array<{ crankNum: number; deliveries: number; computrons: number }> {
    const cranks: Array<{ crankNum: number; deliveries: number; computrons: number }> = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as Entry;
      const crank = cranks[cranks.length - 1];
      if (e.type === 'crank-start') cranks.push({ crankNum: e.crankNum, deliveries: 0, computrons: 0 });
      else if (e.type === 'deliver' && e.replay !== true && crank) crank.deliveries += 1;
      else if (e.type === 'deliver-result' && e.replay !== true && crank && typeof e.dr?.[2]?.compute === 'number') crank.computrons += e.dr[2].compute;
    }
    return cranks;
  }
  const sum = (xs: Array<{ deliveries: number; computrons: number }>): { cranks: number; deliveries: number; computrons: number } => ({
    cranks: xs.length,
    deliveries: xs.reduce((n, x) => n + x.deliveries, 0),
    computrons: xs.reduce((n, x) => n + x.computrons, 0),
  });

  it('--every N: a row per N cranks, in slog order', async () => {
    const cranks = plainCranks(slogPath('a-xs-3'));
    const rows = await jsonLines(['blocks', '--every', '100', '--json', slogPath('a-xs-3')]);
    const expected = [];
    for (let i = 0; i < cranks.length; i += 100) {
      const part = cranks.slice(i, i + 100);
      expected.push({ group: `cranks ${part[0]?.crankNum}-${part[part.length - 1]?.crankNum}`, height: null, ...sum(part) });
    }
    expect(rows.map((r) => ({ group: r.group, height: r.height, cranks: r.cranks, deliveries: r.deliveries, computrons: r.computrons }))).toEqual(expected);
    expect(rows.every((r) => r.version === 1 && typeof r.seconds === 'number' && typeof r.time === 'string')).toBe(true);
    const text = (await runMain(['blocks', '--every', '100', slogPath('a-xs-3')])).stdout.split('\n');
    expect(text[0]).toMatch(/^group +time \(UTC\) +seconds {2}cranks {2}deliveries +computrons {2}note$/);
    expect(text[1]).toMatch(/^cranks 0-99 +\d{4}-\d\d-\d\dT[\d:.]+Z +\d+\.\d{3} +100 +\d+ +\d+$/);
    const top = await jsonLines(['blocks', '--every', '100', '--sort', 'computrons', '-n', '1', '--json', slogPath('a-xs-3')]);
    expect(top[0]?.computrons).toBe(Math.max(...expected.map((e) => e.computrons)));
  });

  it('--every N after a restart: a group names the lowest to the highest crank it holds, and says some ran again', async () => {
    // restart-replay.slog: cranks up to 54, a restart, cranks from 40 run again. A plain loop: the crank numbers in slog order, and whether each ran before.
    const nums: Array<{ crankNum: number; again: boolean }> = [];
    let starts = 0;
    let before = -1;
    let max = -1;
    for (const line of readFileSync(join(REAL, 'restart-replay.slog'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { type: string; crankNum?: number };
      if (e.type === 'kernel-init-start' && (starts += 1) > 1) before = max;
      if (e.type === 'crank-start' && typeof e.crankNum === 'number') {
        nums.push({ crankNum: e.crankNum, again: starts > 1 && e.crankNum <= before });
        max = Math.max(max, e.crankNum);
      }
    }
    expect(nums.some((n) => n.again)).toBe(true);
    const rows = await jsonLines(['blocks', '--every', '30', '--json', join(REAL, 'restart-replay.slog')]);
    const expected = [];
    for (let i = 0; i < nums.length; i += 30) {
      const part = nums.slice(i, i + 30).map((n) => n.crankNum);
      const [low, high] = [Math.min(...part), Math.max(...part)];
      expected.push({ group: low === high ? `crank ${low}` : `cranks ${low}-${high}`, again: nums.slice(i, i + 30).some((n) => n.again) });
    }
    expect(rows.map((r) => ({ group: r.group, again: r.again }))).toEqual(expected);
    const text = (await runMain(['blocks', '--every', '30', join(REAL, 'restart-replay.slog')])).stdout;
    expect(text.split('\n').filter((l) => l.endsWith('cranks run again after a restart')).length).toBe(expected.filter((e) => e.again).length);
  });

  it('--round-marks: a row per benchmark round, read from the slog\'s console entries', async () => {
    const ROUNDS: Array<[number, number]> = [
      [40, 90],
      [181, 260],
    ];
    const marked = join(dir, 'marked.slog');
    writeFileSync(marked, withRoundMarks(readFileSync(slogPath('a-xs-3'), 'utf8'), ROUNDS));
    const cranks = plainCranks(slogPath('a-xs-3'));
    const rows = await jsonLines(['blocks', '--round-marks', '--json', marked]);
    expect(rows.map((r) => ({ group: r.group, cranks: r.cranks, deliveries: r.deliveries, computrons: r.computrons }))).toEqual(
      ROUNDS.map(([s, e], i) => ({ group: `"demo" round ${i + 1}`, ...sum(cranks.filter((c) => c.crankNum >= s && c.crankNum <= e)) })),
    );
    const none = await runMain(['blocks', '--round-marks', slogPath('a-xs-3')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no benchmark round marks .* drop --round-marks\n$/);
  });
});
