/**
 * `npm run bench`: slogulate's speed and memory, measured against a plain
 * readline + JSON.parse loop run in the same bench on the same machine.
 *
 * Every row runs BENCH_RUNS times (default 5), all rows round-robin, so
 * that a noisy neighbour hurts every row alike. The ratios are of medians
 * of CPU time (user + system, from /usr/bin/time): on these machines (two
 * shared vCPUs) wall-clock ratios move with other load, CPU ratios much
 * less; wall time is shown beside them. Each row says its target (issue
 * 17, 13, 15, 16, 14) and whether it was met. A start-up row's run starts
 * its command 20 times in a row (GNU time's 10 ms steps are too coarse for
 * one start of 0.1 s) and counts the time per start.
 *
 * Before timing anything it checks that the fast paths print the plain
 * path's bytes (render, filtered render, top, stats, gzip).
 *
 * The steady-state table runs the loop and the rows with issue 17's targets
 * on FILE4 too (4 copies as one long run) and divides each command's CPU
 * for the 3 copies after the first by the loop's: the cost per byte once
 * started, without the fixed costs of a process (Node's start, loading,
 * V8 compiling the hot functions), which weigh on a 138 MB slog.
 *
 * Inputs are made in a temp folder (scripts/bench/inputs.ts). Environment:
 * BENCH_RUNS; BENCH_ONLY=REGEX (rows whose name matches; the base rows
 * always run); BENCH_SLOG (default ../shared/slogs/big-local-1200.slog.gz);
 * BENCH_CHAIN (default ../shared/slogs/real/chain-A.slog) and
 * BENCH_CHAIN_COPIES (30); BENCH_BIN (default bin/slogulate);
 * BENCH_SLOGULATOR=path/to/slogulator-entrypoint.js to run the old
 * slogulator (it is not published on npm: give a checkout of agoric-sdk's
 * packages/swingset-runner with its node_modules; its src/slogulator.js
 * only defines `main`, its entry point runs it); BENCH_BEFORE=path/to/
 * bin/slogulate of another build (an older commit, built) runs the
 * big-local-1200 rows of the render and the analyses with it too, in the
 * same round-robin, and prints a table of this build's CPU against it
 * (the median of each round's ratio: the two ran one after the other);
 * BENCH_KEEP=1 keeps the temp folder.
 *
 * BENCH_BIG=1 runs only the seek table (issue 30's targets, seekBench
 * below): a slog of BENCH_BIG_GB (default 4) GB of one kernel run and a
 * chain slog as big, plain and recompressed into indexed gzip members.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigChainSlog, bigCrankSlog, bigLineSlog, bigRunSlog, bigSlogs, chainSlog, headOf, longRunSlog } from './bench/inputs.js';
import { benchEnv, haveTime, measure, median, shellLoop, timedArgv, timesOf, type Sample, type ShellStep } from './bench/measure.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '..', 'shared', 'slogs');
const SLOG_GZ = process.env.BENCH_SLOG ?? join(SHARED, 'big-local-1200.slog.gz');
const CHAIN = process.env.BENCH_CHAIN ?? join(SHARED, 'real', 'chain-A.slog');
const CHAIN_COPIES = Math.max(1, Number(process.env.BENCH_CHAIN_COPIES ?? 30));
const BIN = process.env.BENCH_BIN ?? join(ROOT, 'bin', 'slogulate');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
/** Copies of the big slog in the steady-state rows' input. */
const LONG_COPIES = 4;
/** Start-ups per run of the start-up rows. */
const STARTS = 20;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const OLD = process.env.BENCH_SLOGULATOR;
const BEFORE = process.env.BENCH_BEFORE;
/** A row of BENCH_BEFORE whose paired CPU ratio is over this is marked slower (the rest is this VM's noise between adjacent runs). */
const SLOWER_OVER = 1.03;

/** The base of the ratios: the loop most scripts (and the old tools) read slogs with. */
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
  table: string;
  name: string;
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** The row its CPU ratio is to (default: the readline loop). */
  base?: Row;
  /** The target: at most this CPU ratio to the base. */
  maxRatio?: number;
  /** The target: peak RSS at most this many MB. */
  maxRssMB?: number;
  /** The target: peak RSS within this fraction of another row's. */
  rssNear?: { row: Row; within: number };
  runs?: number;
  /**
   * Each run starts the command this many times in a row (a shell loop), and
   * its times are divided by as many: GNU time counts CPU in steps of 10 ms,
   * coarser than the difference between two start-ups of 0.1 s.
   */
  starts?: number;
}

/** `argv` started `n` times, one after the other, by one shell. */
function repeated(argv: readonly string[], n: number): string[] {
  return ['sh', '-c', `i=0; while [ $i -lt ${n} ]; do "$@" >/dev/null || exit 1; i=$((i+1)); done`, 'sh', ...argv];
}

