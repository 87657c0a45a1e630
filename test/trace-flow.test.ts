/**
 * `slogulate trace`'s flow arrows and counter tracks (docs/trace.md): an
 * arrow from each send or resolve syscall to the delivery it queued, the
 * deliveries counted and their causes found by a plain loop over the slog's
 * JSON lines (why-loop.ts); each arrow starts inside its sending syscall's
 * slice, on the sending crank's track, and ends inside the delivering
 * crank's slice; the counters hold the slog's own figures (each vat's
 * `currentHeapCount`, the kernel-stats gauges). The file is also parsed in
 * the project's headless Chromium.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBrowser } from './browser.js';
import { ROOT, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';
import { loopCauses, loopEntries } from './why-loop.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-trace-flow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const SLOGS: Record<string, string> = { 'a-local-3': slogPath('a-local-3'), 'chain-A': CHAIN_A };

interface Ev {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: number;
  bp?: string;
  args?: Record<string, unknown>;
}

/** Half a nanosecond, in µs. */
const EPS = 0.0005;

async function traceOf(name: string): Promise<{ text: string; events: Ev[] }> {
  const file = join(dir, `${name}.json`);
  const r = await runInProcess(['trace', SLOGS[name] as string, '-o', file]);
  expect(r.status, r.stderr).toBe(0);
  const text = readFileSync(file, 'utf8');
  return { text, events: (JSON.parse(text) as { traceEvents: Ev[] }).traceEvents };
}

const within = (ts: number, slice: Ev): boolean => ts >= slice.ts - EPS && ts <= slice.ts + (slice.dur ?? 0) + EPS;

describe.each(Object.keys(SLOGS))('trace flow arrows of %s', (name) => {
  it('one arrow per delivery a send or resolve queued, from its syscall slice to its delivery slice', async () => {
    const { events } = await traceOf(name);
    const starts = events.filter((e) => e.ph === 's');
    const ends = events.filter((e) => e.ph === 'f');
    expect(starts.length).toBe(ends.length);
    const startById = new Map<number, Ev>();
    const endById = new Map<number, Ev>();
    for (const e of starts) {
      expect(startById.has(e.id as number)).toBe(false);
      startById.set(e.id as number, e);
    }
    for (const e of ends) {
      expect(endById.has(e.id as number)).toBe(false);
      expect(startById.has(e.id as number)).toBe(true);
      endById.set(e.id as number, e);
    }

    // The loop's causes: deliveries a send or resolve syscall queued.
    const loop = loopCauses(SLOGS[name] as string).causes.filter((c) => c.kind === 'send' || c.kind === 'resolve');
    expect(loop.length).toBeGreaterThan(0);
    expect(starts.length).toBe(loop.length);

    // Crank slices by number, and each crank's syscall slices in order.
    const crankSlice = new Map<number, Ev>();
    const syscallSlices = new Map<number, Ev[]>();
    for (const e of events) {
      if (e.ph !== 'X') continue;
      const n = e.args?.crank as number;
      if (e.cat === 'crank') crankSlice.set(n, e);
      if (e.cat === 'syscall') {
        const list = syscallSlices.get(n) ?? [];
        list.push(e);
        syscallSlices.set(n, list);
      }
    }
    // Each delivery crank's slice on a track, to find which crank an arrow ends in.
    const byTrack = new Map<number, Ev[]>();
    for (const e of crankSlice.values()) {
      const list = byTrack.get(e.tid) ?? [];
      list.push(e);
      byTrack.set(e.tid, list);
    }
    const loopByCrank = new Map(loop.map((c) => [c.crank, c]));
    const seen = new Set<number>();
    for (const [id, end] of endById) {
      const start = startById.get(id) as Ev;
      expect(end.name).toBe(start.name);
      expect(end.cat).toBe(start.cat);
      // The delivery: the crank slice on the arrow's end track that starts at its ts.
      const delivered = (byTrack.get(end.tid) ?? []).filter((s) => Math.abs(s.ts - end.ts) <= EPS);
      expect(delivered.length).toBe(1);
      const crank = (delivered[0] as Ev).args?.crank as number;
      const cause = loopByCrank.get(crank);
      expect(cause, `crank ${crank}`).toBeDefined();
      if (!cause) continue;
      expect(seen.has(crank)).toBe(false);
      seen.add(crank);
      expect(start.name).toBe(cause.kind);
      // The start: inside the sending crank's slice, on its track, at its send or resolve syscall's slice.
      const sender = crankSlice.get(cause.causeCrank) as Ev;
      expect(sender, `sender of ${crank}`).toBeDefined();
      expect(start.tid).toBe(sender.tid);
      expect(within(start.ts, sender)).toBe(true);
      const syscall = (syscallSlices.get(cause.causeCrank) ?? []).filter((s) => s.args?.syscall === cause.kind && within(start.ts, s));
      expect(syscall.length, `crank ${cause.causeCrank}'s ${cause.kind} at ${start.ts}`).toBeGreaterThan(0);
      expect(within(end.ts, delivered[0] as Ev)).toBe(true);
    }
    expect(seen.size).toBe(loop.length);
  });

  it('counters: each vat heap and the kernel-stats gauges hold the slog values', async () => {
    const { events } = await traceOf(name);
    const counters = events.filter((e) => e.ph === 'C');
    for (const e of counters) for (const v of Object.values(e.args ?? {})) expect(typeof v).toBe('number');
    const entries = loopEntries(SLOGS[name] as string);
    // The heap: every live delivery's currentHeapCount, per vat, in order.
    const heap = new Map<string, number[]>();
    for (const e of entries) {
      const count = e.type === 'deliver-result' && e.replay !== true && Array.isArray(e.dr) ? e.dr[2]?.currentHeapCount : undefined;
      if (typeof count !== 'number') continue;
      heap.set(e.vatID, [...(heap.get(e.vatID) ?? []), count]);
    }
    const drawnHeap = new Map<string, number[]>();
    for (const e of counters) {
      const m = /^XS heap (v\d+) /.exec(e.name);
      if (!m) continue;
      drawnHeap.set(m[1] as string, [...(drawnHeap.get(m[1] as string) ?? []), e.args?.currentHeapCount as number]);
    }
    expect(drawnHeap).toEqual(heap);
    // The gauges: each kernel-stats entry's clistEntries and runQueueLength.
    const stats = entries.filter((e) => e.type === 'kernel-stats');
    for (const gauge of ['clistEntries', 'runQueueLength', 'kernelObjects', 'kpUnresolved']) {
      const drawn = counters.filter((e) => e.name === gauge).map((e) => e.args?.value);
      expect(drawn).toEqual(stats.map((s) => s.stats[gauge]));
    }
    // Counters that are totals, not gauges, have no track.
    expect(counters.some((e) => e.name === 'syscalls' || e.name.endsWith('Max'))).toBe(false);
    if (name === 'chain-A') {
      expect(stats.length).toBeGreaterThan(0);
      expect(heap.size).toBeGreaterThan(0);
      const last = counters.filter((e) => e.name === 'clistEntries').at(-1);
      expect(last?.args?.value).toBe(stats.at(-1)?.stats.clistEntries);
    }
  });
});

