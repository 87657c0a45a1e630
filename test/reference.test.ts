/**
 * The whole text render, byte for byte, against the reference output of every
 * shared slog and option set (fixtures/reference/README.md): in process, on
 * the fast path and on the plain path (each saying how its lines were read,
 * as the line reader counted them), from the
 * file and from gzipped bytes; and through the real command from a file, from
 * stdin and gzipped on stdin, for each slog.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderSlog } from '../src/run/render.js';
import { expectSameText, readSlog, REFERENCE_OPTIONS, referenceText, renderArgs, runCli, SLOG_NAMES, slogPath } from './helpers.js';

const cases = SLOG_NAMES.flatMap((slog) =>
  Object.entries(REFERENCE_OPTIONS)
    .filter(([name]) => name !== 'annotated-nonoise-novatstore' || slog === 'a-local-3')
    .map(([name, args]) => ({ slog, name, args })),
);

/** The seven crank types the byte reader reads (scan/fast-reader.ts). */
const CRANK_TYPES = new Set(['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist']);

const jsonLines = (slog: string): Array<Record<string, unknown>> =>
  readSlog(slog)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Each slog's lines of those types, counted from its JSON lines. */
const CRANK_LINES = new Map(SLOG_NAMES.map((slog) => [slog, jsonLines(slog).filter((e) => CRANK_TYPES.has(e.type as string)).length]));

/**
 * Each slog's syscalls whose `syscall` field names another syscall than their
 * ksc[0] (a device's `callNow`, whose kernel-space form is `invoke`). Where
 * the reads depend on the name (--novatstore), the byte reader chooses them
 * by the `syscall` field it meets first, consumers by ksc[0]: it leaves those
 * lines to the plain path.
 */
const RENAMED_SYSCALLS = new Map(
  SLOG_NAMES.map((slog) => [slog, jsonLines(slog).filter((e) => e.type === 'syscall' && Array.isArray(e.ksc) && e.syscall !== undefined && e.ksc[0] !== e.syscall).length]),
);

describe.each(cases)('$slog $name', ({ slog, name, args }) => {
  const expected = referenceText(slog, name);
  const { options, annotations } = renderArgs(args);
  const crankLines = (CRANK_LINES.get(slog) as number) - (options.novatstore === true ? (RENAMED_SYSCALLS.get(slog) as number) : 0);

  it('fast path, then plain path, from the file', async () => {
    const fast = await renderSlog({ inputs: [slogPath(slog)], options, annotations });
    // Every crank line (the slogger's, in its key order) read by the byte reader; the rest plain.
    expect(fast.read).toMatchObject({ fast: crankLines, plain: fast.lines - crankLines, big: 0 });
    expect(fast.badLines).toBe(0);
    expectSameText(fast.text, expected);
    const plain = await renderSlog({ inputs: [slogPath(slog)], options, annotations, path: 'plain' });
    expect(plain.read).toEqual({ fast: 0, plain: plain.lines, big: 0, lenient: 0 });
    expectSameText(plain.text, expected);
  });

  it('gzipped bytes', async () => {
    const r = await renderSlog({ inputs: [{ name: `${slog}.slog.gz`, bytes: gzipSync(readSlog(slog)) }], options, annotations });
    expectSameText(r.text, expected);
  });
});

describe.each(SLOG_NAMES)('%s through bin/slogulate', (slog) => {
  it('from the file, from stdin, and gzipped on stdin with no file argument', async () => {
    const [file, stdin, gzipped] = await Promise.all([
      runCli(['--timing', `${slog}.slog`]),
      runCli(['--timing', '-'], { stdin: readSlog(slog) }),
      runCli(['--timing'], { stdin: gzipSync(readSlog(slog)) }),
    ]);
    for (const r of [file, stdin, gzipped]) {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expectSameText(r.stdout, referenceText(slog, 'timing'));
    }
  });
});
