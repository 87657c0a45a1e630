/**
 * The export's time split (docs/export.md, docs/time-split.md): the cranks
 * table's parts, the deliveries' worker, pipe and GC times, the snapshots
 * and stalls tables, exported from the shared slogs and read back with SQL
 * through the real DuckDB (Parquet and CSV, `query`'s views) and SQLite
 * (better-sqlite3), against figures plain loops compute from the slog's
 * JSON lines (test/time-split-loop.ts, and the loops here).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDB } from '../src/export/duckdb.js';
import { exportSlogs } from '../src/export/export.js';
import { createViews } from '../src/export/query.js';
import type { ExportFormat } from '../src/export/writers/writer.js';
import { exportPass as makeExportPass } from '../src/run/export.js';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCranks, loopDeliveries, loopStalls, slogEntries, us } from './time-split-loop.js';

const exportPass = makeExportPass();
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

/** The slogs the export tests read (test/export.test.ts), and chain-A. */
const SLOGS: Record<string, string> = {
  'a-local-3': slogPath('a-local-3'),
  'a-xs-3': slogPath('a-xs-3'),
  'b-local-5': slogPath('b-local-5'),
  'chain-bot': join(REAL, 'chain-bot.slog'),
  'restart-replay': join(REAL, 'restart-replay.slog'),
  'mid-crank-start': join(REAL, 'mid-crank-start.slog'),
  'y2022-create-vat': join(REAL, 'y2022-create-vat.slog'),
  'chain-A': join(REAL, 'chain-A.slog'),
};
const slog = (name: string): string => SLOGS[name] as string;

type Row = Record<string, unknown>;
type Run = (sql: string) => Promise<Row[]>;

let scratch: string;
/** Each slog's export in each format (and stall threshold), made once for the file's tests. */
const exports = new Map<string, Promise<{ run: Run; close: () => void }>>();
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'slogulate-export-parts-'));
});
afterAll(async () => {
  for (const db of exports.values()) (await db).close();
  rmSync(scratch, { recursive: true, force: true });
});

let seq = 0;
const fresh = (name: string): string => join(scratch, `${name}-${(seq += 1)}`);

/** Whole numbers as numbers, booleans as 0/1 (as SQLite has them). */
const plain = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v]),
  );

/** The slog exported as `format`, with SQL over it (made once). */
function exported(file: string, format: ExportFormat, stallSeconds?: number): Promise<{ run: Run; close: () => void }> {
  const key = `${file} ${format} ${stallSeconds}`;
  let db = exports.get(key);
  if (!db) {
    db = exportNow(file, format, stallSeconds);
    exports.set(key, db);
  }
  return db;
}

/** The slog exported as `format`, with SQL over it: DuckDB with `query`'s views (Parquet, CSV), or better-sqlite3 (SQLite). */
async function exportNow(file: string, format: ExportFormat, stallSeconds?: number): Promise<{ run: Run; close: () => void }> {
  const summary = await exportSlogs({ inputs: [file], to: fresh(format), format, pass: exportPass, stallSeconds });
  if (format === 'sqlite') {
    const db = new Database(summary.to, { readonly: true });
    return { run: async (sql) => (db.prepare(sql).all() as Row[]).map(plain), close: () => db.close() };
  }
  const db = await openDuckDB();
  const con = await db.connect();
  await createViews(con, [summary.to]);
  return {
    run: async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson().map((r) => plain(r as Row)),
    close: () => {
      con.closeSync();
      db.closeSync();
    },
  };
}

/** Runs `check` on the slog exported as Parquet (DuckDB) and as SQLite. */
async function inDuckDBAndSqlite(file: string, check: (run: Run, format: string) => Promise<void>, stallSeconds?: number): Promise<void> {
  for (const format of ['parquet', 'sqlite'] as const) {
    const db = await exported(file, format, stallSeconds);
    await check(db.run, format);
  }
}

const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const sortedBy = <T>(xs: T[]): T[] => xs.map((x) => JSON.stringify(x)).sort().map((s) => JSON.parse(s) as T);

/** The parts that are no part of another, summed in SQL (a null part as 0). */
const PARTS_SUM = 'pageInMicros + coalesce(vatMicros, 0) + syscallMicros + coalesce(pipeMicros, 0) + snapshotMicros + kernelMicros + unknownMicros';

