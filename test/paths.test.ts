/**
 * The fast path (the byte reader, src/scan/fast-reader.ts) gives the plain
 * path's results (every line JSON.parse'd), in process: the render with
 * many option sets, and each analysis, on every shared slog, clean and as
 * nodes write them, and on a damaged slog (bad lines, CRLF line ends, a
 * line cut short, a truncated last line: the same bad lines are reported,
 * with the same numbers). Each says how its lines were read, as the line
 * reader counted them: the plain side read every line with JSON.parse; the
 * fast side read with the byte reader most of the crank lines written in
 * the slogger's key order, counted here from the slog's text.
 *
 * The slogs are named one by one: what else lies in fixtures/slogs (a
 * docs example's output) is not read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ReadPath } from '../src/scan/line-reader.js';
import { compareSideOf, krefModelOf, statsOf, topOf } from '../src/run/analyses.js';
import type { BadLineReport, PassResult } from '../src/run/pass.js';
import { renderSlog } from '../src/run/render.js';
import { RENDER_OPTION_SETS } from '../src/render/option-sets.test-helpers.js';
import { VatNames } from '../src/model/vats.js';
import type { SlogInput } from '../src/source/open.js';
import { expectSameText, ROOT, SLOG_NAMES, slogPath } from './helpers.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

const SLOG_FILES: string[] = [
  ...SLOG_NAMES.map(slogPath),
  ...[
    'chain-A.slog',
    'chain-bot.slog',
    'chain-shapes.synthetic.slog',
    'console-no-level.slog',
    'contextual-bot.jsonl',
    'lone-deliver-result.slog',
    'mid-crank-start.slog',
    'restart-replay.slog',
    'y2022-create-vat.slog',
    'block-files-bot',
  ].map((n) => join(REAL, n)),
];

/** The seven crank types the byte reader reads (scan/fast-reader.ts). */
const CRANK_TYPES = ['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist'];

/** The slog's text: a file, a folder of gzipped per-block files, or bytes. */
function slogText(f: string | SlogInput): string {
  if (typeof f !== 'string') return 'bytes' in f ? f.bytes.toString('utf8') : '';
  if (!f.endsWith('block-files-bot')) return readFileSync(f, 'utf8');
  return readdirSync(f)
    .map((n) => gunzipSync(readFileSync(join(f, n))).toString('utf8'))
    .join('');
}

/** Crank lines as the slogger writes them (`{"type":"deliver",...`: its key order, which the byte reader follows). */
function slogCrankLines(f: string | SlogInput): number {
  const starts = CRANK_TYPES.map((t) => `{"type":"${t}",`);
  return slogText(f)
    .split('\n')
    .filter((l) => starts.some((s) => l.startsWith(s))).length;
}

/** A damaged copy of a slog: bad lines, CRLF ends, a line cut short, and a truncated last line. */
function damaged(): SlogInput {
  const lines = readFileSync(slogPath('a-xs-3'), 'utf8').split('\n').filter((l) => l !== '');
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i === 40) out.push('not json at all');
    if (i === 90) out.push('{"no":"type"}');
    if (i === 120) out.push(line.slice(0, line.length / 2));
    else out.push(i % 7 === 0 ? `${line}\r` : line);
  });
  return { name: 'damaged.slog', bytes: Buffer.from(`${out.join('\n')}\n${lines[0]?.slice(0, 30)}`) };
}

/**
 * The share of a slog's crank lines the fast side reads fast, at least: 90%;
 * a quarter of y2022-create-vat's, whose kernel wrote syscalls without their
 * `syscall` name and deliveries without their `dispatch` kind: where the
 * reads depend on the name (--novatstore), the byte reader leaves those
 * syscalls to the plain path, and every delivery, whose kind the time split
 * reads (model/reads.ts) from its `kd` there.
 */
const fastShare = (f: string | SlogInput): number => (typeof f === 'string' && f.endsWith('y2022-create-vat.slog') ? 1 / 4 : 0.9);

/** The way each side read its lines: every line plain on the plain side; on the fast side, most of the slogger's crank lines fast. */
function expectPaths(f: string | SlogInput, fast: PassResult, plain: PassResult): void {
  for (const r of [fast, plain]) {
    expect(r.read.big).toBe(0);
    expect(r.read.fast + r.read.plain).toBe(r.lines);
  }
  expect(plain.read.fast).toBe(0);
  expect(fast.read.fast).toBeGreaterThanOrEqual(fastShare(f) * (crankLines.get(f) as number));
}

