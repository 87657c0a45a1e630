/**
 * `growth` as text (or markdown): what grew, in the benchmark report's
 * shape (`clistEntries 2924 -> 3081, +157, +52.3 per round`), then the
 * kernel's figures, each vat's c-list alive at the end by kind, the heaps,
 * the promises never resolved, and the kernel's figures per period.
 */
import { tableMarkdown, tableText, type Table } from '../common/table.js';
import type { CountBy, FigureChange, GrowthFlag, GrowthResult, VatGrowth } from './growth-result.js';
import type { PeriodRow } from './periods.js';

export type GrowthFormat = 'text' | 'markdown';

/** `+157`, `-3`, `0`. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A slope to one decimal, signed: `+52.3`, `-0.5`, `0.0`. */
export function signedSlope(n: number): string {
  const text = (Math.round(n * 10) / 10).toFixed(1);
  return n > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
}

/** `round`, `block`, `cranks` as a period is named after `per`. */
export function perName(result: GrowthResult): string {
  return result.unit === 'cranks' ? 'group of cranks' : (result.unit ?? 'period');
}

/** `v7 board`, `kernel`. */
function subjectName(subject: string, name: string | null): string {
  return name ? `${subject} ${name}` : subject;
}

/** One grown figure in the benchmark report's shape. */
export function flagText(flag: GrowthFlag, per: string): string {
  const slope = flag.perPeriod === null ? '' : `, ${signedSlope(flag.perPeriod)} per ${per}`;
  return `${subjectName(flag.subject, flag.name)} ${flag.figure} ${flag.start} -> ${flag.end}, ${signed(flag.change)}${slope}`;
}

const cell = (n: number | null): string => (n === null ? '' : String(n));

/** The periods in words: `170 blocks (block 0 to block 169)`. */
export function periodsText(result: GrowthResult): string {
  const rows = result.periods;
  if (result.unit === null || rows.length === 0) return 'no periods (no benchmark round marks or chain blocks; --every N for groups of cranks): what is alive at the end';
  const unit = result.unit === 'cranks' ? 'groups of cranks' : `${result.unit}s`;
  const first = rows[0] as PeriodRow;
  const last = rows[rows.length - 1] as PeriodRow;
  return `${rows.length} ${rows.length === 1 ? unit.replace(/s$/, '').replace(/groups/, 'group') : unit} (${first.label}${rows.length > 1 ? ` to ${last.label}` : ''})`;
}

function figureTable(title: string, figures: FigureChange[], per: string): Table {
  return {
    title,
    columns: [
      { header: 'figure', align: 'left' },
      { header: 'start', align: 'right' },
      { header: 'end', align: 'right' },
      { header: 'change', align: 'right' },
      { header: `per ${per}`, align: 'right' },
    ],
    rows: figures.map((f) => [f.figure, cell(f.start), cell(f.end), f.change === null ? '' : signed(f.change), f.perPeriod === null ? '' : signedSlope(f.perPeriod)]),
  };
}

/** A vat's figure, by name. */
function figureOf(vat: VatGrowth, name: string): FigureChange | undefined {
  return vat.figures.find((f) => f.figure === name);
}

function vatNote(vat: VatGrowth): string {
  const notes: string[] = [];
  if (vat.cleanedUp) notes.push('terminated, cleaned up');
  else if (vat.terminated) notes.push('terminated, cleanup pending');
  if (vat.droppedUnknown > 0) notes.push(`${vat.droppedUnknown} dropped that the slog never showed added`);
  return notes.join('; ');
}

