/**
 * Where an export goes (src/export/target.ts): never onto an input, never
 * over anything but an earlier export and only with --replace, and all or
 * nothing: a failed export leaves the target as it was and no temp behind.
 * Also what export keeps of replays and of entries outside cranks.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPass as makeExportPass } from '../src/run/export.js';

const exportPass = makeExportPass();
import { exportSlogs } from '../src/export/export.js';
import { ExportError, MANIFEST } from '../src/export/target.js';
import type { ExportFormat } from '../src/export/writers/writer.js';
import { ROOT, slogPath } from './helpers.js';

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
const run = (to: string, options: { inputs?: string[]; format?: ExportFormat; replace?: boolean } = {}) =>
  exportSlogs({ inputs: options.inputs ?? [SLOG], to, format: options.format ?? 'csv', replace: options.replace, pass: exportPass });

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
      ['block', 'crank', 'delivery', 'run', 'syscall', 'vat'].map((name) => ({ type: 'table', name })).concat(
        ['blocks', 'cranks', 'deliveries', 'runs', 'syscalls', 'vats'].map((name) => ({ type: 'view', name })),
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
