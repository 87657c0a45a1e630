/**
 * `slogulate stats` and the aggregate under it, checked against figures the
 * test computes itself with a plain loop over the slog's JSON lines.
 */
import { describe, expect, it } from 'vitest';
import { MicrosHistogram } from '../src/analyses/common/histogram.js';
import { DELIVERY_METHOD_READS, deliveryMethod } from '../src/analyses/common/delivery-method.js';
import type { DeliverEntry } from '../src/scan/entry-types.js';
import { READ_NOTHING } from '../src/scan/reads.js';
import { readEntries } from './slog-lines.js';
import { readableTime, readSlog, runCli, SLOG_NAMES } from './helpers.js';
import { runInProcess } from './run-main.js';

// ---------- the plain loop ----------

interface Entry {
  type: string;
  time: number;
  crankNum?: number;
  crankType?: string;
  vatID?: string;
  message?: { vatID?: string };
  kd?: unknown[];
  ksc?: unknown[];
  dr?: [string, unknown, { compute?: number } | null];
}

/** Durations (µs) and what the tables print of them. */
class Durations {
  readonly values: number[] = [];
  computrons: number | undefined;
  add(micros: number, computrons?: number): void {
    this.values.push(micros);
    if (computrons !== undefined) this.computrons = (this.computrons ?? 0) + computrons;
  }
  get count(): number {
    return this.values.length;
  }
  get total(): number {
    return this.values.reduce((a, b) => a + b, 0);
  }
  get max(): number {
    return Math.max(...this.values);
  }
  /** Nearest rank over the durations rounded to whole µs. */
  percentile(p: number): number {
    const sorted = this.values.map((v) => Math.round(v)).sort((a, b) => a - b);
    return sorted[Math.ceil((p / 100) * sorted.length) - 1] as number;
  }
}

interface VatCounts {
  deliver: number;
  notify: number;
  other: number;
  crankTime: number;
  computrons?: number;
}

interface Plain {
  cranks: { seen: number; selected: number; delivery: number; routing: number };
  first: number;
  last: number;
  syscalls: Map<string, Durations>;
  deliveriesByVat: Map<string, Durations>;
  deliveriesByMethod: Map<string, Durations>;
  vats: Map<string, VatCounts>;
  allDeliveries: Durations;
}

function methodOf(kd: unknown[]): string {
  if (kd[0] !== 'message') return String(kd[0]);
  const body = (kd[2] as { methargs: { body: string } }).methargs.body;
  return JSON.parse(body.slice(1))[0] as string;
}

function get<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

