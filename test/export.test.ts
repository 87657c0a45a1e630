/**
 * `slogulate export`, in process: the shared slogs exported as Parquet, CSV
 * and SQLite, read back (DuckDB through `query`'s code, better-sqlite3),
 * and their counts and sums compared with what `stats` computes on the
 * same slogs (the aggregator, in process), the chain tables with a plain
 * loop over the slog's lines (slog-facts.ts); every format holds the same
 * rows; several inputs make one partitioned dataset.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_VAT, SlogAggregator, type SlogAggregate } from '../src/analyses/stats/aggregate.js';
import { statsOf } from '../src/run/analyses.js';
import { exportPass as makeExportPass } from '../src/run/export.js';

const exportPass = makeExportPass();
import { exportSlogs, type ExportSummary } from '../src/export/export.js';
import { openDuckDB } from '../src/export/duckdb.js';
import { createViews } from '../src/export/query.js';
import { TABLES } from '../src/export/tables/index.js';
import { sourceNames } from '../src/export/target.js';
import type { ExportFormat } from '../src/export/writers/writer.js';
import { ROOT, slogPath } from './helpers.js';
import { chainFacts } from './slog-facts.js';

const SLOGS: Record<string, string> = {
  'a-local-3': slogPath('a-local-3'),
  'a-xs-3': slogPath('a-xs-3'),
  'b-local-5': slogPath('b-local-5'),
  'chain-bot': join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-bot.slog'),
  // A node's slog after a restart, and a flight-recorder dump that starts mid-crank.
  'restart-replay': join(ROOT, '..', 'shared', 'slogs', 'real', 'restart-replay.slog'),
  'mid-crank-start': join(ROOT, '..', 'shared', 'slogs', 'real', 'mid-crank-start.slog'),
  'y2022-create-vat': join(ROOT, '..', 'shared', 'slogs', 'real', 'y2022-create-vat.slog'),
};

type Row = Record<string, unknown>;

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'slogulate-export-test-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let seq = 0;
const fresh = (name: string): string => join(scratch, `${name}-${(seq += 1)}`);

async function exportTo(format: ExportFormat, inputs: string[], to = fresh(format)): Promise<ExportSummary> {
  // Every table, the opt-in ones too (clist, growth).
  return exportSlogs({ inputs, to, format, pass: exportPass, tables: TABLES });
}

/** SQL over an export folder, with `query`'s views (DuckDB), as plain rows (whole numbers as numbers). */
async function duckdb(dir: string): Promise<{ run: (sql: string) => Promise<Row[]>; close: () => void }> {
  const db = await openDuckDB();
  const con = await db.connect();
  await createViews(con, [dir]);
  return {
    run: async (sql) => {
      const reader = await con.runAndReadAll(sql);
      return reader.getRowObjectsJson().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v])));
    },
    close: () => {
      con.closeSync();
      db.closeSync();
    },
  };
}

function sqlite(file: string): (sql: string) => Row[] {
  return (sql) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare(sql).all() as Row[];
    } finally {
      db.close();
    }
  };
}

async function aggregate(file: string): Promise<SlogAggregate> {
  return (await statsOf({ inputs: [file] })).aggregate;
}

/** The figures `stats` has, by SQL over the tables (SQL that DuckDB and SQLite both run). */
const FIGURES = {
  deliveries:
    'SELECT vatID, method, count(*) AS n, sum(totalMicros) AS us, sum(computrons) AS computrons FROM deliveries ' +
    'WHERE startTime IS NOT NULL AND endTime IS NOT NULL AND crankNum IS NOT NULL AND NOT replay AND NOT abandoned GROUP BY vatID, method',
  /** Computrons count where the deliver entry is missing too (a slog that begins inside a crank). */
  vatComputrons: 'SELECT vatID, sum(computrons) AS computrons FROM deliveries WHERE crankNum IS NOT NULL AND NOT replay AND NOT abandoned GROUP BY vatID',
  syscalls:
    'SELECT type, count(micros) AS n, count(*) - count(micros) AS unanswered, sum(micros) AS us FROM syscalls WHERE crankNum IS NOT NULL AND NOT replay AND NOT abandoned GROUP BY type',
  cranks: 'SELECT crankType, count(*) AS n, sum(totalMicros) AS us FROM cranks WHERE NOT abandoned GROUP BY crankType',
  vatCranks: "SELECT vatID, count(*) AS cranks, sum(totalMicros) AS us FROM cranks WHERE crankType = 'delivery' AND NOT abandoned GROUP BY vatID",
  vats: 'SELECT vatID, vatName FROM vats',
};

