/**
 * The one reading of the chain states (ChainTracker, chain.ts): on
 * hand-made lines, what each state opens, begins, finishes, ends, starts and
 * cuts short, in which order a ChainSink is told, and the figures it reads
 * (times, `seconds`, heap); then on chain-A.slog, every block and run the
 * tracker ends against what a plain loop over the slog's lines finds.
 * (chain.test.ts checks the cranks' stamps; the blocks and runs tables and
 * the block headers, which consume this reading, are checked in
 * src/analyses/chain/blocks.test.ts and test/chain-view.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SlogEntry } from '../scan/entry-types.js';
import { ChainTracker, triggerText, type ChainBlock, type ChainRun, type ChainSink } from './chain.js';

const REAL = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'slogs', 'real');

const h = (b: { ref: { height: number } } | undefined): string => (b === undefined ? '-' : String(b.ref.height));

/** A sink that writes down every call, in words. */
class Calls implements ChainSink {
  readonly calls: string[] = [];
  readonly blocks: ChainBlock[] = [];
  readonly runs: ChainRun[] = [];

  kernelStart(restart: boolean): void {
    this.calls.push(`kernel-start${restart ? ' restart' : ''}`);
  }
  blockOpen(block: ChainBlock): void {
    this.calls.push(`open ${h(block)}${block.ref.bootstrap ? ' bootstrap' : ''}${block.ref.upgrade ? ' upgrade' : ''}${block.ref.again ? ' again' : ''}`);
  }
  blockBegin(block: ChainBlock): void {
    this.calls.push(`begin ${h(block)}`);
  }
  blockFinish(block: ChainBlock): void {
    this.calls.push(`finish ${h(block)}`);
  }
  blockEnd(block: ChainBlock): void {
    const flags = (['finished', 'committed', 'abandoned'] as const).filter((k) => block[k]);
    this.calls.push(`end ${h(block)}${flags.map((f) => ` ${f}`).join('')}`);
    this.blocks.push(block);
  }
  runStart(run: ChainRun): void {
    this.calls.push(`run-start ${run.block === undefined ? '-' : run.block.height}/${run.ref.num} ${run.ref.phase} ${triggerText(run.ref.trigger)}${run.startless ? ' startless' : ''}`);
  }
  runEnd(run: ChainRun): void {
    this.calls.push(`run-end ${run.ref.num}${run.finished ? '' : ' cut'}`);
    this.runs.push(run);
  }
  inbound(inbound: { kind: string }, block: ChainBlock): void {
    this.calls.push(`inbound ${inbound.kind} ${h(block)}`);
  }
}

function read(entries: SlogEntry[], end = true): { tracker: ChainTracker; sink: Calls } {
  const sink = new Calls();
  const tracker = new ChainTracker(sink);
  for (const e of entries) tracker.entry(e);
  if (end) tracker.end();
  return { tracker, sink };
}

const T0 = 1700000000;
/** A block as today's nodes write it, from time t: begin-block to after-commit-stats, one leftover run. */
function block(height: number, t: number): SlogEntry[] {
  const b = { blockHeight: height, blockTime: T0 + 6 * height };
  return [
    { type: 'cosmic-swingset-begin-block', ...b, interBlockSeconds: 6.5, blockLagSeconds: 0.25, time: t },
    { type: 'cosmic-swingset-end-block-start', ...b, time: t + 0.125 },
    { type: 'cosmic-swingset-run-start', blockHeight: height, runNum: 0, phase: 'leftover', time: t + 0.25 },
    { type: 'cosmic-swingset-run-finish', blockHeight: height, runNum: 0, phase: 'leftover', usedBeans: 7, seconds: 0.0625, time: t + 0.375 },
    { type: 'cosmic-swingset-end-block-finish', ...b, seconds: 0.5, time: t + 0.75 },
    { type: 'cosmic-swingset-commit-block-start', ...b, time: t + 1 },
    { type: 'cosmic-swingset-commit-block-finish', ...b, seconds: 0.125, time: t + 1.25 },
    { type: 'cosmic-swingset-after-commit-stats', ...b, memoryUsage: { heapUsed: 4096 }, time: t + 1.5 },
  ];
}
const type = (t: string): ((e: SlogEntry) => boolean) => (e) => e.type === `cosmic-swingset-${t}`;
const without = (entries: SlogEntry[], ...types: string[]): SlogEntry[] => entries.filter((e) => !types.some((t) => type(t)(e)));

