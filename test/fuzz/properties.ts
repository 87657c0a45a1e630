/**
 * The fuzzed properties, by name, for the tests (a fixed seed, few runs)
 * and `npm run fuzz` (scripts/fuzz.ts: random seeds, many runs): what is
 * generated, what is checked (reading-oracle.ts, commands-oracle.ts,
 * gzip-cut.ts), and how a failing input is kept as a regression case
 * (regressions.ts) and replayed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkCommandsOn, commandSlog, commandSlogBytes } from './commands-oracle.js';
import { fuzzSlog, slogBytes, slogShape } from './fuzz-slogs.js';
import { checkGzipCuts } from './gzip-cut.js';
import { allReaders, checkPaths, checkStreaming } from './reading-oracle.js';
import { bytesOf, type RegressionCase } from './regressions.js';

export interface FuzzProperty<T> {
  name: RegressionCase['check'];
  /** What it checks, in a line. */
  what: string;
  arbitrary: fc.Arbitrary<T>;
  /** What is wrong with this input, or undefined. */
  check(value: T): Promise<string | undefined>;
  /** The input as a regression case's (regressions.ts). */
  input(value: T): RegressionCase['input'];
}

/** A folder for the commands' files, made once per process, removed at its exit. */
let scratch: string | undefined;
export function scratchDir(): string {
  if (scratch === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-fuzz-'));
    scratch = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

export const PATHS: FuzzProperty<Buffer> = {
  name: 'paths',
  what: 'fast and plain paths: the same entry or bad-line report for every line and consumer; nothing throws',
  arbitrary: fuzzSlog(6),
  check: (bytes) => Promise.resolve(checkPaths(bytes)),
  input: (bytes) => bytesOf(bytes),
};

interface Streamed {
  bytes: Buffer;
  chunks: number[];
  bigLineBytes: number;
}

/** The consumers whose reads make the token path build differently (big-line.ts's policies). */
export const STREAMING_READERS = (): ReturnType<typeof allReaders> => allReaders().filter((r) => /^(model|everything|stats|export|render --vatspace)/.test(r.name));

export const STREAMING: FuzzProperty<Streamed> = {
  name: 'streaming',
  what: 'lines read in chunks of any size, lines over a threshold streamed as tokens: what JSON.parse reads of each line',
  arbitrary: fc.record({
    bytes: slogShape(4).map(slogBytes),
    chunks: fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
    bigLineBytes: fc.constantFrom(0, 1, 20, 100, 300, 1000),
  }),
  check: (s) => checkStreaming(s.bytes, s.chunks, s.bigLineBytes, STREAMING_READERS()),
  input: (s) => ({ ...bytesOf(s.bytes), chunks: s.chunks, bigLineBytes: s.bigLineBytes }),
};

export const COMMANDS: FuzzProperty<Parameters<typeof commandSlogBytes>[0]> = {
  name: 'commands',
  what: 'every command on a damaged window of a real slog: exit 0, 1 or 2, a stderr line per bad line at most, no stack trace',
  arbitrary: commandSlog,
  check: (s) => {
    const { base, damaged } = commandSlogBytes(s);
    return checkCommandsOn(damaged, base, scratchDir());
  },
  input: (s) => {
    const { base, damaged } = commandSlogBytes(s);
    return { ...bytesOf(damaged), base: bytesOf(base) };
  },
};

export const GZIP_CUTS: FuzzProperty<Buffer> = {
  name: 'gzip-cut',
  what: 'a gzipped slog cut at every byte: the lines of the plain prefix and one warning, never a crash',
  arbitrary: fuzzSlog(5),
  check: (bytes) => checkGzipCuts(bytes),
  input: (bytes) => bytesOf(bytes),
};

export const PROPERTIES: ReadonlyArray<FuzzProperty<never>> = [PATHS, STREAMING, COMMANDS, GZIP_CUTS] as unknown as ReadonlyArray<FuzzProperty<never>>;

export interface CheckResult {
  failed: boolean;
  runs: number;
  /** On a failure: what was wrong (of the smallest input fast-check shrank to), the input, the seed and path to replay it. */
  problem?: string;
  input?: RegressionCase['input'];
  seed: number;
  path?: string;
}

/** Runs a property: `numRuns` inputs from `seed`, the failure shrunk. */
export async function runProperty<T>(p: FuzzProperty<T>, seed: number, numRuns: number, path?: string): Promise<CheckResult> {
  const r = await fc.check(
    fc.asyncProperty(p.arbitrary, async (value) => {
      const problem = await p.check(value);
      if (problem !== undefined) throw new Error(problem);
    }),
    { seed, numRuns, ...(path === undefined ? {} : { path }) },
  );
  if (!r.failed) return { failed: false, runs: r.numRuns, seed };
  if (r.counterexample === null) return { failed: true, runs: r.numRuns, seed, problem: 'fast-check gave up (interrupted, or too many skips)' };
  const value = r.counterexample[0];
  const err = r.errorInstance;
  return { failed: true, runs: r.numRuns, seed, path: r.counterexamplePath, problem: err instanceof Error ? err.message : String(err), input: p.input(value) };
}

/** In a test: the property holds for `numRuns` inputs from `seed`, or the test fails saying what, and how to replay it. */
export async function expectProperty<T>(p: FuzzProperty<T>, seed: number, numRuns: number): Promise<void> {
  const r = await runProperty(p, seed, numRuns);
  if (r.failed) throw new Error(`${p.name} (seed ${seed}; replay: npm run fuzz -- --only ${p.name} --seed ${seed} --path ${r.path ?? '?'}): ${r.problem}`);
}