describe('cranks: the parts add up to totalMicros, as a plain loop splits each crank', () => {
  for (const name of Object.keys(SLOGS)) {
    it(name, async () => {
      const file = slog(name);
      // Cranks from crank-start to crank-finish, split by the loop over the JSON lines.
      const expected = sortedBy(
        loopCranks(slogEntries(file)).map((c) => [c.crankNum, c.total, c.pageIn, c.replay, c.snapshot, c.syscall, c.vatAndPipe, c.kernel]),
      );
      expect(expected.length).toBeGreaterThan(0);
      await inDuckDBAndSqlite(file, async (run, format) => {
        const where = `${name} (${format})`;
        const bad = await run(`SELECT crankNum FROM cranks WHERE pageInMicros IS NOT NULL AND ${PARTS_SUM} <> totalMicros`);
        expect(bad, `${where}: cranks whose parts do not add up`).toEqual([]);
        const negative = await run(
          'SELECT crankNum FROM cranks WHERE pageInMicros < 0 OR replayMicros < 0 OR vatMicros < 0 OR pipeMicros < 0 OR syscallMicros < 0 ' +
            'OR snapshotMicros < 0 OR kernelMicros < 0 OR unknownMicros < 0 OR gcMicros < 0 OR replayMicros > pageInMicros OR gcMicros > vatMicros',
        );
        expect(negative, `${where}: parts below 0, or over the part they are in`).toEqual([]);
        // vat and pipe are unknown together, and then unknown holds their time.
        const unknown = await run(
          'SELECT crankNum FROM cranks WHERE pageInMicros IS NOT NULL AND ((vatMicros IS NULL) <> (pipeMicros IS NULL) OR vatMicros IS NOT NULL AND unknownMicros <> 0)',
        );
        expect(unknown, `${where}: vat, pipe and unknown`).toEqual([]);
        expect(await run(`SELECT crankNum FROM cranks WHERE localMicros <> totalMicros - syscallMicros`)).toEqual([]);
        const rows = await run(
          'SELECT crankNum, totalMicros, pageInMicros, replayMicros, snapshotMicros, syscallMicros, ' +
            'coalesce(vatMicros, 0) + coalesce(pipeMicros, 0) + unknownMicros AS vatAndPipe, kernelMicros FROM cranks WHERE pageInMicros IS NOT NULL',
        );
        const actual = sortedBy(rows.map((r) => [r.crankNum, r.totalMicros, r.pageInMicros, r.replayMicros, r.snapshotMicros, r.syscallMicros, r.vatAndPipe, r.kernelMicros].map(n)));
        expect(actual, where).toEqual(expected);
        // A crank has no parts only without its crank-start or its crank-finish.
        const partless = await run('SELECT count(*) AS n FROM cranks WHERE pageInMicros IS NULL');
        expect(n(partless[0]?.n), where).toBe((await run('SELECT count(*) AS n FROM cranks')).map((r) => n(r.n))[0]! - expected.length);
      });
    });
  }

  it('chain-A: crank 808 is a snapshot, not vat code; crank 1419 is a page-in', async () => {
    await inDuckDBAndSqlite(slog('chain-A'), async (run, format) => {
      const rows = await run('SELECT crankNum, pageInMicros, replayMicros, vatMicros, snapshotMicros, gcMicros FROM cranks WHERE crankNum IN (808, 1419) AND NOT abandoned ORDER BY crankNum');
      expect(rows.length, format).toBe(2);
      const [c808, c1419] = rows as [Row, Row];
      expect(n(c808.snapshotMicros)).toBeGreaterThanOrEqual(1_800_000);
      expect(n(c808.vatMicros)).toBeLessThan(60_000);
      expect(n(c808.gcMicros)).toBeGreaterThan(0);
      expect(n(c1419.pageInMicros)).toBeGreaterThanOrEqual(1_300_000);
      expect(Math.abs(n(c1419.replayMicros)! - 454_000)).toBeLessThan(10_000);
      expect(n(c1419.vatMicros)).toBeLessThan(40_000);
      expect(c1419.gcMicros).toBe(null);
    });
  });

  it('local-worker benchmarks: no snapshot, pipe or unknown; page-in only where a vat is created or upgraded', async () => {
    for (const name of ['a-local-3', 'b-local-5']) {
      await inDuckDBAndSqlite(slog(name), async (run, format) => {
        const [sums] = await run('SELECT sum(snapshotMicros) AS s, sum(pipeMicros) AS pi, sum(unknownMicros) AS u, count(vatMicros) AS v, count(*) AS c FROM cranks');
        expect(sums, `${name} (${format})`).toEqual({ s: 0, pi: 0, u: 0, v: sums?.c, c: sums?.c });
        const pageIns = await run("SELECT crankNum FROM cranks WHERE pageInMicros > 0 AND messageType NOT IN ('create-vat', 'upgrade-vat')");
        expect(pageIns, `${name} (${format})`).toEqual([]);
      });
    }
  });
});

