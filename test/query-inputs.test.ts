/**
 * `slogulate query`'s inputs and its text table, on the real slogs:
 *
 * - A folder of slog files is one slog named after the folder, as every
 *   command reads it: a node's per-block files (`block-files-bot/` is
 *   `chain-bot.slog` through agoric-sdk's per-block writer, so the same
 *   run: its counts must be the single stream's and `stats --json`'s), or
 *   plain and gzipped `*.slog` files read in name order. An export of the
 *   folder gives the same rows; a folder that is neither an export nor a
 *   folder of slogs is one line, exit 2. Block files given one by one are
 *   a source each: their deliveries have no vat names (the names are in
 *   the init file), the folder's have.
 * - The text table is aligned over all its rows, however DuckDB hands
 *   them over (its chunks of 2048 rows, or a GROUP BY's first chunk of
 *   one row), and held in a file beyond a bound: the same text.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../src/export/query.js';
import type { QueryFormat } from '../src/export/query-format.js';
import { exportPass } from '../src/run/export.js';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const BLOCK_FILES = join(REAL, 'block-files-bot');
const CHAIN_BOT = join(REAL, 'chain-bot.slog');
const CHAIN_A = join(REAL, 'chain-A.slog');

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'slogulate-query-inputs-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

type Row = Record<string, string | number | null>;

async function query(args: string[]): Promise<string> {
  const r = await runInProcess(['query', ...args]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

const json = async (sql: string, inputs: string[]): Promise<Row[]> => JSON.parse(await query([sql, ...inputs, '--format', 'json'])) as Row[];

/** Each table's rows, and the deliveries with a vat name, per source. */
const COUNTS = `
  SELECT source, what, n FROM (
    SELECT source, 'cranks' AS what, count(*) AS n FROM cranks GROUP BY source
    UNION ALL SELECT source, 'deliveries', count(*) FROM deliveries GROUP BY source
    UNION ALL SELECT source, 'named deliveries', count(vatName) FROM deliveries GROUP BY source
    UNION ALL SELECT source, 'syscalls', count(*) FROM syscalls GROUP BY source
    UNION ALL SELECT source, 'blocks', count(*) FROM blocks GROUP BY source
    UNION ALL SELECT source, 'runs', count(*) FROM runs GROUP BY source
    UNION ALL SELECT source, 'vats', count(*) FROM vats GROUP BY source
  ) ORDER BY source, what`;

/** Deliveries by vat: their number and computrons. */
const BY_VAT = 'SELECT vatID, vatName, count(*) AS n, sum(computrons) AS computrons FROM deliveries GROUP BY ALL ORDER BY vatID';

/** `COUNTS` of one source, as `{what: n}`. */
async function counts(inputs: string[], source: string): Promise<Record<string, number>> {
  const rows = await json(COUNTS, inputs);
  expect(new Set(rows.map((r) => r.source))).toEqual(new Set([source]));
  return Object.fromEntries(rows.map((r) => [r.what as string, r.n as number]));
}

