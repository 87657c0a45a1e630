/// <reference lib="dom" />
/**
 * `slogulate report` opened in a real headless Chromium (test/browser.ts),
 * every request but the report's own file blocked: no console errors, every
 * chart drawn with the points the slog makes, the values plotted (read from
 * the charts' legends under the cursor) the slog's own, the top-cranks tables equal
 * what `top` computes, a click shows a crank's text as the text render
 * prints it, tables sort, zoom follows across charts; the same for a
 * comparison of two runs; and a chain slog's report, a point per block. Screenshots go to test-output/ (git-ignored) for
 * a person to look at.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberText } from '../src/analyses/compare/compare-report.js';
import { TOP_READS, TopCollector, type TopResult } from '../src/analyses/top/top.js';
import { analysisPass } from '../src/run/analyses.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { reportHtml } from '../src/report/html.js';
import { chainViewOf } from '../src/run/chain.js';
import { collectReport } from '../src/run/report.js';
import type { ChartView } from '../src/report/report-data.js';
import { openBrowser, type TestBrowser } from './browser.js';
import { ROOT, REFERENCE, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { chainFacts, crankFacts, type CrankFacts } from './slog-facts.js';
import { gaugesAtBlockEnds, KERNEL_FIGURES } from './growth-oracle.js';
import { loopCranks, slogEntries, type LoopCrank } from './time-split-loop.js';
import { STACKED_PARTS } from '../src/report/series.js';

/** The parts the stacked chart draws. */
const STACKED = STACKED_PARTS.map((p) => p.name);

const OUT = join(ROOT, 'test-output');

interface ChartInfo {
  id: string;
  points: number;
  lines: number;
  draws: number;
}

interface Opened {
  page: Page;
  /** Console errors and page errors. */
  problems: string[];
  /** Every request the page made, and those blocked. */
  requests: string[];
  blocked: string[];
}

let browser: TestBrowser;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  // The first run may unpack the npm package's Chromium, or install Debian's.
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

async function openReport(file: string): Promise<Opened> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  const blocked: string[] = [];
  const url = pathToFileURL(file).href;
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  // The network is closed: anything but the report itself is refused, and noted.
  await page.route('**/*', (route) => {
    const asked = route.request().url();
    if (asked === url) return route.continue();
    blocked.push(asked);
    return route.abort('blockedbyclient');
  });
  await page.goto(url);
  await page.waitForFunction(() => {
    const r = (window as unknown as { slogReport?: { ready: boolean; errors: string[] } }).slogReport;
    return r !== undefined && (r.ready || r.errors.length > 0);
  });
  return { page, problems, requests, blocked };
}

const reportState = (page: Page): Promise<{ ready: boolean; errors: string[]; charts: ChartInfo[] }> =>
  page.evaluate(() => {
    const r = (window as unknown as { slogReport: { ready: boolean; errors: string[]; charts: ChartInfo[] } }).slogReport;
    return { ready: r.ready, errors: r.errors, charts: r.charts };
  });

/** Pixels of strong color (not the axes' grays) in each chart's canvas: lines were drawn there. */
const coloredPixels = (page: Page): Promise<Record<string, number>> =>
  page.evaluate(() => {
    const out: Record<string, number> = {};
    for (const box of Array.from(document.querySelectorAll<HTMLElement>('.chart'))) {
      const canvas = box.querySelector('canvas') as HTMLCanvasElement;
      const px = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) {
        const r = px[i] as number;
        const g = px[i + 1] as number;
        const b = px[i + 2] as number;
        if ((px[i + 3] as number) > 200 && Math.max(r, g, b) - Math.min(r, g, b) > 80) n += 1;
      }
      out[box.dataset.chart as string] = n;
    }
    return out;
  });

/** Pixels of each chart's canvas near a line color (rgb). */
const colored = (page: Page, rgb: [number, number, number]): Promise<Record<string, number>> =>
  page.evaluate((c) => {
    const out: Record<string, number> = {};
    for (const box of Array.from(document.querySelectorAll<HTMLElement>('.chart'))) {
      const canvas = box.querySelector('canvas') as HTMLCanvasElement;
      const px = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) {
        if (Math.abs((px[i] as number) - c[0]) < 40 && Math.abs((px[i + 1] as number) - c[1]) < 40 && Math.abs((px[i + 2] as number) - c[2]) < 40) n += 1;
      }
      out[box.dataset.chart as string] = n;
    }
    return out;
  }, rgb);

/** The text render's section of crank `n` (--nonoise --novatstore --timing), from the reference text. */
function referenceCrank(slog: string, n: number): string {
  const text = readFileSync(join(REFERENCE, slog, 'nonoise-novatstore-timing.txt'), 'utf8');
  const block = text.split(/\n\n(?=\/\/ crank \d+:|\/\/ end of slog)/).find((b) => b.startsWith(`// crank ${n}:`));
  if (block === undefined) throw new Error(`no crank ${n} in the reference text of ${slog}`);
  return `${block.replace(/\n$/, '')}\n`;
}

/** What `top --json` computes, in-process. */
async function topOf(file: string, n: number): Promise<TopResult> {
  const collector = new TopCollector({ n });
  await analysisPass({ inputs: [file] }, TOP_READS, collector);
  return collector.result();
}