describe('deliveries: worker, pipe and GC time', () => {
  it('workerMicros + pipeMicros + syscallMicros = totalMicros where known, on every slog; gcMicros only for bringOutYourDead', async () => {
    for (const name of Object.keys(SLOGS)) {
      await inDuckDBAndSqlite(slog(name), async (run, format) => {
        const where = `${name} (${format})`;
        expect(await run('SELECT deliveryId FROM deliveries WHERE workerMicros + pipeMicros + syscallMicros <> totalMicros'), where).toEqual([]);
        expect(await run('SELECT deliveryId FROM deliveries WHERE (workerMicros IS NULL) <> (pipeMicros IS NULL)'), where).toEqual([]);
        expect(await run("SELECT deliveryId FROM deliveries WHERE gcMicros IS NOT NULL AND kind <> 'bringOutYourDead'"), where).toEqual([]);
        expect(await run('SELECT deliveryId FROM deliveries WHERE (replay OR endTime IS NULL) AND workerMicros IS NOT NULL'), where).toEqual([]);
        const [known] = await run('SELECT count(workerMicros) AS n FROM deliveries');
        expect(n(known?.n), where).toBeGreaterThan(0);
      });
    }
  });

  // correlate-timestamps.py's worker and pipe, and measure-boyd-gc.py's GC, per delivery, by the loop over the JSON lines.
  for (const name of ['a-xs-3', 'y2022-create-vat', 'chain-A']) {
    it(`${name}: per delivery, as correlate-timestamps.py and measure-boyd-gc.py compute them`, async () => {
      const loop = loopDeliveries(slogEntries(slog(name)));
      const expected = sortedBy(loop.map((d) => [d.crankNum ?? null, d.deliveryNum ?? null, d.micros, d.syscallMicros, d.worker ?? null, d.pipe ?? null, d.gc ?? null]));
      // The slog has worker timestamps: the vat's time is not all of the delivery less its syscalls.
      expect(loop.filter((d) => d.pipe !== undefined && d.pipe > 0).length).toBeGreaterThan(10);
      await inDuckDBAndSqlite(slog(name), async (run, format) => {
        const rows = await run('SELECT crankNum, deliveryNum, totalMicros, syscallMicros, workerMicros, pipeMicros, gcMicros FROM deliveries WHERE NOT replay AND endTime IS NOT NULL AND startTime IS NOT NULL');
        const actual = sortedBy(rows.map((r) => [r.crankNum, r.deliveryNum, r.totalMicros, r.syscallMicros, r.workerMicros, r.pipeMicros, r.gcMicros].map(n)));
        expect(actual, `${name} (${format})`).toEqual(expected);
      });
    });
  }
});

describe('snapshots', () => {
  /** Each heap-snapshot line's figures, with the crank open around it (crank-start, or an entry with its number, to crank-finish), by a plain loop. */
  function snapshotLines(file: string): unknown[][] {
    const out: unknown[][] = [];
    let crank: number | null = null;
    for (const e of slogEntries(file)) {
      if (e.type === 'crank-start') crank = typeof e.crankNum === 'number' ? e.crankNum : null;
      else if (e.type === 'crank-finish' || e.type === 'kernel-init-start') crank = null;
      else if (typeof e.crankNum === 'number') crank = e.crankNum;
      const save = e.type === 'heap-snapshot-save';
      if (!save && e.type !== 'heap-snapshot-load') continue;
      const micros = (s: unknown): number | null => (typeof s === 'number' ? us(s) : null);
      out.push([
        save ? 'save' : 'load',
        e.vatID,
        crank,
        (save ? e.endPosition : e.snapPos) ?? null,
        e.uncompressedSize ?? null,
        e.compressedSize ?? null,
        micros(e.compressSeconds),
        micros(e.dbSaveSeconds),
        micros(e.archiveWriteSeconds),
        e.uncompressedSizeDelta ?? null,
        typeof e.restartWorker === 'boolean' ? (e.restartWorker ? 1 : 0) : null,
        e.time,
      ]);
    }
    return out;
  }

  for (const name of ['a-xs-3', 'chain-bot', 'restart-replay', 'mid-crank-start', 'chain-A']) {
    it(`${name}: a row per heap-snapshot line, with its crank`, async () => {
      const lines = snapshotLines(slog(name));
      expect(lines.length).toBeGreaterThan(0);
      // Per vat and kind, as grep would count the lines.
      const counts: Record<string, number> = {};
      for (const [kind, vat] of lines) counts[`${String(vat)} ${String(kind)}`] = (counts[`${String(vat)} ${String(kind)}`] ?? 0) + 1;
      await inDuckDBAndSqlite(slog(name), async (run, format) => {
        const where = `${name} (${format})`;
        const perVat = await run('SELECT vatID, kind, count(*) AS n FROM snapshots GROUP BY vatID, kind');
        expect(Object.fromEntries(perVat.map((r) => [`${String(r.vatID)} ${String(r.kind)}`, n(r.n)])), where).toEqual(counts);
        const rows = await run(
          'SELECT kind, vatID, crankNum, position, uncompressedSize, compressedSize, compressMicros, dbSaveMicros, archiveWriteMicros, ' +
            'uncompressedSizeDelta, restartWorker, time FROM snapshots',
        );
        expect(sortedBy(rows.map((r) => Object.values(r))), where).toEqual(sortedBy(lines));
      });
    });
  }

  it('chain-A: the snapshots of crank 808, in its block, with the vat\'s name', async () => {
    await inDuckDBAndSqlite(slog('chain-A'), async (run) => {
      const rows = await run("SELECT kind, vatName, blockNum FROM snapshots WHERE crankNum = 808 AND NOT abandoned ORDER BY time");
      const [crank] = await run('SELECT blockNum FROM cranks WHERE crankNum = 808 AND NOT abandoned');
      expect(rows.map((r) => r.kind)).toEqual(['save', 'load']);
      expect(rows.every((r) => r.vatName === 'timer' && r.blockNum === crank?.blockNum && r.blockNum !== null)).toBe(true);
    });
  });
});

