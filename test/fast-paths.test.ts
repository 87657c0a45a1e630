/**
 * The fast paths give the plain path's bytes. The plain path is
 * SLOGULATE_FAST=0: one thread, every line parsed with JSON.parse (its output
 * is the reference text, see reference.test.ts). The fast paths:
 *
 * - lines the options drop read without parsing (render-lines.ts): the
 *   default on any input;
 * - the parallel render (parallel-render.ts), forced onto the small shared
 *   slogs with tiny chunks, so that every slog is cut in dozens of places;
 *   also with a limit that makes it give up cutting and finish on one thread;
 *   from a file, from stdin and gzipped.
 *
 * On every shared slog and reference option set, plus a few more option sets,
 * and a slog with bad lines, CRLF line ends and a truncated last line
 * (stderr must match too: the same messages with the same line numbers).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderLineParser } from '../src/input/render-lines.js';
import type { SyscallEntry } from '../src/model/types.js';
import { defaultRenderOptions, type RenderOptions } from '../src/render/options.js';
import { readSlog, REFERENCE_OPTIONS, referenceText, runCli, SLOG_NAMES, slogPath } from './helpers.js';


const PLAIN = { SLOGULATE_FAST: '0' };
/** Parallel, one worker plus the main thread, chunks of about 16 KB. */
const PARALLEL = { SLOGULATE_WORKERS: '1', SLOGULATE_CHUNK_BYTES: '16384', SLOGULATE_WORKERS_AFTER: '0' };
/** Parallel, two workers, tiny chunks, giving up cutting past 64 KB without a crank-start. */
const PARALLEL_REST = {
  SLOGULATE_WORKERS: '2',
  SLOGULATE_CHUNK_BYTES: '4096',
  SLOGULATE_MAX_CHUNK_BYTES: '65536',
  // The main thread renders the first 256 KB alone, then the workers join in.
  SLOGULATE_WORKERS_AFTER: '262144',
};

const EXTRA_OPTIONS: Record<string, string[]> = {
  'vatspace-nonoise-novatstore-timing': ['--vatspace', '--nonoise', '--novatstore', '--timing'],
  'summarize-no-clist-nonoise-novatstore': ['--summarize', '--no-clist', '--nonoise', '--novatstore', '--timing'],
  'annotated-no-times-timing': ['--no-times', '--timing', '--annotations', '../annotations/a-local-3.annot.json'],
  'selected-nonoise-novatstore-timing': ['--cranks', '5-60', '--vat', 'v1', '--vat', 'v6', '--nonoise', '--novatstore', '--timing'],
};

const referenceCases = SLOG_NAMES.flatMap((slog) =>
  Object.entries(REFERENCE_OPTIONS)
    .filter(([name]) => name !== 'annotated-nonoise-novatstore' || slog === 'a-local-3')
    .map(([name, args]) => ({ slog, name, args })),
);

describe.concurrent.each(referenceCases)('$slog $name', ({ slog, name, args }) => {
  const expected = referenceText(slog, name);

  it('parallel, from the file', async () => {
    const r = await runCli([...args, `${slog}.slog`], { env: PARALLEL });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout === expected).toBe(true);
  });
});

describe.concurrent.each(SLOG_NAMES)('%s: more option sets, stdin, gzip', (slog) => {
  it.each(Object.entries(EXTRA_OPTIONS))('%s: plain = lite = parallel', async (_name, args) => {
    const plain = await runCli([...args, `${slog}.slog`], { env: PLAIN });
    expect(plain.status).toBe(0);
    const lite = await runCli([...args, `${slog}.slog`]);
    const parallel = await runCli([...args, `${slog}.slog`], { env: PARALLEL_REST });
    expect(lite.stdout === plain.stdout).toBe(true);
    expect(parallel.stdout === plain.stdout).toBe(true);
  });

  it('parallel from stdin, plain and gzipped, and from a gzipped file', async () => {
    const args = ['--nonoise', '--novatstore', '--timing'];
    const expected = referenceText(slog, 'nonoise-novatstore-timing');
    const stdin = await runCli([...args, '-'], { stdin: readSlog(slog), env: PARALLEL });
    expect(stdin.stdout === expected).toBe(true);
    const gz = gzipSync(readSlog(slog));
    const gzStdin = await runCli(args, { stdin: gz, env: PARALLEL_REST });
    expect(gzStdin.stdout === expected).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-fast-'));
    writeFileSync(join(dir, 's.gz'), gz);
    const gzFile = await runCli([...args, join(dir, 's.gz')], { env: PARALLEL });
    expect(gzFile.stdout === expected).toBe(true);
  });
});