/** A row's vat as stats keys it (a delivery crank whose vat the slog does not say: `<no vat>`). */
const vatOf = (r: Row): unknown => r.vatID ?? NO_VAT;
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
/**
 * Whole µs per row against stats' sum of unrounded differences: the slog's
 * times have µs resolution, but a double near 1.8e9 s holds them to 0.24 µs,
 * so each difference is its whole µs give or take that much.
 */
const closeMicros = (sum: unknown, exact: number, count: number): void => {
  expect(Math.abs(num(sum) - exact)).toBeLessThanOrEqual(0.5 + count * 0.5);
};

/** Checks the tables' figures against the aggregate. */
async function checkFigures(agg: SlogAggregate, run: (sql: string) => Row[] | Promise<Row[]>): Promise<void> {
  const deliveries = await run(FIGURES.deliveries);
  expect(deliveries.length).toBe(agg.deliveriesByVatMethod.length);
  expect(deliveries.reduce((a, r) => a + num(r.n), 0)).toBe(agg.deliveries.count);
  for (const d of agg.deliveriesByVatMethod) {
    const row = deliveries.find((r) => vatOf(r) === d.vatID && r.method === d.method);
    expect(row, `${d.vatID} ${d.method}`).toBeDefined();
    expect(num(row?.n)).toBe(d.count);
    closeMicros(row?.us, d.total, d.count);
    expect(row?.computrons === null ? undefined : num(row?.computrons)).toBe(d.computrons);
  }
  // Computrons by vat.
  const vatComputrons = await run(FIGURES.vatComputrons);
  for (const v of agg.deliveriesByVat) {
    const sum = vatComputrons.filter((r) => vatOf(r) === v.vatID).reduce((a, r) => a + num(r.computrons), 0);
    expect(sum, v.vatID).toBe(v.computrons ?? 0);
  }

  const syscalls = await run(FIGURES.syscalls);
  expect(syscalls.length).toBe(agg.syscallsByType.length);
  for (const s of agg.syscallsByType) {
    const row = syscalls.find((r) => r.type === s.type);
    expect(num(row?.n), s.type).toBe(s.count);
    expect(num(row?.unanswered)).toBe(s.unanswered);
    closeMicros(row?.us, s.total, s.count);
  }

  const cranks = await run(FIGURES.cranks);
  const ofType = (t: string): Row | undefined => cranks.find((r) => r.crankType === t);
  expect(num(ofType('delivery')?.n)).toBe(agg.cranks.delivery);
  expect(num(ofType('routing')?.n)).toBe(agg.cranks.routing);
  closeMicros(ofType('delivery')?.us, agg.deliveryCranks.total, agg.deliveryCranks.count);
  closeMicros(ofType('routing')?.us, agg.routingCranks.total, agg.routingCranks.count);

  const vatCranks = await run(FIGURES.vatCranks);
  expect(vatCranks.length).toBe(agg.vats.length);
  for (const v of agg.vats) {
    const row = vatCranks.find((r) => vatOf(r) === v.vatID);
    expect(num(row?.cranks), v.vatID).toBe(v.cranks);
    closeMicros(row?.us, v.crankTime, v.cranks);
  }
  const vats = await run(FIGURES.vats);
  for (const v of agg.vats) expect(vats.find((r) => r.vatID === v.vatID)?.vatName ?? undefined).toBe(v.vatName);
}

describe('export: figures as stats has them', () => {
  for (const [name, file] of Object.entries(SLOGS)) {
    it(`${name}: Parquet, CSV and SQLite`, async () => {
      const agg = await aggregate(file);
      expect(agg.deliveries.count).toBeGreaterThan(0);
      const parquet = await exportTo('parquet', [file]);
      const csv = await exportTo('csv', [file]);
      for (const dir of [parquet.to, csv.to]) {
        const db = await duckdb(dir);
        await checkFigures(agg, db.run);
        db.close();
      }
      const db = await exportTo('sqlite', [file]);
      await checkFigures(agg, sqlite(db.to));
      // The rows each pass reported are the rows written.
      const counts = Object.fromEntries(TABLES.map((t) => [t.name, num(sqlite(db.to)(`SELECT count(*) AS n FROM ${t.name}`)[0]?.n)]));
      expect(counts).toEqual(db.sources[0]?.rows);
      expect(parquet.sources[0]?.rows).toEqual(counts);
    });
  }
});