describe('stalls', () => {
  const rowsOf = async (run: Run): Promise<unknown[]> =>
    (await run('SELECT micros, crankNum, blockNum, runNum, before, after, startTime, endTime FROM stalls ORDER BY startTime')).map((r) => ({
      micros: n(r.micros),
      crankNum: n(r.crankNum) ?? undefined,
      blockNum: n(r.blockNum) ?? undefined,
      runNum: n(r.runNum) ?? undefined,
      before: r.before,
      after: r.after,
      gapMatches: us(Number(r.endTime)) - us(Number(r.startTime)) === n(r.micros),
    }));

  for (const [name, seconds] of [
    ['chain-A', undefined],
    ['chain-A', 0.2],
    ['restart-replay', 0.1],
    ['a-xs-3', 0.05],
  ] as const) {
    it(`${name} over ${seconds ?? 1} s, as a plain loop finds them`, async () => {
      const expected = loopStalls(slogEntries(slog(name)), seconds ?? 1).map((s) => ({ ...s, gapMatches: true }));
      expect(expected.length).toBeGreaterThan(0);
      await inDuckDBAndSqlite(slog(name), async (run, format) => expect(await rowsOf(run), format).toEqual(expected), seconds);
    });
  }
});

describe('on the command line', () => {
  it('export --gap and query --gap set the stalls\' threshold; the summary counts the new tables', async () => {
    const to = fresh('cli');
    const r = await runInProcess(['export', slog('chain-A'), '--to', to, '--gap', '0.2']);
    expect(r.stderr).toBe('');
    const expected = loopStalls(slogEntries(slog('chain-A')), 0.2).length;
    expect(r.stdout).toContain(`snapshots 172, stalls ${expected}, vats`);
    // The export folder says which threshold its stalls were found with.
    expect(JSON.parse(readFileSync(join(to, '_slogulate-export.json'), 'utf8')).stallSeconds).toBe(0.2);
    const q = await runInProcess(['query', 'SELECT count(*) AS n FROM stalls', slog('a-xs-3'), '--gap', '0.05', '--format', 'csv']);
    expect(q.stdout).toBe(`n\n${loopStalls(slogEntries(slog('a-xs-3')), 0.05).length}\n`);
  });

  it('--gap takes a number of seconds above 0', async () => {
    for (const bad of ['0', '-1', 'x', '']) {
      const r = await runInProcess(['export', slog('a-xs-3'), '--to', fresh('bad'), '--gap', bad]);
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(/--gap <seconds>.*expected a number of seconds above 0/);
    }
  });

  it('query --help lists every table with its columns', async () => {
    const r = await runInProcess(['query', '--help']);
    for (const words of ['snapshots: kind vatID vatName crankNum', 'stalls: startTime endTime micros', 'pageInMicros replayMicros vatMicros', 'workerMicros']) {
      expect(r.stdout).toContain(words);
    }
  });
});
