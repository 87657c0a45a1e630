/**
 * Runs the command line in this process (`main`), capturing what it writes
 * to stdout and stderr and the exit status it sets: much faster than
 * spawning bin/slogulate, for tests that need neither stdin, signals nor a
 * real file descriptor. Paths should be absolute (the cwd is the test's).
 */
import { main } from '../src/cli/main.js';
import type { CliResult } from './helpers.js';

/** `both`: stdout and stderr as one text, in the order they were written (a shell's `2>&1`). */
export async function runMain(args: string[]): Promise<CliResult & { both: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const both: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const capture =
    (into: string[]) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      into.push(text);
      both.push(text);
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
  const savedExitCode = process.exitCode;
  const savedColor = process.env.NO_COLOR;
  process.exitCode = undefined;
  process.env.NO_COLOR = '1';
  process.stdout.write = capture(out) as typeof process.stdout.write;
  process.stderr.write = capture(err) as typeof process.stderr.write;
  let status: number;
  try {
    await main(['node', 'slogulate', ...args]);
    status = Number(process.exitCode ?? 0);
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    process.exitCode = savedExitCode;
    if (savedColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = savedColor;
  }
  return { status, signal: null, stdout: out.join(''), stderr: err.join(''), both: both.join('') };
}
