/**
 * A slogulate process that runs while the test feeds it (--follow, --watch):
 * its output gathered as it comes, a wait for a condition on it, and a wait
 * for it to have read a followed file through (readThrough): what a test
 * checks did not happen is checked after an event, never after a pause.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
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

/**
 * Waits until the process following `file` has read it to its end as it
 * stands and written out what that made it print: a line that is not JSON
 * is appended and its report awaited on stderr (a bad line is reported as
 * it is read, after every line before it), then a second one: it is read
 * in a later batch than the first, after the first's batch was flushed, so
 * anything the lines before made it print is on stdout by then. The file
 * must end with a whole line. Returns the reports' lines, for the caller to
 * tell them from other warnings.
 */
export async function readThrough(run: Running, file: string): Promise<string[]> {
  const reports: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const text = readFileSync(file);
    if (text.length > 0 && text[text.length - 1] !== 10) throw new Error(`readThrough: ${file} ends inside a line`);
    let line = 1;
    for (const byte of text) if (byte === 10) line += 1;
    appendFileSync(file, 'not JSON: a mark of the test\n');
    const report = new RegExp(`^slogulate: .*${basename(file).replace(/\./g, '\\.')}:${line}: not JSON: .*$`, 'm');
    await until(`the report of line ${line} of ${file}`, () => report.test(run.stderr()));
    reports.push((report.exec(run.stderr()) as RegExpExecArray)[0]);
  }
  return reports;
}