describe('query: a folder of slog files is one slog', () => {
  let single: Record<string, number>;
  let singleByVat: Row[];
  beforeAll(async () => {
    single = await counts([CHAIN_BOT], 'chain-bot.slog');
    singleByVat = await json(BY_VAT, [CHAIN_BOT]);
  });

  it('a node\'s per-block files: the counts of the same run as one stream, and of stats --json', async () => {
    expect(readdirSync(BLOCK_FILES).some((n) => n.startsWith('slogfile_init_'))).toBe(true);
    const folder = await counts([BLOCK_FILES], 'block-files-bot');
    expect(folder).toEqual(single);
    expect(folder.cranks).toBeGreaterThan(0);
    expect(folder.blocks).toBeGreaterThan(0);
    // Every delivery named: the folder is read from its init file on.
    expect(folder['named deliveries']).toBe(folder.deliveries);
    expect(await json(BY_VAT, [BLOCK_FILES])).toEqual(singleByVat);

    const stats = await runInProcess(['stats', '--json', BLOCK_FILES]);
    expect(stats.status).toBe(0);
    const s = JSON.parse(stats.stdout) as { cranks: { seen: number }; deliveries: { count: number; computrons: number }; syscalls: { count: number } };
    expect(folder.cranks).toBe(s.cranks.seen);
    expect(folder.deliveries).toBe(s.deliveries.count);
    expect(folder.syscalls).toBe(s.syscalls.count);
    expect(singleByVat.reduce((sum, r) => sum + Number(r.computrons ?? 0), 0)).toBe(s.deliveries.computrons);

    // With a trailing slash, and beside the stream: two sources, the same rows.
    const both = await json(COUNTS, [`${BLOCK_FILES}/`, CHAIN_BOT]);
    const of = (source: string): Record<string, number> => Object.fromEntries(both.filter((r) => r.source === source).map((r) => [r.what as string, r.n as number]));
    expect(of('block-files-bot')).toEqual(single);
    expect(of('chain-bot.slog')).toEqual(single);
  });

  it('an export of the folder gives the same rows', async () => {
    const to = join(scratch, 'block-files-tables');
    const exported = await runInProcess(['export', BLOCK_FILES, '--to', to]);
    expect(exported.status).toBe(0);
    expect(exported.stdout).toMatch(/ \(parquet, 1 slog\)\n$/);
    expect(await counts([to], 'block-files-bot')).toEqual(single);
    expect(await json(BY_VAT, [to])).toEqual(singleByVat);
  });

  it('plain and gzipped *.slog files, read in name order (part-2 before part-10)', async () => {
    const dir = join(scratch, 'node-slogs');
    mkdirSync(dir);
    const lines = readFileSync(CHAIN_BOT, 'utf8').split(/(?<=\n)/);
    const cut = [0, Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3), lines.length];
    const part = (i: number): string => lines.slice(cut[i], cut[i + 1]).join('');
    writeFileSync(join(dir, 'part-1.slog'), part(0));
    writeFileSync(join(dir, 'part-2.slog.gz'), gzipSync(part(1)));
    writeFileSync(join(dir, 'part-10.slog'), part(2));
    writeFileSync(join(dir, 'notes.txt'), 'not a slog\n');
    expect(await counts([dir], 'node-slogs')).toEqual(single);
    expect(await json(BY_VAT, [dir])).toEqual(singleByVat);
  });

  it('block files given one by one: a source each, the same rows in all, no vat names without the init file', async () => {
    const files = readdirSync(BLOCK_FILES).map((n) => join(BLOCK_FILES, n));
    const rows = await json(COUNTS, files);
    expect(new Set(rows.map((r) => r.source)).size).toBe(files.length);
    const total = (what: string): number => rows.filter((r) => r.what === what).reduce((sum, r) => sum + (r.n as number), 0);
    for (const what of ['cranks', 'deliveries', 'syscalls']) expect(total(what)).toBe(single[what]);
    // The names are in the init file (its create-vat entries): a block file alone has none.
    expect(total('named deliveries')).toBe(0);
  });

  it('a folder that is neither an export nor of slog files: one line, exit 2', async () => {
    const dir = join(scratch, 'neither');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'not a slog\n');
    for (const folder of [dir, join(scratch, 'empty')]) {
      mkdirSync(folder, { recursive: true });
      const r = await runInProcess(['query', 'SELECT 1', folder]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `slogulate: ${folder}: not an export folder (none of deliveries/, syscalls/, cranks/, blocks/, runs/, snapshots/, stalls/, vats/, messages/, clist/, growth/ in it) nor a folder of slog files (slogfile_*_*.gz, *.slog, *.jsonl)\n`,
      );
    }
  });
});

describe('query: each input is its own source', () => {
  it('an export folder and a slog (or another folder) giving one source name are refused, not merged', async () => {
    const tables = join(scratch, 'chain-bot-tables');
    expect((await runInProcess(['export', CHAIN_BOT, '--to', tables, '--format', 'csv'])).status).toBe(0);
    const copy = join(scratch, 'copy-of-tables');
    expect((await runInProcess(['export', CHAIN_BOT, '--to', copy])).status).toBe(0);
    const sql = 'SELECT source, count(*) AS n FROM deliveries GROUP BY 1';
    const refused = async (inputs: string[], message: string): Promise<void> => {
      const r = await runInProcess(['query', sql, ...inputs]);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`slogulate: ${message}\n`);
      expect(r.status).toBe(2);
    };
    const how = (slog: boolean): string =>
      slog ? 'rename the slog, or export it with --source-prefix and query that folder' : 'export one of them again with --source-prefix';
    await refused([tables, CHAIN_BOT], `${tables} and ${CHAIN_BOT} would both be source=chain-bot.slog: each input is its own source (${how(true)})`);
    await refused([CHAIN_BOT, tables], `${CHAIN_BOT} and ${tables} would both be source=chain-bot.slog: each input is its own source (${how(true)})`);
    await refused([tables, copy], `${tables} and ${copy} would both be source=chain-bot.slog: each input is its own source (${how(false)})`);
    await refused([tables, `${tables}/`], `${tables}/: given twice (each input is its own source: its rows would be counted twice)`);
    // Before any slog is read: a slog that is not there is not reached.
    await refused([tables, copy, join(scratch, 'no-such.slog')], `${tables} and ${copy} would both be source=chain-bot.slog: each input is its own source (${how(false)})`);

    // Exported with --source-prefix: two sources, each with its own rows.
    const node1 = join(scratch, 'node1-tables');
    expect((await runInProcess(['export', CHAIN_BOT, '--to', node1, '--source-prefix', 'node1-'])).status).toBe(0);
    expect(await json(`${sql} ORDER BY 1`, [node1, CHAIN_BOT])).toEqual([
      { source: 'chain-bot.slog', n: 43 },
      { source: 'node1-chain-bot.slog', n: 43 },
    ]);
  });
});