describe('ChainTracker: each state on hand-made lines', () => {
  it('a block: begin-block .. after-commit-stats; its times, seconds and heap', () => {
    const { sink } = read(block(10, 100));
    expect(sink.calls).toEqual(['open 10', 'begin 10', 'run-start 10/0 leftover leftover', 'run-end 0', 'finish 10', 'end 10 finished committed']);
    const [b] = sink.blocks;
    expect(b).toMatchObject({ blockTime: T0 + 60, openTime: 100, interBlockSeconds: 6.5, blockLagSeconds: 0.25, begun: true, endBlockTime: 100.125, commitTime: 101 });
    // seconds: the -finish's own `seconds`; elapsed: the time between -start and -finish.
    expect(b).toMatchObject({ seconds: 0.5, elapsed: 0.625, commitSeconds: 0.125, heapUsed: 4096, stats: true, abandoned: false });
    const [r] = sink.runs;
    expect(r).toMatchObject({ startTime: 100.25, finished: true, usedBeans: 7, seconds: 0.0625, startless: false });
  });

  it('-finish entries without `seconds` (older nodes): the time between -start and -finish', () => {
    const entries = block(10, 100).map((e) => {
      const { seconds, ...rest } = e as SlogEntry & { seconds?: number };
      return rest as SlogEntry;
    });
    const { sink } = read(entries);
    expect(sink.blocks[0]?.seconds).toBe(0.625);
    expect(sink.blocks[0]?.commitSeconds).toBe(0.25);
    expect(sink.runs[0]?.seconds).toBe(0.125);
  });

  it('after-commit-stats: the heap from memoryUsage.heapUsed, else heapStats.used_heap_size; none before the commit', () => {
    const stats = (fields: object): SlogEntry[] => block(10, 100).map((e) => (type('after-commit-stats')(e) ? { type: e.type, time: e.time, ...fields } : e));
    expect(read(stats({ heapStats: { used_heap_size: 512 } })).sink.blocks[0]?.heapUsed).toBe(512);
    expect(read(stats({})).sink.blocks[0]?.heapUsed).toBeUndefined();
    // An after-commit-stats before the commit (a slog cut and joined) ends nothing.
    const early = [...block(10, 100).slice(0, 5), block(10, 100)[7] as SlogEntry];
    expect(read(early, false).sink.calls.at(-1)).toBe('finish 10');
  });

  it('a slog whose nodes write no after-commit-stats: known when a committed block ends without one; then a block ends at its commit', () => {
    const { sink } = read([...without(block(10, 100), 'after-commit-stats'), ...without(block(11, 106), 'after-commit-stats')], false);
    expect(sink.calls.filter((c) => c.startsWith('end') || c.startsWith('open'))).toEqual(['open 10', 'end 10 finished committed', 'open 11', 'end 11 finished committed']);
    // Block 10 ended at block 11's begin-block, block 11 at its own commit, before the end of input.
    expect(sink.calls.indexOf('end 10 finished committed')).toBe(sink.calls.indexOf('open 11') - 1);
    expect(sink.calls.at(-1)).toBe('end 11 finished committed');
    expect(sink.blocks[1]?.stats).toBe(false);
  });

  it('the bootstrap block: the init names its height; -start opens and begins it, -finish finishes and ends it (no commit)', () => {
    const { sink, tracker } = read(
      [
        { type: 'cosmic-swingset-init', blockHeight: 1, time: 1 },
        { type: 'cosmic-swingset-bootstrap-block-start', blockTime: T0, time: 2 },
        { type: 'cosmic-swingset-run-start', blockHeight: 1, runNum: 0, phase: 'forced', time: 3 },
        { type: 'cosmic-swingset-run-finish', blockHeight: 1, runNum: 0, phase: 'forced', seconds: 1, time: 4 },
        { type: 'cosmic-swingset-bootstrap-block-finish', blockTime: T0, seconds: 18.5, time: 20 },
      ],
      false,
    );
    expect(sink.calls).toEqual(['open 1 bootstrap', 'begin 1', 'run-start 1/0 forced bootstrap', 'run-end 0', 'finish 1', 'end 1 finished']);
    expect(sink.blocks[0]).toMatchObject({ blockTime: T0, seconds: 18.5, elapsed: 18, committed: false });
    expect(tracker.block).toBeUndefined();
    expect(tracker.chain).toBe(true);
  });

  it('a bootstrap block whose init the slog lacks (a per-block file): its height from its first run-start, on the ref cranks already hold', () => {
    const sink = new Calls();
    const tracker = new ChainTracker(sink);
    tracker.entry({ type: 'cosmic-swingset-bootstrap-block-start', blockTime: T0, time: 2 });
    const ref = tracker.block;
    expect(ref?.height).toBeNaN();
    tracker.entry({ type: 'cosmic-swingset-run-start', blockHeight: 1, runNum: 0, phase: 'forced', time: 3 });
    expect(ref?.height).toBe(1);
    expect(sink.calls).toEqual(['open NaN bootstrap', 'begin NaN', 'run-start 1/0 forced bootstrap']);
  });

  it('an upgrade: its block opens at upgrade-start and goes on with the begin-block of its height; its cranks have the upgrade ref, later ones the begin-block\'s', () => {
    const b = { blockHeight: 20, blockTime: T0 + 120 };
    const sink = new Calls();
    const tracker = new ChainTracker(sink);
    const refs: Array<string | undefined> = [];
    for (const e of [
      { type: 'cosmic-swingset-upgrade-start', ...b, time: 1 },
      { type: 'cosmic-swingset-run-start', blockHeight: 20, runNum: 0, phase: 'forced', time: 2 },
      { type: 'cosmic-swingset-run-finish', blockHeight: 20, runNum: 0, phase: 'forced', time: 3 },
      { type: 'cosmic-swingset-upgrade-finish', ...b, time: 4 },
      ...block(20, 5),
    ]) {
      tracker.entry(e);
      refs.push(tracker.block === undefined ? undefined : `${tracker.block.height}${tracker.block.upgrade ? ' upgrade' : ''}`);
    }
    expect(sink.calls).toEqual([
      'open 20 upgrade',
      'run-start 20/0 forced upgrade',
      'run-end 0',
      'begin 20',
      'run-start 20/0 leftover leftover',
      'run-end 0',
      'finish 20',
      'end 20 finished committed',
    ]);
    expect(refs.slice(0, 5)).toEqual(['20 upgrade', '20 upgrade', '20 upgrade', undefined, '20']);
    // One block: the upgrade's ref, the begin-block's figures.
    expect(sink.blocks).toHaveLength(1);
    expect(sink.blocks[0]).toMatchObject({ ref: { height: 20, upgrade: true }, blockTime: T0 + 120, interBlockSeconds: 6.5, begun: true });
  });

  it('an upgrade followed by a begin-block of another height: two blocks', () => {
    const { sink } = read([{ type: 'cosmic-swingset-upgrade-start', blockHeight: 20, blockTime: T0, time: 1 }, { type: 'cosmic-swingset-upgrade-finish', blockHeight: 20, time: 2 }, ...block(21, 5)]);
    expect(sink.calls.slice(0, 4)).toEqual(['open 20 upgrade', 'end 20', 'open 21', 'begin 21']);
  });

  it('a run-finish whose run-start the slog lacks: the run of the bootstrap, of the upgrade, else unknown; outside every block, nothing', () => {
    const finish = (runNum: number, phase?: string): SlogEntry => ({ type: 'cosmic-swingset-run-finish', runNum, ...(phase ? { phase } : {}), usedBeans: 3, seconds: 0.5, time: 9 });
    const boot = read([{ type: 'cosmic-swingset-init', blockHeight: 1 }, { type: 'cosmic-swingset-bootstrap-block-start', time: 1 }, finish(0, 'forced')]);
    expect(boot.sink.calls).toContain('run-start 1/0 forced bootstrap startless');
    expect(boot.sink.runs[0]).toMatchObject({ startless: true, finished: true, startTime: undefined, usedBeans: 3, seconds: 0.5 });
    const upgrade = read([{ type: 'cosmic-swingset-upgrade-start', blockHeight: 20, time: 1 }, finish(0, 'forced')]);
    expect(upgrade.sink.calls).toContain('run-start 20/0 forced upgrade startless');
    const begun = read([...block(30, 1).slice(0, 2), finish(4)]);
    expect(begun.sink.calls).toContain('run-start 30/4 unknown unknown startless');
    // After end-block-finish (the block awaits its commit): the run has no block ref.
    const late = read([...block(30, 1).slice(0, 5), finish(5, 'cleanup')]);
    expect(late.sink.calls).toContain('run-start -/5 cleanup unknown startless');
    const outside = read([finish(0, 'forced')]);
    expect(outside.sink.calls).toEqual([]);
    expect(outside.tracker.run).toBeUndefined();
  });

  it('a run cut short: by end-block-finish, another run-start, another block; the tracker\'s run ends with it', () => {
    const start = (runNum: number): SlogEntry => ({ type: 'cosmic-swingset-run-start', blockHeight: 10, runNum, phase: 'inbound', time: 1 });
    const [begin, endStart, , , endFinish] = block(10, 0) as [SlogEntry, SlogEntry, SlogEntry, SlogEntry, SlogEntry];
    const { sink, tracker } = read([begin, endStart, start(0), start(1)], false);
    expect(sink.calls.slice(2)).toEqual(['run-start 10/0 inbound unknown', 'run-end 0 cut', 'run-start 10/1 inbound unknown']);
    expect(tracker.run?.num).toBe(1);
    tracker.entry(endFinish);
    expect(sink.calls.slice(5)).toEqual(['run-end 1 cut', 'finish 10']);
    expect(tracker.run).toBeUndefined();
    expect(sink.runs.map((r) => [r.finished, r.usedBeans, r.seconds])).toEqual([
      [false, undefined, undefined],
      [false, undefined, undefined],
    ]);
    const next = read([begin, start(0), ...block(11, 6)]);
    expect(next.sink.calls.slice(2, 6)).toEqual(['run-start 10/0 inbound unknown', 'run-end 0 cut', 'end 10', 'open 11']);
  });

  it('what came in: the next run\'s trigger, and the open block\'s inbound (a timer poll only when it woke something)', () => {
    const b = block(10, 100);
    const run = b[2] as SlogEntry;
    const came = (e: SlogEntry): ReturnType<typeof read> => read([b[0] as SlogEntry, b[1] as SlogEntry, e, run], false);
    const bridge = came({ type: 'cosmic-swingset-bridge-inbound', source: 'wallet', body: { type: 'WALLET_SPEND_ACTION' } });
    expect(bridge.sink.calls.slice(2)).toEqual(['inbound bridge 10', 'run-start 10/0 leftover bridge wallet WALLET_SPEND_ACTION']);
    const mail = came({ type: 'cosmic-swingset-deliver-inbound', sender: 'agoric1x', count: 3 });
    expect(mail.sink.calls.slice(2)).toEqual(['inbound mailbox 10', 'run-start 10/0 leftover mailbox agoric1x (3)']);
    expect(came({ type: 'cosmic-swingset-install-bundle', error: 'bad' }).sink.calls.slice(2)).toEqual(['inbound install-bundle 10', 'run-start 10/0 leftover install-bundle']);
    expect(came({ type: 'cosmic-swingset-inject-kernel-upgrade-events' }).sink.calls.slice(2)).toEqual(['inbound upgrade-events 10', 'run-start 10/0 leftover upgrade']);
    expect(came({ type: 'cosmic-swingset-timer-poll', added: false }).sink.calls.slice(2)).toEqual(['run-start 10/0 leftover timer']);
    expect(came({ type: 'cosmic-swingset-timer-poll', added: true }).sink.calls.slice(2)).toEqual(['inbound timer 10', 'run-start 10/0 leftover timer']);
    // What came in before a block opens is not the block's, nor its first run's trigger.
    const before = read([{ type: 'cosmic-swingset-bridge-inbound', source: 'wallet' }, ...b]);
    expect(before.sink.calls.slice(0, 3)).toEqual(['open 10', 'begin 10', 'run-start 10/0 leftover leftover']);
  });

  it('a restart: the open run is cut, the uncommitted block abandoned; blocks up to the highest seen before run again', () => {
    const { sink } = read([
      { type: 'kernel-init-start', time: 0 },
      ...block(10, 100),
      ...block(11, 106).slice(0, 3),
      { type: 'kernel-init-start', time: 110 },
      ...block(11, 120),
      ...block(12, 126),
    ]);
    expect(sink.calls.filter((c) => !c.startsWith('run') && !c.startsWith('begin') && !c.startsWith('finish'))).toEqual([
      'kernel-start',
      'open 10',
      'end 10 finished committed',
      'open 11',
      'end 11 abandoned',
      'kernel-start restart',
      'open 11 again',
      'end 11 finished committed',
      'open 12',
      'end 12 finished committed',
    ]);
    // The run was cut before its block was ended.
    expect(sink.calls.slice(sink.calls.indexOf('end 11 abandoned') - 1, sink.calls.indexOf('end 11 abandoned'))).toEqual(['run-end 0 cut']);
  });

  it('a restart after the commit, or in the bootstrap block: nothing abandoned', () => {
    const committed = read([...without(block(10, 100), 'after-commit-stats'), { type: 'kernel-init-start', time: 110 }]);
    expect(committed.sink.calls.at(-2)).toBe('end 10 finished committed');
    const boot = read([{ type: 'cosmic-swingset-bootstrap-block-start', time: 1 }, { type: 'kernel-init-start', time: 2 }]);
    expect(boot.sink.calls).toEqual(['open NaN bootstrap', 'begin NaN', 'end NaN', 'kernel-start']);
  });

  it('cosmic-swingset-init ends a block still open (not abandoned); a run open goes on', () => {
    const b = block(10, 100);
    const { sink, tracker } = read([...b.slice(0, 3), { type: 'cosmic-swingset-init', blockHeight: 40 }], false);
    expect(sink.calls.at(-1)).toBe('end 10');
    expect(tracker.run?.num).toBe(0);
  });

  it('a -finish whose height or blockTime does not match its -start: still the open block\'s', () => {
    const b = block(10, 100).map((e) => (type('end-block-finish')(e) ? { ...e, blockHeight: 11 } : type('commit-block-finish')(e) ? { ...e, blockTime: 5 } : e));
    const { sink } = read(b);
    expect(sink.calls.slice(-2)).toEqual(['finish 10', 'end 10 finished committed']);
    expect(sink.blocks[0]).toMatchObject({ seconds: 0.5, commitSeconds: 0.125 });
  });

  it('a slog that starts inside a block: no block opens before the next opener; a run-start there is a run of the block its blockHeight names, its cranks stamped with it', () => {
    const b = block(10, 100);
    const { sink, tracker } = read([...b.slice(1, 2), ...b.slice(4), ...b.slice(2, 3)], false);
    expect(sink.calls).toEqual(['run-start 10/0 leftover leftover']);
    expect(tracker.block).toMatchObject({ height: 10, bootstrap: false, again: false });
    expect(tracker.chain).toBe(false);
    tracker.entry(block(11, 106)[0] as SlogEntry);
    expect(sink.calls.slice(1)).toEqual(['run-end 0 cut', 'open 11', 'begin 11']);
  });

  it('the end of input: the open run is cut and the open block ends as it is', () => {
    const { sink } = read(block(10, 100).slice(0, 3));
    expect(sink.calls).toEqual(['open 10', 'begin 10', 'run-start 10/0 leftover leftover', 'run-end 0 cut', 'end 10']);
  });

  it('entries of no chain state change nothing', () => {
    const { sink, tracker } = read([
      { type: 'kernel-stats', stats: {} },
      { type: 'cosmic-swingset-snapshot-start', blockHeight: 3 },
      { type: 'crank-start', crankNum: 1, crankType: 'delivery' },
      { type: 'create-vat', vatID: 'v1' },
    ]);
    expect(sink.calls).toEqual([]);
    expect(tracker.chain).toBe(false);
  });
});