describe('bad lines, CRLF and a truncated last line', () => {
  // a-local-3 with damage: garbage, a truncated line, a non-object, blank
  // lines, CRLF ends on some lines, crank-start lines cut short (the crank
  // before goes on: no chunk may start there), and a last line cut short
  // without a newline.
  const lines = readFileSync(slogPath('a-local-3'), 'utf8').trimEnd().split('\n');
  const damaged: string[] = [];
  lines.forEach((line, i) => {
    if (i % 97 === 5) damaged.push('not json at all');
    if (i % 131 === 7) damaged.push(line.slice(0, Math.floor(line.length / 2)));
    if (i % 157 === 9) damaged.push('[1, 2, 3]', '', '   ');
    if (i % 7 === 3 && line.startsWith('{"type":"crank-start"')) {
      // A crank-start cut short: its entries belong to the crank before.
      damaged.push(line.slice(0, -3));
      return;
    }
    damaged.push(i % 5 === 0 ? `${line}\r` : line);
  });
  const last = lines[lines.length - 1] as string;
  const text = `${damaged.join('\n')}\n${last.slice(0, last.length - 10)}`;
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-bad-'));
  const file = join(dir, 'damaged.slog');
  writeFileSync(file, text);

  it.each([
    ['default', []],
    ['nonoise-novatstore-timing', ['--nonoise', '--novatstore', '--timing']],
    ['summarize-vatspace', ['--summarize', '--vatspace']],
  ])('%s: same stdout and stderr', async (_name, args) => {
    const plain = await runCli([...args, file], { env: PLAIN });
    expect(plain.stderr).toMatch(/damaged\.slog:\d+: not JSON/);
    expect(plain.stderr).toMatch(/truncated last line/);
    for (const env of [{}, PARALLEL, PARALLEL_REST]) {
      const r = await runCli([...args, file], { env });
      expect(r.stdout === plain.stdout).toBe(true);
      expect(r.stderr).toBe(plain.stderr);
      expect(r.status).toBe(plain.status);
    }
  });
});

describe('lines read without parsing hold what JSON.parse gives, as far as the render reads it', () => {
  // test/lite-entries.test.ts renders every line both ways; this checks the values themselves.
  const optionSets: Array<[string, Partial<RenderOptions>]> = [
    ['default', {}],
    ['nonoise novatstore', { nonoise: true, novatstore: true }],
    ['nonoise novatstore timing vatspace', { nonoise: true, novatstore: true, timing: true, vatspace: true }],
    ['no-clist', { clist: false }],
    ['timing', { timing: true }],
  ];
  it.each(optionSets)('%s', (_name, overrides) => {
    // As if inside a crank, with a vatstore syscall waiting for its result: where small entries are made.
    const pendingSyscall: SyscallEntry = { type: 'syscall', ksc: ['vatstoreGet'], vsc: ['vatstoreGet'] };
    const parse = renderLineParser({ ...defaultRenderOptions(), ...overrides }, { inCrank: true, awaitingResult: true, pendingSyscall });
    let lite = 0;
    for (const slog of SLOG_NAMES) {
      for (const line of readFileSync(slogPath(slog), 'utf8').split('\n')) {
        if (!line) continue;
        const full = JSON.parse(line) as Record<string, unknown>;
        const got = parse(line, false) as Record<string, unknown>;
        expect(got.type).toBe(full.type);
        if (JSON.stringify(got) === JSON.stringify(full)) continue;
        lite += 1;
        for (const [key, value] of Object.entries(got)) {
          const whole = full[key];
          if (key === 'time' && value === undefined) continue; // a time the options do not print
          if (Array.isArray(value) && value.length < (whole as unknown[]).length) {
            // Partial on purpose: a vatstore syscall's name, an ok status.
            expect(value).toEqual((whole as unknown[]).slice(0, value.length));
          } else if (key === 'message' && JSON.stringify(value) !== JSON.stringify(whole)) {
            // Its type and vatID.
            const { type, vatID } = whole as Record<string, unknown>;
            expect(value).toEqual(vatID === undefined ? { type } : { type, vatID });
          } else {
            expect(value).toEqual(whole);
          }
        }
      }
    }
    expect(lite).toBeGreaterThan(0);
  });
});
