/**
 * `top`, `stats` and `compare` read most lines from their bytes
 * (src/input/analysis-lines.ts): their output, stdout and stderr (bad-line
 * reports, with their line numbers) and exit status, must be the plain
 * path's (SLOGULATE_FAST=0: every line JSON.parse'd), on every shared slog
 * with the commands' options, from a file, stdin and gzip, and on damaged
 * slogs: bad lines, a line cut short or broken in two, CRLF line ends, a
 * truncated last line, a slog that starts or ends inside a crank, lines with
 * their keys in another order or with spaces, times written with an
 * exponent, blank lines.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSlog, runCli, SLOG_NAMES, type CliResult } from './helpers.js';

const PLAIN = { SLOGULATE_FAST: '0' };

/** Runs `args` on the fast path and on the plain path; both must print the same. */
async function expectSame(args: string[], opts: { stdin?: Buffer; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const [fast, plain] = await Promise.all([
    runCli(args, { stdin: opts.stdin, env: opts.env }),
    runCli(args, { stdin: opts.stdin, env: { ...opts.env, ...PLAIN } }),
  ]);
  expect(fast.stderr).toBe(plain.stderr);
  expect(fast.status).toBe(plain.status);
  expect(fast.stdout === plain.stdout, `stdout of ${args.join(' ')}`).toBe(true);
  return fast;
}

const ANNOTATIONS = '../annotations/a-local-3.annot.json';

const ALL_KEYS = ['total', 'local', 'syscall', 'syscall-fraction', 'syscall-count', 'computrons'].flatMap((key) => ['--by', key]);

/** `top` with each of its options (every ranking key at once: each is ranked on its own). */
const TOP_ARGS: string[][] = [
  [],
  ['--json', ...ALL_KEYS],
  ['--by', 'computrons', '--by', 'syscall-fraction', '-n', '2'],
  ['--cranks', '5-60,100-', '-n', '40', '--json'],
  ['--vat', 'v1', '--vat', 'bootstrap', '--vat', 'v6'],
  ['--cranks', '9999999'],
  ['--annotations', ANNOTATIONS, '--vat', 'carol (dynamic)', '--vat', 'v7', '--json'],
];

const STATS_ARGS: string[][] = [[], ['--format', 'markdown', '--cranks', '5-60', '--vat', 'v1'], ['--json', '--annotations', ANNOTATIONS]];

describe.concurrent.each(SLOG_NAMES)('%s', (slog) => {
  const file = `${slog}.slog`;

  it.each(TOP_ARGS.map((args) => [args.join(' ') || '(default)', args] as const))('top %s', async (_name, args) => {
    const r = await expectSame(['top', ...args, file]);
    expect(r.status).toBe(0);
  });

  it.each(STATS_ARGS.map((args) => [args.join(' ') || '(default)', args] as const))('stats %s', async (_name, args) => {
    const r = await expectSame(['stats', ...args, file]);
    expect(r.status).toBe(0);
  });

  it('compare, text and JSON, with thresholds', async () => {
    const other = SLOG_NAMES[(SLOG_NAMES.indexOf(slog) + 1) % SLOG_NAMES.length] as string;
    await expectSame(['compare', '--fail-on', 'syscalls:+0', file, `${other}.slog`]);
    await expectSame(['compare', '--format', 'json', '--vat', 'v1', '--time-rows', '0', `${other}.slog`, file]);
  });

  it('from stdin, and gzipped from a file and from stdin', async () => {
    const bytes = readSlog(slog);
    const gz = gzipSync(bytes);
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-analysis-'));
    writeFileSync(join(dir, 's.slog.gz'), gz);
    await expectSame(['top', '--json', '-'], { stdin: bytes });
    await expectSame(['stats', '--json', '-'], { stdin: gz });
    await expectSame(['compare', '--format', 'json', '-', join(dir, 's.slog.gz')], { stdin: bytes });
  });
});

/** Damaged copies of a real slog, each with one kind of damage, and one with all. */
describe('damaged slogs', () => {
  let dir: string;
  const damaged = new Map<string, string>();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'slogulate-damaged-'));
    for (const slog of ['a-local-3', 'a-xs-3']) {
      const lines = readSlog(slog).toString('utf8').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const typeOf = (line: string): string => (JSON.parse(line) as { type: string }).type;
      const nth = (type: string, n: number): number => {
        let seen = 0;
        const i = lines.findIndex((l) => l.includes(`"type":"${type}"`) && (seen += 1) === n);
        if (i < 0) throw new Error(`no ${type} #${n} in ${slog}`);
        return i;
      };
      const write = (name: string, text: string): void => {
        const path = join(dir, `${slog}-${name}.slog`);
        writeFileSync(path, text);
        damaged.set(`${slog}-${name}`, path);
      };
      const joinLines = (ls: string[]): string => `${ls.join('\n')}\n`;
      const edit = (f: (ls: string[]) => void): string[] => {
        const copy = [...lines];
        f(copy);
        return copy;
      };

      const syscall = nth('syscall', 40);
      const half = (l: string): string => l.slice(0, Math.floor(l.length / 2));
      write(
        'bad-lines',
        joinLines(
          edit((ls) => {
            ls.splice(nth('deliver', 10), 0, 'not json at all', '[1,2,3]', '{"notype":1}', '{"type":"syscall","crankNum":');
            ls.splice(nth('crank-finish', 30), 0, '{"type":"syscall-result","crankNum":1,"vatID":"v1"}x');
          }),
        ),
      );
      write('cut-syscall', joinLines(edit((ls) => ls.splice(syscall, 1, half(ls[syscall] as string)))));
      write('broken-syscall', joinLines(edit((ls) => ls.splice(syscall, 1, half(ls[syscall] as string), (ls[syscall] as string).slice(half(ls[syscall] as string).length)))));
      write('crlf', `${lines.join('\r\n')}\r\n`);
      const last = lines[lines.length - 1] as string;
      write('truncated-last', `${lines.slice(0, -1).join('\n')}\n${half(last)}`);
      write('unterminated-last', lines.join('\n'));
      const midStart = nth('syscall', 25);
      write('starts-mid-crank', joinLines(lines.slice(midStart)));
      const midEnd = nth('syscall', 60);
      write('ends-mid-crank', joinLines(lines.slice(0, midEnd + 1)));
      write('ends-mid-syscall', joinLines(lines.slice(0, midEnd)) + half(lines[midEnd] as string));
      // Every third line of the kinds read from their bytes, re-written: keys reversed
      // (type first), spaces, an exponent in the time, escapes in strings.
      const READ = new Set(['crank-start', 'crank-finish', 'syscall', 'syscall-result', 'deliver', 'deliver-result', 'clist']);
      const rewrite = (f: (entry: Record<string, unknown>, line: string) => string): string[] =>
        lines.map((line, i) => {
          if (i % 3 !== 0 || !READ.has(typeOf(line))) return line;
          return f(JSON.parse(line) as Record<string, unknown>, line);
        });
      write(
        'reordered',
        joinLines(
          rewrite((entry) => {
            const { type, ...rest } = entry;
            return JSON.stringify({ type, ...Object.fromEntries(Object.entries(rest).reverse()) });
          }),
        ),
      );
      write('spaces', joinLines(rewrite((_entry, line) => line.replace(/,"/g, ', "').replace(/":(?=[-\d[{"tfn])/g, '": '))));
      write(
        'exponents',
        joinLines(rewrite((entry, line) => line.replace(`"time":${String(entry.time)}`, `"time":${(entry.time as number).toExponential()}`))),
      );
      write(
        'escapes',
        joinLines(rewrite((_entry, line) => line.replace(/"vatID":"v(\d+)"/, '"vatID":"\\u0076$1"').replace(/"ksc":\["(\w)/, '"ksc":["\\u00$1'))),
      );
      write('blank-lines', joinLines(edit((ls) => ls.splice(nth('crank-start', 20), 0, '', '   ', '\t'))));
      write(
        'unicode',
        joinLines(
          edit((ls) => {
            const set = ls.findIndex((l) => l.includes('"ksc":["vatstoreSet"'));
            ls[set] = (ls[set] as string).replace(/"vsc":\["vatstoreSet","([^"]*)"/, '"vsc":["vatstoreSet","$1 ünï ☃ 𝄞"');
          }),
        ),
      );
      // All of it at once (the bad lines, a cut, CRLF, a truncated end).
      write(
        'everything',
        `${edit((ls) => {
          ls.splice(nth('deliver', 5), 0, 'garbage');
          ls.splice(syscall, 1, half(ls[syscall] as string));
        })
          .slice(nth('syscall', 3))
          .join('\r\n')}\r\n${half(last)}`,
      );
    }
  });

  const NAMES = [
    'bad-lines', 'cut-syscall', 'broken-syscall', 'crlf', 'truncated-last', 'unterminated-last', 'starts-mid-crank', 'ends-mid-crank',
    'ends-mid-syscall', 'reordered', 'spaces', 'exponents', 'escapes', 'blank-lines', 'unicode', 'everything',
  ];
  // Every damage to a-local-3; the ones that touch deliver-results to a-xs-3 too (computrons).
  const CASES = [...NAMES.map((name) => `a-local-3-${name}`), ...['bad-lines', 'reordered', 'exponents', 'everything'].map((name) => `a-xs-3-${name}`)];

  it.concurrent.each(CASES)('%s: top, stats and compare print what the plain path prints', async (name) => {
    const path = damaged.get(name) as string;
    const original = `${name.startsWith('a-xs-3') ? 'a-xs-3' : 'a-local-3'}.slog`;
    await expectSame(['top', '--json', ...ALL_KEYS, path]);
    const stats = await expectSame(['stats', '--json', path]);
    expect(stats.status).toBe(0);
    await expectSame(['compare', '--format', 'json', original, path]);
  });

  it('the damage is there: the plain path reports the bad lines', async () => {
    const r = await runCli(['stats', damaged.get('a-local-3-everything') as string], { env: PLAIN });
    expect(r.stderr).toMatch(/:\d+: not JSON/);
    expect(r.stderr).toMatch(/truncated last line/);
  });
});
