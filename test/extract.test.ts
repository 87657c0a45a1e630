/**
 * `slogulate extract` (run/extract.ts, source/copy-lines.ts): the extract
 * of a selection, rendered with the same selection, prints what the slog
 * prints; it is made of the slog's own lines in their order (a plain loop
 * over both files), holds every line of the selected cranks (the loop's
 * lines with a crank number in the range), is the same whether the pass
 * sought or read every line (SLOGULATE_SEEK=0), plain or gzipped, from a
 * plain or a gzipped slog; `-o` is never an input and a failed run leaves
 * an existing file as it was.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameText, ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const RESTART = join(REAL, 'restart-replay.slog');
const MID_CRANK = join(REAL, 'mid-crank-start.slog');

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-extract-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let made = 0;

async function ok(args: string[], env?: Record<string, string | undefined>): Promise<{ stdout: string; stderr: string }> {
  const r = await runMain(args, env ? { env } : {});
  expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('slogulate: wrote ')), r.stderr).toEqual([]);
  expect(r.status).toBe(0);
  return r;
}

/** The extract of `args` on `file`, written to a new file (and whether the pass sought or not: `env`). */
async function extract(file: string, args: string[], env?: Record<string, string | undefined>): Promise<string> {
  made += 1;
  const out = join(tmp, `x${made}.slog`);
  await ok(['extract', ...args, file, '-o', out], env);
  return out;
}

/** A file's lines, without empty ones. */
const linesOf = (bytes: Buffer): string[] => bytes.toString('utf8').split('\n').filter((l) => l !== '');

/** Is `part` the lines of `whole` in order, some left out? */
function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let i = 0;
  for (const line of whole) if (i < part.length && line === part[i]) i += 1;
  return i === part.length;
}

/** The lines with a crank number in `from`-`to`, by a plain loop. */
function crankLines(file: string, from: number, to: number): string[] {
  return linesOf(readFileSync(file)).filter((l) => {
    const n = (JSON.parse(l) as { crankNum?: unknown }).crankNum;
    return typeof n === 'number' && n >= from && n <= to;
  });
}

/** The checks every extract passes: the same render, the slog's own lines in order, the same bytes with and without a seek. */
async function checkExtract(file: string, args: string[]): Promise<string> {
  const out = await extract(file, args);
  const whole = await extract(file, args, { SLOGULATE_SEEK: '0' });
  expect(readFileSync(out).equals(readFileSync(whole)), 'the same extract seeking and reading every line').toBe(true);
  for (const options of [[], ['--timing', '--parts']]) {
    const a = (await ok([...options, ...args, out])).stdout;
    const b = (await ok([...options, ...args, file])).stdout;
    expect(b).toMatch(/^\/\/ crank \d+/m);
    expectSameText(a, b, `${args.join(' ')} ${options.join(' ')}`);
  }
  // A folder of per-block files: its files' order is the chain's (source/inputs.ts), checked by the render above.
  if (statSync(file).isDirectory()) return out;
  const lines = linesOf(readFileSync(out));
  const all = linesOf(readFileSync(file));
  expect(lines.length).toBeLessThan(all.length);
  expect(isSubsequence(lines, all), 'the slog\'s own lines, in order').toBe(true);
  return out;
}

