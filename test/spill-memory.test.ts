/**
 * One crank of very many syscalls (a real pattern: a vat iterating a big
 * collection) keeps `stats`, `top` and `growth` at the memory of a normal slog: the
 * open crank spills its syscalls into what each command keeps of it
 * (model/assembler.ts). Held, each syscall costs about 0.4 KB (150,000 of
 * them some 55 MB); spilled, nothing. Peak RSS of the built command line,
 * measured in the child itself (its VmHWM, test/peak-rss.ts), on a crank of
 * 150,000 syscalls against one of 15,000: within 20 MB. (`compare`, `trace`
 * and the render on a crank of 300,000: the bench's rows, `npm run bench`
 * with BENCH_ONLY=CRANK.)
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';
import { PEAK_RSS_KB } from './peak-rss.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-spill-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A slog of one delivery crank making `n` vatstoreGet syscalls (the bench's bigCrankSlog, written fast). */
function bigCrank(n: number): string {
  const file = join(dir, `crank-${n}.slog`);
  const fd = openSync(file, 'w');
  let t = 1_790_000_000;
  const head = [
    { type: 'create-vat', time: t, monotime: 0, vatID: 'v9', dynamic: true, name: 'walker', managerType: 'xs-worker' },
    { type: 'crank-start', crankType: 'delivery', crankNum: 1, message: { type: 'send', target: 'ko40' }, time: (t += 0.001), monotime: 1 },
    { type: 'deliver', crankNum: 1, vatID: 'v9', deliveryNum: 3, replay: false, kd: ['message', 'ko40', { methargs: { body: '#["walk",[]]', slots: [] }, result: 'kp50' }], time: (t += 0.001), monotime: 2 },
  ];
  let text = head.map((e) => `${JSON.stringify(e)}\n`).join('');
  const result = JSON.stringify(['ok', '{"body":"#1","slots":[]}']);
  for (let i = 0; i < n; i += 1) {
    const key = `vc.5.s${String(i).padStart(8, '0')}`;
    text += `{"type":"syscall","crankNum":1,"vatID":"v9","deliveryNum":3,"syscallNum":${i},"replay":false,"ksc":["vatstoreGet","v9","${key}"],"vsc":["vatstoreGet","${key}"],"time":${(t += 0.00002)},"monotime":3}\n`;
    text += `{"type":"syscall-result","crankNum":1,"vatID":"v9","deliveryNum":3,"syscallNum":${i},"replay":false,"ksr":${result},"vsr":${result},"time":${(t += 0.00002)},"monotime":4}\n`;
    if (text.length > 1 << 20) {
      writeSync(fd, text);
      text = '';
    }
  }
  const tail = [
    { type: 'deliver-result', crankNum: 1, vatID: 'v9', deliveryNum: 3, replay: false, dr: ['ok', null, { compute: 123_456_789 }], time: (t += 0.001), monotime: 5 },
    { type: 'crank-finish', crankNum: 1, crankType: 'delivery', messageType: 'send', time: (t += 0.001), monotime: 6 },
  ];
  writeSync(fd, text + tail.map((e) => `${JSON.stringify(e)}\n`).join(''));
  closeSync(fd);
  return file;
}

/** Peak RSS (MB) of the command line run with `args`, and its status. */
function peakRss(args: string[]): Promise<{ mb: number; status: number | null; stderr: string }> {
  const start = pathToFileURL(join(ROOT, 'dist', 'cli', 'start.cjs')).href;
  const code = `${PEAK_RSS_KB}process.on('exit', () => process.stderr.write('\\nmaxRSS ' + peakRssKb() + '\\n')); process.argv.splice(1, 0, 'slogulate'); await (await import(${JSON.stringify(start)})).start();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      // As users run it: the default spill, entries unchecked.
      env: { ...process.env, SLOGULATE_SPILL: '', SLOGULATE_CHECK_READS: '' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => {
      const m = /maxRSS (\d+)/.exec(stderr);
      resolve({ mb: m ? Number(m[1]) / 1024 : NaN, status, stderr: stderr.replace(/\n?maxRSS \d+\n/, '') });
    });
  });
}

describe('one crank of 150,000 syscalls', () => {
  const small = bigCrank(15_000);
  const big = bigCrank(150_000);

  it.each([
    ['stats', (f: string) => ['stats', f]],
    ['top', (f: string) => ['top', f]],
    ['growth', (f: string) => ['growth', f]],
  ])('%s: peak RSS as on a crank of 15,000', async (_name, args) => {
    const a = await peakRss(args(small));
    const b = await peakRss(args(big));
    expect([a.status, a.stderr, b.status, b.stderr]).toEqual([0, '', 0, '']);
    expect(b.mb - a.mb, `${a.mb.toFixed(1)} MB, then ${b.mb.toFixed(1)} MB`).toBeLessThan(20);
  });
});