/** Each ranking's table as shown: rows of [crank, field values]. */
const topTables = (page: Page, role: string): Promise<Array<{ key: string; rows: Array<Record<string, string>> }>> =>
  page.evaluate((r) => {
    return Array.from(document.querySelectorAll<HTMLTableElement>(`#top-${r} table.top`)).map((t) => ({
      key: t.dataset.key as string,
      rows: Array.from(t.tBodies[0]?.rows ?? []).map((tr) => {
        const row: Record<string, string> = {};
        for (const td of Array.from(tr.querySelectorAll<HTMLElement>('td[data-field]'))) row[td.dataset.field as string] = td.textContent ?? '';
        return row;
      }),
    }));
  }, role);

const FIELDS = ['crankNum', 'vatID', 'vatName', 'totalMicros', 'localMicros', 'localPercent', 'syscallMicros', 'syscallPercent', 'syscallCount'] as const;

/** Whole µs as the page shows them, written apart from the page's script: `1.89 s`, `36.21 ms`, `902 µs`. */
function readableMicros(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(2)} ms`;
  return `${Math.round(us)} µs`;
}

function expectedTables(top: TopResult): Array<{ key: string; rows: Array<Record<string, string>> }> {
  return top.rankings.map((r) => ({
    key: r.key,
    rows: r.cranks.map((c) => {
      const row: Record<string, string> = {};
      // Times in a readable unit (the exact µs in the cell's title: topTitles).
      for (const f of FIELDS) row[f] = f.endsWith('Micros') ? readableMicros(c[f] as number) : String(c[f] ?? '');
      if (top.hasComputrons) row.computrons = c.computrons === undefined ? '' : String(c.computrons);
      return row;
    }),
  }));
}

/** Line counts of the slog, read plainly: cranks, and the vats whose usage reports give `allocate`. */
function slogFacts(file: string): { cranks: number; heapVats: number; snapshotVats: number } {
  let cranks = 0;
  const heap = new Set<string>();
  const snap = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (e.type === 'crank-start') cranks += 1;
    if (e.type === 'deliver-result' && typeof e.dr?.[2]?.allocate === 'number') heap.add(e.vatID);
    if (e.type === 'heap-snapshot-save') snap.add(e.vatID);
  }
  return { cranks, heapVats: heap.size, snapshotVats: snap.size };
}

describe('the report of one slog, in a browser', () => {
  const slog = 'a-xs-3';
  const file = join(OUT, 'report.html');
  let opened: Opened;

  beforeAll(async () => {
    const r = await runInProcess(['report', `${slog}.slog`, '--every', '10', '-o', file]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B\)\n$/);
    expect(r.status).toBe(0);
    opened = await openReport(file);
  }, 120_000);

  it('loads with no console error and no request but its own file', async () => {
    const { page, problems, requests, blocked } = opened;
    expect(problems).toEqual([]);
    expect((await reportState(page)).errors).toEqual([]);
    expect((await reportState(page)).ready).toBe(true);
    expect(blocked).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    // The block is real: a request from the page is refused and noted.
    const fetched = await page.evaluate(() => fetch('https://example.com/').then(() => 'fetched', () => 'refused'));
    expect(fetched).toBe('refused');
    expect(blocked).toEqual(['https://example.com/']);
    // Growth is not followed without --growth: its section is hidden.
    expect(await page.locator('#growth').isHidden()).toBe(true);
  });

  it('draws every chart with one point per 10 cranks', async () => {
    const { page } = opened;
    const facts = slogFacts(slogPath(slog));
    const charts = (await reportState(page)).charts;
    expect(charts.map((c) => c.id)).toEqual(['crankTime', 'crankParts', 'computrons', 'deliveries', 'syscalls', 'heap', 'heapCount', 'snapshot']);
    for (const c of charts) {
      expect(c.points, c.id).toBe(Math.ceil(facts.cranks / 10));
      expect(c.draws, c.id).toBeGreaterThan(0);
    }
    const lines = Object.fromEntries(charts.map((c) => [c.id, c.lines]));
    expect(lines).toEqual({ crankTime: 1, crankParts: STACKED.length, computrons: 1, deliveries: 1, syscalls: 1, heap: facts.heapVats, heapCount: facts.heapVats, snapshot: facts.snapshotVats });
    // Lines in color on every chart (the vats' heap lines may lie on each other: any color counts).
    const pixels = await coloredPixels(page);
    for (const c of charts) expect(pixels[c.id], c.id).toBeGreaterThan(100);
  });

  it('plots the slog\'s own figures: a hovered bucket\'s deliveries, syscalls, computrons and crank time, per crank', async () => {
    const { page } = opened;
    // Counted apart from the program: a plain loop over the slog's lines.
    const cranks = crankFacts(slogPath(slog));
    /** A number as the chart's legend shows it (`12`, `1.23M`, `4.5 ms`), and half its last digit. */
    const shown = (text: string): { value: number; within: number } => {
      const m = /^(-?\d+(?:\.(\d+))?)(k|M|G)?(?: ms)?$/.exec(text);
      if (!m) throw new Error(`not a value: ${JSON.stringify(text)}`);
      const scale = { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[3] ?? ''] as number;
      return { value: Number(m[1]) * scale, within: (0.5 * scale) / 10 ** (m[2]?.length ?? 0) + 1e-9 };
    };
    const figures: Record<string, (c: CrankFacts) => number> = {
      deliveries: (c) => c.deliveries,
      syscalls: (c) => c.syscalls,
      computrons: (c) => c.computrons ?? 0,
      crankTime: (c) => c.ms ?? 0,
    };
    const seen = new Set<string>();
    for (const fraction of [0.1, 0.45, 0.8]) {
      for (const [id, figure] of Object.entries(figures)) {
        // The cursor over a point of this chart: its legend says the bucket and the line's value there.
        const over = page.locator(`#chart-${id} .u-over`);
        await over.scrollIntoViewIfNeeded();
        const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
        await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
        const legend = page.locator(`#chart-${id} .u-legend .u-series`);
        const bucket = /^cranks (\d+)-(\d+)$/.exec((await legend.nth(0).locator('.u-value').textContent()) ?? '');
        expect(bucket, id).not.toBeNull();
        const [from, to] = [Number(bucket?.[1]), Number(bucket?.[2])];
        seen.add(`${from}-${to}`);
        // Per crank: the bucket's sum over its cranks (crank time over the finished ones).
        const inBucket = cranks.filter((c) => c.crankNum >= from && c.crankNum <= to && (id !== 'crankTime' || c.ms !== undefined));
        const expected = inBucket.reduce((n, c) => n + figure(c), 0) / inBucket.length;
        const { value, within } = shown((await legend.nth(1).locator('.u-value').textContent()) ?? '');
        expect(Math.abs(value - expected), `${id}, cranks ${from}-${to}: ${value} shown, ${expected} in the slog`).toBeLessThanOrEqual(within);
      }
    }
    // Three buckets, each a point of every chart.
    expect(seen.size).toBe(3);
    await page.mouse.move(0, 0);
  });

  it('stacks a hovered bucket\'s crank time by part, each part the slog\'s own (a plain loop splits its cranks)', async () => {
    const { page } = opened;
    const split = loopCranks(slogEntries(slogPath(slog)));
    // Each part as the chart's legend shows it: ms with 3 decimals under 10 ms, else 1.
    const shownMs = async (label: string): Promise<{ value: number; within: number }> => {
      const row = page.locator('#chart-crankParts .u-legend .u-series', { has: page.locator('.u-label', { hasText: new RegExp(`^${label}$`) }) });
      const text = (await row.locator('.u-value').textContent()) ?? '';
      const m = /^(\d+(?:\.(\d+))?) ms$/.exec(text);
      if (!m) throw new Error(`${label}: not a value: ${JSON.stringify(text)}`);
      return { value: Number(m[1]), within: 0.5 / 10 ** (m[2]?.length ?? 0) + 1e-9 };
    };
    const over = page.locator('#chart-crankParts .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    let snapshotSeen = 0;
    for (const fraction of [0.02, 0.3, 0.55, 0.9]) {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
      const bucket = /^cranks (\d+)-(\d+)$/.exec((await page.locator('#chart-crankParts .u-legend .u-series').nth(0).locator('.u-value').textContent()) ?? '');
      expect(bucket).not.toBeNull();
      const [from, to] = [Number(bucket?.[1]), Number(bucket?.[2])];
      const cranks = split.filter((c) => (c.crankNum as number) >= from && (c.crankNum as number) <= to);
      // Per crank: the bucket's sums over its cranks (every crank of a-xs-3 has its start and finish).
      const ms = (f: (c: LoopCrank) => number): number => cranks.reduce((n, c) => n + f(c), 0) / 1000 / cranks.length;
      for (const [label, want] of [
        ['page-in', ms((c) => c.pageIn)],
        ['syscall', ms((c) => c.syscall)],
        ['snapshot', ms((c) => c.snapshot)],
        ['kernel', ms((c) => c.kernel)],
      ] as const) {
        const { value, within } = await shownMs(label);
        expect(Math.abs(value - want), `${label}, cranks ${from}-${to}: ${value} shown, ${want} in the slog`).toBeLessThanOrEqual(within);
      }
      // Vat, pipe and unknown together: the deliveries' time less their syscalls.
      let together = 0;
      let slack = 0;
      for (const label of ['vat', 'pipe', 'unknown']) {
        const { value, within } = await shownMs(label);
        together += value;
        slack += within;
      }
      expect(Math.abs(together - ms((c) => c.vatAndPipe)), `vat+pipe+unknown, cranks ${from}-${to}`).toBeLessThanOrEqual(slack);
      snapshotSeen += ms((c) => c.snapshot);
    }
    // The buckets hovered hold snapshot time: the stack is not all one part.
    expect(snapshotSeen).toBeGreaterThan(0);
    // Every part in its own color (page-in orange, vat blue, syscall green, snapshot red...): the stack is drawn.
    for (const rgb of [[0x24, 0x57, 0xc5], [0xd1, 0x49, 0x5b]] as Array<[number, number, number]>) {
      expect((await colored(page, rgb)).crankParts, String(rgb)).toBeGreaterThan(100);
    }
    await page.mouse.move(0, 0);
  });

  it('shows the top cranks as top computes them, and a crank\'s text on a click', async () => {
    const { page } = opened;
    const top = await topOf(slogPath(slog), 5);
    expect(top.hasComputrons).toBe(true);
    expect(await topTables(page, 'slog')).toEqual(expectedTables(top));
    // Each time's exact µs, as top --json gives it, in its cell's title.
    const titles = await page.locator('#top-slog-total td[data-field="totalMicros"]').evaluateAll((tds) => tds.map((td) => td.getAttribute('title')));
    expect(titles).toEqual(top.rankings.find((r) => r.key === 'total')?.cranks.map((c) => `${c.totalMicros} µs`));
    expect(await page.locator('#top-slog .tabs button').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.key))).toEqual(top.rankings.map((r) => r.key));

    const first = top.rankings[0]?.cranks[0];
    await page.locator('#top-slog-total tbody tr').first().click();
    expect(await page.locator('#crank-text-slog').textContent()).toBe(referenceCrank(slog, first?.crankNum as number));
    // Another ranking: its tab, then its second crank.
    const byComputrons = top.rankings.find((r) => r.key === 'computrons');
    await page.locator('#top-slog .tabs button[data-key="computrons"]').click();
    expect(await page.locator('#top-slog-computrons').isVisible()).toBe(true);
    expect(await page.locator('#top-slog-total').isVisible()).toBe(false);
    await page.locator('#top-slog-computrons tbody tr').nth(1).click();
    expect(await page.locator('#crank-text-slog').textContent()).toBe(referenceCrank(slog, byComputrons?.cranks[1]?.crankNum as number));
  });

  it('sorts a stats table by a column, the totals row staying last', async () => {
    const { page } = opened;
    const table = page.locator('#slog-deliveriesByVat');
    const counts = (): Promise<number[]> => table.locator('tbody tr td:nth-child(3)').evaluateAll((tds) => tds.map((td) => Number(td.textContent)));
    await table.locator('th', { hasText: /^count$/ }).click();
    const down = await counts();
    expect(down).toEqual([...down].sort((a, b) => b - a));
    await table.locator('th', { hasText: /^count$/ }).click();
    const up = await counts();
    expect(up).toEqual([...down].reverse());
    expect(await table.locator('tfoot td').first().textContent()).toBe('all');
  });

  it('zooms every chart together, and shows a point\'s cranks on hover', async () => {
    const { page } = opened;
    const over = page.locator('#chart-crankTime .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    const before = (await page.evaluate(() => (window as unknown as { slogReport: { zoom(): number[][] } }).slogReport.zoom())) as number[][];
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const after = (await page.evaluate(() => (window as unknown as { slogReport: { zoom(): number[][] } }).slogReport.zoom())) as number[][];
    const [min, max] = after[0] as number[];
    expect((max as number) - (min as number)).toBeLessThan(((before[0]?.[1] as number) - (before[0]?.[0] as number)) / 2);
    for (const range of after) expect(range).toEqual(after[0]);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.locator('#chart-crankTime .u-legend .u-series').first().locator('.u-value').textContent()).toMatch(/^cranks \d+-\d+$/);
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.evaluate(() => (window as unknown as { slogReport: { zoom(): number[][] } }).slogReport.zoom())).toEqual(before);
  });

  it('saves a screenshot for a person to look at', async () => {
    const { page } = opened;
    await page.locator('#top-slog .tabs button[data-key="total"]').click();
    await page.locator('#top-slog-total tbody tr').first().click();
    const shot = join(OUT, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the report of two slogs (--compare), in a browser', () => {
  const file = join(OUT, 'report-compare.html');
  let opened: Opened;
  let status: number | null;

  beforeAll(async () => {
    const r = await runInProcess(['report', '--compare', 'a-local-3.slog', 'b-local-5.slog', '--every', '25', '--fail-on', 'syscalls:+0', '--fail-on', 'cranks:+50%', '-o', file]);
    status = r.status;
    opened = await openReport(file);
  }, 120_000);

  it('overlays both runs on every chart, with no console error', async () => {
    const { page, problems, blocked } = opened;
    expect(problems).toEqual([]);
    expect(blocked).toEqual([]);
    const charts = (await reportState(page)).charts;
    expect(charts.map((c) => c.id)).toEqual(['crankTime', 'crankParts-base', 'crankParts-head', 'deliveries', 'syscalls']);
    const points = Math.max(Math.ceil(slogFacts(slogPath('a-local-3')).cranks / 25), Math.ceil(slogFacts(slogPath('b-local-5')).cranks / 25));
    for (const c of charts) {
      // A stack of parts per run; the other charts a line per run.
      expect(c.lines, c.id).toBe(c.id.startsWith('crankParts') ? STACKED.length : 2);
      expect(c.points, c.id).toBe(points);
      expect(c.draws, c.id).toBeGreaterThan(0);
    }
    // The head's line is red (#d1495b), the base's gray (#6b7280).
    const red = await colored(page, [0xd1, 0x49, 0x5b]);
    const gray = await colored(page, [0x6b, 0x72, 0x80]);
    const blue = await colored(page, [0x24, 0x57, 0xc5]);
    for (const c of charts) {
      if (c.id.startsWith('crankParts')) {
        // Each run's stack: its vat part (blue) is most of a local worker's crank time.
        expect(blue[c.id], c.id).toBeGreaterThan(100);
        continue;
      }
      expect(red[c.id], c.id).toBeGreaterThan(30);
      expect(gray[c.id], c.id).toBeGreaterThan(30);
    }
  });

  it('shows the compare tables and thresholds, with compare\'s verdict and exit status', async () => {
    const { page } = opened;
    const args = ['a-local-3.slog', 'b-local-5.slog', '--fail-on', 'syscalls:+0', '--fail-on', 'cranks:+50%'];
    const text = await runInProcess(['compare', ...args]);
    const json = JSON.parse((await runInProcess(['compare', '--format', 'json', ...args])).stdout) as {
      exceeded: number;
      sections: Array<{ id: string; rows: Array<{ subtype?: string; base: number; head: number }> }>;
    };
    expect(status).toBe(text.status);
    expect(status).toBe(json.exceeded > 0 ? 1 : 0);
    expect(await page.locator('#verdict').textContent()).toBe(text.stdout.trimEnd().split('\n').pop());
    expect(await page.locator('#compare-thresholds tbody tr').count()).toBe(2);
    const syscalls = json.sections.find((s) => s.id === 'syscallsByType');
    const shown = await page.locator('#compare-syscallsByType tr').evaluateAll((trs) =>
      trs.slice(1).map((tr) => Array.from(tr.querySelectorAll('td')).slice(0, 3).map((td) => td.textContent)),
    );
    expect(shown).toEqual(syscalls?.rows.map((r) => [r.subtype ?? 'all', numberText(r.base), numberText(r.head)]));
  });

  it('shows each run\'s top cranks, each with its text', async () => {
    const { page } = opened;
    for (const [role, slog] of [
      ['base', 'a-local-3'],
      ['head', 'b-local-5'],
    ] as const) {
      const top = await topOf(slogPath(slog), 5);
      expect(await topTables(page, role)).toEqual(expectedTables(top));
      await page.locator(`#top-${role}-total tbody tr`).first().click();
      expect(await page.locator(`#crank-text-${role}`).textContent()).toBe(referenceCrank(slog, top.rankings[0]?.cranks[0]?.crankNum as number));
    }
    await page.screenshot({ path: join(OUT, 'report-compare.png'), fullPage: true });
  });
});

describe('a long run, downsampled, in a browser', () => {
  it('draws each line with its minimum-to-maximum band, at most maxPoints points', async () => {
    const maxPoints = 8;
    const every = 3;
    const outcome = await collectReport({ runs: [[slogPath('a-xs-3')]], every, roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [], maxPoints });
    const file = join(OUT, 'report-downsampled.html');
    writeFileSync(file, reportHtml(outcome.data));
    const { page, problems } = await openReport(file);
    expect(problems).toEqual([]);
    // Points a Downsampler of 8 makes of this many buckets: full at 8, halved to 4, each then twice as wide.
    let stride = 1;
    let done = 0;
    let pending = 0;
    for (let i = 0; i < Math.ceil(slogFacts(slogPath('a-xs-3')).cranks / every); i += 1) {
      pending += 1;
      if (pending < stride) continue;
      pending = 0;
      done += 1;
      if (done === maxPoints) {
        done = maxPoints / 2;
        stride *= 2;
      }
    }
    const points = done + (pending > 0 ? 1 : 0);
    const charts = (await reportState(page)).charts as Array<ChartInfo & { drawnSeries: number }>;
    expect(charts.length).toBe(8);
    for (const c of charts) {
      expect(c.points, c.id).toBe(points);
      // x, then each line with its minimum and maximum; the stack of parts draws each part's mean.
      expect(c.drawnSeries, c.id).toBe(c.id === 'crankParts' ? 1 + c.lines : 1 + 3 * c.lines);
    }
    const pixels = await coloredPixels(page);
    for (const c of charts) expect(pixels[c.id], c.id).toBeGreaterThan(100);
    expect(await page.locator('#charts-note').textContent()).toMatch(new RegExp(`^Each point covers ${stride} buckets of ${every} cranks \\(${stride * every} cranks\\): the line is their mean, the band their minimum to maximum\\.`));
    const over = page.locator('#chart-syscalls .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    expect(await page.locator('#chart-syscalls .u-legend .u-series').first().locator('.u-value').textContent()).toBe(`cranks 0-${stride * every - 1}`);
  });
});

describe('the report of a chain slog, in a browser: a point per block', () => {
  it('draws every chart, the kernel heap after commit too, with one point per block of the chain view', async () => {
    const slog = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
    // The blocks as `blocks --json` gives them (each execution), read apart from the report.
    const heights: number[] = [];
    let abandoned = 0;
    let blockOf808 = NaN;
    const snapshotByBlock = new Map<number, number>();
    await chainViewOf({
      inputs: [slog],
      onBlock: (row) => {
        if (row.abandoned) abandoned += 1;
        else if (row.height !== null) {
          heights.push(row.height);
          snapshotByBlock.set(row.height, row.parts.parts.snapshotMicros as number);
          if ((row.firstCrank ?? Infinity) <= 808 && 808 <= (row.lastCrank ?? -1)) blockOf808 = row.height;
        }
      },
    });
    expect(abandoned).toBe(1);
    const outcome = await collectReport({ runs: [[slog]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] });
    // The x axis's title (drawn on the canvas).
    expect(outcome.data.axis).toBe('block');
    const file = join(OUT, 'report-chain.html');
    writeFileSync(file, reportHtml(outcome.data));
    const { page, problems, blocked } = await openReport(file);
    expect(problems).toEqual([]);
    expect(blocked).toEqual([]);
    const charts = (await reportState(page)).charts;
    expect(charts.map((c) => c.id)).toEqual(['crankTime', 'crankParts', 'computrons', 'deliveries', 'syscalls', 'heap', 'heapCount', 'snapshot', 'kernelHeap']);
    expect(heights.length).toBe(new Set(heights).size);
    for (const c of charts) {
      expect(c.points, c.id).toBe(heights.length);
      expect(c.draws, c.id).toBeGreaterThan(0);
    }
    expect(charts.find((c) => c.id === 'kernelHeap')?.lines).toBe(1);
    expect(charts.find((c) => c.id === 'crankParts')?.lines).toBe(STACKED.length);
    // The stack's figures: each block's parts, as `blocks --json` sums them (the chain view, read apart from the report; each
    // height once: its execution after a restart, as the report counts), and the block holding crank 808 has its 1.8 s snapshot.
    const parts = outcome.data.charts.find((c) => c.id === 'crankParts');
    const snapshotAt = (height: number): number | null => parts?.series.find((l) => l.label === 'snapshot')?.mean[parts.x.indexOf(height)] ?? null;
    expect(snapshotAt(blockOf808)).toBeGreaterThanOrEqual(1800);
    for (const [height, micros] of snapshotByBlock) expect(snapshotAt(height), `block ${height}`).toBeCloseTo(micros / 1000, 3);
    // Each vat's snapshot size line ends at the vat's last heap-snapshot-save's uncompressedSize (a plain loop over the lines).
    const sizes = outcome.data.charts.find((c) => c.id === 'snapshot');
    const lastSize = new Map<string, number>();
    for (const e of slogEntries(slog)) if (e.type === 'heap-snapshot-save') lastSize.set(e.vatID, e.uncompressedSize);
    expect(sizes?.series.length).toBe(Math.min(8, lastSize.size));
    for (const line of sizes?.series ?? []) expect(line.mean[line.mean.length - 1], line.label).toBe(lastSize.get(line.vatID as string));
    const pixels = await coloredPixels(page);
    for (const c of charts) expect(pixels[c.id], c.id).toBeGreaterThan(100);
    expect(await page.locator('#charts-note').textContent()).toMatch(/^Each point is a block\. /);
    // Hover: the block under the cursor and its cranks.
    const over = page.locator('#chart-crankTime .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const label = await page.locator('#chart-crankTime .u-legend .u-series').first().locator('.u-value').textContent();
    expect(label).toMatch(/^block \d+(?: \([a-z ]+\))?: (?:no cranks|cranks? \d+(?:-\d+)?)$/);
    expect(outcome.data.charts[0]?.labels).toContain(label);
    const bootstrap = chainFacts(slog).blocks[0];
    expect(bootstrap?.bootstrap).toBe(true);
    expect(outcome.data.charts[0]?.labels[0]).toBe(`block ${heights[0]} (bootstrap): cranks ${bootstrap?.firstCrank}-${bootstrap?.lastCrank}`);
    await page.screenshot({ path: join(OUT, 'report-chain.png'), fullPage: true });
    // The charts alone: docs/report.md's picture (docs/img/report-chain.png) is this file.
    await page.mouse.move(0, 0);
    await page.locator('#charts').screenshot({ path: join(OUT, 'report-chain-charts.png') });
  });
});

/** Cranks per bucket by default, as docs/report.md says: the largest of these that makes 50 buckets of `cranks`, else 1. */
const defaultEvery = (cranks: number): number => [250, 125, 50, 25, 10, 5, 2, 1].find((n) => Math.ceil(cranks / n) >= 50) ?? 1;

/** A value as the chart's legend shows it (`0.67`, `1.23M`, `4.5 ms`), and half its last digit. */
function shownValue(text: string): { value: number; within: number } {
  const m = /^(-?\d+(?:\.(\d+))?)(k|M|G)?(?: ms)?$/.exec(text);
  if (!m) throw new Error(`not a value: ${JSON.stringify(text)}`);
  const scale = { '': 1, k: 1e3, M: 1e6, G: 1e9 }[m[3] ?? ''] as number;
  return { value: Number(m[1]) * scale, within: (0.5 * scale) / 10 ** (m[2]?.length ?? 0) + 1e-9 };
}

describe('the default buckets of short slogs, in a browser: enough points, and the last bucket per crank', () => {
  it('a-local-3 alone: about 50 points or more, the last, partial bucket as high as its cranks make it (per crank), said under each chart', async () => {
    const slog = 'a-local-3';
    const file = join(OUT, 'report-short.html');
    const r = await runInProcess(['report', `${slog}.slog`, '-o', file]);
    expect(r.status).toBe(0);
    const { page, problems } = await openReport(file);
    expect(problems).toEqual([]);
    // Counted apart from the program: a plain loop over the slog's lines.
    const cranks = crankFacts(slogPath(slog));
    const every = defaultEvery(cranks.length);
    expect(every).toBe(5);
    const points = Math.ceil(cranks.length / every);
    expect(points).toBeGreaterThanOrEqual(50);
    const rest = cranks.length % every;
    expect(rest).toBeGreaterThan(0);
    const charts = (await reportState(page)).charts as Array<ChartInfo & { note?: string; title: string }>;
    for (const c of charts) {
      expect(c.points, c.id).toBe(points);
      expect(c.title, c.id).toMatch(/per crank/);
      expect(c.note, c.id).toContain(`last bucket, ${rest} cranks of ${every}`);
      // The note is on the page, under its chart.
      expect(await page.locator(`#chart-${c.id} .chart-note`).textContent(), c.id).toBe(c.note);
    }
    expect(await page.locator('#charts-note').textContent()).toMatch(new RegExp(`^Each point is a bucket of ${every} cranks\\.`));
    // The last point, hovered: the last bucket's cranks, and per crank what the slog's lines give.
    const last = cranks.slice(-rest);
    for (const [id, figure] of [
      ['deliveries', (c: CrankFacts) => c.deliveries],
      ['syscalls', (c: CrankFacts) => c.syscalls],
    ] as const) {
      const over = page.locator(`#chart-${id} .u-over`);
      await over.scrollIntoViewIfNeeded();
      const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
      await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
      const legend = page.locator(`#chart-${id} .u-legend .u-series`);
      expect(await legend.nth(0).locator('.u-value').textContent(), id).toBe(`cranks ${last[0]?.crankNum}-${last.at(-1)?.crankNum}`);
      const want = last.reduce((n, c) => n + figure(c), 0) / rest;
      const { value, within } = shownValue((await legend.nth(1).locator('.u-value').textContent()) ?? '');
      expect(Math.abs(value - want), `${id}: ${value} shown, ${want} per crank in the slog`).toBeLessThanOrEqual(within);
    }
    await page.screenshot({ path: join(OUT, 'report-short.png'), fullPage: true });
  });

  it('two runs of about 300 cranks (--compare): each chart has 50 points or more, both runs on it', async () => {
    const file = join(OUT, 'report-compare-short.html');
    const r = await runInProcess(['report', '--compare', 'a-local-3.slog', 'b-local-5.slog', '-o', file]);
    expect(r.status).toBe(0);
    const { page, problems } = await openReport(file);
    expect(problems).toEqual([]);
    const [a, b] = [crankFacts(slogPath('a-local-3')).length, crankFacts(slogPath('b-local-5')).length];
    // The two share the larger of the N each would have alone.
    const every = Math.max(defaultEvery(a), defaultEvery(b));
    const charts = (await reportState(page)).charts;
    expect(charts.map((c) => c.id)).toEqual(['crankTime', 'crankParts-base', 'crankParts-head', 'deliveries', 'syscalls']);
    for (const c of charts) {
      expect(c.points, c.id).toBe(Math.ceil(Math.max(a, b) / every));
      expect(c.points, c.id).toBeGreaterThanOrEqual(50);
      expect(c.lines, c.id).toBe(c.id.startsWith('crankParts') ? STACKED.length : 2);
    }
    const pixels = await coloredPixels(page);
    for (const c of charts) expect(pixels[c.id], c.id).toBeGreaterThan(100);
  });
});

describe('chain-A\'s report, in a browser: the bootstrap block out of the computrons chart, readable times, only real totals rows pinned', () => {
  const slog = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
  let opened: Opened;
  let data: Awaited<ReturnType<typeof collectReport>>['data'];

  beforeAll(async () => {
    data = (await collectReport({ runs: [[slog]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [] })).data;
    const file = join(OUT, 'report-chain-A.html');
    writeFileSync(file, reportHtml(data));
    opened = await openReport(file);
  }, 120_000);

  it('leaves the bootstrap block\'s computrons out of the computrons chart, saying so, so the busy blocks fill it', async () => {
    const { page, problems } = opened;
    expect(problems).toEqual([]);
    // The blocks and their computrons by a plain loop over the lines.
    const blocks = chainFacts(slog).blocks.filter((b) => !b.abandoned);
    const boot = blocks[0];
    expect(boot?.bootstrap).toBe(true);
    const busiest = Math.max(...blocks.slice(1).map((b) => b.computrons));
    expect(boot?.computrons).toBeGreaterThan(100 * busiest);
    const chart = data.charts.find((c) => c.id === 'computrons') as ChartView;
    expect(chart.x[0]).toBe(boot?.height);
    expect(chart.series[0]?.mean[0]).toBeNull();
    expect(Math.max(...(chart.series[0]?.mean.filter((v): v is number => v !== null) ?? []))).toBe(busiest);
    const note = `block ${boot?.height} (bootstrap): cranks ${boot?.firstCrank}-${boot?.lastCrank} is left out: its ${boot?.computrons.toLocaleString('en-US')} computrons`;
    expect(chart.note).toContain(note);
    expect(await page.locator('#chart-computrons .chart-note').textContent()).toContain(note);
    // Drawn: the y axis tops out near the busiest block, not the bootstrap block.
    const info = ((await reportState(page)).charts as Array<ChartInfo & { yMax: number }>).find((c) => c.id === 'computrons');
    expect(info?.yMax).toBeGreaterThanOrEqual(busiest);
    expect(info?.yMax).toBeLessThan(2 * busiest);
    // The other charts keep the bootstrap block.
    expect(data.charts.find((c) => c.id === 'deliveries')?.series[0]?.mean[0]).toBe(boot?.deliveries);
  });

  it('pins only an `all` row when sorting, and sorts readable times by their value', async () => {
    const { page } = opened;
    // Every table: a footer only when its last row is stats' `all` totals row.
    const tables = data.sides[0]?.tables ?? [];
    expect(tables.length).toBeGreaterThan(5);
    for (const t of tables) expect(t.footer, t.title).toBe(t.rows.at(-1)?.[0] === 'all' ? 1 : 0);
    const shown = await page.locator('#tables-slog table').evaluateAll((ts) =>
      ts.map((t) => ({ foot: Array.from((t as HTMLTableElement).tFoot?.rows ?? []).map((r) => r.cells[0]?.textContent), body: Array.from((t as HTMLTableElement).tBodies[0]?.rows ?? []).map((r) => r.cells[0]?.textContent) })),
    );
    for (const t of shown) {
      expect(t.foot.every((c) => c === 'all')).toBe(true);
      expect(t.body).not.toContain('all');
    }
    // Page-ins and replays: the replays counted by a plain loop (start-replay lines; replayed deliver lines).
    let replays = 0;
    let replayed = 0;
    for (const e of slogEntries(slog)) {
      if (e.type === 'start-replay') replays += 1;
      if (e.type === 'deliver' && e.replay === true) replayed += 1;
    }
    const table = page.locator('#tables-slog .table', { has: page.locator('h4', { hasText: /^Page-ins and replays by vat$/ }) }).locator('table');
    const header = await table.locator('thead th').allTextContents();
    const foot = await table.locator('tfoot td').allTextContents();
    expect(foot[0]).toBe('all');
    expect(foot[header.indexOf('replays')]).toBe(String(replays));
    expect(foot[header.indexOf('replayed deliveries')]).toBe(String(replayed));
    // Sorted by replay time (`10.89 s`, `463.73 ms`, `76 µs`), largest first: by value, whatever the unit; `all` stays last.
    const col = header.indexOf('replay time');
    await table.locator('thead th').nth(col).click();
    const micros = (text: string): number => {
      const m = /^(\d+(?:\.\d+)?) (s|ms|µs)$/.exec(text);
      if (!m) throw new Error(`not a time: ${JSON.stringify(text)}`);
      return Number(m[1]) * { s: 1e6, ms: 1e3, 'µs': 1 }[m[2] as 's' | 'ms' | 'µs'];
    };
    const times = (await table.locator(`tbody tr td:nth-child(${col + 1})`).allTextContents()).map(micros);
    expect(new Set(await table.locator(`tbody tr td:nth-child(${col + 1})`).allTextContents().then((ts) => ts.map((t) => t.split(' ')[1]))).size).toBeGreaterThan(1);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(await table.locator('tfoot td').first().textContent()).toBe('all');
    // The summary's times are readable too (the JSON and the export keep µs).
    const summary = new Map(data.sides[0]?.summary);
    expect(summary.get('delivery crank time')).toMatch(/^\d+\.\d\d s$/);
    await page.screenshot({ path: join(OUT, 'report-chain-A.png'), fullPage: true });
  });
});

describe('what grows (report --growth), in a browser: chain-A, a point per block on the growth chart\'s own axis', () => {
  const slog = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
  const file = join(OUT, 'report-growth.html');
  let opened: Opened;
  let data: Awaited<ReturnType<typeof collectReport>>['data'];

  beforeAll(async () => {
    data = (await collectReport({ runs: [[slog]], roundMarks: false, topN: 5, annotations: emptyAnnotations(), thresholds: [], growth: true })).data;
    writeFileSync(file, reportHtml(data));
    opened = await openReport(file);
  }, 120_000);

  it('draws the section with no console error: the chart, what grew, growth\'s tables', async () => {
    const { page, problems, blocked } = opened;
    expect(problems).toEqual([]);
    expect(blocked).toEqual([]);
    expect(await page.locator('#growth').isVisible()).toBe(true);
    const charts = (await reportState(page)).charts as Array<ChartInfo & { axis?: string }>;
    const growth = charts.find((c) => c.id === 'growth');
    const blocks = chainFacts(slog).blocks.filter((b) => !b.abandoned);
    expect(growth).toMatchObject({ points: blocks.length, lines: KERNEL_FIGURES.length, axis: 'block' });
    expect(growth?.draws).toBeGreaterThan(0);
    expect((await coloredPixels(page)).growth).toBeGreaterThan(100);
    // Under the growth section, not among the run's charts.
    expect(await page.locator('#growth-charts #chart-growth').count()).toBe(1);
    expect(await page.locator('#growing-slog li').allTextContents()).toEqual(data.sides[0]?.growth?.growing);
    const kernel = page.locator('#slog-growth-kernelStats');
    expect(await kernel.locator('tbody tr td:first-child').allTextContents()).toEqual(data.sides[0]?.growth?.tables.find((t) => t.id === 'slog-growth-kernelStats')?.rows.map((r) => r[0]));
    await page.locator('#growth').screenshot({ path: join(OUT, 'report-growth.png') });
  });

  it('a hovered point is its block, each figure the kernel-stats gauge at that block\'s end (a plain loop over the lines)', async () => {
    const { page } = opened;
    const plain = gaugesAtBlockEnds(slog);
    const heights = chainFacts(slog).blocks.filter((b) => !b.abandoned).map((b) => b.height);
    const over = page.locator('#chart-growth .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    const seen = new Set<number>();
    for (const fraction of [0.05, 0.5, 0.95]) {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
      const legend = page.locator('#chart-growth .u-legend .u-series');
      const height = Number(/^block (\d+)$/.exec((await legend.nth(0).locator('.u-value').textContent()) ?? '')?.[1]);
      const at = heights.indexOf(height);
      expect(at, `block ${height}`).toBeGreaterThanOrEqual(0);
      seen.add(height);
      for (const [k, figure] of KERNEL_FIGURES.entries()) {
        expect(await legend.nth(k + 1).locator('.u-label').textContent()).toBe(figure);
        expect(Number(await legend.nth(k + 1).locator('.u-value').textContent()), `${figure} at block ${height}`).toBe(plain[figure]?.[at]);
      }
    }
    expect(seen.size).toBe(3);
    await page.mouse.move(0, 0);
  });

  it('zooming the run\'s charts leaves the growth chart alone (its own axis)', async () => {
    const { page } = opened;
    const zoomOf = (): Promise<number[][]> => page.evaluate(() => (window as unknown as { slogReport: { zoom(): number[][] } }).slogReport.zoom());
    const before = await zoomOf();
    // One range per chart of the run's axis: the growth chart is not one of them.
    expect(before).toHaveLength((await reportState(page)).charts.length - 1);
    const growthX = async (): Promise<number[] | undefined> => ((await reportState(page)).charts as Array<ChartInfo & { xRange?: number[] }>).find((c) => c.id === 'growth')?.xRange;
    const range = await growthX();
    expect(range?.every(Number.isFinite)).toBe(true);
    const over = page.locator('#chart-crankTime .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const after = await zoomOf();
    expect(after[0]).not.toEqual(before[0]);
    expect(await growthX()).toEqual(range);
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  });
});