/** Every row of a table in a stable order, booleans as SQLite has them (1/0). */
const ORDER: Record<string, string> = {
  deliveries: 'deliveryId',
  syscalls: 'deliveryId, syscallNum, crankNum, micros',
  cranks: 'crankNum, startTime',
  blocks: 'height, again, abandoned, firstCrank',
  runs: 'height, again, run, phase, firstCrank',
  snapshots: 'time, kind',
  stalls: 'startTime',
  vats: 'vatID',
  messages: 'deliverCrank',
  clist: 'vatID, kref, addedCrank, removedCrank',
  growth: "unit, periodIndex, coalesce(vatID, '')",
};
const asSqlite = (rows: Row[]): Row[] =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 1 : 0) : v])));

describe('export: the formats hold the same rows', () => {
  it('a-xs-3 and chain-bot in Parquet, CSV and SQLite', async () => {
    const inputs = [SLOGS['a-xs-3'] as string, SLOGS['chain-bot'] as string];
    const parquet = await exportTo('parquet', inputs);
    const csv = await exportTo('csv', inputs);
    const db = await exportTo('sqlite', inputs);
    const fromParquet = await duckdb(parquet.to);
    const fromCsv = await duckdb(csv.to);
    try {
      for (const table of TABLES) {
        const sql = `SELECT * FROM ${table.name} ORDER BY source, ${ORDER[table.name]}`;
        const p = asSqlite(await fromParquet.run(sql));
        expect(p.length).toBeGreaterThan(0);
        expect(asSqlite(await fromCsv.run(sql))).toEqual(p);
        expect(sqlite(db.to)(sql)).toEqual(p);
        // Every column, with its documented name, in its order (source last: the partition).
        expect(Object.keys(p[0] as Row)).toEqual([...table.columns.map((c) => c.name), 'source']);
      }
    } finally {
      fromParquet.close();
      fromCsv.close();
    }
  });
});

describe('export: a dataset of several slogs', () => {
  it('one source= folder per input, read as one table', async () => {
    const names = ['a-local-3', 'b-local-5', 'chain-bot'];
    const summary = await exportTo('parquet', names.map((n) => SLOGS[n] as string));
    for (const table of TABLES) {
      expect(readdirSync(join(summary.to, table.name)).sort()).toEqual(['a-local-3.slog', 'b-local-5.slog', 'chain-bot.slog'].map((s) => `source=${s}`));
      expect(readdirSync(join(summary.to, table.name, 'source=chain-bot.slog'))).toEqual(['part-0.parquet']);
    }
    expect(readdirSync(summary.to).sort()).toEqual(['_slogulate-export.json', ...TABLES.map((t) => t.name)].sort());
    const db = await duckdb(summary.to);
    try {
      const bySource = await db.run('SELECT source, count(*) AS n FROM deliveries GROUP BY source ORDER BY source');
      expect(bySource).toEqual(summary.sources.map((s) => ({ source: s.source, n: s.rows.deliveries })));
      // Each source's figures are those of its slog alone.
      const agg = await aggregate(SLOGS['b-local-5'] as string);
      const run = async (sql: string): Promise<Row[]> => {
        const scoped = sql.replace(/FROM (\w+)( |$)/, "FROM (SELECT * FROM $1 WHERE source = 'b-local-5.slog')$2");
        return db.run(scoped);
      };
      await checkFigures(agg, run);
    } finally {
      db.close();
    }
  });

  it('a table in several parts holds the same rows as in one', async () => {
    // chain-A: a part is sent after the batch of lines (512 KB of slog) that filled it, so a slog of many batches.
    const file = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
    const one = await exportTo('parquet', [file]);
    const split = await exportSlogs({ inputs: [file], to: fresh('parts'), format: 'parquet', pass: exportPass, tables: TABLES, parquet: { firstPartChars: 10_000, partChars: 40_000 } });
    const parts = readdirSync(join(split.to, 'syscalls', 'source=chain-A.slog')).sort();
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.slice(0, 2)).toEqual(['part-0.parquet', 'part-1.parquet']);
    const a = await duckdb(one.to);
    const b = await duckdb(split.to);
    try {
      for (const table of TABLES) {
        const sql = `SELECT * FROM ${table.name} ORDER BY ${ORDER[table.name]}`;
        expect(await b.run(sql)).toEqual(await a.run(sql));
      }
    } finally {
      a.close();
      b.close();
    }
  });

  it('source names: the file name, made safe; two inputs may not share one', () => {
    expect(sourceNames(['x/chain.slog.gz', undefined], 'node1-')).toEqual(['node1-chain.slog.gz', 'node1-stdin']);
    expect(sourceNames(['a b/=odd name?.slog', '.hidden.slog', '__'])).toEqual(['odd_name_.slog', 'hidden.slog', 'slog']);
    expect(() => sourceNames(['a/x.slog', 'b/x.slog'])).toThrow(/both be source=x.slog/);
  });
});