describe('the extract renders as the selection did, and is the slog\'s lines', () => {
  for (const [name, file, args, cranks] of [
    ['a-local-3 --cranks 100-110', slogPath('a-local-3'), ['--cranks', '100-110'], [100, 110]],
    ['b-local-5 --cranks 40-60', slogPath('b-local-5'), ['--cranks', '40-60'], [40, 60]],
    ['a-xs-3 --cranks 30-31', slogPath('a-xs-3'), ['--cranks', '30-31'], [30, 31]],
    ['chain-A --cranks 1500-1510 (after its restart: seeks)', CHAIN_A, ['--cranks', '1500-1510'], [1500, 1510]],
    ['chain-A --cranks 500-510 (before its restart: read whole)', CHAIN_A, ['--cranks', '500-510'], [500, 510]],
    ['restart-replay --cranks 45-50 (both runs, "again")', RESTART, ['--cranks', '45-50'], [45, 50]],
    ['mid-crank-start --cranks 11-14 (a crank begun before the slog)', MID_CRANK, ['--cranks', '11-14'], [11, 14]],
  ] as const) {
    it(name, async () => {
      const out = await checkExtract(file, [...args]);
      // Every line of the selected cranks, by the loop.
      const lines = new Set(linesOf(readFileSync(out)));
      const want = crankLines(file, cranks[0], cranks[1]);
      expect(want.length).toBeGreaterThan(0);
      expect(want.filter((l) => !lines.has(l))).toEqual([]);
    }, 120_000);
  }

  it('the "again" and "started before the slog" marks are in the renders compared', async () => {
    expect((await ok(['--cranks', '45-50', RESTART])).stdout).toContain('(again after restart)');
    expect((await ok(['--cranks', '11-14', MID_CRANK])).stdout).toContain('(started before the slog)');
  });

  it('chain-A --blocks 150-152, 50-52 (before its restart), 1-2 (the bootstrap block), a folder of per-block files: the blocks\' chain lines and the cranks they ran', async () => {
    const BLOCK_FILES = join(REAL, 'block-files-bot');
    for (const [file, from, to] of [
      [CHAIN_A, 150, 152],
      [CHAIN_A, 50, 52],
      [CHAIN_A, 1, 2],
      [BLOCK_FILES, 1, 3],
    ] as const) {
      const out = await checkExtract(file, ['--blocks', `${from}-${to}`]);
      if (file === BLOCK_FILES) continue;
      const lines = new Set(linesOf(readFileSync(out)));
      // By the loop: every chain line of a selected height, and every line of a crank begun between a selected block's begin-block (or the bootstrap block's start) and its end-block-finish.
      let block: number | undefined;
      let crank: number | undefined;
      let want = 0;
      for (const l of linesOf(readFileSync(file))) {
        const e = JSON.parse(l) as { type: string; blockHeight?: number; crankNum?: number };
        if (e.type === 'cosmic-swingset-begin-block') block = e.blockHeight;
        if (e.type === 'cosmic-swingset-bootstrap-block-start') block = 1;
        if (e.type === 'crank-start') crank = block !== undefined && block >= from && block <= to ? e.crankNum : undefined;
        const chain = e.type.startsWith('cosmic-swingset-') && e.blockHeight !== undefined && e.blockHeight >= from && e.blockHeight <= to;
        const ofCrank = crank !== undefined && e.crankNum === crank;
        if (chain || ofCrank) {
          want += 1;
          expect(lines.has(l), l.slice(0, 120)).toBe(true);
        }
        if (e.type === 'cosmic-swingset-end-block-finish' || e.type === 'cosmic-swingset-bootstrap-block-finish') block = undefined;
      }
      expect(want).toBeGreaterThan(50);
    }
  }, 180_000);

  it('chain-A --blocks: every line from the first block\'s begin-block to the last\'s end-block-finish (agoric-sdk\'s extract-block.py\'s rule, by a loop), besides only create-vat lines and the last block\'s commit lines', async () => {
    const all = linesOf(readFileSync(CHAIN_A));
    for (const [from, to] of [[150, 150], [151, 153], [50, 52]] as const) {
      const out = await checkExtract(CHAIN_A, ['--blocks', `${from}-${to}`]);
      const want: string[] = [];
      let on = false;
      for (const l of all) {
        const e = JSON.parse(l) as { type: string; blockHeight?: number };
        if (e.type === 'cosmic-swingset-begin-block' && e.blockHeight === from) on = true;
        if (on) want.push(l);
        if (on && e.type === 'cosmic-swingset-end-block-finish' && e.blockHeight === to) break;
      }
      const got = linesOf(readFileSync(out));
      const kept = new Set(got);
      expect(want.filter((l) => !kept.has(l)), `--blocks ${from}-${to}`).toEqual([]);
      const wanted = new Set(want);
      const extra = got.filter((l) => !wanted.has(l)).map((l) => JSON.parse(l) as { type: string; blockHeight?: number });
      expect(extra.filter((e) => !(e.type === 'create-vat' || (e.type.startsWith('cosmic-swingset-') && e.blockHeight === to)))).toEqual([]);
      // The lines of no crank nor block height that the rule keeps are there: kernel-stats, and in block 150 the bridge-inbound that set its run going.
      expect(want.filter((l) => l.startsWith('{"type":"kernel-stats"')).length).toBeGreaterThan(0);
      if (from === 150) expect(got.filter((l) => l.startsWith('{"type":"cosmic-swingset-bridge-inbound"'))).toHaveLength(1);
    }
  }, 120_000);

  it('--blocks with --cranks, and --run with --cranks: the blocks kept from their begin-block', async () => {
    await checkExtract(CHAIN_A, ['--blocks', '150-152', '--cranks', '1900-1950']);
    const out = await extract(CHAIN_A, ['--run', '150:2', '--cranks', '1886-1890']);
    const rendered = (await ok(['--blocks', '150', '--cranks', '1886-1890', out])).stdout;
    expect(rendered).toMatch(/^\/\/ crank 1886:/m);
  }, 120_000);

  it('--vat, and --since/--until', async () => {
    await checkExtract(slogPath('a-local-3'), ['--vat', 'v1']);
    await checkExtract(slogPath('b-local-5'), ['--vat', 'bootstrap', '--cranks', '20-200']);
    const starts = linesOf(readFileSync(CHAIN_A)).filter((l) => l.includes('"crank-start"')).map((l) => (JSON.parse(l) as { time: number }).time);
    const since = starts[Math.floor(starts.length * 0.8)] as number;
    const until = starts[Math.floor(starts.length * 0.8) + 40] as number;
    await checkExtract(CHAIN_A, ['--since', String(since), '--until', String(until)]);
  }, 120_000);

  it('--run 150:2: the run\'s cranks (by a loop: the crank-starts between its run-start and run-finish), rendered as block 150 prints them', async () => {
    const out = await extract(CHAIN_A, ['--run', '150:2']);
    let block: number | undefined;
    let inRun = false;
    const want: number[] = [];
    for (const l of linesOf(readFileSync(CHAIN_A))) {
      const e = JSON.parse(l) as { type: string; blockHeight?: number; runNum?: number; crankNum?: number };
      if (e.type === 'cosmic-swingset-begin-block') block = e.blockHeight;
      if (e.type === 'cosmic-swingset-run-start') inRun = block === 150 && e.runNum === 2;
      if (e.type === 'cosmic-swingset-run-finish') inRun = false;
      if (inRun && e.type === 'crank-start') want.push(e.crankNum as number);
    }
    expect(want.length).toBeGreaterThan(3);
    const rendered = (await ok(['--blocks', '150', out])).stdout;
    expect([...rendered.matchAll(/^\/\/ crank (\d+):/gm)].map((m) => Number(m[1]))).toEqual(want);
    // Each crank as the slog's render of block 150 prints it.
    const whole = (await ok(['--blocks', '150', CHAIN_A])).stdout.split('\n\n');
    const kept = whole.filter((b) => want.includes(Number(/^\/\/ crank (\d+):/.exec(b)?.[1])));
    expect(rendered.split('\n\n').filter((b) => b.startsWith('// crank'))).toEqual(kept);
  }, 60_000);
});

