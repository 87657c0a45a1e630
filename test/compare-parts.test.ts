/**
 * `compare`'s crank time by part (issue 28 item 6): `time.crank` and
 * `time.PART` in the "Crank time by part" section and in `--fail-on`, each
 * side's sums against a plain loop over the slog's lines
 * (test/time-split-loop.ts splits each crank; here its parts are summed per
 * side and per vat); a part unknown in some cranks is summed where known and
 * said so; chain-A against itself has every delta 0.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareJson, CompareRow } from '../src/analyses/compare/compare.js';
import { chainAHead, readableTime, readSlog, ROOT, slogPath, withRoundMarks } from './helpers.js';
import { runMain } from './run-main.js';
import { loopCranks, loopDeliveries, slogEntries } from './time-split-loop.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The metric names, in the order the section lists them, and the loop's figure each reads. */
const METRICS = ['time.crank', 'time.pageIn', 'time.replay', 'time.vat', 'time.syscall', 'time.pipe', 'time.snapshot', 'time.kernel', 'time.unknown', 'time.gc'] as const;
type Metric = (typeof METRICS)[number];
type Figures = Record<Metric, number>;

interface LoopParts {
  /** Sums over every crank with both ends (where a part is known). */
  whole: Figures;
  /** Cranks where a part is unknown (vat, pipe, gc: an unusable worker list). */
  unknownIn: Figures;
  /** The same per vat (delivery cranks), by vat ID. */
  byVat: Map<string, Figures>;
}

const zero = (): Figures => Object.fromEntries(METRICS.map((m) => [m, 0])) as Figures;

/** A crank's vat as the crank model reads it: its crank-start's, its message's, or its first entry's that names one (not create-vat). */
function vatOf(lines: readonly Json[]): string | undefined {
  const start = lines[0] as Json;
  if (start.crankType === 'routing') return undefined;
  return start.vatID ?? start.message?.vatID ?? lines.find((e) => e.type !== 'create-vat' && typeof e.vatID === 'string')?.vatID;
}

/** Each crank from a crank-start to its crank-finish (none across a kernel-init-start), as loopCranks takes them. */
function crankLines(entries: readonly Json[]): Json[][] {
  const out: Json[][] = [];
  let held: Json[] | undefined;
  for (const e of entries) {
    if (e.type === 'crank-start' || e.type === 'kernel-init-start') held = e.type === 'crank-start' ? [e] : undefined;
    else if (held) held.push(e);
    if (e.type === 'crank-finish' && held) {
      out.push(held);
      held = undefined;
    }
  }
  return out;
}

/**
 * Crank time by part summed by plain loops: loopCranks' split of each crank,
 * its deliveries' worker, pipe and GC µs (loopDeliveries, by crankNum); a
 * crank with a delivery whose list is unusable has vat and pipe unknown, its
 * deliveries' time less syscalls is unknown time.
 */
function loopParts(file: string): LoopParts {
  const entries = slogEntries(file);
  const cranks = loopCranks(entries);
  const lines = crankLines(entries);
  expect(lines.length).toBe(cranks.length);
  const deliveries = loopDeliveries(entries);
  const out: LoopParts = { whole: zero(), unknownIn: zero(), byVat: new Map() };
  cranks.forEach((c, i) => {
    const mine = deliveries.filter((d) => d.crankNum === c.crankNum);
    const known = mine.every((d) => d.worker !== undefined);
    const boyd = mine.filter((d) => d.dispatch === 'bringOutYourDead');
    const figures: Figures = {
      'time.crank': c.total,
      'time.pageIn': c.pageIn,
      'time.replay': c.replay,
      'time.vat': known ? mine.reduce((n, d) => n + (d.worker as number), 0) : 0,
      'time.syscall': c.syscall,
      'time.pipe': known ? mine.reduce((n, d) => n + (d.pipe as number), 0) : 0,
      'time.snapshot': c.snapshot,
      'time.kernel': c.kernel,
      'time.unknown': known ? 0 : c.vatAndPipe,
      'time.gc': boyd.reduce((n, d) => n + (d.gc ?? 0), 0),
    };
    // The deliveries found are the crank's: their vat and pipe are its deliveries' time less syscalls.
    if (known) expect(figures['time.vat'] + figures['time.pipe'], `crank ${c.crankNum}`).toBe(c.vatAndPipe);
    const vat = vatOf(lines[i] as Json[]);
    for (const target of vat === undefined ? [out.whole] : [out.whole, out.byVat.get(vat) ?? out.byVat.set(vat, zero()).get(vat)!]) {
      for (const m of METRICS) target[m] += figures[m];
    }
    if (!known) {
      out.unknownIn['time.vat'] += 1;
      out.unknownIn['time.pipe'] += 1;
    }
    if (boyd.some((d) => d.gc === undefined)) out.unknownIn['time.gc'] += 1;
  });
  return out;
}

