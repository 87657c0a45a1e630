/**
 * `slogulate stats`: the tables of a SlogAggregate (totals, where the crank
 * time went, syscalls by type, deliveries by vat and by vat+method, cranks
 * by vat and their time split, page-ins, heap snapshots, GC, stalls), as
 * text or markdown: for people, so every time prints in a readable unit
 * (`112.05 s`, `36.21 ms`, `902 µs`: table-cells.ts `time`); `--json` keeps
 * the exact µs. Shares print as percentages with two decimals.
 */
import type { DeliveryStats, SlogAggregate, TimeSpan } from './aggregate.js';
import type { ReplayStats } from './replays.js';
import { tableMarkdown, tableText, type Table } from '../common/table.js';
import { gcTable } from './gc-table.js';
import { growthTable, type StatsGrowth } from './growth-table.js';
import { partsByVatTable, partsTable } from './parts-table.js';
import { snapshotTable } from './snapshot-table.js';
import { stallsTable } from './stalls-table.js';
import { left, pct, right, time, vatName, type StatsTable } from './table-cells.js';

export type StatsFormat = 'text' | 'markdown';

/** `12.345678 s (2026-11-20T12:04:31.310Z to 2026-11-20T12:04:43.656Z)` */
function spanText(span: TimeSpan): string {
  const iso = (t: number): string => {
    const d = new Date(t * 1000);
    return Number.isNaN(d.getTime()) ? String(t) : d.toISOString();
  };
  return `${(span.micros / 1_000_000).toFixed(6)} s (${iso(span.first)} to ${iso(span.last)})`;
}

function totalsTable(agg: SlogAggregate, slog: string): StatsTable {
  const rows: string[][] = [['slog', slog], ['selection', agg.selection]];
  const { cranks } = agg;
  const selected = cranks.selected === cranks.seen ? `${cranks.selected}` : `${cranks.selected} of ${cranks.seen}`;
  rows.push(['cranks', selected], ['delivery cranks', `${cranks.delivery}`], ['routing cranks', `${cranks.routing}`]);
  if (cranks.unfinished) rows.push(['unfinished cranks', `${cranks.unfinished}`]);
  if (agg.slogSpan) rows.push(['wall span of the slog', spanText(agg.slogSpan)]);
  if (agg.selection !== 'all cranks' && agg.selectedSpan) rows.push(['wall span of the selection', spanText(agg.selectedSpan)]);
  rows.push(
    ['delivery crank time', time(agg.deliveryCranks.total)],
    ['routing crank time', time(agg.routingCranks.total)],
    ['deliveries', `${agg.deliveries.count} (${time(agg.deliveries.total)})`],
    ['syscalls', `${agg.syscalls.count} (${time(agg.syscalls.total)})`],
  );
  if (agg.syscalls.unanswered) rows.push(['syscalls without a result', `${agg.syscalls.unanswered}`]);
  if (agg.computrons !== undefined) rows.push(['computrons', `${agg.computrons}`]);
  // Vats paged in at their creation replay an empty transcript: only replays that did something are shown.
  if (replayedAny(agg)) {
    const sum = (f: (r: ReplayStats) => number): number => agg.replays.reduce((acc, r) => acc + f(r), 0);
    rows.push(['replayed deliveries (not counted above)', `${sum((r) => r.deliveries)} in ${sum((r) => r.replays)} replays (${time(sum((r) => r.micros))})`]);
  }
  const a = agg.abandoned;
  if (a.cranks) {
    rows.push(['abandoned by a restart (not counted above)', `${a.cranks} cranks, ${a.deliveries} deliveries, ${a.syscalls} syscalls (${time(a.crankTime)})`]);
  }
  return { title: 'Totals', columns: [left('what'), left('value')], rows, totals: 0 };
}

function syscallTable(agg: SlogAggregate): StatsTable {
  const rows = [...agg.syscallsByType, agg.syscalls].map((s) => [
    s.type === '*' ? 'all' : s.type,
    `${s.count}`,
    time(s.total),
    time(s.mean),
    time(s.p50),
    time(s.p95),
    time(s.max),
  ]);
  return {
    totals: 1,
    title: 'Syscalls by type',
    columns: [left('syscall'), right('count'), right('total'), right('mean'), right('p50'), right('p95'), right('max')],
    rows,
  };
}

function deliveryRow(d: DeliveryStats, withMethod: boolean, withComputrons: boolean): string[] {
  const row = [d.vatID ?? 'all', vatName(d.vatID, d.vatName)];
  if (withMethod) row.push(d.method ?? '');
  row.push(`${d.count}`, time(d.total), time(d.mean), time(d.p95), time(d.max), pct(d.share));
  if (withComputrons) row.push(d.computrons === undefined ? '' : `${d.computrons}`);
  return row;
}

function deliveryTable(agg: SlogAggregate, withMethod: boolean): StatsTable {
  const withComputrons = agg.computrons !== undefined;
  const columns = [left('vat'), left('name')];
  if (withMethod) columns.push(left('method'));
  columns.push(right('count'), right('total'), right('mean'), right('p95'), right('max'), right('share'));
  if (withComputrons) columns.push(right('computrons'));
  const rows = (withMethod ? agg.deliveriesByVatMethod : agg.deliveriesByVat).map((d) =>
    deliveryRow(d, withMethod, withComputrons),
  );
  rows.push(deliveryRow(agg.deliveries, withMethod, withComputrons));
  return {
    totals: 1,
    title: withMethod ? 'Deliveries by vat and method' : 'Deliveries by vat',
    columns,
    rows,
    note: 'a delivery runs from its deliver to its deliver-result; share: of all delivery time',
  };
}