function clistTable(result: GrowthResult, per: string): Table {
  return {
    title: 'C-lists by vat, alive at the end',
    columns: [
      { header: 'vat', align: 'left' },
      { header: 'name', align: 'left' },
      { header: 'imported obj', align: 'right' },
      { header: 'exported obj', align: 'right' },
      { header: 'promises', align: 'right' },
      { header: 'devices', align: 'right' },
      { header: 'total', align: 'right' },
      { header: 'change', align: 'right' },
      { header: `per ${per}`, align: 'right' },
      { header: 'note', align: 'left' },
    ],
    rows: result.vats
      .filter((v) => v.alive.total > 0 || v.droppedUnknown > 0 || v.terminated || (figureOf(v, 'clistEntries')?.change ?? 0) !== 0)
      .map((v) => {
        const total = figureOf(v, 'clistEntries');
        return [
          v.vatID,
          v.name ?? '',
          String(v.alive.importedObjects),
          String(v.alive.exportedObjects),
          String(v.alive.promises),
          String(v.alive.devices),
          String(v.alive.total),
          total?.change == null ? '' : signed(total.change),
          total?.perPeriod == null ? '' : signedSlope(total.perPeriod),
          vatNote(v),
        ];
      }),
  };
}

function heapTable(result: GrowthResult, per: string): Table | undefined {
  const vats = result.vats.filter((v) => figureOf(v, 'heapCount') || figureOf(v, 'snapshotSize'));
  if (vats.length === 0) return undefined;
  const pair = (f: FigureChange | undefined): [string, string] => [cell(f?.end ?? null), f?.change == null ? '' : signed(f.change)];
  return {
    title: 'Heaps by vat (XS workers: the last delivery\'s metering, the last heap snapshot)',
    columns: [
      { header: 'vat', align: 'left' },
      { header: 'name', align: 'left' },
      { header: 'heapCount', align: 'right' },
      { header: 'change', align: 'right' },
      { header: `per ${per}`, align: 'right' },
      { header: 'allocate', align: 'right' },
      { header: 'snapshot bytes', align: 'right' },
      { header: 'change', align: 'right' },
    ],
    rows: vats.map((v) => {
      const heap = figureOf(v, 'heapCount');
      return [
        v.vatID,
        v.name ?? '',
        ...pair(heap),
        heap?.perPeriod == null ? '' : signedSlope(heap.perPeriod),
        cell(figureOf(v, 'allocate')?.end ?? null),
        ...pair(figureOf(v, 'snapshotSize')),
      ];
    }),
  };
}

function countTable(title: string, header: string, counts: CountBy[]): Table {
  return {
    title,
    columns: [
      { header, align: 'left' },
      { header: 'promises', align: 'right' },
    ],
    rows: counts.map((c) => [c.name ? `${c.key} ${c.name}` : c.key, String(c.count)]),
  };
}

/** The kernel's figures per period: at its end, and the change over it. */
function periodTable(result: GrowthResult): Table | undefined {
  if (result.periods.length === 0) return undefined;
  const side = result.kernel.source === 'kernel-stats' ? 'kernelStats' : 'kernel';
  const keys = [...new Set(result.periods.flatMap((r) => Object.keys(r.end[side])))];
  const rows = result.periods.filter((r) => r.cranks > 0 || keys.some((k) => r.end[side][k] !== r.start[side][k]));
  return {
    title: `Kernel (${result.kernel.source}) by ${result.unit === 'cranks' ? 'group of cranks' : result.unit}: at the end, and the change (periods without cranks or change left out)`,
    columns: [
      { header: result.unit === 'cranks' ? 'group' : (result.unit ?? ''), align: 'left' },
      { header: 'cranks', align: 'right' },
      ...keys.map((k) => ({ header: k, align: 'right' as const })),
      { header: 'note', align: 'left' },
    ],
    rows: rows.map((r) => [
      r.label,
      String(r.cranks),
      ...keys.map((k) => {
        const end = r.end[side][k];
        const start = r.start[side][k];
        if (end === undefined) return '';
        return start === undefined || start === end ? String(end) : `${end} (${signed(end - start)})`;
      }),
      r.finished ? '' : 'unfinished',
    ]),
  };
}

/** A table without its change columns (`start`, `change`, `per ...`): for a slog without periods, which has only its end. */
function endOnly(table: Table): Table {
  const keep = table.columns.map((c) => !(c.header === 'start' || c.header === 'change' || c.header.startsWith('per ')));
  return { ...table, columns: table.columns.filter((_, i) => keep[i]), rows: table.rows.map((r) => r.filter((_, i) => keep[i])) };
}

