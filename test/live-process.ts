/**
 * A slogulate process that runs while the test feeds it (--follow, --watch):
 * its output gathered as it comes, and a wait for a condition on it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from './helpers.js';

export interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** bin/slogulate with `args`, in `cwd`, without color. */
export function startLive(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => Buffer.concat(out).toString('utf8'), stderr: () => Buffer.concat(err).toString('utf8'), exited };
}

/** Waits until `test()` holds, checking every 25 ms; throws after `ms`. */
export async function until(what: string, test: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
