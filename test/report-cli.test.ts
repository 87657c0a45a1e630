/**
 * `slogulate report`, in process (runInProcess) but for one usage error that
 * a real process exits with: usage errors (exit 2) and their one-line
 * messages, an output that is an input refused, a failed run leaving an
 * existing report as it was, a slog in several files read as one, round
 * marks, real chain slogs (per block, or every N cranks when asked), the
 * big slog's report size, and the examples of docs/report.md run as written;
 * the page's figures against the slog's own, counted by a plain loop over
 * its lines (slog-facts.ts). The page itself is checked in a browser
 * (report-browser.test.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyAnnotations } from '../src/model/annotations.js';
import type { ChartView, ReportData } from '../src/report/report-data.js';
import { collectReport } from '../src/run/report.js';
import { ROOT, runCli, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { chainFacts, crankFacts, eachLine, type CrankFacts } from './slog-facts.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHARED = join(ROOT, '..', 'shared', 'slogs');

/** The report's data, from the JSON inlined in its page. */
function dataOf(file: string): ReportData {
  const html = readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="slog-report-data">(.*?)<\/script>/s.exec(html);
  if (!m) throw new Error(`no report data in ${file}`);
  return JSON.parse(m[1] as string) as ReportData;
}

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('slogulate report: usage', () => {
  it('exits 2 with one line for what it cannot do', async () => {
    const out = join(dir, 'usage.html');
    const cases: Array<[string[], RegExp]> = [
      [['report', '-', '-o', out], /^slogulate: report reads its files twice .*give files, not stdin\n$/],
      [['report', 'a-local-3.slog'], /^slogulate: required option '-o, --out <file>' not specified \(see slogulate report --help\)\n$/],
      [['report', '--compare', 'a-local-3.slog', '-o', out], /^slogulate: --compare takes two slogs, BASE HEAD \(got 1\)\n$/],
      [['report', 'a-local-3.slog', '--fail-on', 'syscalls:+0', '-o', out], /^slogulate: --fail-on needs --compare BASE HEAD\n$/],
      [['report', 'a-local-3.slog', '--every', '0', '-o', out], /^slogulate: option '--every <n>' argument '0' is invalid\. expected a whole number above 0/],
      [['report', 'nope.slog', '-o', out], /^slogulate: nope\.slog: no such file/],
      [['report', '--round-marks', 'a-local-3.slog', '-o', out], /^slogulate: a-local-3\.slog \(console entries\): no benchmark round marks .*drop --round-marks\n$/],
      [['report', '--compare', 'a-local-3.slog', 'b-local-5.slog', '--fail-on', 'bogus', '-o', out], /^slogulate: --fail-on 'bogus': /],
      [['report', '--round-marks', '--every', '5', 'a-local-3.slog', '-o', out], /^slogulate: option '--every <n>' cannot be used with option '--round-marks'/],
    ];
    for (const [args, message] of cases) {
      // Stdin refused: the real process's exit status; the rest in process.
      const r = await (args[1] === '-' ? runCli(args) : runInProcess(args));
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(existsSync(out), args.join(' ')).toBe(false);
    }
  });

  it('never writes over an input, and a failed run leaves an existing report as it was', async () => {
    const copy = join(dir, 'input.slog');
    writeFileSync(copy, readFileSync(slogPath('a-local-3')));
    const before = sha(copy);
    const r = await runInProcess(['report', copy, '-o', copy]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`slogulate: --out ${copy} is the same file as the input ${copy}; refusing to overwrite it\n`);
    expect(sha(copy)).toBe(before);
    // (Symlinks, hard links and annotation files: test/output-safety.test.ts, as for every command's output.)

    const out = join(dir, 'kept.html');
    expect((await runInProcess(['report', 'a-local-3.slog', '-o', out])).status).toBe(0);
    const report = sha(out);
    const failed = await runInProcess(['report', 'a-local-3.slog', 'nope.slog', '-o', out]);
    expect(failed.status).toBe(2);
    expect(sha(out)).toBe(report);
    // No temporary file left beside it.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('writes a page whose figures are the slog\'s: each bucket\'s cranks, time, computrons, deliveries, syscalls and heaps, and the summary', async () => {
    const file = slogPath('a-xs-3');
    const every = 20;
    const out = join(dir, 'figures.html');
    const r = await runInProcess(['report', file, '--every', String(every), '-o', out]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B\)\n$/);
    expect(r.status).toBe(0);
    const data = dataOf(out);

    // The slog's own figures, by a plain loop over its lines: cranks in buckets of 20 by crank number.
    const cranks = crankFacts(file);
    const buckets = new Map<number, CrankFacts[]>();
    for (const c of cranks) {
      const x = Math.floor(c.crankNum / every) * every;
      buckets.set(x, [...(buckets.get(x) ?? []), c]);
    }
    const sum = (xs: CrankFacts[], f: (c: CrankFacts) => number | undefined): number => xs.reduce((n, c) => n + (f(c) ?? 0), 0);
    const chart = (id: string): ChartView => data.charts.find((c) => c.id === id) as ChartView;
    expect(data.charts.map((c) => c.id)).toEqual(['crankTime', 'crankParts', 'computrons', 'deliveries', 'syscalls', 'heap', 'heapCount', 'snapshot']);
    for (const c of data.charts) {
      expect(c.x, c.id).toEqual([...buckets.keys()]);
      expect(c.labels, c.id).toEqual([...buckets.values()].map((b) => `cranks ${b[0]?.crankNum}-${b.at(-1)?.crankNum}`));
    }
    const means = (id: string): Array<number | null> => chart(id).series[0]?.mean ?? [];
    // Per crank: each bucket's sum over its cranks (the last bucket holds fewer than 20; every crank of this slog has its finish).
    const perCrank = (id: string, f: (c: CrankFacts) => number | undefined, digits: number): void =>
      means(id).forEach((v, i) => {
        const b = [...buckets.values()][i] as CrankFacts[];
        expect(v, `${id} bucket ${i}`).toBeCloseTo(sum(b, f) / b.length, digits);
      });
    perCrank('deliveries', (c) => c.deliveries, 3);
    perCrank('syscalls', (c) => c.syscalls, 2);
    perCrank('computrons', (c) => c.computrons, 1);
    perCrank('crankTime', (c) => c.ms, 2);
    const last = [...buckets.values()].at(-1) as CrankFacts[];
    expect(last.length).toBeLessThan(every);
    for (const id of ['crankTime', 'crankParts', 'computrons', 'deliveries', 'syscalls']) {
      expect(chart(id).title, id).toMatch(/per crank/);
      expect(chart(id).note, id).toContain(`last bucket, ${last.length} cranks of ${every}`);
    }
    // The stack of parts: its top is each bucket's crank time per crank, each part rounded to µs.
    const stack = chart('crankParts');
    expect(stack.stacked).toBe(true);
    expect(stack.series.map((l) => l.label)).toEqual(['page-in', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown']);
    stack.x.forEach((_, i) => {
      const top = stack.series.reduce((n, l) => n + (l.mean[i] ?? 0), 0);
      const b = [...buckets.values()][i] as CrankFacts[];
      expect(Math.abs(top - sum(b, (c) => c.ms) / b.length), `bucket ${i}`).toBeLessThanOrEqual(0.01);
    });
    // A vat's heap: its last usage report by the bucket's end, carried over while it gets no delivery.
    for (const [id, field] of [
      ['heap', 'allocate'],
      ['heapCount', 'count'],
    ] as const) {
      expect(chart(id).series.length, id).toBeGreaterThan(2);
      for (const series of chart(id).series) {
        let last: number | null = null;
        const expected = [...buckets.values()].map((b) => {
          for (const c of b) last = c.heap.get(series.vatID as string)?.[field] ?? last;
          return last;
        });
        expect(series.mean, `${id} ${series.vatID}`).toEqual(expected);
      }
    }
    const summary = new Map(data.sides[0]?.summary);
    expect(summary.get('lines read')).toBe(String(readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).length));
    expect(summary.get('cranks')).toBe(String(cranks.length));
    expect(summary.get('delivery cranks')).toBe(String(cranks.filter((c) => c.crankType === 'delivery').length));
    expect(summary.get('routing cranks')).toBe(String(cranks.filter((c) => c.crankType === 'routing').length));
    // Times in a readable unit, as stats prints them.
    expect(summary.get('deliveries')).toMatch(new RegExp(`^${sum(cranks, (c) => c.deliveries)} \\(\\d+\\.\\d\\d (?:s|ms)\\)$`));
    expect(summary.get('syscalls')).toMatch(new RegExp(`^${sum(cranks, (c) => c.syscalls)} \\(\\d+\\.\\d\\d (?:s|ms)\\)$`));
    expect(summary.get('computrons')).toBe(String(sum(cranks, (c) => c.computrons)));
  });
});

