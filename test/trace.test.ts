/**
 * `slogulate trace`: the Chrome Trace Event file of every shared slog obeys
 * the format's rules (JSON Object Format; required fields per phase;
 * microsecond timestamps; every syscall slice inside its crank's slice; one
 * pid/tid per vat, each with a name metadata event), and says what the slog
 * says: crank and syscall counts, durations and computrons are checked
 * against a plain loop over the slog's JSON lines, slice names against the
 * reference --nonoise text.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, readSlog, referenceText, ROOT, runCli, SLOG_NAMES, slogPath, expectSameText } from './helpers.js';
import { runInProcess } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-trace-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

/** Half a nanosecond, in µs: timestamps are written with nanosecond decimals. */
const EPS = 0.0005;

/** What the slog says about each crank, from its JSON lines alone. */
interface SlogCrank {
  crankNum: number;
  crankType: string;
  start: number;
  finish?: number;
  vatID?: string;
  syscalls: number;
  computrons?: number;
}

function slogFacts(text: string): { firstTime: number; cranks: SlogCrank[] } {
  let firstTime: number | undefined;
  const cranks: SlogCrank[] = [];
  let current: SlogCrank | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (firstTime === undefined && typeof e.time === 'number') firstTime = e.time;
    if (e.type === 'crank-start') {
      // SLOG-FORMAT.md: the crank's vat is crank-start.vatID, else crank-start.message.vatID.
      current = { crankNum: e.crankNum, crankType: e.crankType, start: e.time, syscalls: 0, vatID: e.vatID ?? e.message?.vatID };
      cranks.push(current);
    } else if (current && e.type === 'crank-finish') {
      current.finish = e.time;
      current = undefined;
    } else if (current && e.type === 'syscall') {
      current.syscalls += 1;
    } else if (current && e.type === 'deliver') {
      current.vatID ??= e.vatID;
    } else if (current && e.type === 'deliver-result') {
      const compute = e.dr?.[2]?.compute;
      if (typeof compute === 'number') current.computrons = compute;
    }
  }
  return { firstTime: firstTime as number, cranks };
}

/** The format's rules, whatever the slog. */
function checkFormat(trace: { traceEvents: TraceEvent[]; displayTimeUnit?: string }): void {
  expect(Array.isArray(trace.traceEvents)).toBe(true);
  expect(['ms', 'ns', undefined]).toContain(trace.displayTimeUnit);
  const threadNames = new Map<string, string>();
  const processNames = new Set<number>();
  for (const e of trace.traceEvents) {
    expect(typeof e.name).toBe('string');
    expect(Number.isInteger(e.pid)).toBe(true);
    expect(Number.isInteger(e.tid)).toBe(true);
    expect(['X', 'M', 's', 'f', 'C']).toContain(e.ph);
    if (e.ph === 's' || e.ph === 'f') {
      // A flow event: an id, a category and a time; the end binds to its enclosing slice.
      expect(Number.isInteger((e as { id?: unknown }).id)).toBe(true);
      expect(e.cat).toBe('flow');
      expect(Number.isFinite(e.ts)).toBe(true);
      if (e.ph === 'f') expect((e as { bp?: unknown }).bp).toBe('e');
    } else if (e.ph === 'C') {
      // A counter: numeric args at a time.
      expect(Number.isFinite(e.ts)).toBe(true);
      for (const v of Object.values(e.args ?? {})) expect(Number.isFinite(v)).toBe(true);
    } else if (e.ph === 'X') {
      expect(typeof e.cat).toBe('string');
      expect(Number.isFinite(e.ts)).toBe(true);
      expect(Number.isFinite(e.dur)).toBe(true);
      expect(e.ts).toBeGreaterThanOrEqual(0);
      expect(e.dur).toBeGreaterThanOrEqual(0);
    } else {
      expect(['process_name', 'thread_name', 'thread_sort_index']).toContain(e.name);
      if (e.name === 'process_name') processNames.add(e.pid);
      if (e.name === 'thread_name') {
        expect(typeof e.args?.name).toBe('string');
        threadNames.set(`${e.pid}/${e.tid}`, e.args?.name as string);
      }
    }
  }
  for (const e of trace.traceEvents) {
    if (e.ph === 'M') continue;
    expect(processNames.has(e.pid)).toBe(true);
    if (e.ph === 'C') continue;
    expect(threadNames.has(`${e.pid}/${e.tid}`)).toBe(true);
  }
}

function cranksOf(trace: { traceEvents: TraceEvent[] }): Map<number, TraceEvent> {
  const byNum = new Map<number, TraceEvent>();
  for (const e of trace.traceEvents) {
    if (e.ph === 'X' && (e.cat === 'crank' || e.cat === 'routing')) {
      const n = e.args?.crank as number;
      expect(byNum.has(n)).toBe(false);
      byNum.set(n, e);
    }
  }
  return byNum;
}

