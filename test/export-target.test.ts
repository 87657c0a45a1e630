/**
 * Where an export goes (src/export/target.ts): never onto an input, never
 * over anything but an earlier export and only with --replace, and all or
 * nothing: a failed export leaves the target as it was and no temp behind.
 * Also what export keeps of replays and of entries outside cranks.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPass as makeExportPass } from '../src/run/export.js';

const exportPass = makeExportPass();
import { TABLES } from '../src/export/tables/index.js';
import { exportSlogs } from '../src/export/export.js';
import { ExportError, MANIFEST, TargetWriteError } from '../src/export/target.js';
import type { ExportFormat } from '../src/export/writers/writer.js';
import { BIN, ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'slogulate-target-test-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});
let seq = 0;
const fresh = (): string => {
  seq += 1;
  const dir = join(scratch, `case-${seq}`);
  mkdirSync(dir);
  return dir;
};

const SLOG = slogPath('b-local-5');
const run = (to: string, options: { inputs?: string[]; format?: ExportFormat; replace?: boolean; sourcePrefix?: string } = {}) =>
  exportSlogs({ inputs: options.inputs ?? [SLOG], to, format: options.format ?? 'csv', replace: options.replace, sourcePrefix: options.sourcePrefix, pass: exportPass, tables: TABLES });

/** Every path under `dir`, relative, sorted. */
const tree = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

/** The usage error an export gives (and that it is one). */
async function refused(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExportError);
  expect((err as ExportError).usage).toBe(true);
  return (err as Error).message;
}