/** What the kernel table counted from the c-lists means. */
const MODEL_NOTE = 'clistEntries: entries alive in every vat; kernelObjects, kernelPromises: distinct krefs some c-list holds; kpUnresolved: promises not resolved';

/**
 * The tables `growthText` prints, in its order, each with an id (the
 * report's): the kernel's own gauges (where the slog has kernel-stats),
 * the kernel counted from the c-lists, the c-lists by vat, the heaps, the
 * promises never resolved by decider and by method (when there are any),
 * and the kernel by period. A slog without periods: their end only.
 */
export function growthTables(result: GrowthResult): Array<{ id: string; table: Table }> {
  const per = perName(result);
  const out: Array<{ id: string; table: Table }> = [];
  const add = (id: string, table: Table | undefined): void => {
    if (table) out.push({ id, table: result.unit === null ? endOnly(table) : table });
  };
  const kernel = result.kernel;
  if (kernel.kernelStats.length) add('kernelStats', figureTable(`Kernel (from its kernel-stats entries: ${kernel.kernelStatsEntries})`, kernel.kernelStats, per));
  add('kernelModel', {
    ...figureTable(kernel.kernelStats.length ? 'Kernel (counted from the c-lists)' : 'Kernel (counted from the c-lists: the slog has no kernel-stats entries)', kernel.model, per),
    note: MODEL_NOTE,
  });
  add('clists', clistTable(result, per));
  add('heaps', heapTable(result, per));
  if (result.unresolved.total > 0) {
    add('unresolvedByDecider', countTable(`Promises never resolved (${result.unresolved.total}), by decider vat`, 'decider', result.unresolved.byDecider));
    add('unresolvedByMethod', countTable(`Promises never resolved (${result.unresolved.total}), by the method whose result they are`, 'method', result.unresolved.byMethod));
  }
  add('periods', periodTable(result));
  return out;
}

/** The whole text (or markdown), ending with a newline. */
export function growthText(result: GrowthResult, format: GrowthFormat = 'text'): string {
  const per = perName(result);
  const render = (table: Table): string => {
    const shown = result.unit === null ? endOnly(table) : table;
    return format === 'markdown' ? tableMarkdown(shown) : tableText(shown);
  };
  const out: string[] = [];
  const heading = `growth of ${result.slog}: ${result.cranks} cranks, ${periodsText(result)}`;
  out.push(format === 'markdown' ? `## ${heading}` : heading);
  if (result.unit !== null) {
    const title = `Growing (a positive change from the start of the first ${per} to the end of the last)`;
    const lines = result.growing.map((f) => flagText(f, per));
    const body = lines.length ? lines : ['nothing'];
    out.push(format === 'markdown' ? `### ${title}\n\n${body.map((l) => `- ${l}`).join('\n')}` : `${title}:\n${body.map((l) => `  ${l}`).join('\n')}`);
  }
  const kernel = result.kernel;
  if (kernel.kernelStats.length) out.push(render(figureTable(`Kernel (from its kernel-stats entries: ${kernel.kernelStatsEntries})`, kernel.kernelStats, per)));
  out.push(
    render({
      ...figureTable(
        kernel.kernelStats.length ? 'Kernel (counted from the c-lists)' : 'Kernel (counted from the c-lists: the slog has no kernel-stats entries)',
        kernel.model,
        per,
      ),
      note: MODEL_NOTE,
    }),
  );
  out.push(render(clistTable(result, per)));
  const heaps = heapTable(result, per);
  if (heaps) out.push(render(heaps));
  const unresolved = result.unresolved;
  out.push(format === 'markdown' ? `### Promises never resolved: ${unresolved.total}` : `Promises never resolved: ${unresolved.total}`);
  if (unresolved.total > 0) {
    out.push(render(countTable('by decider vat', 'decider', unresolved.byDecider)));
    out.push(render(countTable('by the method whose result they are', 'method', unresolved.byMethod)));
  }
  const periods = periodTable(result);
  if (periods) out.push(render(periods));
  return `${out.join('\n\n')}\n`;
}