describe('trace flow arrows of a selection', () => {
  it('--cranks: an arrow only where both its cranks are drawn', async () => {
    const file = join(dir, 'selected.json');
    const r = await runInProcess(['trace', '--cranks', '30-120', SLOGS['a-local-3'] as string, '-o', file]);
    expect(r.status, r.stderr).toBe(0);
    const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
    const inRange = (n: number): boolean => n >= 30 && n <= 120;
    const loop = loopCauses(SLOGS['a-local-3'] as string).causes.filter(
      (c) => (c.kind === 'send' || c.kind === 'resolve') && inRange(c.crank) && inRange(c.causeCrank),
    );
    expect(loop.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.ph === 's').length).toBe(loop.length);
    expect(events.filter((e) => e.ph === 'f').length).toBe(loop.length);
  });
});

describe('trace flow arrows in Chromium', () => {
  it("the chain-A trace parses in the project's headless Chromium, with no errors", async () => {
    const { text, events } = await traceOf('chain-A');
    const browser = await openBrowser();
    try {
      const page = await browser.context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      await page.setContent('<!doctype html><title>trace</title>');
      const seen = await page.evaluate((json: string) => {
        const events = (JSON.parse(json) as { traceEvents: { ph: string; id?: number }[] }).traceEvents;
        const starts = new Set(events.filter((e) => e.ph === 's').map((e) => e.id));
        const ends = events.filter((e) => e.ph === 'f');
        return { count: events.length, flows: starts.size, matched: ends.filter((e) => starts.has(e.id)).length };
      }, text);
      expect(problems).toEqual([]);
      expect(seen.count).toBe(events.length);
      expect(seen.flows).toBe(events.filter((e) => e.ph === 's').length);
      expect(seen.matched).toBe(seen.flows);
      await page.close();
    } finally {
      await browser.close();
    }
  }, 600_000);
});
