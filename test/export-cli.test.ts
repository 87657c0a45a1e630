/**
 * `slogulate export` and `slogulate query` as users run them, with DuckDB on
 * its worker thread: in process (runInProcess), and as bin/slogulate (the
 * compiled code) for stdin, SIGINT and a usage error's exit status: `query`
 * joins deliveries to syscalls and agrees with `top`'s rankings; output
 * formats; exit statuses and one-line errors.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createGunzip, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, slogPath } from './helpers.js';
import { until } from './live-process.js';
import { runInProcess } from './run-main.js';
import { crankFacts, typeCounts } from './slog-facts.js';
import { loopStalls, slogEntries } from './time-split-loop.js';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'slogulate-export-cli-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const CHAIN_BOT = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-bot.slog');

/** Syscalls per finished crank, from the join of deliveries and syscalls, ranked as `top` ranks. */
const JOIN = (orderBy: string, n: number): string => `
  SELECT d.crankNum, count(*) AS syscallCount, sum(s.micros) AS syscallMicros
  FROM deliveries d
  JOIN syscalls s USING (source, deliveryId)
  JOIN cranks c ON c.source = d.source AND c.crankNum = d.crankNum
  WHERE c.endTime IS NOT NULL
  GROUP BY d.crankNum
  ORDER BY ${orderBy} DESC, d.crankNum
  LIMIT ${n}`;

interface Ranked {
  crankNum: number;
  syscallCount: number;
  syscallMicros: number;
}