/** The first line under each delivery crank's header in the --nonoise reference. */
function firstLines(slog: string): Map<number, string> {
  const lines = referenceText(slog, 'nonoise').split('\n');
  const first = new Map<number, string>();
  lines.forEach((line, i) => {
    const m = /^\/\/ crank (\d+): /.exec(line);
    const next = lines[i + 1];
    if (m && next) first.set(Number(m[1]), next);
  });
  return first;
}

describe.each(SLOG_NAMES)('trace of %s', (slog) => {
  const file = join(dir, `${slog}.json`);
  let trace: { traceEvents: TraceEvent[]; displayTimeUnit?: string };
  const facts = slogFacts(readSlog(slog).toString('utf8'));

  it('is written with -o, and follows the format', async () => {
    const r = await runInProcess(['trace', `${slog}.slog`, '-o', file]);
    expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B(, [^)]*)?\)\n$/);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    trace = JSON.parse(readFileSync(file, 'utf8'));
    checkFormat(trace);
  });

  it('has a slice per crank, at the slog’s times, in microseconds', () => {
    const slices = cranksOf(trace);
    expect(slices.size).toBe(facts.cranks.length);
    for (const c of facts.cranks) {
      const s = slices.get(c.crankNum) as TraceEvent;
      expect(s).toBeDefined();
      expect(s.cat).toBe(c.crankType === 'routing' ? 'routing' : 'crank');
      expect(Math.abs((s.ts as number) - (c.start - facts.firstTime) * 1e6)).toBeLessThan(0.01);
      if (c.finish !== undefined) expect(Math.abs((s.dur as number) - (c.finish - c.start) * 1e6)).toBeLessThan(0.01);
      if (c.crankType !== 'routing') {
        expect(s.args?.syscalls).toBe(c.syscalls);
        expect(s.args?.computrons).toBe(c.computrons);
      }
    }
    if (slog === 'a-xs-3') expect(facts.cranks.some((c) => c.computrons !== undefined)).toBe(true);
  });

  it('has one track per vat, and routing on the kernel track', () => {
    const threadNames = new Map(trace.traceEvents.filter((e) => e.name === 'thread_name').map((e) => [e.tid, e.args?.name as string]));
    const slices = cranksOf(trace);
    const tidOfVat = new Map<string, number>();
    const vatOfTid = new Map<number, string>();
    for (const c of facts.cranks) {
      const s = slices.get(c.crankNum) as TraceEvent;
      if (c.crankType === 'routing' || c.vatID === undefined) {
        expect(s.tid).toBe(0);
        continue;
      }
      expect(s.args?.vat).toBe(c.vatID);
      expect(s.tid).not.toBe(0);
      if (!tidOfVat.has(c.vatID)) tidOfVat.set(c.vatID, s.tid);
      if (!vatOfTid.has(s.tid)) vatOfTid.set(s.tid, c.vatID);
      expect(tidOfVat.get(c.vatID)).toBe(s.tid);
      expect(vatOfTid.get(s.tid)).toBe(c.vatID);
      expect(threadNames.get(s.tid)?.startsWith(`${c.vatID} `)).toBe(true);
    }
    expect(tidOfVat.size).toBeGreaterThan(4);
    expect(threadNames.get(0)).toBe('kernel');
  });

  it('names each delivery crank by its first line of text', () => {
    const first = firstLines(slog);
    const slices = cranksOf(trace);
    let checked = 0;
    for (const c of facts.cranks) {
      const line = first.get(c.crankNum);
      if (c.crankType === 'routing' || line === undefined || line === '') continue;
      expect(slices.get(c.crankNum)?.name).toBe(line);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(50);
    // Routing cranks say what they route.
    for (const c of facts.cranks.filter((c) => c.crankType === 'routing')) expect(slices.get(c.crankNum)?.name).toMatch(/^routing \S/);
  });

  it('nests every syscall slice inside its crank’s slice', () => {
    const slices = cranksOf(trace);
    const syscalls = trace.traceEvents.filter((e) => e.cat === 'syscall');
    const perCrank = new Map<number, number>();
    for (const s of syscalls) {
      const n = s.args?.crank as number;
      perCrank.set(n, (perCrank.get(n) ?? 0) + 1);
      const crank = slices.get(n) as TraceEvent;
      expect(crank.tid).toBe(s.tid);
      expect(s.ts as number).toBeGreaterThanOrEqual((crank.ts as number) - EPS);
      expect((s.ts as number) + (s.dur as number)).toBeLessThanOrEqual((crank.ts as number) + (crank.dur as number) + EPS);
      expect(typeof s.args?.syscall).toBe('string');
    }
    for (const c of facts.cranks) expect(perCrank.get(c.crankNum) ?? 0).toBe(c.syscalls);
    expect(syscalls.length).toBe(facts.cranks.reduce((sum, c) => sum + c.syscalls, 0));
  });
});

