/**
 * Test helpers: where the fixtures are, and running the built CLI
 * (`bin/slogulate`, i.e. the compiled JavaScript users run).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyAnnotations, loadAnnotations, type Annotations } from '../src/model/annotations.js';
import type { RenderOptions } from '../src/render/options.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = join(ROOT, 'fixtures');
export const SLOGS = join(FIXTURES, 'slogs');
export const REFERENCE = join(FIXTURES, 'reference');
export const BIN = join(ROOT, 'bin', 'slogulate');

/** The three real slogs written by the SwingSet kernel. */
export const SLOG_NAMES = ['a-local-3', 'a-xs-3', 'b-local-5'] as const;
export type SlogName = (typeof SLOG_NAMES)[number];

export const slogPath = (name: string): string => join(SLOGS, `${name}.slog`);

/**
 * chain-A.slog (../shared/slogs/real) up to block 30's after-commit-stats,
 * written into `dir`: tests of options read it (a quarter of the time).
 */
export function chainAHead(dir: string): string {
  const lines = readFileSync(join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog'), 'utf8').split(/(?<=\n)/);
  const end = lines.findIndex((l) => l.includes('"cosmic-swingset-after-commit-stats","blockHeight":30,'));
  const file = join(dir, 'chain-A-head.slog');
  writeFileSync(file, lines.slice(0, end + 1).join(''));
  return file;
}
export const readSlog = (name: string): Buffer => readFileSync(slogPath(name));
export const referenceText = (slog: string, name: string): string =>
  readFileSync(join(REFERENCE, slog, `${name}.txt`), 'utf8');

/** fixtures/reference/README.md: reference name -> options. */
export const REFERENCE_OPTIONS: Record<string, string[]> = {
  default: [],
  nonoise: ['--nonoise'],
  'nonoise-novatstore': ['--nonoise', '--novatstore'],
  timing: ['--timing'],
  'nonoise-novatstore-timing': ['--nonoise', '--novatstore', '--timing'],
  vatspace: ['--vatspace'],
  summarize: ['--summarize'],
  'bigwidth-40': ['--bigwidth', '40'],
  usesloggertags: ['--usesloggertags'],
  'no-clist-no-crankbreaks': ['--no-clist', '--no-crankbreaks'],
  'annotated-nonoise-novatstore': ['--nonoise', '--novatstore', '--annotations', '../annotations/a-local-3.annot.json'],
};


export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/slogulate with args (cwd: the slogs folder unless given), feeding `stdin` if given. */
export function runCli(
  args: string[],
  opts: { stdin?: Buffer | string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? SLOGS,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (status, signal) =>
      resolve({
        status,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => undefined);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/**
 * Where two texts first differ, as a person reads it: `line 37:` and the two
 * lines; undefined when they are the same.
 */
export function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  const a = actual.split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) {
      const show = (line: string | undefined): string => (line === undefined ? '(no line: the text ends)' : JSON.stringify(line));
      return `line ${i + 1} differs (of ${a.length} and ${b.length} lines)\n  actual:   ${show(a[i])}\n  expected: ${show(b[i])}`;
    }
  }
  return 'the texts differ only in their line ends';
}

/** Fails with the first differing line (a plain toBe would print two whole texts, or nothing useful). */
export function expectSameText(actual: string, expected: string, what = 'text'): void {
  const difference = firstDifference(actual, expected);
  if (difference !== undefined) throw new Error(`${what}: ${difference}`);
}

/** The render options and annotations a reference option set (REFERENCE_OPTIONS) stands for. */
export function renderArgs(args: readonly string[]): { options: Partial<RenderOptions>; annotations: Annotations } {
  const options: Partial<RenderOptions> = {};
  let annotations = emptyAnnotations();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    switch (arg) {
      case '--nonoise':
      case '--novatstore':
      case '--timing':
      case '--vatspace':
      case '--summarize':
      case '--usesloggertags':
        options[arg.slice(2) as 'nonoise'] = true;
        break;
      case '--no-clist':
        options.clist = false;
        break;
      case '--no-crankbreaks':
        options.crankbreaks = false;
        break;
      case '--bigwidth':
        options.bigWidth = Number(args[(i += 1)]);
        break;
      case '--annotations':
        annotations = loadAnnotations(join(SLOGS, args[(i += 1)] as string));
        break;
      default:
        throw new Error(`renderArgs: ${arg} is not a reference option`);
    }
  }
  return { options, annotations };
}

/**
 * A slog's text with benchmark round marks (the console lines a benchmark
 * logs) put in: for round i+1 of `rounds` (`[start, end]`), a start mark
 * before crank `start`'s crank-start and an end mark after crank `end`'s
 * crank-finish; an end of undefined leaves the end mark out.
 */
export function withRoundMarks(slogText: string, rounds: ReadonlyArray<readonly [number, number | undefined]>, benchmark = 'demo'): string {
  const mark = (text: string, time: number): string => `${JSON.stringify({ type: 'console', source: 'benchmark', level: 'log', args: [text], time, monotime: 0 })}\n`;
  const lines: string[] = [];
  for (const line of slogText.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; crankNum?: number; time: number };
    rounds.forEach(([start], i) => {
      if (e.type === 'crank-start' && e.crankNum === start) lines.push(mark(`Benchmark "${benchmark}" round ${i + 1} start crank ${start}`, e.time));
    });
    lines.push(`${line}\n`);
    rounds.forEach(([, end], i) => {
      if (end !== undefined && e.type === 'crank-finish' && e.crankNum === end) lines.push(mark(`Benchmark "${benchmark}" round ${i + 1} end crank ${end}`, e.time));
    });
  }
  return lines.join('');
}

/** Whole µs as the text tables print them for people (stats, compare), written apart from render/format.ts: `112.05 s`, `36.21 ms`, `902 µs`. */
export function readableTime(us: number): string {
  const two = (x: number): string => (Math.round(x * 100) / 100).toFixed(2);
  if (Math.abs(us) >= 1e6) return `${two(us / 1e6)} s`;
  if (Math.abs(us) >= 1e3) return `${two(us / 1e3)} ms`;
  return `${Math.round(us)} µs`;
}

/** A line of a text table that holds a time for people (`902 µs`, `36.21 ms`, `1.50 s`). */
export const READABLE_TIME = /\d (µs|ms|s)(\s|$)/;

/** `f()` with the environment variable `name` set to `value` in this process, then put back as it was (unset if it was). Synchronous: for library calls, not the CLI (runMain takes `env`). */
export function withEnv<T>(name: string, value: string, f: () => T): T {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return f();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}
