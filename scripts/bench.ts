/**
 * `npm run bench`: slogulate's speed and memory on the big shared slog,
 * against a bare loop that reads the file, splits it into lines and
 * JSON.parses every line, measured in the same run on the same machine.
 *
 * Makes its inputs in a temp folder (the big slog unzipped, and 8 copies of
 * it end to end for the memory row), runs each command BENCH_RUNS times
 * (default 5) round-robin so that a noisy neighbour hurts every row alike,
 * and prints a markdown table: median wall time, MB/s of uncompressed slog,
 * ratio to the bare loop, the target, and peak RSS.
 *
 * The chain view (`blocks`, `runs`) is measured on a chain slog made in the
 * temp folder from chain-A.slog: its kernel start and bootstrap block, then
 * its blocks up to the restart repeated BENCH_CHAIN_COPIES times (default
 * 30) with heights, crank numbers and times shifted, against `stats` on it.
 *
 * Environment: BENCH_RUNS, BENCH_SLOG (default ../shared/slogs/big-local-1200.slog.gz),
 * BENCH_CHAIN (default ../shared/slogs/real/chain-A.slog), BENCH_CHAIN_COPIES,
 * BENCH_BIN (default bin/slogulate), BENCH_KEEP=1 keeps the temp folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SLOG_GZ = process.env.BENCH_SLOG ?? resolve(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz');
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'slogulate');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const TIME = '/usr/bin/time';
const CHAIN = process.env.BENCH_CHAIN ?? resolve(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const CHAIN_COPIES = Math.max(1, Number(process.env.BENCH_CHAIN_COPIES ?? 30));

/**
 * A long chain slog from a short one: its lines before the first begin-block
 * (kernel start, bootstrap block) once, then its blocks up to its last
 * after-commit-stats before a restart, `copies` times, each copy's heights,
 * crank numbers, block times and entry times shifted past the last copy's.
 * Returns its size in bytes.
 */
function makeChainSlog(from: string, to: string, copies: number): number {
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
  const out: string[] = lines.slice(0, first);
  for (let k = 0; k < copies; k += 1) {
    for (const e of block) {
      const c: Entry = { ...e };
      if (typeof c.blockHeight === 'number') c.blockHeight += k * span.height;
      if (typeof c.blockTime === 'number') c.blockTime += k * span.height * 6;
      if (typeof c.crankNum === 'number') c.crankNum += k * span.crank;
      if (typeof c.time === 'number') c.time += k * seconds;
      if (typeof c.monotime === 'number') c.monotime += k * seconds;
      out.push(JSON.stringify(c));
    }
  }
  const text = `${out.join('\n')}\n`;
  writeFileSync(to, text);
  return Buffer.byteLength(text);
}

/** The bare loop: read, split at '\n', JSON.parse every line. */
const BARE_LOOP = `
import { createReadStream } from 'node:fs';
let carry = null;
let lines = 0;
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
  let start = 0;
  let nl = buf.indexOf(10);
  while (nl >= 0) {
    JSON.parse(buf.toString('utf8', start, nl));
    lines += 1;
    start = nl + 1;
    nl = buf.indexOf(10, start);
  }
  carry = start < buf.length ? buf.subarray(start) : null;
}
if (carry) { JSON.parse(carry.toString('utf8')); lines += 1; }
process.stderr.write(lines + ' lines\\n');
`;