async function json<T>(args: string[]): Promise<T> {
  const r = await runInProcess(args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('query', () => {
  for (const slog of [slogPath('a-xs-3'), CHAIN_BOT]) {
    it(`a join of deliveries and syscalls ranks cranks as top does: ${slog.split('/').pop()}`, async () => {
      const top = await json<{ rankings: Array<{ key: string; cranks: Ranked[] }> }>(['top', '--json', '--by', 'syscall-count', '--by', 'syscall', '-n', '8', slog]);
      const sql = `SELECT 'syscall-count' AS key, * FROM (${JOIN('syscallCount', 8)}) UNION ALL SELECT 'syscall', * FROM (${JOIN('syscallMicros', 8)})`;
      const rows = await json<Array<Ranked & { key: string }>>(['query', sql, slog, '--format', 'json']);
      for (const ranking of top.rankings) {
        const expected = ranking.cranks;
        const got = rows.filter((r) => r.key === ranking.key);
        expect(expected.length).toBe(8);
        // The same cranks in the same order, with the same syscall counts.
        expect(got.map((r) => [r.crankNum, r.syscallCount])).toEqual(expected.map((r) => [r.crankNum, r.syscallCount]));
        // top rounds each crank's sum of syscall times, the table each syscall's: the slog's
        // times are whole µs held in doubles to 0.24 µs, so the two agree to that per syscall.
        got.forEach((r, i) => {
          const want = expected[i] as Ranked;
          expect(Math.abs(r.syscallMicros - want.syscallMicros)).toBeLessThanOrEqual(1 + want.syscallCount * 0.25);
        });
      }
    });
  }

  it('reads export folders and slogs together', async () => {
    const dir = join(scratch, 'tables');
    const exported = await runInProcess(['export', slogPath('a-local-3'), '--to', dir, '--format', 'csv']);
    expect(exported.status).toBe(0);
    // Rows: a delivery per deliver line, a syscall per syscall line, a crank per crank-start line, a stall per gap over 1 s.
    const local = typeCounts(slogPath('a-local-3'));
    const stalls = loopStalls(slogEntries(slogPath('a-local-3')), 1).length;
    expect(stalls).toBeGreaterThan(0);
    expect(exported.stdout).toMatch(
      new RegExp(`: deliveries ${local.get('deliver')}, syscalls ${local.get('syscall')}, cranks ${local.get('crank-start')}, stalls ${stalls}, vats \\d+ \\(csv, 1 slog\\)\\n$`),
    );
    const sql = 'SELECT source, count(*) AS deliveries, sum(computrons) AS computrons FROM deliveries GROUP BY source ORDER BY source';
    const text = await runInProcess(['query', sql, dir, slogPath('a-xs-3')]);
    expect(text.status).toBe(0);
    // a-local-3 has no computrons (its usage reports have none): NULL.
    expect(crankFacts(slogPath('a-local-3')).every((c) => c.computrons === undefined)).toBe(true);
    const xs = crankFacts(slogPath('a-xs-3'));
    const rows = [
      ['source', 'deliveries', 'computrons'],
      ['a-local-3.slog', String(local.get('deliver')), 'NULL'],
      ['a-xs-3.slog', String(typeCounts(slogPath('a-xs-3')).get('deliver')), String(xs.reduce((n, c) => n + (c.computrons ?? 0), 0))],
    ];
    // Aligned columns: the first to the left, the numbers to the right, two spaces between.
    const width = (i: number): number => Math.max(...rows.map((r) => (r[i] as string).length));
    const aligned = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(width(0)) : c.padStart(width(i)))).join('  ')).join('\n');
    expect(text.stdout).toBe(`${aligned}\n`);
    // Not an export folder; a table that is not there (no slog read).
    const missing = await runInProcess(['query', 'SELECT * FROM blocs', dir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^slogulate: query: Catalog Error: Table with name blocs does not exist!\n$/);
    const notExport = await runInProcess(['query', 'SELECT 1', scratch]);
    expect(notExport.status).toBe(2);
    expect(notExport.stderr).toMatch(/not an export folder/);
  });

  it('an SQL without a statement is one line, exit 2, before any slog is read', async () => {
    const dir = join(scratch, 'no-statement');
    expect((await runInProcess(['export', CHAIN_BOT, '--to', dir, '--format', 'csv'])).status).toBe(0);
    for (const sql of ['', ' ', ';', ' ; ;\n', '/* nothing */', '\n-- nothing']) {
      for (const input of [dir, join(scratch, 'no-such.slog')]) {
        const r = await runInProcess(['query', sql, input]);
        expect(r.stderr, JSON.stringify(sql)).toBe('slogulate: query: no SQL statement\n');
        expect(r.status).toBe(2);
        expect(r.stdout).toBe('');
      }
    }
    // A comment before a statement is still a statement.
    const botDeliveries = String(typeCounts(CHAIN_BOT).get('deliver'));
    expect((await runInProcess(['query', '/* deliveries */ SELECT count(*) AS n FROM deliveries; -- all', dir])).stdout).toBe(`${'n'.padStart(botDeliveries.length)}\n${botDeliveries}\n`);
  });

  it('a slog on stdin; a mistake in the SQL is one line, exit 2, before the slog is read', async () => {
    const slog = readFileSync(slogPath('b-local-5'));
    const r = await runCli(['query', 'SELECT count(*) AS n FROM cranks'], { stdin: slog });
    const cranks = String(typeCounts(slogPath('b-local-5')).get('crank-start'));
    expect(r.stdout).toBe(`${'n'.padStart(cranks.length)}\n${cranks}\n`);
    const bad = await runCli(['query', 'SELEC 1', join(scratch, 'no-such.slog')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('slogulate: query: Parser Error: syntax error at or near "SELEC"\n');
  });
});

describe('export', () => {
  it('usage errors exit 2 with one line; the target stays as it was', async () => {
    const noTo = await runCli(['export', slogPath('a-local-3')]);
    expect(noTo.status).toBe(2);
    expect(noTo.stderr).toMatch(/^slogulate: required option '--to <path>' not specified/);
    const badFormat = await runInProcess(['export', slogPath('a-local-3'), '--to', join(scratch, 'x'), '--format', 'xml']);
    expect(badFormat.status).toBe(2);
    const missing = await runInProcess(['export', join(scratch, 'nope.slog'), '--to', join(scratch, 'y')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.split('\n').length).toBe(2);
    expect(missing.stderr).toMatch(/nope\.slog/);
    const notEmpty = await runInProcess(['export', slogPath('a-local-3'), '--to', join(ROOT, 'docs')]);
    expect(notEmpty.status).toBe(2);
    expect(notEmpty.stderr).toMatch(/not empty/);
    const onInput = await runInProcess(['export', slogPath('a-local-3'), '--to', ROOT, '--replace']);
    expect(onInput.status).toBe(2);
    expect(onInput.stderr).toMatch(/would overwrite its input/);
    expect(readdirSync(scratch).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('interrupted (SIGINT), it removes its temporary folder and leaves the target as it was', async () => {
    const parent = join(scratch, 'interrupted');
    mkdirSync(parent);
    const child = spawn(process.execPath, [BIN, 'export', '--to', join(parent, 'tables')], { stdio: ['pipe', 'pipe', 'pipe'] });
    // Half a slog on stdin, and the rest never comes.
    const slog = readFileSync(slogPath('a-local-3'));
    // The child is killed with part of this maybe still unread: EPIPE then is expected, not a failure.
    child.stdin.on('error', () => undefined);
    child.stdin.write(slog.subarray(0, slog.length >> 1));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await until('the temporary folder', () => readdirSync(parent).length > 0);
    expect(readdirSync(parent)[0]).toMatch(/^\.tables\.tmp-/);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(readdirSync(parent)).toEqual([]);
  });

  /** Every file under `dir`, as paths relative to it. */
  const filesUnder = (dir: string): string[] => (existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]) : []);
  /** A Parquet file whose footer is written ends with its magic, `PAR1`: DuckDB has finished it. */
  const finishedParquet = (path: string): boolean => {
    const bytes = readFileSync(path);
    return bytes.length > 8 && bytes.subarray(-4).toString('latin1') === 'PAR1';
  };

  /**
   * The first 40 MB of the big slog, in whole lines: enough rows that the
   * first parts of the cranks and syscalls tables (1 MB of staging text
   * each: some 11,000 cranks, 17,000 syscalls) go to DuckDB while the slog
   * is still read (24 MB is not enough).
   */
  let bigHead: Buffer | undefined;
  async function bigSlogHead(): Promise<Buffer> {
    if (bigHead) return bigHead;
    const pieces: Buffer[] = [];
    let size = 0;
    const gunzip = createReadStream(join(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz')).pipe(createGunzip());
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      pieces.push(piece);
      size += piece.length;
      if (size >= 40 << 20) break;
    }
    gunzip.destroy();
    const all = Buffer.concat(pieces);
    bigHead = all.subarray(0, all.lastIndexOf(10) + 1);
    return bigHead;
  }

  it.each([
    ['as soon as the export has begun (DuckDB loading on its worker thread), nothing read yet', false, (_files: string[], _temp: string): boolean => true],
    ['once a part went to DuckDB (its Parquet file begun)', true, (files: string[]): boolean => files.some((f) => f.endsWith('.parquet'))],
    ['once DuckDB has finished a part (its Parquet file whole)', true, (files: string[], temp: string): boolean => files.some((f) => f.endsWith('.parquet') && finishedParquet(join(temp, f)))],
  ] as const)('interrupted (SIGINT) %s: exit 130, no abort, nothing left behind', async (_moment, feed, ready) => {
    // A slog on stdin that never ends: the export cannot finish before the signal, however fast it is.
    const slog = await bigSlogHead();
    const parent = mkdtempSync(join(scratch, 'interrupted-parquet-'));
    const child = spawn(process.execPath, [BIN, 'export', '--to', join(parent, 'tables')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdin.on('error', () => undefined);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    try {
      if (feed) child.stdin.write(slog);
      // (Waits bounded only against a hang: a loaded machine may take long.)
      await until('the temporary folder', () => readdirSync(parent).length > 0, 100_000);
      const temp = join(parent, readdirSync(parent)[0] as string);
      await until('the moment', () => ready(filesUnder(temp), temp), 100_000);
      child.kill('SIGINT');
      const { code, signal } = await exited;
      expect(signal, output).toBe(null);
      expect(code, output).toBe(130);
      expect(output).toBe('');
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  }, 240_000);

  it('gzipped slogs; --source-prefix; --quiet', async () => {
    const dir = join(scratch, 'fleet');
    const gz = join(scratch, 'chain-bot.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(CHAIN_BOT)));
    const r = await runInProcess(['export', gz, '--to', dir, '--source-prefix', 'node1-', '--quiet']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(join(dir, 'cranks'))).toEqual(['source=node1-chain-bot.slog.gz']);
    const rows = await json<Array<{ n: number }>>(['query', 'SELECT count(*) AS n FROM deliveries', dir, '--format', 'json']);
    expect(rows).toEqual([{ n: typeCounts(CHAIN_BOT).get('deliver') }]);
  });
});
