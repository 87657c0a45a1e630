/**
 * The fast path (the byte reader, src/scan/fast-reader.ts) gives the plain
 * path's results (every line JSON.parse'd), in process, each reporting the
 * path it took: the render with many option sets, and each analysis, on
 * every shared slog, clean and as nodes write them, and on a damaged slog
 * (bad lines, CRLF line ends, a line cut short, a truncated last line:
 * the same bad lines are reported, with the same numbers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadPath } from '../src/scan/line-reader.js';
import { compareSideOf, krefModelOf, statsOf, topOf } from '../src/run/analyses.js';
import type { BadLineReport } from '../src/run/pass.js';
import { renderSlog } from '../src/run/render.js';
import { RENDER_OPTION_SETS } from '../src/render/option-sets.test-helpers.js';
import { VatNames } from '../src/model/vats.js';
import type { SlogInput } from '../src/source/open.js';
import { expectSameText, ROOT, SLOGS } from './helpers.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

const SLOG_FILES: string[] = [
  ...readdirSync(SLOGS).map((n) => join(SLOGS, n)),
  ...readdirSync(REAL)
    .filter((n) => /\.(slog|jsonl)$/.test(n))
    .map((n) => join(REAL, n)),
  join(REAL, 'block-files-bot'),
];

/** A damaged copy of a slog: bad lines, CRLF ends, a line cut short, and a truncated last line. */
function damaged(): SlogInput {
  const lines = readFileSync(join(SLOGS, 'a-xs-3.slog'), 'utf8').split('\n').filter((l) => l !== '');
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i === 40) out.push('not json at all');
    if (i === 90) out.push('{"no":"type"}');
    if (i === 120) out.push(line.slice(0, line.length / 2));
    else out.push(i % 7 === 0 ? `${line}\r` : line);
  });
  return { name: 'damaged.slog', bytes: Buffer.from(`${out.join('\n')}\n${lines[0]?.slice(0, 30)}`) };
}

async function both<T extends { path: ReadPath }>(run: (path: ReadPath, bad: (b: BadLineReport) => void) => Promise<T>): Promise<[T, T, string[], string[]]> {
  const fastBad: string[] = [];
  const plainBad: string[] = [];
  const fast = await run('fast', (b) => fastBad.push(`${b.source}:${b.line}: ${b.why}`));
  const plain = await run('plain', (b) => plainBad.push(`${b.source}:${b.line}: ${b.why}`));
  expect(fast.path).toBe('fast');
  expect(plain.path).toBe('plain');
  expect(fastBad).toEqual(plainBad);
  return [fast, plain, fastBad, plainBad];
}

const inputsOf = (file: string | SlogInput): SlogInput[] => [file];
const ALL: Array<string | SlogInput> = [...SLOG_FILES, damaged()];
const label = (f: string | SlogInput): string => (typeof f === 'string' ? f.replace(`${ROOT}/`, '') : f.name);

describe.each(ALL.map((f) => ({ f, name: label(f) })))('$name', ({ f }) => {
  it('the render, every option set', async () => {
    // The biggest real slog (12 MB) with the default options only: the byte reader reads each of its lines as the
    // plain path does for every option set's reads (src/scan/fast-reader.test.ts), which is all the path changes.
    const big = typeof f === 'string' && f.endsWith('chain-A.slog');
    for (const options of big ? RENDER_OPTION_SETS.slice(0, 1) : RENDER_OPTION_SETS) {
      const [fast, plain] = await both((path, onBadLine) => renderSlog({ inputs: inputsOf(f), options, path, onBadLine }));
      expectSameText(fast.text, plain.text, `render ${JSON.stringify(options)}`);
    }
  });

  it('stats, top, compare, the kref model', async () => {
    const [s1, s2] = await both(async (path, onBadLine) => {
      const r = await statsOf({ inputs: inputsOf(f), path, onBadLine });
      return { path: r.pass.path, json: JSON.stringify(r.aggregate) };
    });
    expect(s1.json).toBe(s2.json);
    const [t1, t2] = await both(async (path, onBadLine) => {
      const r = await topOf({ inputs: inputsOf(f), n: 10, path, onBadLine });
      return { path: r.pass.path, json: JSON.stringify(r.top) };
    });
    expect(t1.json).toBe(t2.json);
    const [c1, c2] = await both(async (path, onBadLine) => {
      const r = await compareSideOf({ inputs: inputsOf(f), side: { slog: 'x' }, path, onBadLine });
      return { path: r.pass.path, json: JSON.stringify({ ...r.data, syscalls: [...r.data.syscalls].map(([k, v]) => [k, [...v].map(([m, t]) => [m, [...t]])]), methodTimes: [...r.data.methodTimes] }) };
    });
    expect(c1.json).toBe(c2.json);
    const [k1, k2] = await both(async (path, onBadLine) => {
      const r = await krefModelOf({ inputs: inputsOf(f), start: () => ({ vats: new VatNames(), value: undefined }), path, onBadLine });
      return { path: r.pass.path, json: JSON.stringify([...r.model.ids()].map((id) => r.model.facts(id))) };
    });
    expect(k1.json).toBe(k2.json);
  });
});