/** The cells of an aligned text table, and where each column ends (right-aligned) or starts (left-aligned) on every line. */
function checkAligned(text: string, right: readonly boolean[]): string[][] {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const header = lines[0] as string;
  // Columns are two spaces apart, and no cell here has two spaces in it.
  const starts = [0];
  for (const m of header.matchAll(/ {2,}(?=\S)/g)) starts.push((m.index as number) + m[0].length);
  expect(starts.length).toBe(right.length);
  const cells = lines.map((line) => line.trim().split(/ {2,}/));
  for (const [i, line] of lines.entries()) {
    const row = cells[i] as string[];
    expect(row.length, line).toBe(right.length);
    let at = 0;
    row.forEach((cell, c) => {
      const start = line.indexOf(cell, at);
      at = start + cell.length;
      const next = starts[c + 1];
      if (right[c]) {
        // A number ends where the column ends: two spaces before the next column, or the line's end.
        expect(at, line).toBe(next === undefined ? Math.max(...lines.map((l) => l.length)) : next - 2);
      } else {
        expect(start, line).toBe(starts[c]);
      }
    });
  }
  return cells;
}

describe('query: the text table is aligned over all its rows', () => {
  it('a GROUP BY whose first chunk is one row (a-xs-3, the per-block files)', async () => {
    for (const slog of [slogPath('a-xs-3'), BLOCK_FILES]) {
      const sql = 'SELECT vatName, count(*) FROM deliveries GROUP BY ALL';
      const text = await query([sql, slog]);
      const cells = checkAligned(text, [false, true]);
      expect(cells[0]).toEqual(['vatName', 'count_star()']);
      const rows = await json(sql, [slog]);
      const byName = (rs: Array<[string, number]>): Array<[string, number]> => rs.sort((a, b) => a[0].localeCompare(b[0]));
      expect(byName(cells.slice(1).map(([name, n]) => [name as string, Number(n)]))).toEqual(
        byName(rows.map((r) => [r.vatName === null ? 'NULL' : String(r.vatName), r['count_star()'] as number])),
      );
    }
  });

  it('rows over several of DuckDB\'s chunks, the widest last (chain-A\'s syscalls); held in a file, the same text', async () => {
    const sql = 'SELECT type, vatID, crankNum, syscallNum FROM syscalls ORDER BY length(type), crankNum, syscallNum';
    const text = await query([sql, CHAIN_A]);
    const cells = checkAligned(text, [false, false, true, true]);
    expect(cells.length - 1).toBeGreaterThan(3 * 2048);
    const widest = Math.max(...cells.slice(1).map((r) => (r[0] as string).length));
    expect((cells[cells.length - 1] as string[])[0]?.length).toBe(widest);
    expect((cells[1] as string[])[0]?.length).toBeLessThan(widest);

    // The same query with at most ~100 characters held in memory: the rows go through the spill file.
    const run = async (format: QueryFormat, textHoldChars?: number): Promise<string> => {
      let out = '';
      const outcome = await runQuery({
        sql,
        inputs: [CHAIN_A],
        format,
        pass: exportPass(),
        write: (t) => (out += t),
        drained: () => Promise.resolve(),
        textHoldChars,
      });
      expect(outcome.rows).toBe(cells.length - 1);
      return out;
    };
    expect(await run('text', 100)).toBe(text);
    expect(await run('text')).toBe(text);
  });
});