describe('output: gzip, stdout, inputs, failures', () => {
  it('-o F.gz and --gzip gzip it; a gzipped slog extracts as its plain one', async () => {
    const plain = await extract(slogPath('a-local-3'), ['--cranks', '100-110']);
    const gz = join(tmp, 'x.slog.gz');
    await ok(['extract', '--cranks', '100-110', slogPath('a-local-3'), '-o', gz]);
    expect(gunzipSync(readFileSync(gz)).equals(readFileSync(plain))).toBe(true);
    const forced = join(tmp, 'forced.slog');
    await ok(['extract', '--gzip', '--cranks', '100-110', slogPath('a-local-3'), '-o', forced]);
    expect(gunzipSync(readFileSync(forced)).equals(readFileSync(plain))).toBe(true);
    const gzIn = join(tmp, 'in.slog.gz');
    writeFileSync(gzIn, gzipSync(readFileSync(slogPath('a-local-3'))));
    const fromGz = await extract(gzIn, ['--cranks', '100-110']);
    expect(readFileSync(fromGz).equals(readFileSync(plain))).toBe(true);
    // To stdout.
    expect((await ok(['extract', '--cranks', '100-110', slogPath('a-local-3')])).stdout).toBe(readFileSync(plain, 'utf8'));
  });

  it('a CRLF slog, seeking (with and without its index): the lines that name vats as the slog has them, as the whole read writes them', async () => {
    const crlf = join(tmp, 'crlf.slog');
    writeFileSync(crlf, readFileSync(slogPath('a-local-3'), 'utf8').replaceAll('\n', '\r\n'));
    // v8 is created by a crank's create-vat message long before crank 240.
    const args = ['--cranks', '240-246', '--vat', 'v8'];
    const whole = readFileSync(await extract(crlf, args, { SLOGULATE_SEEK: '0' }));
    expect(whole.includes('"messageType":"create-vat","message":{"type":"create-vat","vatID":"v8"')).toBe(true);
    expect(whole.toString('latin1').split('\n').slice(0, -1).every((l) => l.endsWith('\r'))).toBe(true);
    expect(readFileSync(await extract(crlf, args)).equals(whole)).toBe(true);
    await ok(['index', crlf]);
    expect(readFileSync(await extract(crlf, args)).equals(whole)).toBe(true);
  });

  it('never an input; a failed run leaves an existing file as it was; a selection and files are needed', async () => {
    const input = join(tmp, 'input.slog');
    writeFileSync(input, readFileSync(slogPath('a-local-3')));
    const same = await runMain(['extract', '--cranks', '1-5', input, '-o', input]);
    expect(same.status).toBe(2);
    expect(same.stderr).toMatch(/same file as the input/);
    expect(readFileSync(input).equals(readFileSync(slogPath('a-local-3')))).toBe(true);
    const old = join(tmp, 'old.txt');
    writeFileSync(old, 'kept\n');
    const notSlog = join(tmp, 'not-a-slog.txt');
    writeFileSync(notSlog, 'hello\nworld\n');
    const failed = await runMain(['extract', '--cranks', '1-5', notSlog, '-o', old]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^slogulate: .*not a slog/);
    expect(readFileSync(old, 'utf8')).toBe('kept\n');
    const none = await runMain(['extract', slogPath('a-local-3')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^slogulate: extract needs a selection/);
    const stdin = await runMain(['extract', '--cranks', '1-5', '-']);
    expect(stdin.status).toBe(2);
    expect(stdin.stderr).toMatch(/give files, not stdin/);
    const badRun = await runMain(['extract', '--run', '150', CHAIN_A]);
    expect(badRun.status).toBe(2);
  });
});