/** The same loop with readline, as most scripts (and the old slogulate) read lines. */
const READLINE_LOOP = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let lines = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  JSON.parse(line);
  lines += 1;
}
process.stderr.write(lines + ' lines\\n');
`;

interface Row {
  name: string;
  /** A shell command line (run with sh -c), or argv. */
  argv: string[];
  /** Bytes of uncompressed slog it reads. */
  bytes: number;
  /** The target, as text, and how to check it. */
  target?: string;
  /** Runs (default RUNS). */
  runs?: number;
}

interface Sample {
  seconds: number;
  rssKB: number | undefined;
  /** User + system CPU seconds (all threads), from /usr/bin/time. */
  cpu: number | undefined;
}

const haveTime = existsSync(TIME);

/** Runs a command with stdout to /dev/null; wall time from here, peak RSS from /usr/bin/time. */
function measure(argv: string[]): Promise<Sample> {
  return new Promise((done, fail) => {
    const full = haveTime ? [TIME, '-f', 'RSS %M CPU %U %S', ...argv] : argv;
    const started = process.hrtime.bigint();
    const child = spawn(full[0] as string, full.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return fail(new Error(`${argv.join(' ')}: exit ${code}\n${err}`));
      const m = /RSS (\d+) CPU ([\d.]+) ([\d.]+)/.exec(err);
      done({ seconds, rssKB: m ? Number(m[1]) : undefined, cpu: m ? Number(m[2]) + Number(m[3]) : undefined });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function sha(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(argv[0] as string, argv.slice(1), { env: { ...process.env, ...env }, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return createHash('sha256').update(r.stdout).digest('hex');
}

async function main(): Promise<void> {
  if (!existsSync(SLOG_GZ)) throw new Error(`no ${SLOG_GZ}`);
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-bench-'));
  try {
    const plain = join(dir, 'big.slog');
    const gz = join(dir, 'big.slog.gz');
    const big8 = join(dir, 'big8.slog');
    process.stderr.write(`inputs in ${dir}\n`);
    await pipeline(createReadStream(SLOG_GZ), createGunzip(), createWriteStream(plain));
    await pipeline(createReadStream(SLOG_GZ), createWriteStream(gz));
    {
      const out = createWriteStream(big8);
      out.setMaxListeners(32);
      for (let i = 0; i < 8; i += 1) await pipeline(createReadStream(plain), out, { end: i === 7 });
    }
    const size = statSync(plain).size;
    const bare = join(dir, 'bare-loop.mjs');
    const readline = join(dir, 'readline-loop.mjs');
    writeFileSync(bare, BARE_LOOP);
    writeFileSync(readline, READLINE_LOOP);
    const node = process.execPath;
    const slogulate = (...args: string[]): string[] => [node, BIN, ...args];

    // The fast paths must give the plain path's bytes: the default (one thread,
    // lines read without parsing them whole), with a worker, and gzipped.
    for (const opts of [[], ['--nonoise', '--novatstore', '--timing']]) {
      const slow = sha(slogulate(...opts, plain), { SLOGULATE_FAST: '0' });
      for (const env of [{}, { SLOGULATE_WORKERS: '1' }]) {
        if (sha(slogulate(...opts, plain), env) !== slow) {
          throw new Error(`slogulate ${opts.join(' ')} (${JSON.stringify(env)}): the fast path's output differs from the plain path's`);
        }
      }
      if (sha(slogulate(...opts, gz)) !== slow) throw new Error(`slogulate ${opts.join(' ')} FILE.gz: output differs from the plain path's`);
    }
    for (const cmd of [['top'], ['stats'], ['stats', '--json']]) {
      if (spawnSync(node, [BIN, cmd[0] as string, '--help'], { stdio: 'ignore' }).status !== 0) continue;
      if (sha(slogulate(...cmd, plain)) !== sha(slogulate(...cmd, plain), { SLOGULATE_FAST: '0' })) {
        throw new Error(`slogulate ${cmd.join(' ')}: the fast path's output differs from the plain path's`);
      }
    }
    if (spawnSync(node, [BIN, 'report', '--help'], { stdio: 'ignore' }).status === 0) {
      // The report's page, made through the fast line reader and through the plain path.
      const pages = [{}, { SLOGULATE_FAST: '0' }].map((env, i) => {
        const out = join(dir, `report-check-${i}.html`);
        sha(slogulate('report', plain, '-o', out), env);
        return createHash('sha256').update(readFileSync(out)).digest('hex');
      });
      if (pages[0] !== pages[1]) throw new Error("slogulate report: the fast path's page differs from the plain path's");
    }
    process.stderr.write('fast paths checked: same bytes as the plain path\n');
    const tiny = join(dir, 'tiny.slog');
    writeFileSync(tiny, readFileSync(join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog'), 'utf8').split('\n').slice(0, 200).join('\n'));

    const has = (cmd: string): boolean => spawnSync(node, [BIN, cmd, '--help'], { stdio: 'ignore' }).status === 0;
    const bareRow: Row = { name: 'bare loop (Buffer split + JSON.parse)', argv: [node, bare, plain], bytes: size };
    const renderRow: Row = { name: '`slogulate FILE`', argv: slogulate(plain), bytes: size, target: '<= 0.60' };
    const rows: Row[] = [
      bareRow,
      { name: 'bare loop with readline', argv: [node, readline, plain], bytes: size },
      renderRow,
      { name: '`SLOGULATE_WORKERS=1 slogulate FILE` (main thread + 1 worker)', argv: ['env', 'SLOGULATE_WORKERS=1', ...slogulate(plain)], bytes: size },
      { name: '`SLOGULATE_FAST=0 slogulate FILE` (plain path: every line parsed, one thread)', argv: ['env', 'SLOGULATE_FAST=0', ...slogulate(plain)], bytes: size },
      { name: '`slogulate --nonoise --novatstore --timing FILE`', argv: slogulate('--nonoise', '--novatstore', '--timing', plain), bytes: size, target: '<= 0.35' },
      {
        name: '`SLOGULATE_WORKERS=1 slogulate --nonoise --novatstore --timing FILE` (main thread + 1 worker)',
        argv: ['env', 'SLOGULATE_WORKERS=1', ...slogulate('--nonoise', '--novatstore', '--timing', plain)],
        bytes: size,
      },
      { name: '`slogulate FILE.gz`', argv: slogulate(gz), bytes: size, target: '<= 1.3x FILE' },
      { name: '`cat FILE | slogulate -`', argv: ['sh', '-c', `cat '${plain}' | '${node}' '${BIN}' -`], bytes: size, target: '<= 1.2x FILE' },
    ];
    const notes: string[] = [];
    if (has('top')) rows.push({ name: '`slogulate top FILE`', argv: slogulate('top', plain), bytes: size, target: '<= 0.25' });
    else notes.push('`slogulate top`: no such command in this build, row skipped');
    let statsRow: Row | undefined;
    if (has('stats')) {
      statsRow = { name: '`slogulate stats FILE`', argv: slogulate('stats', plain), bytes: size, target: '<= 0.40' };
      rows.push(statsRow);
    } else notes.push('`slogulate stats`: no such command in this build, row skipped');
    const reportFile = join(dir, 'report.html');
    if (has('report') && statsRow) {
      rows.push({ name: '`slogulate report FILE -o report.html`', argv: slogulate('report', plain, '-o', reportFile), bytes: size, target: '<= 1.5x stats' });
    } else notes.push('`slogulate report`: no such command in this build (or no stats row), row skipped');
    const row8: Row = { name: '`slogulate FILE8` (8 copies of FILE end to end)', argv: slogulate(big8), bytes: size * 8, runs: Math.min(RUNS, 2) };
    rows.push(row8);
    // The chain view, on a chain slog: against stats on the same slog.
    let chainStatsRow: Row | undefined;
    const chainRows: Row[] = [];
    if (existsSync(CHAIN) && has('blocks') && has('stats')) {
      const chain = join(dir, 'chain.slog');
      const chainSize = makeChainSlog(CHAIN, chain, CHAIN_COPIES);
      chainStatsRow = { name: '`slogulate stats CHAIN`', argv: slogulate('stats', chain), bytes: chainSize };
      chainRows.push(
        chainStatsRow,
        { name: '`slogulate blocks CHAIN`', argv: slogulate('blocks', chain), bytes: chainSize, target: '<= 1.0x chain stats' },
        { name: '`slogulate blocks --json CHAIN`', argv: slogulate('blocks', '--json', chain), bytes: chainSize, target: '<= 1.0x chain stats' },
        { name: '`slogulate runs CHAIN`', argv: slogulate('runs', chain), bytes: chainSize, target: '<= 1.0x chain stats' },
      );
      rows.push(...chainRows);
      notes.push(`CHAIN: ${basename(CHAIN)}'s blocks up to its restart, ${CHAIN_COPIES} times with shifted heights (${(chainSize / 1e6).toFixed(0)} MB); its ratios are to \`slogulate stats CHAIN\``);
    } else notes.push(`the chain rows: no ${CHAIN} (or no blocks command in this build), rows skipped`);
    const startup: Row[] = [
      { name: '`node -e ""` (Node.js alone)', argv: [node, '-e', ''], bytes: 0 },
      { name: '`slogulate TINY` (200 lines)', argv: slogulate(tiny), bytes: 0, target: 'well under 150 ms' },
    ];
    rows.push(...startup);

    const samples = new Map<Row, Sample[]>(rows.map((r) => [r, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const row of rows) {
        if (run >= (row.runs ?? RUNS)) continue;
        const s = await measure(row.argv);
        (samples.get(row) as Sample[]).push(s);
        process.stderr.write(`run ${run + 1}/${RUNS} ${s.seconds.toFixed(2)}s ${row.name}\n`);
      }
    }

    const med = (row: Row): number => median((samples.get(row) as Sample[]).map((s) => s.seconds));
    const peak = (row: Row): number | undefined => {
      const rss = (samples.get(row) as Sample[]).map((s) => s.rssKB).filter((k): k is number => k !== undefined);
      return rss.length ? Math.max(...rss) / 1024 : undefined;
    };
    const medianCpu = (row: Row): number | undefined => {
      const cpu = (samples.get(row) as Sample[]).map((s) => s.cpu).filter((c): c is number => c !== undefined);
      return cpu.length ? median(cpu) : undefined;
    };
    const loop = med(bareRow);
    const file = med(renderRow);
    /** `yes`/`no` for a row with a target: `<= R` of the bare loop, `<= Rx FILE`, or `<= Rx stats`. */
    const met = (row: Row, t: number): string => {
      const m = /^<= ([\d.]+)(x FILE|x stats|x chain stats)?$/.exec(row.target ?? '');
      if (!m) return '';
      const base =
        m[2] === 'x FILE' ? file : m[2] === 'x stats' && statsRow ? med(statsRow) : m[2] === 'x chain stats' && chainStatsRow ? med(chainStatsRow) : loop;
      return t / base <= Number(m[1]) ? 'yes' : 'no';
    };
    const lines: string[] = [];
    const cpu = cpus();
    lines.push(
      `${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB ` +
        `(${(freemem() / 2 ** 30).toFixed(0)} free), Node ${process.version}, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} at the end; ${(size / 1e6).toFixed(0)} MB slog, median of ${RUNS} runs`,
      '',
      '| command | median s | MB/s | ratio to bare loop | target | met | CPU s | peak RSS MB |',
      '|---|---:|---:|---:|---|---|---:|---:|',
    );
    for (const row of rows) {
      if (startup.includes(row)) continue;
      const t = med(row);
      const rss = peak(row);
      let ratio = (t / loop).toFixed(2);
      if (row.target?.includes('FILE')) ratio += ` (${(t / file).toFixed(2)}x FILE)`;
      if (row.target?.endsWith('x stats') && statsRow) ratio += ` (${(t / med(statsRow)).toFixed(2)}x stats)`;
      // The chain rows read another slog: their ratio is to stats on it.
      if (chainRows.includes(row) && chainStatsRow) ratio = `${(t / med(chainStatsRow)).toFixed(2)}x chain stats`;
      const cpu = medianCpu(row);
      lines.push(
        `| ${row.name.replaceAll('|', '\\|')} | ${t.toFixed(2)} | ${(row.bytes / 1e6 / t).toFixed(0)} | ${ratio} | ${row.target ?? ''} | ${met(row, t)} | ${cpu === undefined ? '' : cpu.toFixed(2)} | ${rss === undefined ? '' : rss.toFixed(0)} |`,
      );
    }
    lines.push('', '| startup | median ms | target |', '|---|---:|---|');
    for (const row of startup) lines.push(`| ${row.name} | ${(med(row) * 1000).toFixed(0)} | ${row.target ?? ''} |`);
    const render = peak(renderRow);
    const render8 = peak(row8);
    if (render !== undefined && render8 !== undefined) {
      notes.push(
        `peak RSS: ${render.toFixed(0)} MB for the render, ${render8.toFixed(0)} MB for 8x the slog (${(((render8 - render) / render) * 100).toFixed(1)}% apart; target <= 120 MB and <= 10%)`,
      );
    }
    if (existsSync(reportFile)) notes.push(`the report of FILE is ${(statSync(reportFile).size / 1024).toFixed(0)} KB`);
    if (!haveTime) notes.push(`no ${TIME}: peak RSS not measured`);
    if (notes.length) lines.push('', ...notes.map((note) => `- ${note}`));
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

await main();