type Line = Record<string, any>;

interface PlainBlock {
  height: number;
  blockTime: number;
  interBlockSeconds?: number;
  blockLagSeconds?: number;
  seconds?: number;
  elapsed?: number;
  commitSeconds?: number;
  heapUsed?: number;
  again: boolean;
  bootstrap: boolean;
  finished: boolean;
  committed: boolean;
  abandoned: boolean;
}

interface PlainRun {
  height: number | undefined;
  num: number;
  phase: string;
  finished: boolean;
  usedBeans?: number;
  seconds?: number;
}

/**
 * chain-A's blocks and runs by a plain loop over its lines: a block from its
 * begin-block (bootstrap-block-start) to its after-commit-stats
 * (bootstrap-block-finish), or to a restart; a run from its run-start to its
 * run-finish, or to a restart.
 */
function plainChain(file: string): { blocks: PlainBlock[]; runs: PlainRun[] } {
  const blocks: PlainBlock[] = [];
  const runs: PlainRun[] = [];
  let open: (PlainBlock & { endStart?: number; commitStart?: number; start?: number }) | undefined;
  let run: (PlainRun & { start: number }) | undefined;
  let starts = 0;
  let max = -1;
  let maxBefore = -1;
  let initHeight = NaN;
  const close = (): void => {
    if (!open) return;
    const { endStart, commitStart, start, ...b } = open;
    blocks.push(b);
    open = undefined;
  };
  const endRun = (finish: Line | undefined): void => {
    if (!run) return;
    const { start, ...r } = run;
    runs.push(finish ? { ...r, finished: true, usedBeans: finish.usedBeans, seconds: finish.seconds } : r);
    run = undefined;
  };
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text.trim()) continue;
    const e = JSON.parse(text) as Line;
    switch (e.type) {
      case 'kernel-init-start':
        endRun(undefined);
        if (open && !open.committed && !open.bootstrap) open.abandoned = true;
        close();
        starts += 1;
        if (starts > 1) maxBefore = max;
        break;
      case 'cosmic-swingset-init':
        initHeight = e.blockHeight;
        break;
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-begin-block': {
        const boot = e.type === 'cosmic-swingset-bootstrap-block-start';
        const height = boot ? initHeight : e.blockHeight;
        open = { height, blockTime: e.blockTime, again: starts > 1 && height <= maxBefore, bootstrap: boot, finished: false, committed: false, abandoned: false, start: e.time };
        if (!boot) Object.assign(open, { interBlockSeconds: e.interBlockSeconds ?? undefined, blockLagSeconds: e.blockLagSeconds ?? undefined });
        max = Math.max(max, height);
        break;
      }
      case 'cosmic-swingset-end-block-start':
        if (open) open.endStart = e.time;
        break;
      case 'cosmic-swingset-end-block-finish':
      case 'cosmic-swingset-bootstrap-block-finish':
        endRun(undefined);
        if (!open) break;
        open.seconds = e.seconds;
        open.elapsed = e.time - ((e.type === 'cosmic-swingset-end-block-finish' ? open.endStart : open.start) as number);
        open.finished = true;
        if (open.bootstrap) close();
        break;
      case 'cosmic-swingset-commit-block-start':
        if (open) open.commitStart = e.time;
        break;
      case 'cosmic-swingset-commit-block-finish':
        if (!open) break;
        open.commitSeconds = e.seconds;
        open.committed = true;
        break;
      case 'cosmic-swingset-after-commit-stats':
        if (!open) break;
        open.heapUsed = e.memoryUsage.heapUsed;
        close();
        break;
      case 'cosmic-swingset-run-start':
        run = { height: open?.height, num: e.runNum, phase: e.phase, finished: false, start: e.time };
        break;
      case 'cosmic-swingset-run-finish':
        endRun(e);
        break;
      default:
        break;
    }
  }
  endRun(undefined);
  close();
  return { blocks, runs };
}