describe('slogulate report: what it reads', () => {
  it('reads a slog in several files as one slog', async () => {
    const lines = readFileSync(slogPath('a-xs-3'), 'utf8').split('\n');
    const cut = lines.findIndex((l, i) => i > lines.length / 3 && l.startsWith('{"type":"crank-start"'));
    const part1 = join(dir, 'part1.slog');
    const part2 = join(dir, 'part2.slog');
    writeFileSync(part1, `${lines.slice(0, cut).join('\n')}\n`);
    writeFileSync(part2, lines.slice(cut).join('\n'));
    const whole = join(dir, 'whole.html');
    const parts = join(dir, 'parts.html');
    expect((await runInProcess(['report', 'a-xs-3.slog', '--every', '20', '-o', whole])).status).toBe(0);
    const r = await runInProcess(['report', part1, part2, '--every', '20', '-o', parts]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B\)\n$/);
    const a = dataOf(whole);
    const b = dataOf(parts);
    expect(b.charts).toEqual(a.charts);
    expect(b.sides[0]?.top).toEqual(a.sides[0]?.top);
    expect(b.sides[0]?.texts).toEqual(a.sides[0]?.texts);
    expect(b.sides[0]?.files).toEqual([part1, part2]);
  });

  it('buckets per benchmark round with --round-marks', async () => {
    const mark = (text: string, time: number): string => JSON.stringify({ type: 'console', source: 'vat', vatID: 'v1', level: 'log', args: [text], time, monotime: 0 });
    const out: string[] = [];
    for (const line of readFileSync(slogPath('a-local-3'), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { type: string; crankNum?: number; time: number };
      if (e.type === 'crank-start' && e.crankNum === 106) out.push(mark('Benchmark "demo" round 1 start crank 106', e.time));
      if (e.type === 'crank-start' && e.crankNum === 161) out.push(mark('Benchmark "demo" round 2 start crank 161', e.time));
      out.push(line);
      if (e.type === 'crank-finish' && e.crankNum === 160) out.push(mark('Benchmark "demo" round 1 end crank 160', e.time));
      if (e.type === 'crank-finish' && e.crankNum === 219) out.push(mark('Benchmark "demo" round 2 end crank 219', e.time));
    }
    const marked = join(dir, 'marked.slog');
    writeFileSync(marked, `${out.join('\n')}\n`);
    const html = join(dir, 'rounds.html');
    const r = await runInProcess(['report', '--round-marks', marked, '-o', html]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B\)\n$/);
    expect(r.status).toBe(0);
    const data = dataOf(html);
    expect(data.axis).toBe('benchmark round');
    expect(data.charts[0]?.x).toEqual([1, 2]);
    expect(data.charts[0]?.labels).toEqual(['"demo" round 1: cranks 106-160', '"demo" round 2: cranks 161-219']);
    // A bad mark is named by its file and line (each input, as it is opened, tells the read).
    const lines = readFileSync(marked, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('round 1 start'));
    lines.splice(at, 0, lines[at] as string);
    const twice = join(dir, 'twice.slog');
    writeFileSync(twice, lines.join('\n'));
    const bad = await runInProcess(['report', '--round-marks', twice, '-o', join(dir, 'twice.html')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${twice}:${at + 2}: Benchmark "demo" round 1 starts twice`);
  });

  it('reports real chain slogs: replays, a restart, the kernel heap after commit', async () => {
    for (const name of ['chain-A.slog', 'restart-replay.slog', 'mid-crank-start.slog']) {
      const html = join(dir, `${name}.html`);
      const r = await runInProcess(['report', join(SHARED, 'real', name), '-o', html]);
      expect(r.status, name).toBe(0);
      const data = dataOf(html);
      expect(data.sides[0]?.top.ranked, name).toBeGreaterThan(0);
      const texts = data.sides[0]?.texts ?? {};
      for (const ranking of data.sides[0]?.top.rankings ?? []) {
        for (const crank of ranking.cranks) expect(texts[crank.textId as string]?.split('\n')[0], `${name} crank ${crank.crankNum}`).toBe(crank.header);
      }
      // Per block where the slog has blocks (chain-A: heights 1 to 170, a restart at 85), else per 250 cranks.
      const x = data.charts[0]?.x ?? [];
      if (name === 'chain-A.slog') {
        // A point per height (block 85, run again after the restart, once), from the slog's lines.
        const blocks = chainFacts(join(SHARED, 'real', name)).blocks;
        const heights = [...new Set(blocks.map((b) => b.height))];
        expect(data.axis).toBe('block');
        expect(x).toEqual(heights);
        expect(data.sides[0]?.summary).toContainEqual(['blocks', `${heights.length} (heights ${heights[0]}-${heights.at(-1)})`]);
        const heap = data.charts.find((c) => c.id === 'kernelHeap');
        expect(heap?.x).toEqual(x);
        // The kernel's heap after the commit: none where no execution of the height committed (the bootstrap block).
        const committed = new Set(blocks.filter((b) => b.committed).map((b) => b.height));
        expect(committed.size).toBe(heights.length - 1);
        expect(heap?.series[0]?.mean.map((v) => v === null)).toEqual(x.map((h) => !committed.has(h)));
      } else {
        expect(data.axis, name).toMatch(/^crank number/);
        expect(data.charts.map((c) => c.id)).not.toContain('kernelHeap');
      }
    }
  });

  it('a restart in the second of two files: read again from the first, each ranked crank\'s text from its own file', async () => {
    const lines = readFileSync(join(SHARED, 'real', 'restart-replay.slog'), 'utf8').split('\n');
    const restart = lines.findIndex((l, i) => i > 0 && l.includes('"type":"kernel-init-start"'));
    const cut = lines.findIndex((l, i) => i > restart / 2 && l.startsWith('{"type":"crank-start"'));
    const first = join(dir, 'part-1.slog');
    const second = join(dir, 'part-2.slog');
    writeFileSync(first, `${lines.slice(0, cut).join('\n')}\n`);
    writeFileSync(second, lines.slice(cut).join('\n'));
    const { data } = await collectReport({ runs: [[first, second]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] });
    const side = data.sides[0];
    const whole = (await collectReport({ runs: [[join(SHARED, 'real', 'restart-replay.slog')]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] })).data.sides[0];
    expect(side?.top).toEqual(whole?.top);
    const ranked = (side?.top.rankings ?? []).flatMap((r) => r.cranks);
    expect(ranked.length).toBeGreaterThan(0);
    for (const crank of ranked) expect(side?.texts[crank.textId as string]?.split('\n')[0], `crank ${crank.crankNum}`).toBe(crank.header);
  });

  it('on a chain slog, --every N still means every N cranks; two runs are per block only when both have blocks', async () => {
    const chain = join(SHARED, 'real', 'chain-bot.slog');
    const every = join(dir, 'every.html');
    expect((await runInProcess(['report', chain, '--every', '10', '-o', every])).status).toBe(0);
    const cranks = readFileSync(chain, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"crank-start"')).length;
    expect(dataOf(every).axis).toBe('crank number (first crank of each bucket of 10 cranks)');
    expect(dataOf(every).charts[0]?.x.length).toBe(Math.ceil(cranks / 10));
    // Two runs, in-process.
    const compare = async (base: string, head: string): Promise<ReportData> =>
      (await collectReport({ runs: [[base], [head]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] })).data;
    const both = await compare(chain, join(SHARED, 'real', 'block-files-bot'));
    expect(both.axis).toBe('block');
    expect(both.charts[0]?.x).toEqual([1, 2, 3, 4]);
    expect(both.charts[0]?.series.length).toBe(2);
    // Not both with blocks: every N cranks, N the larger of the two each would have alone (the largest of 250, 125, 50, 25, 10, 5, 2, 1
    // that makes 50 buckets of its cranks: a run stops its smaller N once one makes 50), so that the shorter still gets several points.
    const mixed = await compare(chain, slogPath('a-local-3'));
    const alone = (n: number): number => [250, 125, 50, 25, 10, 5, 2, 1].find((k) => Math.ceil(n / k) >= 50) ?? 1;
    const local = readFileSync(slogPath('a-local-3'), 'utf8').split('\n').filter((l) => l.startsWith('{"type":"crank-start"')).length;
    const shared = Math.max(alone(cranks), alone(local));
    expect(mixed.axis).toBe(`crank number (first crank of each bucket of ${shared} cranks)`);
    expect(mixed.charts[0]?.x).toEqual(Array.from({ length: Math.ceil(Math.max(cranks, local) / shared) }, (_, i) => i * shared));
    expect(mixed.charts[0]?.x.length).toBeGreaterThanOrEqual(50);
  });

  it('with --compare, pins a table\'s last row only when it is its totals: replays of two chain slogs, their all-vats row counted by a plain loop', async () => {
    const [base, head] = [join(SHARED, 'real', 'chain-A.slog'), join(SHARED, 'real', 'restart-replay.slog')];
    const data = (await collectReport({ runs: [[base], [head]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] })).data;
    const replayed = (file: string): number => readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"deliver"') && l.includes('"replay":true')).length;
    const tables = data.compare?.tables ?? [];
    const replays = tables.find((t) => t.id === 'compare-replays');
    expect(replays?.footer).toBe(1);
    expect(replays?.rows.at(-1)?.slice(0, 3)).toEqual(['all vats', String(replayed(base)), String(replayed(head))]);
    // A footer is a totals row; a table that ends with a vat's, a method's or a percentile's row has none.
    for (const t of tables) if (t.footer) expect(t.rows.at(-1)?.[0], t.id).toMatch(/^all\b/);
    expect(tables.find((t) => t.id === 'compare-deliveriesByVatMethod')?.footer).toBe(0);
    for (const side of data.sides) for (const t of side.tables) expect(t.footer, t.title).toBe(t.rows.at(-1)?.[0] === 'all' ? 1 : 0);
  }, 60_000);

  it('keeps the big slog\'s report to a few hundred KB', async () => {
    const html = join(dir, 'big.html');
    const r = await runInProcess(['report', join(SHARED, 'big-local-1200.slog.gz'), '-o', html]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B\)\n$/);
    expect(r.status).toBe(0);
    const size = readFileSync(html).length;
    expect(size).toBeGreaterThan(60_000);
    expect(size).toBeLessThan(600_000);
    const data = dataOf(html);
    // A point per 250 cranks by crank number, counted from the slog's crank-start lines.
    const buckets = new Set<number>();
    await eachLine(join(SHARED, 'big-local-1200.slog.gz'), (line) => {
      if (line.startsWith('{"type":"crank-start"')) buckets.add(Math.floor((JSON.parse(line) as { crankNum: number }).crankNum / 250) * 250);
    });
    expect(buckets.size).toBeGreaterThan(200);
    expect(data.charts[0]?.x).toEqual([...buckets]);
    expect(Object.keys(data.sides[0]?.texts ?? {}).length).toBeGreaterThan(5);
  }, 60_000);
});

describe('docs/report.md', () => {
  it('runs every example as written (the output into a temporary folder)', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'report.md'), 'utf8');
    const examples = [...doc.matchAll(/^\$ (slogulate report .*)$/gm)].map((m) => m[1] as string);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      // Words, single quotes kept together; `# exit N` says the status the doc promises.
      const [command, promised] = example.split(/\s+# exit /);
      const words = [...(command as string).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? (m[2] as string)).slice(1);
      const at = words.indexOf('-o');
      words[at + 1] = join(dir, basename(words[at + 1] as string));
      const r = await runInProcess(words, { cwd: ROOT });
      expect(r.status, example).toBe(promised === undefined ? 0 : Number(promised));
      expect(existsSync(words[at + 1] as string), example).toBe(true);
    }
  });
});
