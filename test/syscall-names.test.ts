/**
 * The `syscalls` table names a device call one way (issue 29, item 11):
 * `invoke`, the name the slog's kernel-space form (`ksc[0]`) gives it, for
 * live calls and replayed ones (whose entries carry only the vat-space
 * `callNow`). Counted against a plain loop over chain-A's lines, which has
 * both.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './helpers.js';
import { runMain } from './run-main.js';
import { csvRows } from './csv-rows.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-syscall-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

it('chain-A: every device call, live or replayed, is an invoke row; no callNow row', async () => {
  let live = 0;
  let replayed = 0;
  for (const line of readFileSync(CHAIN_A, 'utf8').split('\n')) {
    if (!line.includes('"type":"syscall"')) continue;
    const e = JSON.parse(line) as { type: string; replay?: boolean; ksc?: unknown[]; vsc?: unknown[] };
    if (e.type !== 'syscall') continue;
    const device = e.ksc ? e.ksc[0] === 'invoke' : e.vsc?.[0] === 'callNow';
    if (!device) continue;
    if (e.replay === true) replayed += 1;
    else live += 1;
  }
  expect(live).toBeGreaterThan(100);
  expect(replayed).toBeGreaterThan(100);
  const to = join(dir, 'tables');
  const r = await runMain(['export', '--format', 'csv', '--to', to, CHAIN_A]);
  expect(r.status).toBe(0);
  const [columns, ...rows] = csvRows(readFileSync(join(to, 'syscalls', 'source=chain-A.slog', 'part-0.csv'), 'utf8'));
  const [type, replay] = [(columns as string[]).indexOf('type'), (columns as string[]).indexOf('replay')];
  const count = (name: string, isReplay: string): number => rows.filter((cells) => cells[type] === name && cells[replay] === isReplay).length;
  expect(count('callNow', 'true') + count('callNow', 'false')).toBe(0);
  expect(count('invoke', 'false')).toBe(live);
  expect(count('invoke', 'true')).toBe(replayed);
});
