/**
 * Memory on a real slog with lines of 50 MB (issue 13): a console entry
 * with a 50 MB string (printed whole), and a delivery whose argument is a
 * 25 MB string (in kd and in vd: a line of 50 MB; printed as <BIG>). The
 * render, stats and top each stay under 120 MB of peak RSS (they took 310
 * to 530 MB when such a line was held whole), whether the slog is a file,
 * gzipped, or on stdin. Made in a temporary folder, not kept. (A resolve
 * with a huge value, and strings thick with escapes, are in
 * big-lines.test.ts, in process: here they would only cost time.)
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, slogPath } from './helpers.js';
import { PEAK_RSS_KB } from './peak-rss.js';

const LIMIT_MB = 120;
const dir = mkdtempSync(join(tmpdir(), 'slogulate-bigline-'));
const slog = join(dir, 'big-lines.slog');
/** Prints the process's own peak RSS (KB, test/peak-rss.ts) on stderr as it exits. */
const rssHook = join(dir, 'rss.mjs');

/** `n` characters with quotes, line breaks, accents and astral characters in them. */
function huge(n: number, tag: string): string {
  const unit = `${tag} ${'abcdefghij'.repeat(20)} "q" \\ é 中 😀\n\t0123456789 `;
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

const CONSOLE_TEXT = huge(50_000_000, 'console');

beforeAll(() => {
  writeFileSync(rssHook, `${PEAK_RSS_KB}process.on('exit', () => process.stderr.write(\`maxrss \${peakRssKb()}\\n\`));\n`);
  const fd = openSync(slog, 'w');
  let console = false;
  let deliver = false;
  for (const line of readFileSync(slogPath('a-xs-3'), 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as Record<string, unknown>;
    if (!console && e.type === 'console') {
      writeSync(fd, `${line}\n`);
      writeSync(fd, `${JSON.stringify({ ...e, args: ['big:', CONSOLE_TEXT] })}\n`);
      console = true;
      continue;
    }
    if (!deliver && e.type === 'deliver' && (e.kd as unknown[])[0] === 'message') {
      for (const d of [e.kd, e.vd] as Array<[string, string, { methargs: { body: string } }]>) {
        const [method, args] = JSON.parse(d[2].methargs.body.slice(1)) as [string, unknown[]];
        d[2].methargs.body = `#${JSON.stringify([method, [...args, `!${huge(25_000_000, 'deliver')}`]])}`;
      }
      writeSync(fd, `${JSON.stringify(e)}\n`);
      deliver = true;
      continue;
    }
    writeSync(fd, `${line}\n`);
  }
  closeSync(fd);
  expect([console, deliver]).toEqual([true, true]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs slogulate (stdout to `out`, or nowhere); its exit status and peak RSS in MB. */
function run(args: string[], opts: { out?: string; stdin?: string } = {}): Promise<{ status: number | null; rssMb: number; stderr: string }> {
  return new Promise((done, fail) => {
    const out = opts.out ? openSync(opts.out, 'w') : 'ignore';
    const child = spawn(process.execPath, ['--import', rssHook, BIN, ...args], {
      stdio: [opts.stdin ? 'pipe' : 'ignore', out, 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (opts.stdin) createReadStream(opts.stdin).pipe(child.stdin as NodeJS.WritableStream);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => {
      if (typeof out === 'number') closeSync(out);
      const m = /maxrss (\d+)/.exec(stderr);
      done({ status, rssMb: m ? Number(m[1]) / 1024 : NaN, stderr: stderr.replace(/maxrss \d+\n/, '') });
    });
  });
}

describe('a slog with lines of 50 MB', () => {
  it(`the render prints the console string whole and the huge argument as <BIG>, under ${LIMIT_MB} MB`, async () => {
    const out = join(dir, 'out.txt');
    const r = await run([slog], { out });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.rssMb).toBeLessThan(LIMIT_MB);
    const text = readFileSync(out, 'utf8');
    expect(text.includes(`\nlog: big: ${CONSOLE_TEXT}\n`)).toBe(true);
    expect(text).toMatch(/\ndeliver: @ko\d+ <- bootstrap\(.*, <BIG>\): @kp\d+\n/);
  }, 120_000);

  it(`stats (gzipped) and top (on stdin) under ${LIMIT_MB} MB`, async () => {
    const gz = join(dir, 'big-lines.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(slog), { level: 1 }));
    const stats = await run(['stats', gz]);
    expect(stats.status).toBe(0);
    expect(stats.rssMb).toBeLessThan(LIMIT_MB);
    const top = await run(['top', '-'], { stdin: slog });
    expect(top.status).toBe(0);
    expect(top.rssMb).toBeLessThan(LIMIT_MB);
  }, 120_000);
});