const node = process.execPath;
const slogulate = (...args: string[]): string[] => [node, BIN, ...args];
/** The same command line, with another build's bin/slogulate. */
const withBin = (argv: readonly string[], bin: string): string[] => argv.map((a) => (a === BIN ? bin : a.replaceAll(`'${BIN}'`, `'${bin}'`)));
const has = (cmd: string): boolean => spawnSync(node, [BIN, cmd, '--help'], { stdio: 'ignore' }).status === 0;

function sha(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(argv[0] as string, argv.slice(1), { env: benchEnv(env), maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return createHash('sha256').update(r.stdout).digest('hex');
}

/** The fast paths against the plain path (SLOGULATE_FAST=0): the same bytes, or the bench stops. */
function checkFastPaths(plain: string, gz: string): void {
  for (const opts of [[], ['--nonoise', '--novatstore', '--timing'], ['--novatstore']]) {
    const slow = sha(slogulate(...opts, plain), { SLOGULATE_FAST: '0' });
    if (sha(slogulate(...opts, plain)) !== slow) throw new Error(`slogulate ${opts.join(' ')}: the fast path's output differs from the plain path's`);
    if (sha(slogulate(...opts, gz)) !== slow) throw new Error(`slogulate ${opts.join(' ')} FILE.gz: output differs from the plain path's`);
  }
  for (const cmd of [['top'], ['stats', '--json']]) {
    if (sha(slogulate(...cmd, plain)) !== sha(slogulate(...cmd, plain), { SLOGULATE_FAST: '0' })) {
      throw new Error(`slogulate ${cmd.join(' ')}: the fast path's output differs from the plain path's`);
    }
  }
  process.stderr.write('fast paths checked: the same bytes as the plain path\n');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

async function main(): Promise<void> {
  if (!existsSync(SLOG_GZ)) throw new Error(`no ${SLOG_GZ}`);
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-bench-'));
  // An index a selection makes (BENCH_SLOG of 256 MB or more) goes to the temp folder, not the user's cache.
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  const notes: string[] = [];
  try {
    process.stderr.write(`making the inputs in ${dir}\n`);
    const plain = join(dir, 'big.slog');
    const gz = join(dir, 'big.slog.gz');
    const big8 = join(dir, 'big8.slog');
    copyFileSync(SLOG_GZ, gz);
    const size = await bigSlogs(SLOG_GZ, plain, big8, 8);
    const big4 = join(dir, 'big4-one-run.slog');
    const size4 = longRunSlog(plain, big4, LONG_COPIES);
    const tiny = join(dir, 'tiny.slog');
    headOf(join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog'), tiny, 10);
    const crank300k = join(dir, 'crank-300k.slog');
    await bigCrankSlog(crank300k, 300_000);
    const line50 = join(dir, 'line-50mb.slog');
    await bigLineSlog(line50, 50);
    const loopFile = join(dir, 'readline-loop.mjs');
    await import('node:fs').then((fs) => fs.writeFileSync(loopFile, READLINE_LOOP));
    checkFastPaths(plain, gz);
    // The seek (issue 30) prints what the whole read prints.
    const seekArgs = ['--cranks', '20000-20010', plain];
    if (sha(slogulate(...seekArgs)) !== sha(slogulate(...seekArgs), { SLOGULATE_SEEK: '0' })) throw new Error(`slogulate ${seekArgs.join(' ')}: the seek's output differs from the whole read's`);

    const BIG = `big-local-1200 (${(size / 1e6).toFixed(0)} MB): CPU time, ratio to the readline + JSON.parse loop`;
    const loop: Row = { table: BIG, name: 'readline + JSON.parse loop', argv: [node, loopFile, plain] };
    const render: Row = { table: BIG, name: '`slogulate FILE`', argv: slogulate(plain), maxRatio: 0.65, maxRssMB: 100 };
    const stats: Row = { table: BIG, name: '`slogulate stats FILE`', argv: slogulate('stats', plain), maxRatio: 0.35, maxRssMB: 100 };
    const top: Row = { table: BIG, name: '`slogulate top FILE`', argv: slogulate('top', plain), maxRatio: 0.25, maxRssMB: 100 };
    const compare: Row = { table: BIG, name: '`slogulate compare FILE FILE`', argv: slogulate('compare', plain, plain), maxRssMB: 100 };
    const trace: Row = { table: BIG, name: '`slogulate trace FILE -o T`', argv: slogulate('trace', plain, '-o', join(dir, 'trace.json'), '--force'), maxRssMB: 100 };
    const filtered: Row = { table: BIG, name: '`slogulate --nonoise --novatstore --timing FILE`', argv: slogulate('--nonoise', '--novatstore', '--timing', plain), maxRatio: 0.45, maxRssMB: 100 };
    const novatstore: Row = { table: BIG, name: '`slogulate --novatstore FILE`', argv: slogulate('--novatstore', plain), maxRatio: 0.8, maxRssMB: 100 };
    const gzRow: Row = { table: BIG, name: '`slogulate FILE.gz`', argv: slogulate(gz), base: render, maxRatio: 1.3 };
    const catRow: Row = { table: BIG, name: '`cat FILE | slogulate -`', argv: ['sh', '-c', `cat '${plain}' | '${node}' '${BIN}' -`], base: render, maxRatio: 1.2 };
    const rows: Row[] = [
      loop,
      render,
      filtered,
      novatstore,
      top,
      stats,
      compare,
      trace,
      gzRow,
      catRow,
      { table: BIG, name: '`SLOGULATE_FAST=0 slogulate FILE` (every line JSON.parsed)', argv: slogulate(plain), env: { SLOGULATE_FAST: '0' } },
      // Issue 30's target is 1% of the whole read; the byte search over every byte (restarts, vat names) costs more than that (docs/selections.md).
      { table: BIG, name: '`slogulate --cranks 20000-20010 FILE` (a seek), ratio to `slogulate FILE`', argv: slogulate(...seekArgs), base: render, maxRatio: 0.25 },
    ];
    // Issue 31: two nodes' slogs read side by side (here the same one twice: every crank compared by crankhash, every delivery timed).
    if (has('diverge')) rows.push({ table: BIG, name: '`slogulate diverge FILE FILE`', argv: slogulate('diverge', plain, plain), base: stats, maxRatio: 2.5, maxRssMB: 150 });
    if (has('report')) rows.push({ table: BIG, name: '`slogulate report FILE -o R.html`', argv: slogulate('report', plain, '-o', join(dir, 'report.html')), base: stats, maxRatio: 1.5 });
    const exportDir = join(dir, 'export');
    const exportRow: Row = { table: BIG, name: '`slogulate export FILE --to DIR` (Parquet)', argv: slogulate('export', plain, '--to', exportDir, '--replace', '-q'), base: stats, maxRatio: 2, maxRssMB: 200 };
    if (has('export')) rows.push(exportRow);
    if (OLD) rows.push({ table: BIG, name: 'the old slogulator (`BENCH_SLOGULATOR`)', argv: [node, OLD, plain] });
    /** This build's rows and the same commands of BENCH_BEFORE's build, paired. */
    const befores: Array<{ now: Row; before: Row }> = [];
    if (BEFORE) {
      const AB = `this build against BENCH_BEFORE (${BEFORE}) on big-local-1200: CPU time`;
      // The commands every build has had (trace's --force, report and export are newer).
      const paired = rows.filter((r) => [render, filtered, novatstore, top, stats, compare, gzRow, catRow].includes(r));
      for (const now of paired) befores.push({ now, before: { table: AB, name: `${now.name} (before)`, argv: withBin(now.argv, BEFORE) } });
      rows.push(...befores.map((b) => b.before));
    }
    else notes.push('the old slogulator: not run (set BENCH_SLOGULATOR to its src/slogulator-entrypoint.js: agoric-sdk\'s packages/swingset-runner is not published on npm)');

    // The same commands on FILE4: their CPU beyond FILE's, against the loop's.
    const LONG = `steady state: FILE4 (${LONG_COPIES} copies of big-local-1200 as one run, ${(size4 / 1e6).toFixed(0)} MB)`;
    const long = new Map<Row, Row>();
    for (const row of [loop, render, filtered, novatstore, top, stats]) {
      long.set(row, { table: LONG, name: row.name.replace('FILE`', 'FILE4`'), argv: row.argv.map((a) => (a === plain ? big4 : a)) });
    }
    rows.push(...long.values());

    const MEM = 'memory: peak RSS flat from 1x to 8x the slog';
    rows.push(
      { table: MEM, name: '`slogulate FILE8` (8 copies end to end)', argv: slogulate(big8), runs: 2, maxRssMB: 100, rssNear: { row: render, within: 0.1 } },
      { table: MEM, name: '`slogulate stats FILE8`', argv: slogulate('stats', big8), runs: 2, maxRssMB: 100, rssNear: { row: stats, within: 0.1 } },
    );

    const CRANK = 'one crank of 300,000 syscalls: peak RSS within 10% of the same command on big-local-1200';
    rows.push(
      { table: CRANK, name: '`slogulate stats CRANK`', argv: slogulate('stats', crank300k), runs: 2, rssNear: { row: stats, within: 0.1 } },
      { table: CRANK, name: '`slogulate top CRANK`', argv: slogulate('top', crank300k), runs: 2, rssNear: { row: top, within: 0.1 } },
      { table: CRANK, name: '`slogulate compare CRANK CRANK`', argv: slogulate('compare', crank300k, crank300k), runs: 2, rssNear: { row: compare, within: 0.1 } },
      { table: CRANK, name: '`slogulate trace CRANK -o T`', argv: slogulate('trace', crank300k, '-o', join(dir, 'trace-crank.json'), '--force'), runs: 2, rssNear: { row: trace, within: 0.1 } },
      { table: CRANK, name: '`slogulate CRANK` (the render keeps the crank\'s text)', argv: slogulate(crank300k), runs: 2 },
    );

    const LINE = 'one line of 50 MB: peak RSS under 120 MB';
    for (const args of [[], ['--nonoise'], ['stats'], ['top']]) {
      rows.push({ table: LINE, name: `\`slogulate ${[...args, 'LINE'].join(' ')}\``, argv: slogulate(...args, line50), runs: 2, maxRssMB: 120 });
    }

    // Issue 32: growth keeps what is alive, and slogs end to end start over at each copy's kernel (docs/growth.md): 8 copies hold what one holds.
    if (has('growth')) {
      const GROWTH = 'growth: peak RSS bounded by what is alive, not by the slog\'s length (8 copies end to end within 1.2 x one copy)';
      const growthOne: Row = { table: GROWTH, name: '`slogulate growth FILE`', argv: slogulate('growth', plain), runs: 2 };
      rows.push(growthOne, { table: GROWTH, name: '`slogulate growth FILE8` (8 copies end to end)', argv: slogulate('growth', big8), runs: 2, rssNear: { row: growthOne, within: 0.2 } });
    }

    if (existsSync(CHAIN) && has('blocks')) {
      const chain = join(dir, 'chain.slog');
      const chainSize = chainSlog(CHAIN, chain, CHAIN_COPIES);
      const CH = `the chain view: ${basename(CHAIN)}'s blocks ${CHAIN_COPIES} times (${(chainSize / 1e6).toFixed(0)} MB), ratio to stats on it`;
      const chainStats: Row = { table: CH, name: '`slogulate stats CHAIN`', argv: slogulate('stats', chain) };
      rows.push(
        chainStats,
        { table: CH, name: '`slogulate blocks CHAIN`', argv: slogulate('blocks', chain), base: chainStats, maxRatio: 1 },
        { table: CH, name: '`slogulate blocks --json CHAIN`', argv: slogulate('blocks', '--json', chain), base: chainStats, maxRatio: 1 },
        { table: CH, name: '`slogulate runs CHAIN`', argv: slogulate('runs', chain), base: chainStats, maxRatio: 1 },
      );
      // The report's charts per block (issue 16), as `report FILE` against `stats FILE` on the big slog.
      if (has('report')) rows.push({ table: CH, name: '`slogulate report CHAIN -o R.html` (a point per block)', argv: slogulate('report', chain, '-o', join(dir, 'chain-report.html')), base: chainStats, maxRatio: 1.5 });
    } else notes.push(`the chain view: not run (no ${CHAIN}, or no blocks command in this build)`);

    const START = `start-up: a 10-line slog, ratio to Node.js alone (each run: ${STARTS} starts in a row; times are per start)`;
    const bare: Row = { table: START, name: '`node -e ""`', argv: [node, '-e', ''], starts: STARTS };
    rows.push(bare, { table: START, name: '`slogulate TINY`', argv: slogulate(tiny), base: bare, maxRatio: 1.5, starts: STARTS });

    const chosen = ONLY
      ? rows.filter(
          (r) =>
            r === loop ||
            r === bare ||
            rows.some((o) => (o.base === r || o.rssNear?.row === r) && ONLY.test(o.name)) ||
            ONLY.test(r.name) ||
            befores.some((b) => b.before === r && ONLY.test(b.now.name)) ||
            [...long].some(([one, four]) => (four === r || one === r || r === long.get(loop)) && one !== loop && ONLY.test(one.name)),
        )
      : rows;
    const samples = new Map<Row, Sample[]>(chosen.map((r) => [r, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const row of chosen) {
        if (run >= (row.runs ?? RUNS)) continue;
        const n = row.starts ?? 1;
        const m = await measure(n > 1 ? repeated(row.argv, n) : row.argv, row.env);
        const s: Sample = { wall: m.wall / n, cpu: m.cpu === undefined ? undefined : m.cpu / n, rssKB: m.rssKB };
        samples.get(row)?.push(s);
        process.stderr.write(`run ${run + 1}/${RUNS} cpu ${s.cpu?.toFixed(2) ?? '?'}s wall ${s.wall.toFixed(2)}s ${row.name}\n`);
      }
    }

    const of = (row: Row): Sample[] => samples.get(row) ?? [];
    const cpu = (row: Row): number => median(of(row).map((s) => s.cpu ?? NaN));
    const wall = (row: Row): number => median(of(row).map((s) => s.wall));
    const rss = (row: Row): number => Math.max(...of(row).map((s) => (s.rssKB ?? NaN) / 1024));
    const fmt = (n: number, digits = 2): string => (Number.isFinite(n) ? n.toFixed(digits) : '');

    const out: string[] = [];
    const c = cpus();
    out.push(
      `${new Date().toISOString().slice(0, 16)}Z, ${c.length} x ${c[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ` +
        `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end; medians of ${RUNS} interleaved runs (memory rows: 2)`,
    );
    const ownTable = new Set([...befores.map((b) => b.before), ...long.values()]);
    for (const table of [...new Set(chosen.filter((r) => !ownTable.has(r)).map((r) => r.table))]) {
      out.push('', `### ${table}`, '', '| command | CPU s | CPU ratio | wall s | wall ratio | peak RSS MB | target | met |', '|---|---:|---:|---:|---:|---:|---|---|');
      for (const row of chosen.filter((r) => r.table === table)) {
        const base = row.base ?? (table === BIG ? loop : undefined);
        const ratio = base && base !== row && samples.has(base) ? cpu(row) / cpu(base) : NaN;
        const wallRatio = base && base !== row && samples.has(base) ? wall(row) / wall(base) : NaN;
        const targets: string[] = [];
        const met: boolean[] = [];
        if (row.maxRatio !== undefined) {
          targets.push(`CPU <= ${row.maxRatio}${row.base && row.base !== loop ? ` x ${row.base.name}` : ''}`);
          met.push(ratio <= row.maxRatio);
        }
        if (row.maxRssMB !== undefined) {
          targets.push(`RSS <= ${row.maxRssMB} MB`);
          met.push(rss(row) <= row.maxRssMB);
        }
        if (row.rssNear && samples.has(row.rssNear.row)) {
          const near = rss(row.rssNear.row);
          targets.push(`RSS <= ${fmt(near * (1 + row.rssNear.within), 0)} MB (${row.rssNear.row.name} + ${row.rssNear.within * 100}%)`);
          met.push(rss(row) <= near * (1 + row.rssNear.within));
        }
        const verdict = met.length === 0 ? '' : met.every(Boolean) ? 'yes' : 'no';
        out.push(
          `| ${row.name.replaceAll('|', '\\|')} | ${fmt(cpu(row), row.starts ? 3 : 2)} | ${fmt(ratio)} | ${fmt(wall(row), row.starts ? 3 : 2)} | ${fmt(wallRatio)} | ${fmt(rss(row), 0)} | ${targets.join('; ')} | ${verdict} |`,
        );
      }
    }
    const longRows = [...long].filter(([one, four]) => samples.has(one) && samples.has(four));
    const loopLong = long.get(loop);
    if (longRows.length > 1 && loopLong && samples.has(loopLong)) {
      const loopExtra = cpu(loopLong) - cpu(loop);
      out.push(
        '',
        `### ${loopLong.table}: CPU of the ${LONG_COPIES - 1} copies after the first, ratio to the loop's`,
        '',
        '| command | CPU s FILE | CPU s FILE4 | CPU s per copy after the first | steady-state ratio | target (issue 17, on FILE) | met at steady state |',
        '|---|---:|---:|---:|---:|---|---|',
      );
      for (const [one, four] of longRows) {
        const extra = cpu(four) - cpu(one);
        const ratio = one === loop ? NaN : extra / loopExtra;
        const target = one.maxRatio;
        out.push(
          `| ${four.name.replaceAll('|', '\\|')} | ${fmt(cpu(one))} | ${fmt(cpu(four))} | ${fmt(extra / (LONG_COPIES - 1))} | ${fmt(ratio)} | ${target === undefined ? '' : `CPU <= ${target}`} | ${target === undefined ? '' : ratio <= target ? 'yes' : 'no'} |`,
        );
      }
    }
    const paired = befores.filter((b) => samples.has(b.now) && samples.has(b.before));
    if (paired.length > 0) {
      out.push(
        '',
        `### ${paired[0]?.before.table}`,
        '',
        '| command | CPU s before | CPU s now | now / before (medians) | now / before (median of paired runs) | runs now faster | slower |',
        '|---|---:|---:|---:|---:|---:|---|',
      );
      for (const { now, before } of paired) {
        const pairs = of(now).map((s, i) => (s.cpu ?? NaN) / (of(before)[i]?.cpu ?? NaN));
        const pairedRatio = median(pairs);
        const faster = pairs.filter((r) => r < 1).length;
        out.push(
          `| ${now.name.replaceAll('|', '\\|')} | ${fmt(cpu(before))} | ${fmt(cpu(now))} | ${fmt(cpu(now) / cpu(before))} | ${fmt(pairedRatio)} | ${faster}/${pairs.length} | ${pairedRatio > SLOWER_OVER ? 'yes' : 'no'} |`,
        );
      }
      notes.push(`against BENCH_BEFORE: "slower" when the median of the paired runs' ratios is over ${SLOWER_OVER} (adjacent runs of one command move by a few % here)`);
    }
    if (samples.has(exportRow) && existsSync(exportDir)) {
      const parquet = filesUnder(exportDir).filter((f) => f.endsWith('.parquet')).reduce((sum, f) => sum + statSync(f).size, 0);
      const gzip = statSync(SLOG_GZ).size;
      notes.push(`export: Parquet files ${(parquet / 1e6).toFixed(1)} MB, ${((parquet / gzip) * 100).toFixed(0)}% of the slog's gzip (target <= 33%: ${parquet * 3 <= gzip ? 'met' : 'not met'})`);
    }
    if (!haveTime) notes.push('no /usr/bin/time (GNU time): CPU time and peak RSS not measured');
    if (process.env.NODE_EXTRA_CA_CERTS) notes.push('NODE_EXTRA_CA_CERTS is set here: every command ran without it (scripts/bench/measure.ts, benchEnv: each Node.js start would parse its certificates, some 40 ms)');
    if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The seek table (issue 30, BENCH_BIG=1): selections in the middle of a
 * slog of at least BENCH_BIG_GB GB (big-local-1200 as one long run, and
 * chain-A's blocks repeated), plain without an index (the index cache off:
 * the whole file searched), plain at its first selection (the cache
 * emptied before each run: the selection indexes it, run/index-cache.ts),
 * plain with its index (`slogulate index`; the cache's is the same), and
 * as the .gz `slogulate recompress` writes with its index. Each selection's output is first checked against
 * the full scan's (SLOGULATE_SEEK=0, run once: it reads every byte) byte
 * for byte, plain and gzipped; then the seeks run BENCH_RUNS times (default
 * 3), each run timed from one bash process (measure.ts shellLoop), the page
 * cache dropped before each command's cold run where the machine lets us
 * (`echo 1 > /proc/sys/vm/drop_caches`, root), else said so. A minute is
 * timed on both slogs: 21 MB of the dense local one, some 1 MB of chain.
 */
async function seekBench(): Promise<void> {
  const GB = Number(process.env.BENCH_BIG_GB ?? 4);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-bench-seek-'));
  // The index cache of every command run here (benchEnv passes it on), emptied for the first-selection rows.
  const cache = join(dir, 'cache');
  process.env.XDG_CACHE_HOME = cache;
  const emptyCache = (): void => rmSync(cache, { recursive: true, force: true });
  const notes: string[] = [];
  /** Runs argv once: its stdout's SHA-256, CPU (user + system) and wall seconds. */
  const once = (argv: string[], env: NodeJS.ProcessEnv = {}): { sha: string; cpu: number; wall: number } => {
    const started = process.hrtime.bigint();
    const timed = timedArgv(argv);
    const r = spawnSync(timed[0] as string, timed.slice(1), { env: benchEnv(env), maxBuffer: 1 << 30 });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const { cpu } = timesOf(r.stderr.toString());
    if (r.status !== 0 || cpu === undefined) throw new Error(`${argv.join(' ')}: exit ${r.status}\n${r.stderr.toString().slice(-2000)}`);
    return { sha: createHash('sha256').update(r.stdout).digest('hex'), cpu, wall };
  };
  /** Drops the page cache (root only): run here once to learn whether it can be, then before each cold run by the shell loop. */
  const dropping = 'sync && echo 1 > /proc/sys/vm/drop_caches';
  try {
    const plain = join(dir, 'big.slog');
    await bigSlogs(SLOG_GZ, plain, join(dir, 'unused.slog'), 1);
    rmSync(join(dir, 'unused.slog'));
    process.stderr.write(`making ${GB} GB slogs in ${dir}\n`);
    const run = join(dir, 'run.slog');
    const made = bigRunSlog(plain, run, GB * 1e9);
    const chain = join(dir, 'chain.slog');
    const madeChain = bigChainSlog(CHAIN, chain, GB * 1e9);
    const runGz = `${run}.gz`;
    const chainGz = `${chain}.gz`;
    const recompressRun = once(slogulate('recompress', run, runGz));
    once(slogulate('recompress', chain, chainGz));
    // The plain slogs with an index: each a hard link (the same bytes, size and time) with an index beside it; the plain rows' names have none.
    const indexed = new Map<string, string>();
    for (const f of [run, chain]) {
      const linked = f.replace(/\.slog$/, '-indexed.slog');
      linkSync(f, linked);
      indexed.set(f, linked);
    }
    const indexPlain = once(slogulate('index', indexed.get(run) as string));
    once(slogulate('index', indexed.get(chain) as string));
    // The index row: indexing the .gz again, against reading it once (Node's gunzip stream, the zlib slogulate reads with).
    const gunzip = `require('fs').createReadStream(process.argv[1],{highWaterMark:1<<20}).pipe(require('zlib').createGunzip({chunkSize:256<<10})).on('data',()=>{})`;
    const midCrank = Math.floor(made.lastCrank / 2);
    const midTime = (made.firstTime + made.lastTime) / 2;
    const iso = (t: number): string => new Date(t * 1000).toISOString();
    const midBlock = Math.floor((madeChain.firstHeight + madeChain.lastHeight) / 2);
    const midChainTime = (madeChain.firstTime + madeChain.lastTime) / 2;
    interface SeekRow { name: string; args: (file: string) => string[]; plain: string; gz: string; wallTarget: number; gzWallTarget: number; cpuShare?: number; base?: string[] }
    const selections: SeekRow[] = [
      { name: `\`--cranks ${midCrank}-${midCrank + 10}\` (11 cranks in the middle)`, args: (f) => ['--cranks', `${midCrank}-${midCrank + 10}`, f], plain: run, gz: runGz, wallTarget: 0.2, gzWallTarget: 0.5, cpuShare: 0.01 },
      { name: `\`--blocks ${midBlock}-${midBlock + 2}\` (3 blocks in the middle)`, args: (f) => ['--blocks', `${midBlock}-${midBlock + 2}`, f], plain: chain, gz: chainGz, wallTarget: 0.2, gzWallTarget: 0.5 },
      { name: '`--since T --until T+60s` (one minute in the middle)', args: (f) => ['--since', iso(midTime), '--until', iso(midTime + 60), f], plain: run, gz: runGz, wallTarget: 0.3, gzWallTarget: 0.5 },
      { name: '`--since T --until T+60s` (one minute of the chain slog)', args: (f) => ['--since', iso(midChainTime), '--until', iso(midChainTime + 60), f], plain: chain, gz: chainGz, wallTarget: 0.3, gzWallTarget: 0.5 },
      { name: `\`top --blocks ${midBlock}-${midBlock + 9}\` (10 blocks), CPU against \`top\` of the whole file`, args: (f) => ['top', '--blocks', `${midBlock}-${midBlock + 9}`, f], plain: chain, gz: chainGz, wallTarget: Infinity, gzWallTarget: 0.5, cpuShare: 0.02, base: ['top', chain] },
    ];
    /**
     * The files each selection runs on, and how: the plain file without an index (the cache off and emptied: an index
     * found there is used even so), at its first selection (the cache emptied), with its index, and gzipped.
     */
    interface Variant { label: string; file: string; env: NodeJS.ProcessEnv; fromEmpty: boolean; gz: boolean }
    const variants = (row: SeekRow): Variant[] => [
      { label: 'plain, no index', file: row.plain, env: { SLOGULATE_INDEX_CACHE_MB: 'off' }, fromEmpty: true, gz: false },
      { label: 'plain, first selection (indexes it)', file: row.plain, env: {}, fromEmpty: true, gz: false },
      { label: 'plain, indexed', file: indexed.get(row.plain) as string, env: {}, fromEmpty: false, gz: false },
      { label: '.gz, indexed', file: row.gz, env: {}, fromEmpty: false, gz: true },
    ];
    const full = new Map<SeekRow, { sha: string; cpu: number; wall: number; baseCpu: number }>();
    for (const row of selections) {
      process.stderr.write(`full scan: ${row.name}\n`);
      const whole = once(slogulate(...row.args(row.plain)), { SLOGULATE_SEEK: '0' });
      for (const v of variants(row)) {
        if (v.fromEmpty) emptyCache();
        const seek = once(slogulate(...row.args(v.file)), v.env);
        if (seek.sha !== whole.sha) throw new Error(`slogulate ${row.args(v.file).join(' ')} (${v.label}): the seek's output differs from the full scan's`);
      }
      const baseCpu = row.base ? once(slogulate(...row.base)).cpu : whole.cpu;
      full.set(row, { ...whole, baseCpu });
    }
    process.stderr.write('seeks checked: the same bytes as the full scan, plain (without an index, at its first selection, with its index) and gzipped\n');
    const samples = new Map<string, Array<{ cpu: number; wall: number }>>();
    const timed: Array<[string, string[], Variant | undefined]> = [];
    for (const row of selections) for (const v of variants(row)) timed.push([`${row.name}|${v.label}`, slogulate(...row.args(v.file)), v]);
    timed.push(['index', slogulate('index', runGz), undefined], ['gunzip', [node, '-e', gunzip, runGz], undefined]);
    const record = (key: string, m: { cpu: number; wall: number }, r: number): void => {
      samples.set(key, [...(samples.get(key) ?? []), { cpu: m.cpu, wall: m.wall }]);
      process.stderr.write(`run ${r + 1}/${runs} cpu ${m.cpu.toFixed(2)}s wall ${m.wall.toFixed(2)}s ${key}\n`);
    };
    // Timed from one bash process a run (scripts/bench/measure.ts shellLoop): spawned one by one from this process, the
    // rows of 0.1 s measured 0.18-0.20 s where a shell measured 0.07-0.09 s, for a reason not found (docs/performance.md).
    const dropped = spawnSync('sh', ['-c', dropping], { stdio: 'ignore' }).status === 0;
    const spawnText = (argv: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } => {
      const r = spawnSync(argv[0] as string, argv.slice(1), { env, encoding: 'utf8', maxBuffer: 1 << 26 });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const empty = `rm -rf '${cache}'`;
    for (let r = 0; r < runs; r += 1) {
      const steps: ShellStep[] = [];
      for (const [key, argv, v] of timed) {
        if (v === undefined) {
          steps.push({ key, argv });
          continue;
        }
        // Cold (the page cache dropped: Node.js, slogulate and the slog read from disk), then warm.
        const cold = [v.fromEmpty ? empty : '', dropped ? dropping : ''].filter(Boolean).join('; ');
        steps.push({ key: `${key}|cold`, argv, env: v.env, ...(cold ? { before: cold } : {}) });
        steps.push({ key, argv, env: v.env, ...(v.fromEmpty ? { before: empty } : {}) });
      }
      for (const m of shellLoop(steps, spawnText)) record(m.key, m, r);
    }
    process.stderr.write('a full read of RUN.gz: slogulate top\n');
    const topGz = once(slogulate('top', runGz));
    const med = (key: string, what: 'cpu' | 'wall'): number => median((samples.get(key) ?? []).map((s) => s[what]));
    const fmt = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : '');
    const pct = (n: number): string => `${(n * 100).toFixed(2)}%`;
    const c = cpus();
    const out: string[] = [
      `${new Date().toISOString().slice(0, 16)}Z, ${c.length} x ${c[0]?.model ?? 'unknown CPU'}, Node ${process.version}; medians of ${runs} runs` +
        `; slogs: ${(made.size / 1e9).toFixed(2)} GB (big-local-1200 as one run, cranks 0-${made.lastCrank}), chain ${(madeChain.size / 1e9).toFixed(2)} GB (blocks ${madeChain.firstHeight}-${madeChain.lastHeight}); ` +
        `.gz ${(statSync(runGz).size / 1e9).toFixed(2)} and ${(statSync(chainGz).size / 1e9).toFixed(2)} GB`,
      '',
      '| command | file | wall s | wall s, cold | CPU s | full scan CPU s | CPU share | target | met |',
      '|---|---|---:|---:|---:|---:|---:|---|---|',
    ];
    for (const row of selections) {
      const f = full.get(row) as { cpu: number; wall: number; baseCpu: number };
      for (const v of variants(row)) {
        const wallTarget = v.gz ? row.gzWallTarget : row.wallTarget;
        const key = `${row.name}|${v.label}`;
        const share = med(key, 'cpu') / f.baseCpu;
        const targets: string[] = [];
        const met: boolean[] = [];
        if (Number.isFinite(wallTarget)) {
          targets.push(`wall < ${wallTarget} s`);
          met.push(med(key, 'wall') < wallTarget);
        }
        if (row.cpuShare !== undefined && !v.gz) {
          targets.push(`CPU < ${pct(row.cpuShare)}`);
          met.push(share < row.cpuShare);
        }
        out.push(`| ${row.name} | ${v.label} | ${fmt(med(key, 'wall'))} | ${fmt(med(`${key}|cold`, 'wall'))} | ${fmt(med(key, 'cpu'))} | ${fmt(f.baseCpu, 1)} | ${pct(share)} | ${targets.join('; ')} | ${met.length ? (met.every(Boolean) ? 'yes' : 'no') : ''} |`);
      }
    }
    const ratio = med('index', 'cpu') / med('gunzip', 'cpu');
    out.push(`| \`slogulate index RUN.gz\` | .gz | ${fmt(med('index', 'wall'))} | | ${fmt(med('index', 'cpu'))} | ${fmt(med('gunzip', 'cpu'), 1)} (Node's gunzip) | ${fmt(ratio)} x | CPU <= 1.2 x reading it once | ${ratio <= 1.2 ? 'yes' : 'no'} |`);
    out.push(`| \`slogulate index RUN.gz\` | .gz | | | ${fmt(med('index', 'cpu'))} | ${fmt(topGz.cpu, 1)} (\`slogulate top RUN.gz\`) | ${fmt(med('index', 'cpu') / topGz.cpu)} x | CPU <= 1.2 x reading it once | ${med('index', 'cpu') <= 1.2 * topGz.cpu ? 'yes' : 'no'} |`);
    notes.push(`\`slogulate index RUN\` (plain): ${fmt(indexPlain.wall, 0)} s wall, ${fmt(indexPlain.cpu, 0)} s CPU`);
    notes.push(`\`slogulate recompress RUN RUN.gz\`: ${fmt(recompressRun.wall, 0)} s wall, ${fmt(recompressRun.cpu, 0)} s CPU; the full scans' wall: ${selections.map((r) => fmt(full.get(r)?.wall ?? NaN, 0)).join(', ')} s`);
    notes.push(dropped ? '"cold": the page cache dropped just before (echo 1 > /proc/sys/vm/drop_caches: Node.js, slogulate and the slog read from disk); the other columns: the run right after it, warm' : 'the page cache could not be dropped here: the "cold" runs ran with the files cached');
    out.push('', ...notes.map((n) => `- ${n}`));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_BIG === '1') await seekBench();
else await main();