describe('export: the chain view\'s tables', () => {
  it('blocks and runs hold each block execution and run as the slog\'s lines give them (chain-A: a restart)', async () => {
    const file = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
    // Counted apart from the program, by a plain loop over the slog's lines.
    const { blocks, runs } = chainFacts(file);
    expect(blocks.length).toBeGreaterThan(100);
    expect(blocks.filter((b) => b.abandoned).map((b) => b.height)).toEqual([85]);
    const sorted = (xs: unknown[]): string[] => xs.map((x) => JSON.stringify(x, Object.keys(x as object).sort())).sort();
    for (const format of ['parquet', 'sqlite'] as const) {
      const summary = await exportTo(format, [file]);
      const run =
        format === 'parquet'
          ? (await duckdb(summary.to)).run
          : (sql: string): Row[] => sqlite(summary.to)(sql.replaceAll('FROM blocks', 'FROM block').replaceAll('FROM runs', 'FROM run'));
      const bool = (v: unknown): boolean => v === true || v === 1;
      const tableBlocks = await run('SELECT * FROM blocks');
      expect(tableBlocks.length, format).toBe(blocks.length);
      // Block by block (an execution by its height, and whether it was abandoned or ran again), the same figures.
      const key = (height: unknown, abandoned: boolean, again: boolean): string => `${String(height)} ${abandoned} ${again}`;
      const byKey = new Map(tableBlocks.map((r) => [key(r.height, bool(r.abandoned), bool(r.again)), r]));
      for (const b of blocks) {
        const r = byKey.get(key(b.height, b.abandoned, b.again));
        expect(r, key(b.height, b.abandoned, b.again)).toBeDefined();
        expect(num(r?.cranks)).toBe(b.cranks);
        expect(num(r?.deliveries)).toBe(b.deliveries);
        expect(num(r?.computrons)).toBe(b.computrons);
        expect(r?.usedBeans === null ? null : num(r?.usedBeans)).toBe(b.usedBeans);
        expect(JSON.parse(String(r?.runsByPhase))).toEqual(b.runs);
        expect(sorted(JSON.parse(String(r?.inbound)) as unknown[])).toEqual(sorted(b.inbound));
        expect(bool(r?.committed)).toBe(b.committed);
        expect(r?.firstCrank === null ? null : num(r?.firstCrank)).toBe(b.firstCrank);
      }
      const tableRuns = await run('SELECT * FROM runs');
      expect(tableRuns.length, format).toBe(runs.length);
      const sum = (rows: ReadonlyArray<Record<string, unknown>>, f: string): number => rows.reduce((a, r) => a + num(r[f]), 0);
      for (const f of ['cranks', 'deliveries', 'computrons', 'usedBeans']) expect(sum(tableRuns, f), f).toBe(sum(runs as unknown as Array<Record<string, unknown>>, f));
      const counts = (kinds: unknown[]): Record<string, number> => {
        const out: Record<string, number> = {};
        for (const k of kinds) out[String(k)] = (out[String(k)] ?? 0) + 1;
        return out;
      };
      expect(counts(tableRuns.map((r) => r.trigger))).toEqual(counts(runs.map((r) => r.trigger)));
    }
  });

  it('a slog without blocks: empty blocks and runs tables that SQL still reads', async () => {
    const summary = await exportTo('parquet', [SLOGS['a-local-3'] as string]);
    expect(summary.sources[0]?.rows.blocks).toBe(0);
    const db = await duckdb(summary.to);
    expect(await db.run('SELECT count(*) AS n FROM blocks')).toEqual([{ n: 0 }]);
    expect(await db.run('SELECT count(*) AS n FROM runs')).toEqual([{ n: 0 }]);
  });
});