/** Every figure of the stats, by a loop over the slog's lines; `select` sees each crank. */
function plainStats(slog: string, select: (crankNum: number, vatID: string | undefined, type: string) => boolean = () => true): Plain {
  const out: Plain = {
    cranks: { seen: 0, selected: 0, delivery: 0, routing: 0 },
    first: NaN,
    last: NaN,
    syscalls: new Map(),
    deliveriesByVat: new Map(),
    deliveriesByMethod: new Map(),
    vats: new Map(),
    allDeliveries: new Durations(),
  };
  let crank: Entry[] | undefined;
  for (const line of readSlog(slog).toString('utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as Entry;
    if (Number.isNaN(out.first)) out.first = e.time;
    out.last = e.time;
    if (e.type === 'crank-start') crank = [e];
    else if (crank) crank.push(e);
    if (e.type !== 'crank-finish' || !crank) continue;
    const entries = crank;
    crank = undefined;
    const start = entries[0] as Entry;
    const vatID = start.vatID ?? start.message?.vatID ?? entries.find((x) => x.vatID && x.type !== 'create-vat')?.vatID;
    out.cranks.seen += 1;
    if (!select(start.crankNum as number, vatID, start.crankType as string)) continue;
    out.cranks.selected += 1;
    if (start.crankType === 'routing') {
      out.cranks.routing += 1;
      continue;
    }
    out.cranks.delivery += 1;
    // A delivery crank without a vat (a send to a terminated vat's object) counts under `<no vat>`.
    const vatKey = vatID ?? '<no vat>';
    const vat: VatCounts = get(out.vats, vatKey, () => ({ deliver: 0, notify: 0, other: 0, crankTime: 0 }));
    const firstDeliver = entries.find((x) => x.type === 'deliver');
    const kind = firstDeliver?.kd?.[0];
    vat[kind === 'message' ? 'deliver' : kind === 'notify' ? 'notify' : 'other'] += 1;
    vat.crankTime += (e.time - start.time) * 1e6;
    let call: Entry | undefined;
    let deliver: Entry | undefined;
    for (const x of entries) {
      if (x.type === 'syscall') call = x;
      if (x.type === 'syscall-result' && call) {
        get(out.syscalls, call.ksc?.[0] as string, () => new Durations()).add((x.time - call.time) * 1e6);
        call = undefined;
      }
      if (x.type === 'deliver') deliver = x;
      if (x.type === 'deliver-result' && deliver) {
        const micros = (x.time - deliver.time) * 1e6;
        const compute = x.dr?.[2]?.compute;
        get(out.deliveriesByVat, vatKey, () => new Durations()).add(micros, compute);
        get(out.deliveriesByMethod, `${vatKey} ${methodOf(deliver.kd as unknown[])}`, () => new Durations()).add(micros, compute);
        out.allDeliveries.add(micros, compute);
        if (compute !== undefined) vat.computrons = (vat.computrons ?? 0) + compute;
        deliver = undefined;
      }
    }
  }
  return out;
}

// ---------- what `stats --json` says ----------

interface Row {
  count: number;
  total: number;
  mean: number;
  max: number;
  p50: number;
  p95: number;
  share?: number;
  computrons?: number;
}
interface Json {
  slog: string;
  selection: string;
  cranks: { seen: number; selected: number; delivery: number; routing: number; unfinished: number };
  slogSpan: { first: number; last: number; micros: number };
  syscalls: Row & { type: string };
  syscallsByType: Array<Row & { type: string }>;
  deliveries: Row;
  deliveriesByVat: Array<Row & { vatID: string; vatName?: string }>;
  deliveriesByVatMethod: Array<Row & { vatID: string; method: string }>;
  vats: Array<{ vatID: string; vatName?: string; deliver: number; notify: number; other: number; cranks: number; crankTime: number; computrons?: number }>;
  computrons?: number;
}

async function statsJson(args: string[]): Promise<Json> {
  const r = await runInProcess(['stats', '--json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Json;
}

function expectRow(row: Row, d: Durations, allTotal: number): void {
  expect(row.count).toBe(d.count);
  expect(row.total).toBeCloseTo(d.total, 3);
  expect(row.mean).toBeCloseTo(d.total / d.count, 3);
  expect(row.max).toBeCloseTo(d.max, 6);
  expect(row.p50).toBe(d.percentile(50));
  expect(row.p95).toBe(d.percentile(95));
  if (row.share !== undefined) expect(row.share).toBeCloseTo(d.total / allTotal, 9);
  expect(row.computrons).toBe(d.computrons);
}

function expectAggregate(json: Json, plain: Plain): void {
  expect(json.cranks).toMatchObject(plain.cranks);
  // Syscalls by type, largest total first.
  expect(json.syscallsByType.map((s) => s.type).sort()).toEqual([...plain.syscalls.keys()].sort());
  for (const s of json.syscallsByType) expectRow(s, plain.syscalls.get(s.type) as Durations, NaN);
  const totals = json.syscallsByType.map((s) => s.total);
  expect(totals).toEqual([...totals].sort((a, b) => b - a));
  const all = new Durations();
  for (const d of plain.syscalls.values()) for (const v of d.values) all.add(v);
  expectRow(json.syscalls, all, NaN);
  // Deliveries.
  const allTotal = plain.allDeliveries.total;
  expectRow(json.deliveries, plain.allDeliveries, allTotal);
  expect(json.deliveriesByVat.map((d) => d.vatID).sort()).toEqual([...plain.deliveriesByVat.keys()].sort());
  for (const d of json.deliveriesByVat) expectRow(d, plain.deliveriesByVat.get(d.vatID) as Durations, allTotal);
  expect(json.deliveriesByVatMethod.map((d) => `${d.vatID} ${d.method}`).sort()).toEqual([...plain.deliveriesByMethod.keys()].sort());
  for (const d of json.deliveriesByVatMethod) expectRow(d, plain.deliveriesByMethod.get(`${d.vatID} ${d.method}`) as Durations, allTotal);
  const shares = json.deliveriesByVat.reduce((a, d) => a + (d.share as number), 0);
  expect(shares).toBeCloseTo(1, 9);
  // Cranks by vat, in vat order.
  const vatOrder = (id: string): number => (/^v\d+$/.test(id) ? Number(id.slice(1)) : Infinity);
  expect(json.vats.map((v) => v.vatID)).toEqual([...plain.vats.keys()].sort((a, b) => vatOrder(a) - vatOrder(b)));
  for (const v of json.vats) {
    const p = plain.vats.get(v.vatID);
    expect(v).toMatchObject({ deliver: p?.deliver, notify: p?.notify, other: p?.other, cranks: (p?.deliver ?? 0) + (p?.notify ?? 0) + (p?.other ?? 0) });
    expect(v.crankTime).toBeCloseTo(p?.crankTime as number, 3);
    expect(v.computrons).toBe(p?.computrons);
  }
  expect(json.computrons).toBe(plain.allDeliveries.computrons);
}

describe.each(SLOG_NAMES)('%s', (slog) => {
  const plain = plainStats(slog);

  it('--json: every figure matches a plain loop over the slog', async () => {
    const json = await statsJson([`${slog}.slog`]);
    expect(json.slog).toBe(`${slog}.slog`);
    expect(json.selection).toBe('all cranks');
    expectAggregate(json, plain);
    expect(json.slogSpan.first).toBe(plain.first);
    expect(json.slogSpan.last).toBe(plain.last);
  });

  it('--vat and --cranks: only the selected cranks count', async () => {
    const from = 40;
    const to = 200;
    const json = await statsJson(['--vat', 'v1', '--vat', 'v6', '--cranks', `${from}-${to}`, `${slog}.slog`]);
    const selected = plainStats(slog, (n, vat, type) => n >= from && n <= to && type !== 'routing' && (vat === 'v1' || vat === 'v6'));
    expect(selected.cranks.selected).toBeGreaterThan(10);
    expect(json.selection).toBe(`cranks ${from}-${to} and vat v1, v6`);
    expect(json.cranks.seen).toBe(plain.cranks.seen);
    expectAggregate(json, selected);
  });

  it('text tables: aligned columns with the same figures', async () => {
    const r = await runInProcess(['stats', `${slog}.slog`]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const printed = r.stdout.trimEnd().split('\n\n');
    const titles = printed.map((t) => t.split('\n')[0]);
    const older = ['Totals:', 'Syscalls by type:', 'Deliveries by vat:', 'Deliveries by vat and method:', 'Delivery cranks by vat:'];
    expect(titles.filter((t) => older.includes(t as string))).toEqual(older);
    // Where the crank time went (test/stats-time-split.test.ts checks these tables).
    expect(titles[1]).toBe('Where the crank time went:');
    const tables = older.map((title) => printed[titles.indexOf(title)] as string);
    // Syscalls: every line as long as the header (right-aligned last column), figures as the loop's.
    const [, header, ...rows] = (tables[1] as string).split('\n');
    expect(header).toMatch(/^syscall +count +total +mean +p50 +p95 +max$/);
    for (const row of rows) expect(row.length).toBe((header as string).length);
    for (const [type, d] of plain.syscalls) {
      const row = rows.find((l) => l.startsWith(`${type} `));
      expect(row?.split(/  +/)).toEqual([
        type,
        `${d.count}`,
        readableTime(d.total),
        readableTime(d.total / d.count),
        readableTime(d.percentile(50)),
        readableTime(d.percentile(95)),
        readableTime(d.max),
      ]);
    }
    // No time in raw µs: each in a readable unit (the JSON has the exact µs).
    expect(r.stdout).not.toMatch(/\d{4,}µs|\d{4,} µs/);
    const deliveryTime = [...plain.vats.values()].reduce((n, v) => n + v.crankTime, 0);
    expect(tables[0]).toMatch(new RegExp(`\\ndelivery crank time +${readableTime(deliveryTime).replace('.', '\\.')}\\n`));
    expect(tables[0]).toMatch(new RegExp(`\\ndeliveries +${plain.allDeliveries.count} \\(${readableTime(plain.allDeliveries.total).replace('.', '\\.')}\\)\\n`));
    // Computrons columns only where the slog has computrons.
    const withComputrons = plain.allDeliveries.computrons !== undefined;
    expect((tables[2] as string).split('\n')[1]?.endsWith('computrons')).toBe(withComputrons);
    expect((tables[0] as string).includes('\ncomputrons ')).toBe(withComputrons);
    // Totals.
    expect(tables[0]).toMatch(new RegExp(`\\ncranks +${plain.cranks.seen}\\n`));
    expect(tables[0]).toMatch(new RegExp(`\\ndelivery cranks +${plain.cranks.delivery}\\n`));
    expect(tables[0]).toMatch(new RegExp(`\\nwall span of the slog +${(plain.last - plain.first).toFixed(6)} s \\(`));
  });
});

describe('stats: formats and edge cases', () => {
  it('--format markdown: the same tables as pipe tables', async () => {
    const text = await runInProcess(['stats', 'a-xs-3.slog']);
    const md = await runInProcess(['stats', '--format', 'markdown', 'a-xs-3.slog']);
    expect(md.status).toBe(0);
    // Markdown is for people too: readable times, as the text.
    expect(md.stdout).not.toMatch(/\d{4,} ?µs/);
    expect(md.stdout).toMatch(/\| delivery crank time \| \d+\.\d\d (?:s|ms) \|/);
    const tables = md.stdout.trimEnd().split('\n\n### ');
    const textTables = text.stdout.trimEnd().split('\n\n');
    expect(tables).toHaveLength(textTables.length);
    tables.forEach((t, i) => {
      const lines = t.replace(/^### /, '').split('\n');
      expect(`${lines[0]}:`).toBe(textTables[i]?.split('\n')[0]);
      const rows = lines.slice(2).filter((l) => l.startsWith('|'));
      const cells = (l: string): number => l.split(/(?<!\\)\|/).length;
      for (const row of rows) expect(cells(row)).toBe(cells(rows[0] as string));
      expect(rows[1]).toMatch(/^\| --- \|( ---:? \|)+$/);
      // As many data rows as the text table.
      const notes = /^(a delivery|deliver\/|cranks: where|each vat's|page-ins:|compress, db|GC time:|stalls over)/;
      const textRows = (textTables[i] as string).split('\n').slice(2).filter((l) => !notes.test(l));
      expect(rows.length - 2).toBe(textRows.length);
    });
  });

  it('a slog without computrons has no computrons anywhere', async () => {
    const json = await statsJson(['a-local-3.slog']);
    expect('computrons' in json).toBe(false);
    expect(json.vats.every((v) => !('computrons' in v))).toBe(true);
  });

  it('a selection that matches nothing: a message on stderr, the tables with zeros, status 0', async () => {
    const r = await runInProcess(['stats', '--cranks', '100000-', 'b-local-5.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Totals:\n(.*\n)*cranks +0 of \d+\n/);
    expect(r.stderr).toBe('slogulate: b-local-5.slog: no cranks match cranks 100000-\n');
    const j = await runInProcess(['stats', '--json', '--vat', 'nobody', 'b-local-5.slog']);
    expect(j.status).toBe(0);
    expect(j.stderr).toBe('slogulate: b-local-5.slog: no cranks match vat nobody\n');
    expect((JSON.parse(j.stdout) as Json).cranks.selected).toBe(0);
  });

  it('a slog that ends inside a crank: the crank counts as unfinished, its finished syscalls count', async () => {
    const lines = readSlog('a-local-3').toString('utf8').split('\n');
    // Cut after the 3rd syscall-result of crank 12 (v5 timer's startVat).
    let results = 0;
    const cutAt = lines.findIndex((l) => l.includes('"crankNum":12,') && l.includes('"syscall-result"') && ++results === 3);
    const r = await runCli(['stats', '--json', '-'], { stdin: `${lines.slice(0, cutAt + 1).join('\n')}\n` });
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as Json;
    const before = plainStats('a-local-3', (n) => n < 12);
    expect(json.cranks).toMatchObject({ seen: 13, selected: 13, unfinished: 1, delivery: before.cranks.delivery + 1 });
    const beforeSyscalls = [...before.syscalls.values()].reduce((a, d) => a + d.count, 0);
    expect(json.syscalls.count).toBe(beforeSyscalls + 3);
    expect(json.deliveries.count).toBe(before.allDeliveries.count);
    expect(json.vats.find((v) => v.vatID === 'v5')?.other).toBe(1);
  });

  it('--json and --format conflict; a bad format is a usage error', async () => {
    for (const args of [['--json', '--format', 'markdown'], ['--format', 'html']]) {
      // The first on a real process: its exit status.
      const r = await (args[0] === '--json' ? runCli : runInProcess)(['stats', ...args, 'a-local-3.slog']);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });

  it('MicrosHistogram: exact nearest-rank percentiles', () => {
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const h = new MicrosHistogram();
    const values: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const v = Math.floor(random() ** 3 * 100000) + random();
      values.push(v);
      h.addMicros(v);
    }
    const sorted = values.map((v) => Math.round(v)).sort((a, b) => a - b);
    for (const p of [1, 25, 50, 90, 95, 99, 100]) {
      expect(h.percentile(p), `p${p}`).toBe(sorted[Math.ceil((p / 100) * sorted.length) - 1]);
    }
    const s = h.stats();
    expect(s.count).toBe(5000);
    expect(s.max).toBe(Math.max(...values));
    expect(s.min).toBe(Math.min(...values));
    expect(h.distinct).toBeLessThanOrEqual(new Set(sorted).size);
    const empty = new MicrosHistogram().stats();
    expect(empty).toMatchObject({ count: 0, total: 0, mean: 0, p50: 0, p95: 0 });
  });

  it('delivery methods: message methods as the render prints them, else the delivery kind', () => {
    const deliver = (kd?: unknown[]): DeliverEntry =>
      readEntries([{ type: 'deliver', crankNum: 1, vatID: 'v1', ...(kd ? { kd } : {}) }], { ...READ_NOTHING, deliver: DELIVERY_METHOD_READS })[0] as DeliverEntry;
    const msg = (body: string): DeliverEntry => deliver(['message', 'ko1', { methargs: { body, slots: [] }, result: 'kp1' }]);
    expect(deliveryMethod(msg('#["openAccount",["x0",0]]'))).toBe('openAccount');
    expect(deliveryMethod(msg('#["%asyncIterator",[]]'))).toBe('[asyncIterator]');
    expect(deliveryMethod(msg('#["#undefined",[1]]'))).toBe('<funcall>');
    expect(deliveryMethod(msg('#[null,[1]]'))).toBe('<funcall>');
    expect(deliveryMethod(msg('["legacy",[]]'))).toBe('legacy');
    expect(deliveryMethod(msg('[{"@qclass":"symbol","name":"foo"},[]]'))).toBe('[foo]');
    expect(deliveryMethod(msg('#["with \\"quote",[]]'))).toBe('with quote');
    expect(deliveryMethod(msg('not json'))).toBe('<unintelligible method>');
    expect(deliveryMethod(deliver(['notify', []]))).toBe('notify');
    expect(deliveryMethod(deliver(['bringOutYourDead']))).toBe('bringOutYourDead');
    expect(deliveryMethod(deliver())).toBe('<unknown>');
  });
});
