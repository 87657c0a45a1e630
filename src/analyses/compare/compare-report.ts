/**
 * The `slogulate compare` report as text (aligned columns, plain) or as
 * GitHub markdown (a pull-request comment). The JSON form is `compareJson`
 * in compare.ts.
 *
 * Text: a head naming both slogs, the deterministic sections, the time
 * section (said to be noisy), then the thresholds and a one-line verdict
 * (last, where a CI log shows it). Markdown: the verdict and thresholds
 * first, the long tables folded in `<details>`.
 */
import { readableMicros } from '../../render/format.js';
import { NO_NAME } from '../../model/vats.js';
import type { CompareRow, CompareSection, Comparison, SideSummary } from './compare.js';
import { declarationNamed, type MetricDeclaration, type Unit } from './metrics.js';
import { sectionDeclaration, type NameColumn } from './sections.js';
import { markdownEscape, tableMarkdown, tableText, type Column, type Table } from '../common/table.js';
import { limitText, metricKey, type ThresholdResult } from './thresholds.js';

export type CompareFormat = 'text' | 'markdown' | 'json';

export interface ReportOptions {
  /** Leave out rows of deterministic sections whose delta is 0. */
  changedOnly: boolean;
  /** Vat+method entries in the time section (largest total first); 0 for all. */
  timeRows: number;
  /**
   * What the reader must know before trusting any figure, one line each, shown
   * under the report's head lines: a side compared under `--allow-empty`
   * (`head empty.slog: no deliveries: the slog is empty`).
   */
  warnings?: string[];
}

/** A side that could not be compared but was (`--allow-empty`): the report says so, not only stderr. */
export function allowEmptyWarning(problem: string): string {
  return `${problem} (compared anyway: --allow-empty)`;
}

const left = (header: string): Column => ({ header, align: 'left' });
const right = (header: string): Column => ({ header, align: 'right' });

/**
 * A count or computrons: whole numbers as they are, per-round averages with
 * two decimals; a value that is not 0 but would show as 0.00 (a slope of
 * growth per block: 0.0038) with two significant digits, so that a threshold
 * it exceeds never shows 0.00.
 */
export function numberText(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) < 0.005 ? n.toPrecision(2) : n.toFixed(2);
}

function signed(text: string, n: number): string {
  return n > 0 ? `+${text}` : text;
}

/** A time for people, from µs rounded whole (never `-0 µs`): `902 µs`, `36.21 ms`, `112.05 s` (--json keeps the exact µs). */
function microsText(n: number): string {
  const whole = Math.round(n);
  return readableMicros(whole === 0 ? 0 : whole);
}

function valueText(n: number, unit: Unit): string {
  return unit === 'µs' ? microsText(n) : numberText(n);
}

function deltaText(delta: number, unit: Unit): string {
  return signed(valueText(delta, unit), unit === 'µs' ? Math.round(delta) : delta);
}

export function percentText(p: number | null): string {
  if (p === null) return 'new';
  return signed(`${p.toFixed(2)}%`, p);
}

/** `v7 bob`, or `v7→v8 bob` for a vat matched by name whose ID differs (base→head). */
function vatText(r: CompareRow): string {
  const ids = r.baseVatID !== undefined && r.headVatID !== undefined && r.baseVatID !== r.headVatID ? `${r.baseVatID}→${r.headVatID}` : (r.vatID ?? '');
  return `${ids} ${r.vatName ?? NO_NAME}`;
}

/**
 * How the vats were matched, in a line: `vats: 8 matched by name (2 with
 * other IDs: bob v7→v8, erin v8→v7), 1 by ID (v9), 1 only in the head (v10 zed)`.
 */
export function vatsLine(c: Comparison): string {
  const named = c.vats.filter((v) => v.matchedBy === 'name');
  const moved = named.filter((v) => v.base !== v.head);
  const byID = c.vats.filter((v) => v.matchedBy === 'id' && v.base !== null && v.head !== null);
  const only = (side: 'base' | 'head'): string[] =>
    c.vats.filter((v) => v[side] !== null && v[side === 'base' ? 'head' : 'base'] === null).map((v) => `${v[side]}${v.vatName === undefined ? '' : ` ${v.vatName}`}`);
  const parts: string[] = [];
  const list = (items: string[]): string => (items.length > 8 ? `${items.slice(0, 8).join(', ')}, ...` : items.join(', '));
  if (named.length) {
    const other = moved.length ? ` (${moved.length} with other IDs: ${list(moved.map((v) => `${v.vatName ?? ''} ${v.base}→${v.head}`))})` : '';
    parts.push(`${named.length} matched by name${other}`);
  }
  if (byID.length) parts.push(`${byID.length} by ID (${list(byID.map((v) => `${v.key}${v.vatName === undefined ? '' : ` ${v.vatName}`}`))})`);
  const baseOnly = only('base');
  const headOnly = only('head');
  if (baseOnly.length) parts.push(`${baseOnly.length} only in the base (${list(baseOnly)})`);
  if (headOnly.length) parts.push(`${headOnly.length} only in the head (${list(headOnly)})`);
  return `vats: ${parts.length ? parts.join(', ') : 'none'}`;
}