async function both<T extends { pass: PassResult }>(
  f: string | SlogInput,
  run: (path: ReadPath, bad: (b: BadLineReport) => void) => Promise<T>,
): Promise<[T, T, string[], string[]]> {
  const fastBad: string[] = [];
  const plainBad: string[] = [];
  const fast = await run('fast', (b) => fastBad.push(`${b.source}:${b.line}: ${b.why}`));
  const plain = await run('plain', (b) => plainBad.push(`${b.source}:${b.line}: ${b.why}`));
  expectPaths(f, fast.pass, plain.pass);
  expect(fastBad).toEqual(plainBad);
  return [fast, plain, fastBad, plainBad];
}

const inputsOf = (file: string | SlogInput): SlogInput[] => [file];
const ALL: Array<string | SlogInput> = [...SLOG_FILES, damaged()];
const crankLines = new Map(ALL.map((f) => [f, slogCrankLines(f)]));
const label = (f: string | SlogInput): string => (typeof f === 'string' ? f.replace(`${ROOT}/`, '') : f.name);

it('the slogs hold crank lines in the slogger\'s key order for the fast side to read (and those that hold none are the ones expected)', () => {
  const none = ALL.filter((f) => crankLines.get(f) === 0).map((f) => basename(label(f)));
  // Synthetic chain entries; crank entries inside a contextual envelope; one line of a 2021 kernel, its time first.
  expect(none).toEqual(['chain-shapes.synthetic.slog', 'contextual-bot.jsonl', 'lone-deliver-result.slog']);
  expect(crankLines.get(join(REAL, 'chain-A.slog'))).toBeGreaterThan(30_000);
});

describe.each(ALL.map((f) => ({ f, name: label(f) })))('$name', ({ f }) => {
  it('the render, every option set', async () => {
    // The biggest real slog (12 MB) with the default options only: the byte reader reads each of its lines as the
    // plain path does for every option set's reads (src/scan/fast-reader.test.ts), which is all the path changes.
    const big = typeof f === 'string' && f.endsWith('chain-A.slog');
    for (const options of big ? RENDER_OPTION_SETS.slice(0, 1) : RENDER_OPTION_SETS) {
      const [fast, plain] = await both(f, async (path, onBadLine) => {
        const r = await renderSlog({ inputs: inputsOf(f), options, path, onBadLine });
        return { pass: r, text: r.text };
      });
      expectSameText(fast.text, plain.text, `render ${JSON.stringify(options)}`);
    }
  });

  it('stats, top, compare, the kref model', async () => {
    const [s1, s2] = await both(f, async (path, onBadLine) => {
      const r = await statsOf({ inputs: inputsOf(f), path, onBadLine });
      return { pass: r.pass, json: JSON.stringify(r.aggregate) };
    });
    expect(s1.json).toBe(s2.json);
    const [t1, t2] = await both(f, async (path, onBadLine) => {
      const r = await topOf({ inputs: inputsOf(f), n: 10, path, onBadLine });
      return { pass: r.pass, json: JSON.stringify(r.top) };
    });
    expect(t1.json).toBe(t2.json);
    const [c1, c2] = await both(f, async (path, onBadLine) => {
      const r = await compareSideOf({ inputs: inputsOf(f), side: { slog: 'x' }, path, onBadLine });
      return { pass: r.pass, json: JSON.stringify({ ...r.data, syscalls: [...r.data.syscalls].map(([k, v]) => [k, [...v].map(([m, t]) => [m, [...t]])]), methodTimes: [...r.data.methodTimes] }) };
    });
    expect(c1.json).toBe(c2.json);
    const [k1, k2] = await both(f, async (path, onBadLine) => {
      const r = await krefModelOf({ inputs: inputsOf(f), start: () => ({ vats: new VatNames(), value: undefined }), path, onBadLine });
      return { pass: r.pass, json: JSON.stringify([...r.model.ids()].map((id) => r.model.facts(id))) };
    });
    expect(k1.json).toBe(k2.json);
  });
});