async function compareJson(args: string[], status = 0): Promise<{ json: CompareJson; stderr: string }> {
  const r = await runMain(['compare', '--format', 'json', ...args]);
  expect(r.status, r.stderr).toBe(status);
  return { json: JSON.parse(r.stdout) as CompareJson, stderr: r.stderr };
}

const partRows = (json: CompareJson): CompareRow[] => json.sections.find((s) => s.id === 'timeByPart')?.rows ?? [];

/** The whole side's rows, by metric. */
function wholeRows(json: CompareJson): Map<string, CompareRow> {
  return new Map(partRows(json).filter((r) => r.vatID === undefined).map((r) => [r.key, r]));
}

describe('crank time by part against the plain loop', () => {
  it('a-local-3 (local worker) against a-xs-3 (XS: snapshots, pipe): every part of every side, in all and per vat', async () => {
    const base = loopParts(slogPath('a-local-3'));
    const head = loopParts(slogPath('a-xs-3'));
    const { json } = await compareJson([slogPath('a-local-3'), slogPath('a-xs-3')]);
    const whole = wholeRows(json);
    expect([...whole.keys()]).toEqual([...METRICS]);
    for (const m of METRICS) {
      expect([whole.get(m)?.base, whole.get(m)?.head], m).toEqual([base.whole[m], head.whole[m]]);
      expect(whole.get(m)?.delta, m).toBe(head.whole[m] - base.whole[m]);
      expect(whole.get(m)?.unknownIn, m).toBeUndefined();
    }
    // The slogs say what a local worker and an XS one do.
    expect(base.whole['time.snapshot']).toBe(0);
    expect(base.whole['time.pipe']).toBe(0);
    expect(head.whole['time.snapshot']).toBeGreaterThan(1_000_000);
    expect(head.whole['time.pipe']).toBeGreaterThan(100_000);
    // Per vat (both slogs name their vats alike: keyed by ID): every part that is not 0 on a side has its row.
    let checked = 0;
    for (const vat of new Set([...base.byVat.keys(), ...head.byVat.keys()])) {
      const b = base.byVat.get(vat) ?? zero();
      const h = head.byVat.get(vat) ?? zero();
      for (const m of METRICS) {
        const row = partRows(json).find((r) => r.key === `${m},vat=${vat}`);
        if (b[m] === 0 && h[m] === 0 && m !== 'time.crank') {
          expect(row, `${m},vat=${vat}`).toBeUndefined();
          continue;
        }
        expect([row?.base, row?.head], `${m},vat=${vat}`).toEqual([b[m], h[m]]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('chain-A against itself: every part as the loop sums it, every delta 0; snapshot and page-in are most of it', async () => {
    const loop = loopParts(CHAIN_A);
    const { json } = await compareJson([CHAIN_A, CHAIN_A]);
    const rows = partRows(json);
    expect(rows.length).toBeGreaterThan(50);
    for (const r of rows) {
      expect(r.delta, r.key).toBe(0);
      expect(r.base, r.key).toBe(r.head);
    }
    const whole = wholeRows(json);
    for (const m of METRICS) expect(whole.get(m)?.base, m).toBe(loop.whole[m]);
    // The parts without `within` add up to the crank total.
    const sum = (['time.pageIn', 'time.vat', 'time.syscall', 'time.pipe', 'time.snapshot', 'time.kernel', 'time.unknown'] as const).reduce((n, m) => n + loop.whole[m], 0);
    expect(sum).toBe(loop.whole['time.crank']);
    expect(loop.whole['time.snapshot'] + loop.whole['time.pageIn']).toBeGreaterThan(loop.whole['time.crank'] / 2);
    // v5 timer (crank 808's vat): its row is the loop's.
    for (const m of METRICS) {
      const row = rows.find((r) => r.key === `${m},vat=v5`);
      if (row) expect(row.base, m).toBe(loop.byVat.get('v5')?.[m]);
    }
    expect(rows.find((r) => r.key === 'time.snapshot,vat=v5')?.base).toBeGreaterThan(1_800_000);
  });
});

describe('per benchmark round', () => {
  it('each part is the rounds\' sum divided by the round count', async () => {
    const rounds = [
      [100, 150],
      [200, 250],
    ] as const;
    const file = join(dir, 'a-xs-3-rounds.slog');
    writeFileSync(file, withRoundMarks(readSlog('a-xs-3').toString('utf8'), rounds));
    const inRounds = loopCranks(slogEntries(slogPath('a-xs-3'))).filter((c) => rounds.some(([a, b]) => (c.crankNum as number) >= a && (c.crankNum as number) <= b));
    expect(inRounds.length).toBe(102);
    const { json } = await compareJson(['--round-marks', file, file]);
    const whole = wholeRows(json);
    const perRound = (pick: (c: (typeof inRounds)[number]) => number): number => inRounds.reduce((n, c) => n + pick(c), 0) / rounds.length;
    expect(whole.get('time.crank')?.head).toBe(perRound((c) => c.total));
    expect(whole.get('time.snapshot')?.head).toBe(perRound((c) => c.snapshot));
    expect(whole.get('time.kernel')?.base).toBe(perRound((c) => c.kernel));
    expect(whole.get('time.syscall')?.base).toBe(perRound((c) => c.syscall));
    expect(json.sections.find((s) => s.id === 'timeByPart')?.rows.every((r) => r.delta === 0)).toBe(true);
  });
});

describe('--fail-on on the parts', () => {
  it('time.snapshot:+0 trips where the head has more snapshot time (exit 1); time.vat,vat=... reads its vat', async () => {
    const head = chainAHead(dir);
    const base = loopParts(head);
    const full = loopParts(CHAIN_A);
    // Base: chain-A's first 30 blocks; head: all of it (more snapshots).
    const { json, stderr } = await compareJson(['--fail-on', 'time.snapshot:+0', '--fail-on', 'time.vat,vat=v5:+0', head, CHAIN_A], 1);
    expect(stderr).toBe('slogulate: 2 of 2 thresholds exceeded: time.snapshot:+0, time.vat,vat=v5:+0\n');
    const [snapshot, vat] = json.thresholds;
    expect(snapshot).toMatchObject({ metric: 'time.snapshot', base: base.whole['time.snapshot'], head: full.whole['time.snapshot'], exceeded: true });
    expect(vat).toMatchObject({ metric: 'time.vat,vat=v5', base: base.byVat.get('v5')?.['time.vat'], head: full.byVat.get('v5')?.['time.vat'], exceeded: true });
    expect(full.whole['time.snapshot']).toBeGreaterThan(base.whole['time.snapshot']);
    expect(json.exceeded).toBe(2);
  });

  it('the other way round it does not trip (exit 0), and time.page-in is time.pageIn', async () => {
    const r = await runMain(['compare', '--fail-on', 'time.snapshot:+0', '--fail-on', 'time.page-in:+0', '--fail-on', 'time.pageIn:+0', slogPath('a-xs-3'), slogPath('a-local-3')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const loop = { base: loopParts(slogPath('a-xs-3')), head: loopParts(slogPath('a-local-3')) };
    // The base's and the head's figures, after the metric, each a time for people.
    const line = (key: string): string[] => (r.stdout.split('\n').find((l) => l.startsWith(`${key} `)) ?? '').trim().split(/\s{2,}/).slice(1, 3);
    expect(line('time.snapshot')).toEqual([readableTime(loop.base.whole['time.snapshot'] as number), readableTime(0)]);
    expect(line('time.pageIn')).toEqual([readableTime(loop.base.whole['time.pageIn'] as number), readableTime(loop.head.whole['time.pageIn'] as number)]);
    expect(r.stdout).toMatch(/^no threshold exceeded \(3 checked\)$/m);
  });

  it('a part takes vat= only', async () => {
    const r = await runMain(['compare', '--fail-on', 'time.vat,method=deposit:+0', slogPath('a-xs-3'), slogPath('a-local-3')]);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr.split('\n')[0]).toBe("slogulate: --fail-on 'time.vat,method=deposit:+0': time.vat is crank time by part, per crank: it cannot be scoped by method (vat= only); expected METRIC[,vat=VAT][,method=METHOD]:LIMIT (see slogulate compare --help)");
  });
});

describe('a part unknown in some cranks', () => {
  /** a-xs-3 with the worker's list of one bringOutYourDead delivery cut short (a list of the wrong length: vat, pipe and gc unknown). */
  function cutList(): { file: string; crankNum: number } {
    const lines = readFileSync(slogPath('a-xs-3'), 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('"type":"deliver-result"') && l.includes('"dispatch":"bringOutYourDead"') && l.includes('"timestamps":['));
    const entry = JSON.parse(lines[i] as string) as Json;
    (entry.dr[2].timestamps as number[]).pop();
    lines[i] = JSON.stringify(entry);
    const file = join(dir, 'a-xs-3-cut.slog');
    writeFileSync(file, lines.join('\n'));
    return { file, crankNum: entry.crankNum as number };
  }

  it('is summed where known, and the section, the JSON and the threshold say so', async () => {
    const { file, crankNum } = cutList();
    const base = loopParts(slogPath('a-xs-3'));
    const head = loopParts(file);
    expect(head.unknownIn).toMatchObject({ 'time.vat': 1, 'time.pipe': 1, 'time.gc': 1 });
    const vatOfCrank = vatOf(crankLines(slogEntries(file)).find((c) => c[0]?.crankNum === crankNum) as Json[]) as string;
    const { json, stderr } = await compareJson(['--fail-on', 'time.vat:+0', '--fail-on', `time.gc,vat=${vatOfCrank}:+0`, '--fail-on', 'time.snapshot:+0', slogPath('a-xs-3'), file]);
    expect(stderr).toBe(
      [
        'slogulate: --fail-on time.vat: unknown in head 1 crank, compared over the cranks where it is known',
        `slogulate: --fail-on time.gc,vat=${vatOfCrank}: unknown in head 1 crank, compared over the cranks where it is known`,
        '',
      ].join('\n'),
    );
    const whole = wholeRows(json);
    for (const m of METRICS) expect([whole.get(m)?.base, whole.get(m)?.head], m).toEqual([base.whole[m], head.whole[m]]);
    expect(head.whole['time.unknown']).toBeGreaterThan(0);
    expect(head.whole['time.vat']).toBeLessThan(base.whole['time.vat']);
    expect(whole.get('time.vat')?.unknownIn).toEqual({ base: 0, head: 1 });
    expect(whole.get('time.pipe')?.unknownIn).toEqual({ base: 0, head: 1 });
    expect(whole.get('time.gc')?.unknownIn).toEqual({ base: 0, head: 1 });
    expect(whole.get('time.snapshot')?.unknownIn).toBeUndefined();
    expect(partRows(json).find((r) => r.key === `time.vat,vat=${vatOfCrank}`)?.unknownIn).toEqual({ base: 0, head: 1 });
    const [vat, gc, snapshot] = json.thresholds;
    expect(vat).toMatchObject({ base: base.whole['time.vat'], head: head.whole['time.vat'], unknownIn: { base: 0, head: 1 } });
    expect(gc?.unknownIn).toEqual({ base: 0, head: 1 });
    expect(snapshot?.unknownIn).toBeUndefined();

    const text = await runMain(['compare', '--fail-on', 'time.vat:+0', slogPath('a-xs-3'), file]);
    expect(text.stdout).toContain('unknown in some cranks, summed where known: vat (head 1 crank), pipe (head 1 crank), gc (of vat) (head 1 crank)');
    expect(text.stdout).toContain('\ntime.vat: unknown in head 1 crank, compared over the cranks where it is known\n');
  });
});
