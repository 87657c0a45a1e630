/**
 * One measured run of a command: wall time from here, user + system CPU
 * time and peak RSS from /usr/bin/time (GNU time; without it, the bench
 * says so and shows wall time only). GNU time prints CPU in steps of 10 ms
 * (2% of `top` on big-local-1200): where bash is, its `times` gives the
 * same rusage to the millisecond (its children's: GNU time and the
 * command, whose own CPU is some 1 ms).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const TIME = '/usr/bin/time';
export const haveTime = existsSync(TIME);
const BASH = ['/usr/bin/bash', '/bin/bash'].find((b) => existsSync(b));
const FORMAT = 'BENCH RSS %M CPU %U %S';

/**
 * argv run under GNU time (its line on stderr: FORMAT), and, where bash is,
 * followed by bash's `times` (its children's CPU, to the millisecond);
 * argv as it is without GNU time. `timesOf` reads what they print.
 */
export function timedArgv(argv: readonly string[]): string[] {
  if (!haveTime) return [...argv];
  if (BASH === undefined) return [TIME, '-f', FORMAT, ...argv];
  return [BASH, '-c', `${TIME} -f '${FORMAT}' "$@"; rc=$?; times >&2; exit $rc`, 'bench', ...argv];
}

/** CPU seconds (user + system) and peak RSS from the stderr of a timedArgv run; undefined without GNU time's line. */
export function timesOf(stderr: string): { cpu: number | undefined; rssKB: number | undefined } {
  const m = /BENCH RSS (\d+) CPU ([\d.]+) ([\d.]+)/.exec(stderr);
  if (!m) return { cpu: undefined, rssKB: undefined };
  return { cpu: childrenCpu(stderr) ?? Number(m[2]) + Number(m[3]), rssKB: Number(m[1]) };
}

export interface Sample {
  wall: number;
  /** User + system CPU seconds, every thread of the process. */
  cpu: number | undefined;
  rssKB: number | undefined;
}

/**
 * The environment commands run in: this process's, with `env`, without
 * NODE_EXTRA_CA_CERTS. Where it is set (some CI and sandbox machines set it
 * for a proxy), Node.js parses every certificate of the file at each start,
 * before any script runs: with the system's bundle, some 40 ms and 420M
 * instructions, more than Node.js's own start (86M). No command here makes
 * a TLS connection; a user's machine seldom sets it; with it, each command
 * and the loop carry the same 40 ms, which pulls every ratio toward 1 and
 * flattered the start-up row's (1.3 against 1.75 without).
 */
export function benchEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out = { ...process.env, ...env };
  delete out.NODE_EXTRA_CA_CERTS;
  return out;
}

/** Runs argv with stdout to /dev/null (stderr kept for errors). */
export function measure(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  return new Promise((done, fail) => {
    const full = timedArgv(argv);
    const started = process.hrtime.bigint();
    const child = spawn(full[0] as string, full.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: benchEnv(env) });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return fail(new Error(`${argv.join(' ')}: exit ${code}\n${err.slice(-2000)}`));
      done({ wall, ...timesOf(err) });
    });
  });
}

/** The children's user + system CPU seconds of bash's `times` (its last line: `0m0.482s 0m0.045s`), if stderr ends with it. */
function childrenCpu(stderr: string): number | undefined {
  const m = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(stderr);
  return m ? 60 * Number(m[1]) + Number(m[2]) + 60 * Number(m[3]) + Number(m[4]) : undefined;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One step of a shell loop (shellLoop): what to do before it, then the command timed. */
export interface ShellStep {
  key: string;
  argv: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Run (untimed) just before the command: `rm -rf` a cache folder, drop the page cache... */
  before?: string;
}

const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Runs the steps, in order, from one bash process: each command's wall time
 * from bash's EPOCHREALTIME around it, its CPU (user + system, every thread)
 * from `times` in the subshell that ran it, its stdout to /dev/null. Nothing
 * of this process (its heap, its pipes, its spawn) is in what is measured:
 * the seek table's rows of 0.1 s are timed so (scripts/bench.ts). Throws when
 * a command fails.
 */
export function shellLoop(steps: readonly ShellStep[], spawn: (argv: string[], env: NodeJS.ProcessEnv) => { status: number | null; stdout: string; stderr: string }): Array<{ key: string; wall: number; cpu: number }> {
  if (BASH === undefined) throw new Error('the shell loop needs bash');
  const script = ['set -u'];
  steps.forEach((s, i) => {
    if (s.before) script.push(s.before);
    const env = Object.entries(s.env ?? {}).map(([k, v]) => `${k}=${quote(String(v))}`);
    script.push(`( s=$EPOCHREALTIME; ${['env', ...env, ...s.argv.map(quote)].join(' ')} >/dev/null || exit 1; e=$EPOCHREALTIME; echo "STEP ${i} $s $e"; times ) || { echo "step ${i} failed" >&2; exit 1; }`);
  });
  const r = spawn([BASH, '-c', script.join('\n')], benchEnv());
  if (r.status !== 0) throw new Error(`the shell loop: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const out: Array<{ key: string; wall: number; cpu: number }> = [];
  // Each step prints its line, then `times`: the subshell's own CPU, then its children's (the command's).
  const lines = r.stdout.split('\n');
  lines.forEach((line, i) => {
    const m = /^STEP (\d+) ([\d.]+) ([\d.]+)$/.exec(line.trim());
    const cpu = childrenCpu(lines[i + 2] ?? '');
    if (!m || cpu === undefined) return;
    const step = steps[Number(m[1])] as ShellStep;
    out.push({ key: step.key, wall: Number(m[3]) - Number(m[2]), cpu });
  });
  if (out.length !== steps.length) throw new Error(`the shell loop timed ${out.length} of ${steps.length} steps`);
  return out;
}