describe('trace options', () => {
  it('--cranks and --vat select cranks (by vat name too)', async () => {
    const facts = slogFacts(readSlog('a-local-3').toString('utf8'));
    const r = await runInProcess(['trace', '--cranks', '30-200', '--vat', 'bob', '--vat', 'v6', 'a-local-3.slog']);
    expect(r.status).toBe(0);
    const trace = JSON.parse(r.stdout) as { traceEvents: TraceEvent[] };
    checkFormat(trace);
    // bob is v7 (its create-vat line says so).
    const expected = facts.cranks
      .filter((c) => c.crankNum >= 30 && c.crankNum <= 200 && c.crankType !== 'routing' && (c.vatID === 'v6' || c.vatID === 'v7'))
      .map((c) => c.crankNum);
    expect(expected.length).toBeGreaterThan(10);
    expect([...cranksOf(trace).keys()]).toEqual(expected);
    const syscalls = trace.traceEvents.filter((e) => e.cat === 'syscall');
    expect(syscalls.length).toBe(facts.cranks.filter((c) => expected.includes(c.crankNum)).reduce((n, c) => n + c.syscalls, 0));
  });

  it('names refs from the annotation file', async () => {
    const r = await runInProcess(['trace', '--annotations', '../annotations/a-local-3.annot.json', 'a-local-3.slog']);
    const trace = JSON.parse(r.stdout) as { traceEvents: TraceEvent[] };
    expect(trace.traceEvents.some((e) => e.name.includes('<aliceRoot>'))).toBe(true);
    expect(trace.traceEvents.some((e) => e.name === 'thread_name' && e.args?.name === 'v8 carol (dynamic)')).toBe(true);
  });

  it('a slog ending inside a crank: the crank is still drawn, marked unfinished', async () => {
    const text = readSlog('b-local-5').toString('utf8');
    const lines = text.split('\n');
    const lastFinish = lines.findLastIndex((l) => l.includes('"type":"crank-finish"'));
    const cut = lines.slice(0, lastFinish).join('\n') + '\n';
    const r = await runCli(['trace', '-'], { stdin: cut });
    expect(r.status).toBe(0);
    const trace = JSON.parse(r.stdout) as { traceEvents: TraceEvent[] };
    checkFormat(trace);
    const unfinished = trace.traceEvents.filter((e) => e.args?.unfinished === true);
    expect(unfinished.length).toBe(1);
  });

  it('a restart: the cranks the kernel ran again are drawn again, named and marked as the render marks them', async () => {
    const slog = join(ROOT, '..', 'shared', 'slogs', 'real', 'restart-replay.slog');
    const r = await runInProcess(['trace', slog]);
    expect(r.status).toBe(0);
    const trace = JSON.parse(r.stdout) as { traceEvents: TraceEvent[] };
    checkFormat(trace);
    const cranks = trace.traceEvents.filter((e) => e.cat === 'crank' || e.cat === 'routing').sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0));
    const again = cranks.filter((e) => e.args?.again === true);
    // The render's headers say which cranks ran again.
    const rendered = (await runInProcess([slog])).stdout.split('\n').filter((l) => l.startsWith('// crank ') && l.endsWith(' (again after restart)'));
    expect(again.map((e) => e.args?.crank)).toEqual(rendered.map((l) => Number(/^\/\/ crank (\d+)/.exec(l)?.[1])));
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((e) => e.name.endsWith(' (again after restart)'))).toBe(true);
    expect(cranks.filter((e) => e.args?.again !== true).every((e) => !e.name.endsWith('(again after restart)'))).toBe(true);
  });

  it('streams: events come out while the slog is still being read', async () => {
    const text = readSlog('a-xs-3');
    const child = spawn(process.execPath, [BIN, 'trace', '-'], { env: { ...process.env, NO_COLOR: '1' } });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const cut = text.indexOf(10, Math.floor(text.length * 0.8)) + 1;
    child.stdin.write(text.subarray(0, cut));
    const deadline = Date.now() + 15_000;
    while (Buffer.concat(out).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const early = Buffer.concat(out).toString('utf8');
    expect(early.startsWith('{"displayTimeUnit":"ms","traceEvents":[')).toBe(true);
    child.stdin.end(text.subarray(cut));
    expect(await exited).toBe(0);
    const all = Buffer.concat(out).toString('utf8');
    expect(all.length).toBeGreaterThan(early.length);
    checkFormat(JSON.parse(all));
  });

  it('a missing slog is one line, exit 2, and leaves an existing -o file alone', async () => {
    const file = join(dir, 'keep.json');
    await runInProcess(['trace', '-o', file, 'a-local-3.slog']);
    const before = readFileSync(file, 'utf8');
    const r = await runCli(['trace', '-o', file, slogPath('nope')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`slogulate: ${slogPath('nope')}: no such file\n`);
    expectSameText(readFileSync(file, 'utf8'), before);
  });
});