function vatTable(agg: SlogAggregate): StatsTable {
  const withComputrons = agg.computrons !== undefined;
  const columns = [left('vat'), left('name'), right('deliver'), right('notify'), right('other'), right('cranks'), right('crank time')];
  if (withComputrons) columns.push(right('computrons'));
  const rows = agg.vats.map((v) => {
    const row = [v.vatID, vatName(v.vatID, v.vatName), `${v.deliver}`, `${v.notify}`, `${v.other}`, `${v.cranks}`, time(v.crankTime)];
    if (withComputrons) row.push(v.computrons === undefined ? '' : `${v.computrons}`);
    return row;
  });
  const sum = (f: (v: SlogAggregate['vats'][number]) => number): number => agg.vats.reduce((acc, v) => acc + f(v), 0);
  const total = ['all', '', `${sum((v) => v.deliver)}`, `${sum((v) => v.notify)}`, `${sum((v) => v.other)}`, `${sum((v) => v.cranks)}`, time(sum((v) => v.crankTime))];
  if (withComputrons) total.push(`${agg.computrons}`);
  rows.push(total);
  return {
    totals: 1,
    title: 'Delivery cranks by vat',
    columns,
    rows,
    note: 'deliver/notify/other: what the crank delivers first; crank time: crank-start to crank-finish',
  };
}

/** Did any replay replay a delivery? */
function replayedAny(agg: SlogAggregate): boolean {
  return agg.replays.some((r) => r.deliveries > 0);
}

/** Did any crank page a vat in (spend time bringing it online)? */
function pagedInAny(agg: SlogAggregate): boolean {
  return agg.replays.some((r) => r.pageIns > 0);
}

/** Page-ins (from the cranks' parts) and replays (from start-replay to finish-replay) per vat: one table, as each page-in replays. */
function pageInTable(agg: SlogAggregate): StatsTable {
  const row = (vatID: string, name: string, r: Omit<ReplayStats, 'vatID' | 'vatName'>): string[] => [
    vatID,
    name,
    `${r.pageIns}`,
    time(r.pageInMicros),
    `${r.replays}`,
    `${r.deliveries}`,
    time(r.micros),
  ];
  const rows = agg.replays.map((r) => row(r.vatID, vatName(r.vatID, r.vatName), r));
  const sum = (f: (r: ReplayStats) => number): number => agg.replays.reduce((acc, r) => acc + f(r), 0);
  rows.push(
    row('all', '', {
      pageIns: sum((r) => r.pageIns),
      pageInMicros: sum((r) => r.pageInMicros),
      replays: sum((r) => r.replays),
      deliveries: sum((r) => r.deliveries),
      micros: sum((r) => r.micros),
    }),
  );
  return {
    totals: 1,
    title: 'Page-ins and replays by vat',
    columns: [left('vat'), left('name'), right('page-ins'), right('page-in time'), right('replays'), right('replayed deliveries'), right('replay time')],
    rows,
    note: 'page-ins: cranks that brought the vat online (worker start, snapshot load, replay), and that time; replays: start-replay to finish-replay, in a crank or as the kernel started; replayed deliveries are not deliveries of any crank',
  };
}

/** Cranks, deliveries and computrons by the trigger of their chain run (chain slogs only). */
function triggerTable(agg: SlogAggregate): StatsTable {
  const withComputrons = agg.computrons !== undefined;
  const columns = [left('trigger'), right('cranks'), right('deliveries'), right('crank time')];
  if (withComputrons) columns.push(right('computrons'), right('share'));
  const all = agg.computrons ?? 0;
  const rows = agg.deliveriesByTrigger.map((t) => {
    const row = [t.trigger, `${t.cranks}`, `${t.deliveries}`, time(t.crankTime)];
    if (withComputrons) row.push(t.computrons === undefined ? '' : `${t.computrons}`, all > 0 ? pct((t.computrons ?? 0) / all) : '');
    return row;
  });
  const sum = (f: (t: SlogAggregate['deliveriesByTrigger'][number]) => number): number => agg.deliveriesByTrigger.reduce((n, t) => n + f(t), 0);
  const total = ['all', `${sum((t) => t.cranks)}`, `${sum((t) => t.deliveries)}`, time(sum((t) => t.crankTime))];
  if (withComputrons) total.push(`${all}`, all > 0 ? pct(1) : '');
  rows.push(total);
  return {
    totals: 1,
    title: 'Deliveries by run trigger',
    columns,
    rows,
    note: 'the chain run a crank ran in, by what came in just before it (bridge source and message type, mailbox, timer) or its phase; share: of all computrons',
  };
}

/** Every table of `slogulate stats`, in print order; the kernel's growth last, where the slog has rounds or blocks. */
export function statsTables(agg: SlogAggregate, slog: string, growth?: StatsGrowth): StatsTable[] {
  const tables = [totalsTable(agg, slog), partsTable(agg), syscallTable(agg), deliveryTable(agg, false), deliveryTable(agg, true), vatTable(agg), partsByVatTable(agg)];
  if (agg.deliveriesByTrigger.length) tables.push(triggerTable(agg));
  if (replayedAny(agg) || pagedInAny(agg)) tables.push(pageInTable(agg));
  if (agg.snapshotsByVat.length) tables.push(snapshotTable(agg));
  if (agg.gcByVat.length) tables.push(gcTable(agg));
  if (agg.stalls) tables.push(stallsTable(agg.stalls));
  if (growth) tables.push(growthTable(growth));
  return tables;
}

/** The tables as text (blank line between tables) or markdown; ends with a newline. */
export function formatTables(tables: readonly Table[], format: StatsFormat): string {
  const render = format === 'markdown' ? tableMarkdown : tableText;
  return `${tables.map(render).join('\n\n')}\n`;
}
