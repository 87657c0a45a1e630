/**
 * Slogs with a line of 100 MB (or any size), made as a stream of chunks
 * (never held whole, here or in slogulate), fed to bin/slogulate on stdin,
 * its resident memory sampled while it reads (/proc/PID/status VmRSS) and
 * its peak taken at its exit (VmHWM, test/peak-rss.ts): the memory must
 * not grow with the line, the exit status be 0, 1 or 2, with one stderr
 * line for a bad line and no stack trace. The kinds of huge line: a console
 * string, a delivery's argument (in kd and vd), a deeply nested console
 * argument, thousands of krefs in a syscall, a line cut short, a line with
 * a control byte in its middle, bytes that are not JSON.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../helpers.js';
import { PEAK_RSS_KB } from '../peak-rss.js';

export const HUGE_KINDS = ['console-string', 'deliver-argument', 'deep-console', 'many-krefs', 'cut-short', 'control-byte', 'not-json'] as const;
export type HugeKind = (typeof HUGE_KINDS)[number];

/** The commands a huge line is read by. */
export const HUGE_COMMANDS: ReadonlyArray<readonly string[]> = [['stats'], ['top'], [], ['--nonoise', '--novatstore'], ['trace'], ['export', '--format', 'csv']];

const HEAD = [
  '{"type":"crank-start","crankType":"delivery","crankNum":8,"messageType":"send","message":{"type":"send","target":"ko22","msg":{"methargs":{"body":"#[\\"openAccount\\",[]]","slots":[]},"result":"kp46"}},"time":1795308269.4,"monotime":29.1}',
];
const TAIL = [
  '{"type":"deliver-result","crankNum":8,"vatID":"v1","deliveryNum":1,"replay":false,"dispatch":"message","dr":["ok",null,null],"time":1795308269.6,"monotime":29.3,"seconds":0.1}',
  '{"type":"crank-finish","crankType":"delivery","messageType":"send","crankNum":8,"crankhash":"ab","activityhash":"cd","time":1795308269.7,"monotime":29.4,"seconds":0.3}',
];

/** A piece of string content (JSON-escaped already) of every sort: quotes, backslashes, line breaks as escapes, accents, astral characters. */
const PIECE = Buffer.from(JSON.stringify(`abc "q" \\ é 中 😀\n\t0123456789 ${'xyz'.repeat(20)}`).slice(1, -1));

/** `size` bytes made of `unit` repeated, in chunks of about a megabyte. */
function* repeated(unit: Buffer, size: number): Generator<Buffer> {
  const block = Buffer.concat(Array.from({ length: Math.ceil((1 << 20) / unit.length) }, () => unit));
  // Whole units only: an escape is never cut in two.
  let left = Math.ceil(size / unit.length) * unit.length;
  while (left > 0) {
    const n = Math.min(left, block.length);
    yield block.subarray(0, n);
    left -= n;
  }
}

/** The huge line's chunks (without its line end). */
function* hugeLine(kind: HugeKind, size: number): Generator<Buffer> {
  const s = (text: string): Buffer => Buffer.from(text);
  switch (kind) {
    case 'console-string':
      yield s('{"type":"console","crankNum":8,"vatID":"v1","source":"vat","state":"delivery","level":"log","args":["big:","');
      yield* repeated(PIECE, size);
      yield s('"],"time":1795308269.5,"monotime":29.2}');
      return;
    case 'deliver-argument': {
      // The body is a string inside a string: its quotes escaped twice.
      const inner = Buffer.from(JSON.stringify(PIECE.toString()).slice(1, -1));
      for (const [key, target, result] of [['kd', 'ko22', 'kp46'], ['vd', 'o+0', 'p-60']] as const) {
        yield s(`${key === 'kd' ? '{"type":"deliver","crankNum":8,"vatID":"v1","deliveryNum":1,"replay":false,"dispatch":"message",' : ','}"${key}":["message","${target}",{"methargs":{"body":"#[\\"openAccount\\",[\\"!`);
        yield* repeated(inner, size / 2);
        yield s(`\\"]]","slots":[]},"result":"${result}"}]`);
      }
      yield s(',"time":1795308269.5,"monotime":29.2}');
      return;
    }
    case 'deep-console':
      yield s('{"type":"console","crankNum":8,"vatID":"v1","source":"vat","state":"delivery","level":"log","args":[');
      yield* repeated(s('['), size / 2);
      yield* repeated(s(']'), size / 2);
      yield s('],"time":1795308269.5,"monotime":29.2}');
      return;
    case 'many-krefs': {
      yield s('{"type":"syscall","crankNum":8,"vatID":"v1","deliveryNum":1,"syscallNum":0,"replay":false,"syscall":"dropImports","ksc":["dropImports","v1",["ko1"');
      yield* repeated(s(',"ko12345"'), size / 2);
      yield s(']],"vsc":["dropImports",["o-1"');
      yield* repeated(s(',"o-12345"'), size / 2);
      yield s(']],"time":1795308269.5,"monotime":29.2}');
      return;
    }
    case 'cut-short':
      yield s('{"type":"console","crankNum":8,"vatID":"v1","source":"vat","level":"log","args":["');
      yield* repeated(PIECE, size);
      return;
    case 'control-byte':
      yield s('{"type":"console","crankNum":8,"vatID":"v1","source":"vat","level":"log","args":["');
      yield* repeated(PIECE, size / 2);
      yield Buffer.from([0x01]);
      yield* repeated(PIECE, size / 2);
      yield s('"],"time":1795308269.5,"monotime":29.2}');
      return;
    case 'not-json':
      yield* repeated(Buffer.from(Array.from({ length: 251 }, (_, i) => (i * 97 + 13) % 256).map((b) => (b === 10 ? 11 : b))), size);
      return;
  }
}