function sideText(s: SideSummary): string {
  const cranks = s.cranksSelected === s.cranksSeen ? `${s.cranksSeen} cranks` : `${s.cranksSelected} of ${s.cranksSeen} cranks`;
  const rounds = s.rounds === null ? '' : `, ${s.rounds} round${s.rounds === 1 ? '' : 's'}`;
  return `${s.slog} (${s.selection}: ${cranks}${rounds})`;
}

/** A row's metric: its key starts with it (the `--fail-on` syntax). */
function metricOf(r: CompareRow): MetricDeclaration | undefined {
  return declarationNamed(r.key.split(',')[0] as string)?.declaration;
}

/** What a name column shows of a row. */
function nameCell(column: NameColumn, r: CompareRow): string {
  switch (column.shows) {
    case 'vat':
      return r.vatID === undefined ? (column.whole ?? '') : vatText(r);
    case 'method':
      return r.method ?? '';
    case 'stat':
      return r.stat ?? '';
    case 'metric':
      return metricOf(r)?.label ?? r.subtype ?? '';
  }
}

/** The table of one section (rows already chosen): each row's figures in its metric's unit. */
function sectionTable(section: CompareSection, rows: CompareRow[], perRound: boolean): Table {
  const numbers = (r: CompareRow): string[] => {
    const unit = metricOf(r)?.unit ?? section.unit;
    return [valueText(r.base, unit), valueText(r.head, unit), deltaText(r.delta, unit), percentText(r.deltaPercent)];
  };
  const numCols = [right('base'), right('head'), right('delta'), right('delta%')];
  const declared = sectionDeclaration(section.id);
  return {
    title: `${section.title}${perRound && declared.titlePerRound ? ' per round' : ''}`,
    columns: [...declared.columns.map((c) => left(c.header)), ...numCols],
    rows: rows.map((r) => [...declared.columns.map((c) => nameCell(c, r)), ...numbers(r)]),
    note: perRound ? (declared.perRoundNote ?? declared.note) : declared.note,
  };
}

/** The rows a section shows, and a note on what was left out. */
function chooseRows(section: CompareSection, options: ReportOptions): { rows: CompareRow[]; omitted: string | undefined } {
  if (section.deterministic) {
    if (!options.changedOnly) return { rows: section.rows, omitted: undefined };
    const rows = section.rows.filter((r) => r.delta !== 0);
    const hidden = section.rows.length - rows.length;
    return { rows, omitted: hidden ? `${hidden} unchanged row${hidden === 1 ? '' : 's'} not shown` : undefined };
  }
  // Times: the rows of the whole side, then the first N entries (a vat+method, a vat: each a run of rows).
  const overall = section.rows.filter((r) => r.vatID === undefined);
  const groups: CompareRow[][] = [];
  for (const r of section.rows) {
    if (r.vatID === undefined) continue;
    const last = groups.at(-1);
    if (last && entryOf(last[0] as CompareRow) === entryOf(r)) last.push(r);
    else groups.push([r]);
  }
  const total = groups.length;
  const keep = options.timeRows > 0 ? Math.min(total, options.timeRows) : total;
  const { noun, by } = sectionDeclaration(section.id).entries ?? { noun: 'vat+method entries', by: 'total time' };
  const omitted = keep < total ? `${keep} of ${total} ${noun} shown, by ${by} (--time-rows 0 for all)` : undefined;
  return { rows: [...overall, ...groups.slice(0, keep).flat()], omitted };
}

/** Which entry of a time section a row belongs to: its vat (on each side) and method. */
const entryOf = (r: CompareRow): string => [r.baseVatID ?? '', r.headVatID ?? '', r.method ?? ''].join('\u0000');

/** `base 3, head 1 cranks`: how many cranks of each side a figure leaves out. */
function unknownCranks(u: { base: number; head: number }): string {
  const sides = (['base', 'head'] as const).filter((side) => u[side] > 0).map((side) => `${side} ${u[side]}`);
  return `${sides.join(', ')} crank${Math.max(u.base, u.head) === 1 ? '' : 's'}`;
}

/**
 * A section's figures that are partial sums, as a note: `unknown in some
 * cranks, summed where known: vat (head 3 cranks), pipe (head 3 cranks)`.
 * The rows of the whole side say it for every vat.
 */
function unknownNote(section: CompareSection): string | undefined {
  const partial = section.rows.filter((r) => r.vatID === undefined && r.unknownIn !== undefined);
  if (!partial.length) return undefined;
  const labelOf = (r: CompareRow): string => metricOf(r)?.label ?? r.key;
  return `unknown in some cranks, summed where known: ${partial.map((r) => `${labelOf(r)} (${unknownCranks(r.unknownIn as { base: number; head: number })})`).join(', ')}`;
}

/**
 * The thresholds that compare partial sums, one line each: `time.vat: unknown
 * in head 3 cranks, compared over the cranks where it is known`.
 */
