/**
 * `slogulate diverge A B` on real slogs and on copies changed as a diverging
 * node's slog would be: the expected crank, block, entry and field are found
 * by a plain loop over the JSON lines (facts below), never by the command.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divergeOf } from '../src/run/diverge.js';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-diverge-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Entry = Record<string, any>;

/** The slog's lines, each parsed (blank lines left out). */
function entriesOf(path: string): Entry[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Entry);
}

const writeSlog = (name: string, entries: readonly Entry[]): string => {
  const path = join(dir, name);
  writeFileSync(path, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return path;
};

/** Facts of a slog, by a plain loop: each crank-finish's crank number and block, and per line the crank it is in. */
function crankFacts(entries: readonly Entry[]): { finishes: Array<{ crankNum: number; block: number | undefined }>; blockOfLine: Array<number | undefined> } {
  let block: number | undefined;
  const finishes: Array<{ crankNum: number; block: number | undefined }> = [];
  const blockOfLine: Array<number | undefined> = [];
  for (const e of entries) {
    // A chain entry names its block (the bootstrap block's cosmic-swingset-init, then each begin-block, run-start...).
    if (String(e.type).startsWith('cosmic-swingset-') && typeof e.blockHeight === 'number') block = e.blockHeight;
    blockOfLine.push(block);
    if (e.type === 'crank-finish') finishes.push({ crankNum: e.crankNum, block });
  }
  return { finishes, blockOfLine };
}

/** The vat's name from its create-vat entry. */
const vatName = (entries: readonly Entry[], vatID: string): string | undefined => entries.find((e) => e.type === 'create-vat' && e.vatID === vatID && e.name)?.name;

/** A message delivery's method (smallcaps methargs), else its kind. */
function methodOfDeliver(e: Entry): string {
  if (e.kd[0] !== 'message') return e.kd[0];
  return JSON.parse(e.kd[2].methargs.body.replace(/^#/, ''))[0];
}

/**
 * A node that diverged at one syscall: the value of the first live
 * vatstoreSet in a crank after `after` (that crank number run once) is
 * changed, that crank's crankhash too, and every later activityhash (it is
 * cumulative), as a real divergent node's slog would show. Returns the
 * changed slog's entries and what the divergence is, as the loop saw it.
 */
function divergedCopy(entries: readonly Entry[], after: number) {
  const copy = entries.map((e) => structuredClone(e));
  const runs = new Map<number, number>();
  for (const e of entries) if (e.type === 'crank-finish') runs.set(e.crankNum, (runs.get(e.crankNum) ?? 0) + 1);
  const at = copy.findIndex((e) => e.type === 'syscall' && e.ksc?.[0] === 'vatstoreSet' && e.replay !== true && e.crankNum > after && runs.get(e.crankNum) === 1);
  const syscall = copy[at] as Entry;
  const crankNum: number = syscall.crankNum;
  syscall.ksc[3] = `${syscall.ksc[3]}-changed`;
  syscall.vsc[2] = syscall.ksc[3];
  for (const e of copy) {
    if (e.type !== 'crank-finish' || e.crankNum < crankNum) continue;
    if (e.crankNum === crankNum) e.crankhash = e.crankhash.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    e.activityhash = e.activityhash.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
  }
  const start = copy.findIndex((e) => e.type === 'crank-start' && e.crankNum === crankNum);
  const deliver = copy.slice(start).find((e) => e.type === 'deliver' && e.replay !== true) as Entry;
  // Its place among the crank's live syscalls, where the slog has no syscallNum.
  const index = copy.slice(start, at).filter((e) => e.type === 'syscall' && e.replay !== true).length;
  return { copy, at, crankNum, vatID: deliver.vatID as string, method: methodOfDeliver(deliver), syscallNum: (syscall.syscallNum ?? index) as number };
}

describe('diverge: a slog against itself', () => {
  it.each(['a-xs-3', 'a-local-3'])('%s: no divergence, every crank compared by crankhash, every delivery timed', async (name) => {
    const entries = entriesOf(slogPath(name));
    const { finishes } = crankFacts(entries);
    const deliveries = entries.filter((e) => e.type === 'deliver-result' && e.replay !== true);
    const computrons = deliveries.filter((e) => typeof e.dr?.[2]?.compute === 'number');
    const { result } = await divergeOf({ a: { inputs: [slogPath(name)] }, b: { inputs: [slogPath(name)] }, compareEntries: true });
    expect(result.diverged).toBe(false);
    expect(result.first).toBeUndefined();
    expect(result.compared.cranks).toBe(finishes.length);
    expect(result.compared.byHash).toBe(finishes.length);
    expect(result.compared.firstCrank).toBe(finishes[0]?.crankNum);
    expect(result.compared.lastCrank).toBe(finishes.at(-1)?.crankNum);
    expect(result.timing.deliveries).toBe(deliveries.length);
    expect(result.timing.microsA).toBe(result.timing.microsB);
    expect(result.deliveries.computronsCompared).toBe(computrons.length);
    expect(result.deliveries.mismatches + result.deliveries.onlyA + result.deliveries.onlyB).toBe(0);
    expect(result.entriesOnly.cranks).toBe(0);
  });

  it('chain-A: exit 0, the verdict says what was compared (cranks and blocks)', async () => {
    const { finishes } = crankFacts(entriesOf(CHAIN_A));
    const blocks = finishes.map((f) => f.block).filter((b): b is number => b !== undefined);
    const r = await runInProcess(['diverge', CHAIN_A, CHAIN_A]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const range = `cranks ${finishes[0]?.crankNum}-${finishes.at(-1)?.crankNum}, blocks ${blocks[0]}-${blocks.at(-1)}`;
    expect(r.stdout.split('\n')[0]).toBe(`no divergence: ${finishes.length} cranks compared (${range}), by crankhash`);
    expect(r.stdout).toContain(`\ncompared: ${range} (${finishes.length} cranks, by crankhash)\n`);
  });
});

describe('diverge: a node that diverged at one syscall', () => {
  it('chain-A: the crank, its block, vat and method, the syscall and the field; later cranks marked by activityhash', async () => {
    const entries = entriesOf(CHAIN_A);
    const d = divergedCopy(entries, 1400);
    const changed = writeSlog('chain-A-diverged.slog', d.copy);
    const { finishes, blockOfLine } = crankFacts(entries);
    const later = new Set(finishes.filter((f) => f.crankNum > d.crankNum).map((f) => f.crankNum));
    const block = blockOfLine[d.at] as number;
    const what = `${d.vatID} ${vatName(entries, d.vatID)}, ${d.method}`;

    const { result } = await divergeOf({ a: { inputs: [CHAIN_A] }, b: { inputs: [changed] } });
    expect(result.diverged).toBe(true);
    expect(result.first?.crankNum).toBe(d.crankNum);
    expect(result.first?.by).toBe('crankhash');
    expect(result.first?.blockA).toBe(block);
    expect(result.first?.difference?.path).toBe('ksc[3]');
    expect(result.first?.difference?.valueB).toBe(JSON.stringify(d.copy[d.at]?.ksc[3]));
    expect(result.after.cranks).toBe(later.size);
    // Only the one crankhash was changed: every later one agrees again; every later activityhash differs.
    expect(result.after.agreeAgain).toBe(later.size);
    expect(result.after.activityDiffers).toBe(later.size);
    expect(result.deliveries.mismatches + result.deliveries.onlyA + result.deliveries.onlyB).toBe(0);

    const r = await runInProcess(['diverge', CHAIN_A, changed]);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(`diverged at block ${block}, crank ${d.crankNum} (${what}): syscall ${d.syscallNum} vatstoreSet value differs`);
  });

  it('without hashes (a-local-3, crankhash and activityhash removed): found by the entries, crank by crank', async () => {
    const entries = entriesOf(slogPath('a-local-3'));
    const d = divergedCopy(entries, 100);
    const strip = (list: readonly Entry[]): Entry[] =>
      list.map((e) => {
        const { crankhash: _c, activityhash: _a, ...rest } = e;
        return rest;
      });
    const a = writeSlog('a-local-3-nohash.slog', strip(entries));
    const b = writeSlog('a-local-3-nohash-changed.slog', strip(d.copy));
    const what = `${d.vatID} ${vatName(entries, d.vatID)}, ${d.method}`;
    const { result } = await divergeOf({ a: { inputs: [a] }, b: { inputs: [b] } });
    expect(result.first?.by).toBe('entries');
    expect(result.first?.crankNum).toBe(d.crankNum);
    expect(result.compared.byHash).toBe(0);
    expect(result.after.activityCompared).toBe(0);
    const r = await runInProcess(['diverge', a, b]);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(`diverged at crank ${d.crankNum} (${what}): syscall ${d.syscallNum} vatstoreSet value differs`);
    expect(r.stdout).toContain(", by their entries: no crankhash");
  });

  it('a-local-3 against b-local-5: the first crank whose crankhash differs', async () => {
    const hashes = (name: string): Map<number, string> =>
      new Map(entriesOf(slogPath(name)).filter((e) => e.type === 'crank-finish').map((e) => [e.crankNum as number, e.crankhash as string]));
    const a = hashes('a-local-3');
    const b = hashes('b-local-5');
    const first = [...a.keys()].filter((n) => b.has(n) && b.get(n) !== a.get(n)).sort((x, y) => x - y)[0];
    const { result } = await divergeOf({ a: { inputs: [slogPath('a-local-3')] }, b: { inputs: [slogPath('b-local-5')] } });
    expect(result.first?.crankNum).toBe(first);
    expect(result.compared.cranks).toBe([...a.keys()].filter((n) => b.has(n)).length);
  });
});

describe('diverge: computrons', () => {
  it('a-xs-3 with one delivery\'s computrons changed: that mismatch, and nothing else', async () => {
    const entries = entriesOf(slogPath('a-xs-3'));
    const copy = entries.map((e) => structuredClone(e));
    const dr = copy.filter((e) => e.type === 'deliver-result' && e.replay !== true && typeof e.dr?.[2]?.compute === 'number')[20] as Entry;
    const was: number = dr.dr[2].compute;
    dr.dr[2].compute = was + 7;
    const b = writeSlog('a-xs-3-compute.slog', copy);
    const { result } = await divergeOf({ a: { inputs: [slogPath('a-xs-3')] }, b: { inputs: [b] }, compareEntries: true });
    expect(result.diverged).toBe(true);
    expect(result.first).toBeUndefined();
    expect(result.deliveries.mismatches).toBe(1);
    expect(result.deliveries.mismatchList[0]).toMatchObject({ crankNum: dr.crankNum, vatID: dr.vatID, deliveryNum: dr.deliveryNum, computronsA: was, computronsB: was + 7 });
    expect(result.entriesOnly.cranks).toBe(0);
    expect(result.deliveries.onlyA + result.deliveries.onlyB + result.gaps.onlyA + result.gaps.onlyB).toBe(0);
    const r = await runInProcess(['diverge', slogPath('a-xs-3'), b]);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(/^diverged: 1 delivery with other computrons \(first: v\d+ delivery \d+ /);
  });
});

describe('diverge: entries the crankhash does not cover', () => {
  it('a-local-3 with one console line changed: no divergence; with --entries, that crank counted and said', async () => {
    const entries = entriesOf(slogPath('a-local-3'));
    const copy = entries.map((e) => structuredClone(e));
    const consoles = copy.filter((e) => e.type === 'console' && typeof e.crankNum === 'number');
    const line = consoles[Math.floor(consoles.length / 2)] as Entry;
    line.args = [...line.args, 'changed'];
    const b = writeSlog('a-local-3-console.slog', copy);
    const plain = await runInProcess(['diverge', slogPath('a-local-3'), b]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).not.toContain('entries differ');
    const { result } = await divergeOf({ a: { inputs: [slogPath('a-local-3')] }, b: { inputs: [b] }, compareEntries: true });
    expect(result.diverged).toBe(false);
    expect(result.entriesOnly).toMatchObject({ looked: true, cranks: 1, first: { crankNum: line.crankNum, difference: { labelA: 'console', path: 'args[' + String(line.args.length - 1) + ']' } } });
    const r = await runInProcess(['diverge', '--entries', slogPath('a-local-3'), b]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Cranks whose crankhashes agree and entries differ: 1 (first: crank ${line.crankNum} `);
  });
});

describe('diverge: reading side by side', () => {
  it('a side ahead waits for the other: with a window of 5 cranks neither holds the whole slog, and the result is the same', async () => {
    const d = divergedCopy(entriesOf(slogPath('a-xs-3')), 150);
    const b = writeSlog('a-xs-3-window.slog', d.copy);
    const cranks = crankFacts(d.copy).finishes.length;
    const wide = await divergeOf({ a: { inputs: [slogPath('a-xs-3')] }, b: { inputs: [b] } });
    const narrow = await divergeOf({ a: { inputs: [slogPath('a-xs-3')] }, b: { inputs: [b] }, window: 5 });
    expect(narrow.result).toEqual(wide.result);
    expect(narrow.maxQueued).toBeLessThan(cranks / 4);
  });
});

describe('diverge: which node was slower', () => {
  it('a-xs-3 with one delivery half a second longer on B (its result later, the worker\'s clock unchanged): that delivery first, its vat, and the pipe part', async () => {
    const entries = entriesOf(slogPath('a-xs-3'));
    const copy = entries.map((e) => structuredClone(e));
    const at = copy.findIndex((e, i) => i > copy.length / 2 && e.type === 'deliver-result' && e.replay !== true && Array.isArray(e.dr?.[2]?.timestamps));
    const dr = copy[at] as Entry;
    // Half a second later from the result on: every later entry too, so that the slog's clock still runs forward.
    for (const e of copy.slice(at)) if (typeof e.time === 'number') e.time += 0.5;
    const b = writeSlog('a-xs-3-slow.slog', copy);
    const vat = `${dr.vatID} ${vatName(entries, dr.vatID)}`;
    const { result } = await divergeOf({ a: { inputs: [slogPath('a-xs-3')] }, b: { inputs: [b] } });
    expect(result.diverged).toBe(false);
    const t = result.timing;
    expect(t.largest[0]).toMatchObject({ crankNum: dr.crankNum, vatID: dr.vatID, deliveryNum: dr.deliveryNum });
    const slower = (row: { microsA: number; microsB: number } | undefined): number => (row ? row.microsB - row.microsA : NaN);
    expect(Math.abs(slower(t.largest[0]) - 500_000)).toBeLessThanOrEqual(1);
    expect(t.byVat[0]?.key).toBe(vat);
    expect(Math.abs(slower(t.byVat[0]) - 500_000)).toBeLessThanOrEqual(1);
    expect(Math.abs(t.microsB - t.microsA - 500_000)).toBeLessThanOrEqual(1);
    // The worker's own clock did not move: the time went to the pipe, not to vat code.
    const part = (name: string) => t.parts.find((p) => p.part === name);
    expect(Math.abs(slower(part('pipe')) - 500_000)).toBeLessThanOrEqual(1);
    expect(Math.abs(slower(part('vat')))).toBeLessThanOrEqual(1);
    const r = await runInProcess(['diverge', slogPath('a-xs-3'), b]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/B\/A 1\.\d\d: B slower\n/);
  });
});

describe('diverge: different ranges', () => {
  it('chain-A against its own tail (a dump that begins inside a crank): the overlap is compared and said', async () => {
    const lines = readFileSync(CHAIN_A, 'utf8').split(/(?<=\n)/);
    // The first line of the tail: inside a crank, after its crank-start.
    const cut = lines.findIndex((l, i) => i > 25_000 && l.includes('"type":"syscall"'));
    const tail = join(dir, 'chain-A-tail.slog');
    writeFileSync(tail, lines.slice(cut).join(''));
    const entries = lines.map((l) => JSON.parse(l) as Entry);
    const { finishes } = crankFacts(entries);
    const firstTail = entries[cut]?.crankNum as number;
    const tailFinishes = finishes.filter((f) => f.crankNum >= firstTail);
    const tailBlocks = crankFacts(entries.slice(cut)).finishes.map((f) => f.block).filter((b) => b !== undefined);

    const { result } = await divergeOf({ a: { inputs: [CHAIN_A] }, b: { inputs: [tail] } });
    expect(result.diverged).toBe(false);
    expect(result.b.beganInside).toBe(true);
    expect(result.compared.firstCrank).toBe(firstTail);
    expect(result.compared.lastCrank).toBe(finishes.at(-1)?.crankNum);
    expect(result.compared.cranks).toBe(tailFinishes.length);
    expect(result.compared.partial).toBe(1);
    expect(result.b.lastBlock).toBe(tailBlocks.at(-1));

    const r = await runInProcess(['diverge', CHAIN_A, tail]);
    expect(r.status).toBe(0);
    const out = r.stdout.split('\n');
    expect(out[0]).toMatch(new RegExp(`^no divergence: ${tailFinishes.length} cranks compared \\(cranks ${firstTail}-`));
    expect(out[2]).toContain(`(began inside crank ${firstTail}: a dump or a cut)`);
  });

  it('mid-crank-start and restart-replay against themselves: no crash, say what they compared', async () => {
    for (const name of ['mid-crank-start.slog', 'restart-replay.slog']) {
      const path = join(REAL, name);
      const entries = entriesOf(path);
      const numbers = new Set(entries.filter((e) => e.type === 'crank-finish').map((e) => e.crankNum as number));
      const runs = entries.filter((e) => e.type === 'crank-finish').length;
      const r = await runInProcess(['diverge', '--json', path, path]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json.diverged).toBe(false);
      // Each crank number once: a restart's abandoned executions are counted apart.
      expect(json.compared.cranks).toBe(numbers.size);
      expect(json.a.abandoned).toBe(runs - numbers.size);
      expect(json.verdict).toMatch(/^no divergence: \d+ cranks compared \(cranks \d+-\d+\)/);
    }
  });
});

describe('diverge: a node that restarted', () => {
  it('restart-replay against a copy without the executions its restart abandoned: those are set apart, nothing differs', async () => {
    const path = join(REAL, 'restart-replay.slog');
    const entries = entriesOf(path);
    const starts = entries.flatMap((e, i) => (e.type === 'kernel-init-start' ? [i] : []));
    const restart = starts[1] as number;
    // The last crank committed before the restart: the crank-finish before the first crank that runs again.
    const again = new Set(entries.slice(restart).filter((e) => e.type === 'crank-finish').map((e) => e.crankNum as number));
    const firstAgain = Math.min(...again);
    const cut = entries.findIndex((e) => e.type === 'crank-start' && e.crankNum === firstAgain);
    const abandoned = entries.slice(cut, restart).filter((e) => e.type === 'crank-finish').length;
    const b = writeSlog('restart-replay-clean.slog', [...entries.slice(0, cut), ...entries.slice(restart)]);
    const numbers = new Set(entries.filter((e) => e.type === 'crank-finish').map((e) => e.crankNum as number));
    const { result } = await divergeOf({ a: { inputs: [path] }, b: { inputs: [b] }, compareEntries: true });
    expect(abandoned).toBeGreaterThan(0);
    expect(result.a.abandoned).toBe(abandoned);
    expect(result.b.abandoned).toBe(0);
    expect(result.compared.cranks).toBe(numbers.size);
    expect(result.diverged).toBe(false);
    expect(result.entriesOnly.cranks).toBe(0);
  });
});

describe('diverge: the shapes a node writes', () => {
  it('chain-bot gzipped against its per-block files, and against its contextual form: the same cranks, nothing differs', async () => {
    const plain = join(REAL, 'chain-bot.slog');
    const gz = join(dir, 'chain-bot.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const finishes = crankFacts(entriesOf(plain)).finishes;
    for (const other of [join(REAL, 'block-files-bot'), join(REAL, 'contextual-bot.jsonl')]) {
      const { result } = await divergeOf({ a: { inputs: [gz] }, b: { inputs: [other] }, compareEntries: true });
      expect(result.diverged).toBe(false);
      expect(result.compared.cranks).toBe(finishes.length);
      expect(result.compared.byHash).toBe(finishes.length);
      expect(result.entriesOnly.cranks).toBe(0);
      expect(result.compared.lastBlock).toBe(finishes.at(-1)?.block);
    }
  });

  it('the byte reader and JSON.parse give the same result', async () => {
    const d = divergedCopy(entriesOf(slogPath('a-xs-3')), 150);
    const b = writeSlog('a-xs-3-diverged.slog', d.copy);
    const run = (path: 'fast' | 'plain') => divergeOf({ a: { inputs: [slogPath('a-xs-3')], path }, b: { inputs: [b], path } });
    const [fast, plain] = [await run('fast'), await run('plain')];
    expect(fast.result.first?.crankNum).toBe(d.crankNum);
    expect(fast.result).toEqual(plain.result);
    expect(fast.passA.read.fast).toBeGreaterThan(0);
    expect(plain.passA.read.fast).toBe(0);
  });
});

describe('diverge: usage', () => {
  it('markdown and JSON: the same verdict, the verdict on stderr too when it diverged; a side that is not a slog: exit 2, one line naming it', async () => {
    const d = divergedCopy(entriesOf(slogPath('a-xs-3')), 150);
    const b = writeSlog('a-xs-3-formats.slog', d.copy);
    const text = await runInProcess(['diverge', slogPath('a-xs-3'), b]);
    const verdict = text.stdout.split('\n')[0] as string;
    expect(verdict).toMatch(new RegExp(`^diverged at crank ${d.crankNum} `));
    const md = await runInProcess(['diverge', '--format', 'markdown', slogPath('a-xs-3'), b]);
    expect(md.status).toBe(1);
    expect(md.stdout.split('\n')[0]).toBe(`**${verdict.replace(/[\\`*_<>|[\]#]/g, (c) => `\\${c}`)}**`);
    expect(md.stdout).toContain('\n### Delivery time by vat');
    expect(md.stderr).toBe(`slogulate: ${verdict}\n`);
    const json = await runInProcess(['diverge', '--json', slogPath('a-xs-3'), b]);
    expect(json.status).toBe(1);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ format: 'slogulate-diverge', version: 1, verdict, diverged: true, first: { crankNum: d.crankNum, by: 'crankhash' } });
    const notSlog = join(dir, 'notes.txt');
    writeFileSync(notSlog, 'one\ntwo\n');
    const bad = await runInProcess(['diverge', slogPath('a-xs-3'), notSlog]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`slogulate: ${notSlog}: not a slog (none of its 2 lines is a slog entry)\n`);
  });

  it('exit 2 for a missing slog and for two stdins', async () => {
    expect((await runInProcess(['diverge', slogPath('a-local-3'), join(dir, 'nope.slog')])).status).toBe(2);
    expect((await runInProcess(['diverge', '-', '-'])).status).toBe(2);
  });
});

describe('diverge: the light read, then the diverged crank read again', () => {
  /** The result without what depends on how it was read. */
  const sameResult = async (a: string, b: string): Promise<void> => {
    const light = await divergeOf({ a: { inputs: [a] }, b: { inputs: [b] } });
    const whole = await divergeOf({ a: { inputs: [a] }, b: { inputs: [b] }, wholeRead: true });
    expect(light.result).toEqual(whole.result);
  };

  it('gives what reading every value gives: diverged by crankhash (chain-A, a-xs-3), none, and without hashes', async () => {
    const chain = divergedCopy(entriesOf(CHAIN_A), 1400);
    const changed = writeSlog('chain-A-light.slog', chain.copy);
    await sameResult(CHAIN_A, changed);
    const light = await divergeOf({ a: { inputs: [CHAIN_A] }, b: { inputs: [changed] } });
    // The diverged crank's entries are there, read again: as many as its lines in the slog (a syscall and its result, two).
    const lines = chain.copy.filter((e) => e.crankNum === chain.crankNum && ['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist'].includes(e.type));
    expect(light.result.first?.entriesB.length).toBe(Math.min(400, lines.length));
    expect(light.result.first?.difference?.path).toBe('ksc[3]');
    const xs = divergedCopy(entriesOf(slogPath('a-xs-3')), 150);
    await sameResult(slogPath('a-xs-3'), writeSlog('a-xs-3-light.slog', xs.copy));
    await sameResult(slogPath('a-local-3'), slogPath('b-local-5'));
    await sameResult(slogPath('a-local-3'), slogPath('a-local-3'));
    const strip = (list: readonly Entry[]): Entry[] =>
      list.map((e) => {
        const { crankhash: _c, activityhash: _a, ...rest } = e;
        return rest;
      });
    const local = entriesOf(slogPath('a-local-3'));
    const d = divergedCopy(local, 100);
    await sameResult(writeSlog('light-nohash-a.slog', strip(local)), writeSlog('light-nohash-b.slog', strip(d.copy)));
  });

  it('a slog without hashes is read again whole from the start: a bad line before its first crank is reported once', async () => {
    const local = entriesOf(slogPath('a-local-3')).map((e) => {
      const { crankhash: _c, activityhash: _a, ...rest } = e;
      return rest;
    });
    const path = join(dir, 'light-nohash-bad.slog');
    const lines = local.map((e) => JSON.stringify(e));
    lines.splice(1, 0, '{"type":"syscall", broken');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const bad: string[] = [];
    const { result } = await divergeOf({ a: { inputs: [path], onBadLine: (b) => bad.push(`${b.source}:${b.line}`) }, b: { inputs: [writeSlog('light-nohash-ok.slog', local)] } });
    expect(result.compared.byHash).toBe(0);
    expect(result.first).toBeUndefined();
    expect(bad).toEqual([`${path}:2`]);
  });
});