/** The slog: a crank around the huge line, and a line after it (read after the huge one is passed). */
export function* hugeSlog(kind: HugeKind, size: number): Generator<Buffer> {
  yield Buffer.from(`${HEAD.join('\n')}\n`);
  yield* hugeLine(kind, size);
  yield Buffer.from(`\n${TAIL.join('\n')}\n`);
}

export interface HugeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** The child's peak resident memory (VmHWM at its exit; NaN if it did not exit normally), and the largest VmRSS sampled. */
  peakMb: number;
  sampledMb: number;
}

/** Runs bin/slogulate (built) with `args` and `-`, the slog on its stdin; `dir` holds the memory hook and any output. */
export function runHuge(kind: HugeKind, size: number, args: readonly string[], dir: string, env: Record<string, string> = {}): Promise<HugeRun> {
  const hook = join(dir, 'peak-rss.mjs');
  writeFileSync(hook, `${PEAK_RSS_KB}process.on('exit', () => process.stderr.write(\`peak-rss-kb \${peakRssKb()}\\n\`));\n`);
  const fullArgs = args[0] === 'export' ? [...args, '--to', join(dir, 'huge-tables'), '--replace', '-'] : [...args, '-'];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', hook, BIN, ...fullArgs], { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let stderr = '';
    let sampledKb = 0;
    const sample = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) sampledKb = Math.max(sampledKb, Number(m[1]));
      } catch {
        // Exited between samples, or no /proc: the peak at exit says it.
      }
    }, 50);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.stdin.on('error', () => undefined);
    const chunks = hugeSlog(kind, size);
    const pump = (): void => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (!child.stdin.write(next.value)) {
          child.stdin.once('drain', pump);
          return;
        }
      }
      child.stdin.end();
    };
    pump();
    child.on('close', (status, signal) => {
      clearInterval(sample);
      const m = /peak-rss-kb (\d+)\n/.exec(stderr);
      done({ status, signal, stderr: stderr.replace(/peak-rss-kb \d+\n/, ''), peakMb: m ? Number(m[1]) / 1024 : NaN, sampledMb: sampledKb / 1024 });
    });
  });
}

/** Peak resident memory allowed, whatever the line's size (test/big-line-memory.test.ts: 120 MB for lines of 50 MB). */
export const HUGE_LIMIT_MB = 150;

/**
 * The peak memory a command may take on a huge line of a kind, where it
 * is bounded by design (scan/big-line.ts): the render, stats and top take
 * a huge string as a BigString (spooled); the others hold it whole, and
 * every command holds the structure of what it reads (the render: a
 * syscall's thousands of krefs). Undefined: not bounded (the peak is
 * printed, not checked).
 */
export function memoryBound(kind: HugeKind, args: readonly string[]): number | undefined {
  const command = args[0] === undefined || args[0].startsWith('-') ? 'render' : args[0];
  if (command === 'stats' || command === 'top') return HUGE_LIMIT_MB;
  if (command === 'render') return kind === 'many-krefs' ? undefined : HUGE_LIMIT_MB;
  return kind === 'deep-console' || kind === 'not-json' ? HUGE_LIMIT_MB : undefined;
}

/** What is wrong with a run on a huge line (its peak memory over `limitMb`, when given), or undefined. */
export function hugeProblem(r: HugeRun, limitMb: number | undefined): string | undefined {
  if (r.signal !== null || ![0, 1, 2].includes(r.status ?? -1)) return `exit ${r.status ?? r.signal}: ${r.stderr.slice(0, 400)}`;
  if (/^\s+at /m.test(r.stderr) || /internal error|FATAL ERROR|heap out of memory/.test(r.stderr)) return `a crash: ${r.stderr.slice(0, 400)}`;
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  if (lines.length > 2) return `${lines.length} stderr lines: ${r.stderr.slice(0, 400)}`;
  if (limitMb !== undefined && (!(r.peakMb < limitMb) || r.sampledMb >= limitMb)) return `peak RSS ${r.peakMb.toFixed(0)} MB (sampled ${r.sampledMb.toFixed(0)} MB), over ${limitMb} MB`;
  return undefined;
}