describe('export target', () => {
  it('writes a new folder, and only the folder', async () => {
    const dir = fresh();
    await run(join(dir, 'out'));
    expect(readdirSync(dir)).toEqual(['out']);
    expect(JSON.parse(readFileSync(join(dir, 'out', MANIFEST), 'utf8'))).toMatchObject({ format: 'csv' });
  });

  it('fills an empty folder', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'out'));
    await run(join(dir, 'out'));
    expect(readdirSync(join(dir, 'out'))).toContain('deliveries');
    expect(readdirSync(dir)).toEqual(['out']);
  });

  it('refuses a folder that is not empty; --replace replaces only an earlier export', async () => {
    const dir = fresh();
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    expect(await refused(run(out))).toMatch(/not empty \(--replace/);
    expect(await refused(run(out, { replace: true }))).toMatch(/not a slogulate export/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');

    const earlier = join(dir, 'earlier');
    await run(earlier, { inputs: [slogPath('a-local-3')] });
    expect(await refused(run(earlier))).toMatch(/not empty/);
    await run(earlier, { replace: true });
    expect(readdirSync(join(earlier, 'deliveries'))).toEqual(['source=b-local-5.slog']);
    expect(readdirSync(dir).sort()).toEqual(['earlier', 'out']);
  });

  it('--replace never removes what is not the earlier export\'s: a file of the user\'s, a partition merged in by copying', async () => {
    const dir = fresh();
    const out = join(dir, 'out');
    await run(out);
    const before = tree(out);
    const deliveries = (folder: string): string[] => tree(join(folder, 'deliveries'));
    const ownDeliveries = deliveries(out);
    const refuse = async (what: RegExp): Promise<void> => {
      const message = await refused(run(out, { replace: true }));
      expect(message).toMatch(/^--to .*: holds what is not this export's \(/);
      expect(message).toMatch(what);
      expect(message).not.toMatch(/\n/);
    };

    // A file of the user's beside the tables.
    writeFileSync(join(out, 'notes.txt'), 'mine');
    await refuse(/\(notes\.txt\)/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    rmSync(join(out, 'notes.txt'));

    // Another node's export merged in by copying its folders (its manifest too: the last copied wins).
    const other = join(dir, 'other');
    await run(other, { inputs: [slogPath('a-local-3')], sourcePrefix: 'node2-' });
    cpSync(other, out, { recursive: true });
    // The merged folder's manifest is node2's (the last copied): b-local-5's partitions are not node2's export's.
    const merged = /\(blocks\/source=b-local-5\.slog, clist\/source=b-local-5\.slog, cranks\/source=b-local-5\.slog and 8 more\)/;
    await refuse(merged);
    expect(readdirSync(join(out, 'deliveries')).sort()).toEqual(['source=b-local-5.slog', 'source=node2-a-local-3.slog']);
    expect(await refused(run(out, { replace: true, inputs: [slogPath('a-local-3')], sourcePrefix: 'node2-' }))).toMatch(merged);
    // Even an export that writes every source it holds: the folder is not one export.
    const node2 = join(dir, 'node2-a-local-3.slog');
    copyFileSync(slogPath('a-local-3'), node2);
    expect(await refused(run(out, { replace: true, inputs: [SLOG, node2] }))).toMatch(merged);
    rmSync(node2);
    // Every file of both exports is still there.
    expect(deliveries(out)).toEqual([...ownDeliveries, ...deliveries(other)].sort());

    // A file inside a partition.
    rmSync(out, { recursive: true });
    await run(out);
    writeFileSync(join(out, 'deliveries', 'source=b-local-5.slog', 'README'), 'mine');
    await refuse(/deliveries\/source=b-local-5\.slog\/README/);
    rmSync(join(out, 'deliveries', 'source=b-local-5.slog', 'README'));
    expect(tree(out)).toEqual(before);

    // The earlier export itself is replaced, its sources too (another slog's export of the folder).
    await run(out, { replace: true, inputs: [slogPath('a-local-3')] });
    expect(readdirSync(join(out, 'deliveries'))).toEqual(['source=a-local-3.slog']);
    expect(JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'))).toMatchObject({ sources: ['a-local-3.slog'] });
    // A manifest of before it listed its sources: only the partitions this export writes are replaced.
    writeFileSync(join(out, MANIFEST), JSON.stringify({ slogulate: '1', format: 'csv', tables: ['deliveries', 'syscalls', 'cranks', 'blocks', 'runs', 'vats'] }));
    expect(await refused(run(out, { replace: true }))).toMatch(/source=a-local-3\.slog/);
    await run(out, { replace: true, inputs: [slogPath('a-local-3')] });
    expect(readdirSync(dir).sort()).toEqual(['other', 'out']);

    // On the command line: exit 2, one line.
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const cli = await runInProcess(['export', SLOG, '--to', out, '--replace', '--format', 'csv']);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toBe(
      `slogulate: --to ${out}: holds what is not this export's (notes.txt): --replace would remove it; not replacing it (export to another folder and copy its partitions in)\n`,
    );
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('--to in a folder that does not exist: refused as -o refuses it (one line, exit 1), nothing created', async () => {
    const dir = fresh();
    const missing = join(dir, 'no-such-folder');
    for (const format of ['csv', 'parquet', 'sqlite'] as const) {
      const err = await run(join(missing, 'out'), { format }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TargetWriteError);
    }
    const cli = await runInProcess(['export', SLOG, '--to', join(missing, 'tables')]);
    const out = await runInProcess(['stats', SLOG, '-o', join(missing, 'stats.txt')]);
    expect(out.stderr).toBe(`slogulate: ${join(missing, 'stats.txt')}: no such directory\n`);
    expect(cli.stderr).toBe(`slogulate: ${join(missing, 'tables')}: no such directory\n`);
    expect(cli.status).toBe(out.status);
    expect(cli.status).toBe(1);
    // A file where a folder should be.
    writeFileSync(join(dir, 'file'), '');
    const notDir = await runInProcess(['export', SLOG, '--to', join(dir, 'file', 'tables')]);
    expect(notDir.status).toBe(1);
    expect(notDir.stderr).toMatch(/^slogulate: .*file\/tables: a part of the path is not a directory\n$/);
    expect(readdirSync(dir)).toEqual(['file']);
  });

  it('the export gets the permissions of new folders and files under the umask, not 0700', () => {
    const dir = fresh();
    for (const [umask, folderMode, fileMode] of [
      ['022', 0o755, 0o644],
      ['002', 0o775, 0o664],
    ] as const) {
      for (const format of ['parquet', 'csv'] as const) {
        const to = join(dir, `${format}-${umask}`);
        const r = spawnSync('/bin/sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, BIN, 'export', SLOG, '--to', to, '--format', format, '--quiet']);
        expect(r.stderr.toString()).toBe('');
        expect(r.status).toBe(0);
        const mode = (path: string): number => statSync(path).mode & 0o777;
        expect(mode(to).toString(8), to).toBe(folderMode.toString(8));
        for (const path of tree(to).map((p) => join(to, p))) {
          expect(mode(path).toString(8), path).toBe((statSync(path).isDirectory() ? folderMode : fileMode).toString(8));
        }
      }
    }
  });

  it('never writes onto an input', async () => {
    const dir = fresh();
    const inside = join(dir, 'data');
    mkdirSync(inside);
    const slog = join(inside, 'chain.slog');
    copyFileSync(SLOG, slog);
    writeFileSync(join(inside, MANIFEST), '{}');
    expect(await refused(run(inside, { inputs: [slog], replace: true }))).toMatch(/overwrite its input/);
    expect(await refused(run(slog, { inputs: [slog], format: 'sqlite', replace: true }))).toMatch(/overwrite its input/);
    expect(readFileSync(slog).equals(readFileSync(SLOG))).toBe(true);
  });

  it('a failed export leaves an earlier one as it was, and no temp behind', async () => {
    const dir = fresh();
    const out = join(dir, 'out');
    await run(out, { inputs: [slogPath('a-local-3')] });
    const before = readdirSync(join(out, 'deliveries'));
    const missing = join(dir, 'no-such.slog');
    await expect(run(out, { inputs: [SLOG, missing], replace: true })).rejects.toThrow(/no-such.slog/);
    await expect(run(out, { inputs: [SLOG, missing], replace: true, format: 'parquet' })).rejects.toThrow(/no-such.slog/);
    expect(readdirSync(join(out, 'deliveries'))).toEqual(before);
    expect(readdirSync(dir)).toEqual(['out']);
  });

  it('SQLite: one file, replaced only when asked and only if it is a database', async () => {
    const dir = fresh();
    const file = join(dir, 'chain.sqlite');
    await run(file, { format: 'sqlite' });
    expect(await refused(run(file, { format: 'sqlite' }))).toMatch(/file exists \(--replace/);
    await run(file, { format: 'sqlite', replace: true, inputs: [SLOG, slogPath('a-local-3')] });
    const db = new Database(file, { readonly: true });
    const sources = db.prepare('SELECT DISTINCT source FROM delivery ORDER BY source').all();
    const tables = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY type, name").all();
    db.close();
    expect(sources).toEqual([{ source: 'a-local-3.slog' }, { source: 'b-local-5.slog' }]);
    expect(tables).toEqual(
      ['block', 'clist_entry', 'crank', 'delivery', 'message', 'run', 'snapshot', 'stall', 'syscall', 'vat', 'vat_growth'].map((name) => ({ type: 'table', name })).concat(
        ['blocks', 'clist', 'cranks', 'deliveries', 'growth', 'messages', 'runs', 'snapshots', 'stalls', 'syscalls', 'vats'].map((name) => ({ type: 'view', name })),
      ),
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'mine');
    expect(await refused(run(text, { format: 'sqlite', replace: true }))).toMatch(/not a SQLite database/);
    expect(readdirSync(dir).sort()).toEqual(['chain.sqlite', 'notes.txt']);
  });
});

describe('export: what a real node writes', () => {
  it('replays keep their flag; deliveries and syscalls outside cranks are kept', async () => {
    const file = join(ROOT, '..', 'shared', 'slogs', 'real', 'restart-replay.slog');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const count = (type: string, replay: boolean): number => lines.filter((e) => e.type === type && (e.replay === true) === replay).length;
    const dir = fresh();
    const summary = await run(join(dir, 'db.sqlite'), { inputs: [file], format: 'sqlite' });
    expect(summary.sources[0]?.rows.deliveries).toBe(lines.filter((e) => e.type === 'deliver').length);
    expect(summary.sources[0]?.rows.syscalls).toBe(lines.filter((e) => e.type === 'syscall').length);
    const db = new Database(join(dir, 'db.sqlite'), { readonly: true });
    const get = (sql: string): unknown => (db.prepare(sql).get() as { n: unknown }).n;
    expect(get('SELECT count(*) AS n FROM deliveries WHERE replay = 1')).toBe(count('deliver', true));
    expect(get('SELECT count(*) AS n FROM syscalls WHERE replay = 1')).toBe(count('syscall', true));
    expect(get('SELECT count(*) AS n FROM deliveries WHERE replay = 0')).toBe(count('deliver', false));
    // The restart ran some cranks again: their first runs are kept, flagged.
    const abandoned = get('SELECT count(*) AS n FROM cranks WHERE abandoned = 1') as number;
    expect(abandoned).toBeGreaterThan(0);
    expect(get('SELECT count(DISTINCT crankNum) AS n FROM cranks WHERE abandoned = 0')).toBe(get('SELECT count(*) AS n FROM cranks WHERE abandoned = 0'));
    expect(get('SELECT count(*) AS n FROM cranks WHERE abandoned = 1 AND crankNum NOT IN (SELECT crankNum FROM cranks WHERE abandoned = 0)')).toBe(0);
    // A replayed delivery has only vat-space refs; its syscalls belong to it.
    expect(get("SELECT count(*) AS n FROM syscalls s JOIN deliveries d USING (source, deliveryId) WHERE s.replay = 1 AND d.replay = 1")).toBe(count('syscall', true));
    // Replays while the kernel starts happen outside cranks.
    expect(get('SELECT count(*) AS n FROM deliveries WHERE crankNum IS NULL')).toBeGreaterThan(0);
    expect(get("SELECT count(*) AS n FROM vats WHERE managerType = 'xs-worker' OR managerType = 'xsnap'")).toBeGreaterThan(0);
    db.close();
    expect(existsSync(join(dir, 'db.sqlite'))).toBe(true);
  });
});