export function partialThresholds(results: ThresholdResult[]): string[] {
  return results.flatMap((r) =>
    r.unknownIn === undefined ? [] : [`${metricKey(r.threshold.metric, r.threshold.scope)}: unknown in ${unknownCranks(r.unknownIn)}, compared over the cranks where it is known`],
  );
}

export function thresholdTable(results: ThresholdResult[]): Table {
  const partial = partialThresholds(results);
  return {
    ...(partial.length ? { note: partial.join('; ') } : {}),
    title: 'Thresholds',
    columns: [left('threshold'), right('base'), right('head'), right('delta'), right('delta%'), right('limit'), left('result')],
    rows: results.map((r) => {
      // Delivery times (time.*) in µs, every other figure as a number: per-block times (blocks.time.*) too, unlike in their section.
      const unit = r.threshold.metric.kind === 'time' ? 'µs' : 'count';
      const limit = limitText(r.threshold.limit);
      return [
        metricKey(r.threshold.metric, r.threshold.scope),
        valueText(r.base, unit),
        valueText(r.head, unit),
        deltaText(r.delta, unit),
        percentText(r.deltaPercent),
        unit === 'µs' && !r.threshold.limit.percent ? `${limit}µs` : limit,
        r.exceeded ? 'EXCEEDED' : 'ok',
      ];
    }),
  };
}

export function verdict(results: ThresholdResult[]): string | undefined {
  if (!results.length) return undefined;
  const exceeded = results.filter((r) => r.exceeded);
  if (!exceeded.length) return `no threshold exceeded (${results.length} checked)`;
  return `${exceeded.length} of ${results.length} threshold${results.length === 1 ? '' : 's'} exceeded: ${exceeded
    .map((r) => r.threshold.text)
    .join(', ')}`;
}

const DETERMINISTIC_NOTE =
  'Counts are deterministic: the same code running the same benchmark gives the same numbers, so any delta is a change in behavior.';
const NOISY_NOTE = 'Times are wall-clock and noisy: compare them across several runs before trusting a delta.';

function roundsLine(c: Comparison): string | undefined {
  if (!c.perRound) return undefined;
  return `Per benchmark round: counts, computrons and total times are divided by each slog's round count (base ${c.base.rounds ?? 0}, head ${c.head.rounds ?? 0}).`;
}

/** Each section's table, with the rows the options choose and a note of those left out. */
export function sectionTables(c: Comparison, options: ReportOptions): Array<{ section: CompareSection; table: Table }> {
  return c.sections.map((section) => {
    const { rows, omitted } = chooseRows(section, options);
    const table = sectionTable(section, rows, c.perRound);
    for (const more of [unknownNote(section), omitted]) if (more) table.note = table.note ? `${table.note}; ${more}` : more;
    return { section, table };
  });
}

export function compareText(c: Comparison, results: ThresholdResult[], options: ReportOptions): string {
  const out: string[] = [`base: ${sideText(c.base)}`, `head: ${sideText(c.head)}`, vatsLine(c)];
  const rounds = roundsLine(c);
  if (rounds) out.push(rounds);
  for (const w of options.warnings ?? []) out.push(`warning: ${w}`);
  out.push('', DETERMINISTIC_NOTE);
  for (const { section, table } of sectionTables(c, options)) {
    out.push('');
    if (!section.deterministic) out.push(NOISY_NOTE, '');
    out.push(table.rows.length ? tableText(table) : `${table.title}: no change`);
  }
  if (results.length) out.push('', tableText(thresholdTable(results)), '', verdict(results) as string);
  return `${out.join('\n')}\n`;
}

/** A markdown table, folded when it is long. */
function markdownTable(table: Table, fold: boolean): string {
  const text = tableMarkdown(table);
  if (!fold) return text;
  const [heading, ...rest] = text.split('\n');
  const title = (heading ?? '').replace(/^### /, '');
  return ['<details>', `<summary>${title} (${table.rows.length} rows)</summary>`, '', ...rest.slice(1), '', '</details>'].join('\n');
}

const FOLD_ROWS = 15;

export function compareMarkdown(c: Comparison, results: ThresholdResult[], options: ReportOptions): string {
  const out: string[] = ['## slogulate compare', ''];
  const v = verdict(results);
  if (v) out.push(`**${markdownEscape(v)}**`, '');
  for (const w of options.warnings ?? []) out.push(`> **Warning:** ${markdownEscape(w)}`, '');
  out.push(`- base: \`${sideText(c.base)}\``, `- head: \`${sideText(c.head)}\``, `- ${markdownEscape(vatsLine(c))}`);
  const rounds = roundsLine(c);
  if (rounds) out.push(`- ${rounds}`);
  if (results.length) out.push('', tableMarkdown(thresholdTable(results)));
  out.push('', DETERMINISTIC_NOTE);
  for (const { section, table } of sectionTables(c, options)) {
    out.push('');
    if (!section.deterministic) out.push(NOISY_NOTE, '');
    out.push(table.rows.length ? markdownTable(table, table.rows.length > FOLD_ROWS) : `### ${table.title}\n\nno change`);
  }
  return `${out.join('\n')}\n`;
}
