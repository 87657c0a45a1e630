/**
 * Runs the command line in this process (`main`), capturing what it writes
 * to stdout and stderr and the exit status it sets: much faster than
 * spawning bin/slogulate, for tests that need neither stdin, signals nor a
 * real file descriptor. Paths should be absolute (the cwd is the test's),
 * unless `cwd` is given: the run then happens in that folder (process.chdir;
 * vitest's forks pool runs a file's tests one at a time, and the folder is
 * restored after). `env` sets (or, undefined, unsets) variables for the run.
 */
import { main } from '../src/cli/main.js';
import { SLOGS, type CliResult } from './helpers.js';

export interface RunMainOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** The runs in this process, one after another: each takes over stdout, stderr, the exit code and the folder. */
let runs: Promise<unknown> = Promise.resolve();

/**
 * `both`: stdout and stderr as one text, in the order they were written (a
 * shell's `2>&1`). Runs started together (Promise.all) run one at a time.
 */
export function runMain(args: string[], opts: RunMainOptions = {}): Promise<CliResult & { both: string }> {
  const run = runs.then(() => runMainNow(args, opts));
  runs = run.catch(() => undefined);
  return run;
}

async function runMainNow(args: string[], opts: RunMainOptions): Promise<CliResult & { both: string }> {
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
  const savedEnv = new Map<string, string | undefined>();
  const setEnv = (name: string, value: string | undefined): void => {
    if (!savedEnv.has(name)) savedEnv.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  setEnv('NO_COLOR', '1');
  for (const [name, value] of Object.entries(opts.env ?? {})) setEnv(name, value);
  const savedCwd = process.cwd();
  if (opts.cwd !== undefined) process.chdir(opts.cwd);
  process.exitCode = undefined;
  // A run's signal handlers (export removes its temporary folder on SIGINT) end with the run, as its process would.
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const savedListeners = signals.map((s) => process.listeners(s));
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
    process.chdir(savedCwd);
    signals.forEach((s, i) => {
      for (const l of process.listeners(s)) if (!savedListeners[i]?.includes(l)) process.removeListener(s, l);
    });
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return { status, signal: null, stdout: out.join(''), stderr: err.join(''), both: both.join('') };
}

/**
 * runCli's in-process twin: the same arguments, run in the slogs folder (or
 * `cwd`), for tests that need no process of their own (no stdin, signal,
 * real file descriptor or exit by signal).
 */
export function runInProcess(args: string[], opts: RunMainOptions = {}): Promise<CliResult & { both: string }> {
  return runMain(args, { cwd: SLOGS, ...opts });
}