/** The same fields of the blocks and runs the tracker ends. */
function trackedChain(file: string): { blocks: PlainBlock[]; runs: PlainRun[] } {
  const blocks: PlainBlock[] = [];
  const runs: PlainRun[] = [];
  const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  const tracker = new ChainTracker({
    blockEnd: (b) =>
      blocks.push(
        defined({
          height: b.ref.height,
          blockTime: b.blockTime as number,
          again: b.ref.again,
          bootstrap: b.ref.bootstrap,
          finished: b.finished,
          committed: b.committed,
          abandoned: b.abandoned,
          interBlockSeconds: b.interBlockSeconds,
          blockLagSeconds: b.blockLagSeconds,
          seconds: b.seconds,
          elapsed: b.elapsed,
          commitSeconds: b.commitSeconds,
          heapUsed: b.heapUsed,
        }),
      ),
    runEnd: (r) => runs.push(defined({ height: r.block?.height, num: r.ref.num, phase: r.ref.phase, finished: r.finished, usedBeans: r.usedBeans, seconds: r.seconds })),
  });
  for (const text of readFileSync(file, 'utf8').split('\n')) if (text.trim()) tracker.entry(JSON.parse(text) as SlogEntry);
  tracker.end();
  return { blocks, runs };
}

describe('ChainTracker on chain-A.slog against a plain loop', () => {
  const file = join(REAL, 'chain-A.slog');
  const plain = plainChain(file);
  const tracked = trackedChain(file);

  it('every block: height, times, seconds, commit, heap, again, abandoned', () => {
    // 170 begin-blocks (block 85 twice) and the bootstrap block.
    expect(plain.blocks).toHaveLength(171);
    expect(plain.blocks.filter((b) => b.abandoned).map((b) => b.height)).toEqual([85]);
    expect(plain.blocks.filter((b) => b.again).map((b) => b.height)).toEqual([85]);
    expect(tracked.blocks.length).toBe(plain.blocks.length);
    for (let i = 0; i < plain.blocks.length; i += 1) {
      const p = plain.blocks[i] as PlainBlock;
      const t = tracked.blocks[i] as PlainBlock;
      const { elapsed: pe, ...pRest } = p;
      const { elapsed: te, ...tRest } = t;
      expect(tRest, `block ${i}: ${p.height}`).toEqual(pRest);
      expect(te, `block ${p.height} elapsed`).toBeCloseTo(pe as number, 9);
    }
  });

  it('every run: its block, number, phase, beans and seconds; the runs the restart cut', () => {
    expect(plain.runs).toHaveLength(511);
    expect(plain.runs.filter((r) => !r.finished).length).toBe(tracked.runs.filter((r) => !r.finished).length);
    expect(tracked.runs).toEqual(plain.runs);
  });
});
