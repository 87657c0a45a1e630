/**
 * A slog that starts inside a chain block (a flight-recorder dump, here
 * chain-A cut after block 7's begin-block, before its first run-start;
 * issue 29, item 11): its first runs are of block 7, as their run-start
 * and run-finish say (`blockHeight`), not of no block (height null); their
 * cranks are block 7's (export's blockNum, `--blocks 7`), counted in their
 * runs. Figures from a plain loop over the dump's lines.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-partial-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = readFileSync(join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog'), 'utf8').split('\n').filter((l) => l !== '');
type Entry = { type: string; blockHeight?: number; runNum?: number; crankNum?: number };
const entries = lines.map((l) => JSON.parse(l) as Entry);
// Cut after block 7's begin-block and end-block-start: the dump starts inside the block, before its runs.
const begin7 = entries.findIndex((e) => e.type === 'cosmic-swingset-begin-block' && e.blockHeight === 7);
const start = begin7 + 2;
const dump = join(dir, 'dump.slog');
writeFileSync(dump, `${lines.slice(start).join('\n')}\n`);

/** Block 7's runs in the dump, each with its crank-starts, by a plain loop. */
function block7Runs(): Array<{ run: number; cranks: number }> {
  const runs: Array<{ run: number; cranks: number }> = [];
  let open: { run: number; cranks: number } | undefined;
  for (const e of entries.slice(start)) {
    if (e.type === 'cosmic-swingset-end-block-finish') break;
    if (e.type === 'cosmic-swingset-run-start') open = { run: e.runNum as number, cranks: 0 };
    if (e.type === 'crank-start' && open) open.cranks += 1;
    if (e.type === 'cosmic-swingset-run-finish' && open) {
      runs.push(open);
      open = undefined;
    }
  }
  return runs;
}

it('runs: block 7\'s runs have height 7 and their cranks', async () => {
  const want = block7Runs();
  expect(want.length).toBeGreaterThanOrEqual(3);
  expect(want.reduce((n, r) => n + r.cranks, 0)).toBeGreaterThan(10);
  const r = await runMain(['runs', '--json', dump]);
  expect(r.status).toBe(0);
  const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { height: number | null; run: number; cranks: number });
  const first = rows.slice(0, want.length);
  expect(first.map((row) => ({ height: row.height, run: row.run, cranks: row.cranks }))).toEqual(want.map((w) => ({ height: 7, run: w.run, cranks: w.cranks })));
});

it('--blocks 7 selects the cranks the dump shows of block 7', async () => {
  const cranks = block7Runs().reduce((n, r) => n + r.cranks, 0);
  const all = await runMain(['--blocks', '7', dump]);
  expect(all.status).toBe(0);
  expect((all.stdout.match(/^\/\/ crank \d+/gm) ?? []).length).toBe(cranks);
});
