/**
 * The bench's inputs, made in its temp folder (none is committed): the big
 * shared slog unzipped, gzipped, 8 times end to end, and 4 times as one
 * long run (no restarts between the copies); a 10-line slog; a
 * long chain slog from chain-A.slog; a slog with one crank of 300,000
 * syscalls; a slog with one line of 50 MB.
 */
import { appendFileSync, closeSync, createReadStream, createWriteStream, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** Unzips `gz` to `plain`, and writes `times` copies of it end to end to `many`. */
export async function bigSlogs(gz: string, plain: string, many: string, times: number): Promise<number> {
  await pipeline(createReadStream(gz), createGunzip(), createWriteStream(plain));
  const out = createWriteStream(many);
  // Each pipeline leaves a few listeners on the stream it shares (5 with one copy).
  out.setMaxListeners(4 * times + 10);
  for (let i = 0; i < times; i += 1) await pipeline(createReadStream(plain), out, { end: i === times - 1 });
  return statSync(plain).size;
}

/**
 * `times` copies of a slog end to end that read as one long run: the copies
 * after the first without their kernel-init-start lines (with them, each
 * copy would be a restart). Returns its size in bytes.
 */
export function longRunSlog(plain: string, to: string, times: number): number {
  const bytes = readFileSync(plain);
  const starts: Array<[number, number]> = [];
  const mark = Buffer.from('{"type":"kernel-init-start"');
  for (let at = bytes.indexOf(mark); at >= 0; at = bytes.indexOf(mark, at + 1)) {
    if (at > 0 && bytes[at - 1] !== 10) continue;
    const nl = bytes.indexOf(10, at);
    starts.push([at, nl < 0 ? bytes.length : nl + 1]);
  }
  const pieces: Buffer[] = [];
  let from = 0;
  for (const [a, b] of starts) {
    pieces.push(bytes.subarray(from, a));
    from = b;
  }
  pieces.push(bytes.subarray(from));
  const rest = Buffer.concat(pieces);
  writeFileSync(to, bytes);
  for (let i = 1; i < times; i += 1) appendFileSync(to, rest);
  return statSync(to).size;
}

/** The first `lines` lines of a slog. */
export function headOf(from: string, to: string, lines: number): void {
  writeFileSync(to, `${readFileSync(from, 'utf8').split('\n').slice(0, lines).join('\n')}\n`);
}

/** Writes lines with backpressure. */
class LineWriter {
  private readonly out;
  constructor(path: string) {
    this.out = createWriteStream(path);
  }
  async write(value: unknown): Promise<void> {
    if (!this.out.write(`${JSON.stringify(value)}\n`)) await once(this.out, 'drain');
  }
  async end(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

/**
 * One delivery crank of `syscalls` vatstore reads (a vat walking a big
 * collection), in the shape the kernel writes, between a create-vat and
 * a routing crank.
 */
export async function bigCrankSlog(path: string, syscalls: number): Promise<number> {
  const w = new LineWriter(path);
  let t = 1_790_000_000;
  const vatID = 'v9';
  const methargs = { body: '#["walk",[]]', slots: [] };
  await w.write({ type: 'create-vat', time: t, monotime: 0, vatID, dynamic: true, name: 'walker', managerType: 'xs-worker', vatSourceBundle: {} });
  await w.write({ type: 'crank-start', crankType: 'delivery', crankNum: 1, message: { type: 'send', target: 'ko40', msg: { methargs, result: 'kp50' } }, time: (t += 0.001), monotime: 1 });
  await w.write({ type: 'deliver', crankNum: 1, vatID, deliveryNum: 3, replay: false, kd: ['message', 'ko40', { methargs, result: 'kp50' }], vd: ['message', 'o+0', { methargs, result: 'p-60' }], time: (t += 0.001), monotime: 2 });
  for (let i = 0; i < syscalls; i += 1) {
    const key = `vc.5.s${String(i).padStart(8, '0')}`;
    await w.write({ type: 'syscall', crankNum: 1, vatID, deliveryNum: 3, syscallNum: i, replay: false, syscall: 'vatstoreGet', ksc: ['vatstoreGet', vatID, key], vsc: ['vatstoreGet', key], time: (t += 0.00002), monotime: 3 });
    await w.write({ type: 'syscall-result', crankNum: 1, vatID, deliveryNum: 3, syscallNum: i, replay: false, syscall: 'vatstoreGet', ksr: ['ok', '{"body":"#1","slots":[]}'], vsr: ['ok', '{"body":"#1","slots":[]}'], time: (t += 0.00002), monotime: 4 });
  }
  await w.write({ type: 'deliver-result', crankNum: 1, vatID, deliveryNum: 3, replay: false, dr: ['ok', null, { compute: 123_456_789 }], time: (t += 0.001), monotime: 5 });
  await w.write({ type: 'crank-finish', crankNum: 1, crankType: 'delivery', messageType: 'send', time: (t += 0.001), monotime: 6 });
  await w.write({ type: 'crank-start', crankType: 'routing', crankNum: 2, message: { type: 'notify', vatID, kpid: 'kp50' }, time: (t += 0.001), monotime: 7 });
  await w.write({ type: 'crank-finish', crankNum: 2, crankType: 'routing', messageType: 'notify', time: (t += 0.001), monotime: 8 });
  await w.end();
  return statSync(path).size;
}

/** A console line of `megabytes` MB (a vat logging a huge string) inside a crank, and a delivery whose argument is as big. */
export async function bigLineSlog(path: string, megabytes: number): Promise<number> {
  const w = new LineWriter(path);
  const t = 1_790_000_000;
  const vatID = 'v9';
  const huge = 'x'.repeat(megabytes << 20);
  await w.write({ type: 'create-vat', time: t, monotime: 0, vatID, dynamic: true, name: 'logger', managerType: 'xs-worker' });
  await w.write({ type: 'crank-start', crankType: 'delivery', crankNum: 1, vatID, message: { type: 'send', target: 'ko40' }, time: t + 0.001, monotime: 1 });
  const methargs = { body: JSON.stringify(['log', [huge]]).replace(/^/, '#'), slots: [] };
  await w.write({ type: 'deliver', crankNum: 1, vatID, deliveryNum: 3, replay: false, kd: ['message', 'ko40', { methargs, result: null }], vd: ['message', 'o+0', { methargs, result: null }], time: t + 0.002, monotime: 2 });
  await w.write({ type: 'console', crankNum: 1, vatID, state: 'delivery', level: 'log', source: 'vat', args: ['huge:', huge], time: t + 0.003, monotime: 3 });
  await w.write({ type: 'deliver-result', crankNum: 1, vatID, deliveryNum: 3, replay: false, dr: ['ok', null, { compute: 1000 }], time: t + 0.004, monotime: 4 });
  await w.write({ type: 'crank-finish', crankNum: 1, crankType: 'delivery', messageType: 'send', time: t + 0.005, monotime: 5 });
  await w.end();
  return statSync(path).size;
}

/**
 * A long chain slog from a short one: its lines before the first
 * begin-block (kernel start, bootstrap block) once, then its blocks up to
 * its last after-commit-stats before a restart, `copies` times, each copy's
 * heights, crank numbers, block times and entry times shifted past the last
 * copy's. Returns its size in bytes.
 */
export function chainSlog(from: string, to: string, copies: number): number {
  return chainCopies(from, to, (k) => k < copies).size;
}

/**
 * chainSlog's copies until the file holds at least `minBytes` (the seek
 * table's 4 GB chain slog), written a copy at a time: its size, and the
 * block heights of its first and last copied blocks.
 */
export function bigChainSlog(from: string, to: string, minBytes: number): ChainCopies {
  return chainCopies(from, to, (_k, size) => size < minBytes);
}

/** A slog of chain blocks repeated: its size, block heights, and the times of its repeated blocks' first and last entries. */
interface ChainCopies {
  size: number;
  firstHeight: number;
  lastHeight: number;
  firstTime: number;
  lastTime: number;
}

function chainCopies(from: string, to: string, more: (k: number, size: number) => boolean): ChainCopies {
  type Entry = Record<string, unknown>;
  const lines = readFileSync(from, 'utf8').split('\n').filter((l) => l.trim());
  const entries = lines.map((l) => JSON.parse(l) as Entry);
  const first = entries.findIndex((e) => e.type === 'cosmic-swingset-begin-block');
  const restart = entries.findIndex((e, i) => i > 0 && e.type === 'kernel-init-start');
  const end = (restart < 0 ? entries.length : restart) - 1;
  let last = end;
  while (last > first && entries[last]?.type !== 'cosmic-swingset-after-commit-stats') last -= 1;
  if (first < 0 || last <= first) throw new Error(`${from}: no blocks to repeat`);
  const block = entries.slice(first, last + 1);
  const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
  const heights = block.map((e) => num(e.blockHeight)).filter((h) => h > 0);
  const span = { height: Math.max(...heights) - Math.min(...heights) + 1, crank: Math.max(...entries.map((e) => num(e.crankNum))) + 1 };
  const times = block.map((e) => num(e.time)).filter((t) => t > 0);
  const seconds = Math.max(...times) - Math.min(...times) + 1;
  const fd = openSync(to, 'w');
  let size = 0;
  let k = 0;
  try {
    size += writeSync(fd, `${lines.slice(0, first).join('\n')}\n`);
    for (; more(k, size); k += 1) {
      const out: string[] = [];
      for (const e of block) {
        const c: Entry = { ...e };
        if (typeof c.blockHeight === 'number') c.blockHeight += k * span.height;
        if (typeof c.blockTime === 'number') c.blockTime += k * span.height * 6;
        if (typeof c.crankNum === 'number') c.crankNum += k * span.crank;
        if (typeof c.time === 'number') c.time += k * seconds;
        if (typeof c.monotime === 'number') c.monotime += k * seconds;
        out.push(JSON.stringify(c));
      }
      size += writeSync(fd, `${out.join('\n')}\n`);
    }
  } finally {
    closeSync(fd);
  }
  const firstTime = Math.min(...times);
  return { size, firstHeight: Math.min(...heights), lastHeight: Math.min(...heights) + k * span.height - 1, firstTime, lastTime: Math.max(...times) + (k - 1) * seconds };
}

/**
 * A slog of one kernel run of at least `minBytes` (the seek table's 4 GB
 * slog) from a plain slog of one run: the slog, then its lines from its
 * first crank-start on (no second kernel start, no create-vat again)
 * again and again, each copy's crank numbers, delivery numbers, times and
 * monotimes shifted past the copy before's. Read and written as latin1 (a
 * byte a character); each copy's numbers shifted by one regular expression
 * over its text. Its size, crank numbers and times.
 */
export function bigRunSlog(plain: string, to: string, minBytes: number): { size: number; lastCrank: number; firstTime: number; lastTime: number } {
  const text = readFileSync(plain, 'latin1');
  const firstCrank = text.indexOf('{"type":"crank-start"');
  const rest = text.slice(text.lastIndexOf('\n', firstCrank) + 1);
  const most = (key: string): number => {
    let max = -Infinity;
    for (const m of text.matchAll(new RegExp(`"${key}":(\\d+)`, 'g'))) max = Math.max(max, Number(m[1]));
    return max;
  };
  const crankSpan = most('crankNum') + 1;
  const deliverySpan = most('deliveryNum') + 1;
  const timeOf = (line: string): number => Number(/"time":([\d.e+-]+)/.exec(line)?.[1]);
  const firstTime = timeOf(text.slice(0, text.indexOf('\n')));
  const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
  const seconds = Math.ceil(timeOf(lastLine) - firstTime) + 1;
  const shift = /"(crankNum|deliveryNum|time|monotime)":(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/g;
  const fd = openSync(to, 'w');
  let size = 0;
  let k = 0;
  try {
    size += writeSync(fd, text, null, 'latin1');
    for (k = 1; size < minBytes; k += 1) {
      const by = { crankNum: k * crankSpan, deliveryNum: k * deliverySpan, time: k * seconds, monotime: k * seconds };
      size += writeSync(fd, rest.replace(shift, (_m, key: keyof typeof by, v: string) => `"${key}":${Number(v) + by[key]}`), null, 'latin1');
    }
  } finally {
    closeSync(fd);
  }
  return { size, lastCrank: k * crankSpan - 1, firstTime, lastTime: firstTime + k * seconds };
}
