/**
 * The progress bar: on stderr, only when it is a terminal and the file is
 * over 50 MB; erased at the end. Checked in process with a fake terminal and
 * clock, and for real on a pseudo-terminal with a 51 MB slog made of the
 * shared ones.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clock, progressLine, ProgressBar, PROGRESS_MIN_BYTES, startProgress, wantsProgress } from '../src/cli/progress.js';
import { BIN, readSlog, runCli, SLOG_NAMES } from './helpers.js';

const MB = 1024 * 1024;

describe('when there is a bar', () => {
  const tty = { isTTY: true, write: () => true };
  const pipe = { isTTY: false, write: () => true };
  it.each([
    ['a big file, stderr a terminal', tty, 60 * MB, false, true],
    ['a big file, stderr a pipe', pipe, 60 * MB, false, false],
    ['a small file', tty, 10 * MB, false, false],
    ['exactly 50 MB', tty, 50 * MB, false, false],
    ['stdin (no size)', tty, undefined, false, false],
    ['a big file rendered to the same terminal', tty, 60 * MB, true, false],
  ] as const)('%s', (_what, stream, rawSize, outputIsTerminal, wanted) => {
    expect(wantsProgress({ rawSize }, { stream, outputIsTerminal })).toBe(wanted);
  });
});

describe('the bar', () => {
  it('shows bytes, MB/s and time left, redrawn in place, and is erased', () => {
    const writes: string[] = [];
    let now = 0;
    let read = 0;
    const source = { rawSize: 100 * MB, rawBytesRead: () => read };
    const bar = new ProgressBar(source, { stream: { isTTY: true, columns: 100, write: (s: string) => writes.push(s) }, now: () => now, timer: false });
    now = 2000;
    read = 25 * MB;
    bar.draw();
    const first = writes[0] as string;
    expect(first.startsWith('\r')).toBe(true);
    expect(first).toContain(' 25%');
    expect(first).toContain('25.0/100.0 MB');
    expect(first).toContain('12.5 MB/s');
    expect(first).toContain('0:06 left'); // 75 MB at 12.5 MB/s
    bar.stop();
    expect(writes[writes.length - 1]).toBe('\r\x1b[K');
  });

  it('shows no rate, nor time left, before a second has passed (issue 29, item 11: the first frame read 500.0 MB/s)', () => {
    const writes: string[] = [];
    let now = 0;
    let read = 0;
    const source = { rawSize: 131.9 * MB, rawBytesRead: () => read };
    const bar = new ProgressBar(source, { stream: { isTTY: true, columns: 100, write: (s: string) => writes.push(s) }, now: () => now, timer: false });
    now = 1;
    read = 0.5 * MB;
    bar.draw();
    now = 999;
    bar.draw();
    for (const frame of writes) {
      expect(frame).toContain('0.5/131.9 MB');
      expect(frame).not.toMatch(/\d MB\/s/);
      expect(frame).toContain('?:?? left');
    }
    now = 1000;
    bar.draw();
    expect(writes.at(-1)).toContain(' 0.5 MB/s');
  });

  it('fits the terminal', () => {
    for (const width of [40, 80, 200]) expect(progressLine(5 * MB, 60 * MB, 1, width).length).toBeLessThanOrEqual(Math.max(width, 70));
  });

  it('writes clock times', () => {
    expect(clock(5)).toBe('0:05');
    expect(clock(65)).toBe('1:05');
    expect(clock(3723)).toBe('1:02:03');
  });

  it('is not started when not wanted', () => {
    const source = { name: 'x', chunks: () => [], rawSize: 10, rawBytesRead: () => 0, gzipped: false };
    expect(startProgress(source, { stream: { isTTY: true, write: () => true } })).toBeUndefined();
  });
});

/**
 * A slog over 50 MB of real slog lines (the shared slogs, again and again),
 * written once for the tests that need one.
 */
const dir = mkdtempSync(join(tmpdir(), 'slogulate-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let bigFile: string | undefined;
function big(): string {
  if (bigFile) return bigFile;
  const file = join(dir, 'big.slog');
  while (!statSafe(file) || statSafe(file)! <= PROGRESS_MIN_BYTES) {
    for (const name of SLOG_NAMES) appendFileSync(file, readSlog(name));
  }
  bigFile = file;
  return file;
}

describe('on a terminal, for real', () => {
  /**
   * What reaches a pseudo-terminal (util-linux `script`; .ci/run installs
   * it, and the tests fail where it is missing) from a render whose stdout
   * goes to /dev/null: only stderr does. (--cranks keeps the render short:
   * the whole file is still read.)
   */
  function stderrOnTerminal(file: string): string {
    const r = spawnSync('script', ['--version']);
    if (r.error || r.status !== 0) throw new Error('`script` (util-linux) is not installed here: this test runs the CLI on a pseudo-terminal with it (.ci/run installs it; on Debian: apt-get install bsdutils)');
    const command = `'${process.execPath}' '${BIN}' --nonoise --cranks 8-12 '${file}' > /dev/null`;
    return execFileSync('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } }).toString('utf8');
  }

  it('draws a bar for a file over 50 MB, and erases it', () => {
    const seen = stderrOnTerminal(big());
    // A read done within its first second shows no rate yet (`--.- MB/s  ?:?? left`): how fast it is, is this machine's; the rate's own test is above, on a clock of its own.
    expect(seen).toMatch(/\[[#-]+\] +\d+%  [\d.]+\/[\d.]+ MB  (?:[\d.]+|--\.-) MB\/s  (?:[\d:]+|\?:\?\?) left/);
    expect(seen.endsWith('\r\x1b[K')).toBe(true);
  }, 60_000);

  it('draws nothing for a small file', () => {
    const small = join(dir, 'small.slog');
    appendFileSync(small, readSlog('a-local-3'));
    expect(stderrOnTerminal(small)).toBe('');
  });
});

describe('not on a terminal', () => {
  it('draws nothing when stderr is not a terminal', async () => {
    const r = await runCli(['--nonoise', '--cranks', '8-12', '--out', join(dir, 'out.txt'), big()]);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('MB/s');
    expect(r.stderr).not.toContain('\r');
  }, 60_000);
});

function statSafe(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
