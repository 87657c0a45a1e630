/**
 * `diverge`'s report: the verdict line first (`diverged at block 61, crank
 * 1412 (v6 amm, swap): syscall 3 vatstoreSet value differs`, or `no
 * divergence: ...`), what each side covers and what was compared, the first
 * divergence with both sides' entries, computrons and deliveries one side
 * only has, then which node was slower. The JSON form (`divergeJson`) holds
 * the same figures (docs/diverge.md, "The JSON report").
 */
import { PARTS } from '../../model/parts.js';
import { readableMicros } from '../../render/format.js';
import { markdownEscape, tableMarkdown, tableText, type Table } from '../common/table.js';
import type { NormalEntry } from './crank-digest.js';
import type { DeliveryRef } from './delivery-match.js';
import type { Divergence, DivergeResult } from './diverge.js';
import { rangeText, type SideRange } from './side-range.js';
import type { TimeRow } from './timing-tally.js';

export const DIVERGE_JSON_FORMAT = 'slogulate-diverge';
export const DIVERGE_JSON_VERSION = 1;

export interface ReportOptions {
  /** The slogs' names. */
  nameA: string;
  nameB: string;
  /** Rows of each time table (0: all). */
  timeRows: number;
}

/** `block 61, crank 1412`, or `crank 1412` outside blocks (B's block too where it is another). */
function place(crankNum: number, blockA: number | undefined, blockB?: number): string {
  if (blockA === undefined) return `crank ${crankNum}`;
  const b = blockB !== undefined && blockB !== blockA ? ` (B: block ${blockB})` : '';
  return `block ${blockA}${b}, crank ${crankNum}`;
}

/** What the first divergence is, in words. */
function divergenceWhat(d: Divergence): string {
  if (d.difference) return d.difference.what;
  if (d.partial) return `crankhash differs (entries not compared: one side's crank began before its slog or never finished)`;
  if (d.by === 'crankhash') return 'crankhash differs, the slog entries agree (the difference is in kernel state the slog does not show)';
  return 'entries differ';
}

const deliveryText = (r: DeliveryRef): string => `${r.vatID ?? '<no vat>'} delivery ${r.deliveryNum ?? '?'} (${r.method}) at ${place(r.crankNum, r.block)}`;

/** The first line: the verdict. */
export function verdictLine(r: DivergeResult): string {
  const d = r.first;
  if (d) {
    const what = d.whatA === d.whatB ? d.whatA : `A: ${d.whatA}; B: ${d.whatB}`;
    return `diverged at ${place(d.crankNum, d.blockA, d.blockB)} (${what}): ${divergenceWhat(d)}`;
  }
  const m = r.deliveries;
  if (m.mismatches > 0) {
    const f = m.mismatchList[0];
    const first = f ? ` (first: ${deliveryText(f)}: ${f.computronsA} on A, ${f.computronsB} on B)` : '';
    return `diverged: ${m.mismatches} ${m.mismatches === 1 ? 'delivery' : 'deliveries'} with other computrons${first}`;
  }
  if (m.onlyA + m.onlyB > 0) {
    const f = m.onlyAList[0] ?? m.onlyBList[0];
    return `diverged: deliveries on one side only: ${m.onlyA} on A, ${m.onlyB} on B${f ? ` (first: ${deliveryText(f)})` : ''}`;
  }
  if (r.gaps.onlyA + r.gaps.onlyB > 0) {
    return `diverged: cranks of the compared range on one side only: ${r.gaps.onlyA} on A, ${r.gaps.onlyB} on B`;
  }
  if (r.compared.cranks === 0) return 'nothing compared: the slogs have no crank number in common';
  return `no divergence: ${r.compared.cranks} cranks compared (${rangeText(r.compared)})${byText(r)}`;
}

/** `, by crankhash`, `, by entries (no crankhash)`, or both counts. */
function byText(r: DivergeResult): string {
  const c = r.compared;
  if (c.byEntries === 0) return ', by crankhash';
  if (c.byHash === 0) return ', by their entries: no crankhash';
  return `, ${c.byHash} by crankhash, ${c.byEntries} by their entries`;
}

/** One side's line: `A: chain-A.slog: cranks 0-2104, blocks 1-170` and what it began or ended inside. */
function sideLine(which: 'A' | 'B', name: string, s: SideRange): string {
  const notes: string[] = [];
  if (s.beganInside && s.firstCrank !== undefined) notes.push(`began inside crank ${s.firstCrank}: a dump or a cut`);
  if (s.endedInside && s.lastCrank !== undefined) notes.push(`ends inside crank ${s.lastCrank}`);
  if (s.abandoned > 0) notes.push(`${s.abandoned} executions a restart abandoned, not compared`);
  if (s.unordered > 0) notes.push(`${s.unordered} cranks without a number or out of order, not compared`);
  if (s.cranks > 0 && s.withHash === 0) notes.push('no crankhash');
  return `${which}: ${name}: ${rangeText(s)}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function comparedLine(r: DivergeResult): string {
  const c = r.compared;
  if (c.cranks === 0) return 'compared: nothing (no crank number on both sides)';
  const partial = c.partial > 0 ? `; ${c.partial} with one side partial, entries not compared` : '';
  return `compared: ${rangeText(c)} (${c.cranks} cranks${byText(r)}${partial})`;
}

/** At most `width` characters of a JSON text. */
function clip(text: string | undefined, width = 240): string {
  if (text === undefined) return '(none)';
  return text.length <= width ? text : `${text.slice(0, width - 3)}...`;
}

/** Runs of more than this many same entries print as one line. */
const SAME_RUN = 4;

/** Entries `from`..`to` (the same on both sides): each by label, or one line for a long run. */
function sameLines(a: readonly NormalEntry[], from: number, to: number): string[] {
  if (to - from + 1 > SAME_RUN) return [`    = ${from}-${to}: ${to - from + 1} entries the same (${a[from]?.label} .. ${a[to]?.label})`];
  const out: string[] = [];
  for (let i = from; i <= to; i += 1) out.push(`    = ${i} ${a[i]?.label}`);
  return out;
}

/** Both sides' entries: the same ones by label (long runs as one line), each differing one with both sides' text. */
function entryLines(a: readonly NormalEntry[], b: readonly NormalEntry[]): string[] {
  const out: string[] = [];
  const n = Math.max(a.length, b.length);
  let same = -1;
  for (let i = 0; i < n; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x && y && x.json === y.json) {
      if (same < 0) same = i;
      continue;
    }
    if (same >= 0) out.push(...sameLines(a, same, i - 1));
    same = -1;
    out.push(`    ≠ ${i} ${x?.label ?? '(none)'}${y && y.label !== x?.label ? ` / ${y.label}` : ''}`);
    out.push(`        A: ${clip(x?.json)}`);
    out.push(`        B: ${clip(y?.json)}`);
  }
  if (same >= 0) out.push(...sameLines(a, same, n - 1));
  return out;
}

function divergenceLines(r: DivergeResult): string[] {
  const d = r.first;
  if (!d) return [];
  const out = ['', `First divergence: ${place(d.crankNum, d.blockA, d.blockB)}, by ${d.by === 'crankhash' ? 'crankhash' : 'entries (no crankhash on both sides)'}`];
  out.push(`  A: ${d.whatA}${d.crankhashA ? `, crankhash ${d.crankhashA}` : ''}`);
  out.push(`  B: ${d.whatB}${d.crankhashB ? `, crankhash ${d.crankhashB}` : ''}`);
  const f = d.difference;
  if (f) {
    out.push(`  first difference: entry ${f.index}, ${f.labelA ?? f.labelB}${f.path ? `, field ${f.path}` : ''}`);
    out.push(`    A: ${clip(f.valueA)}`);
    out.push(`    B: ${clip(f.valueB)}`);
  }
  out.push('  entries (normalized: docs/diverge.md), = same, ≠ differs:');
  out.push(...entryLines(d.entriesA, d.entriesB));
  const a = r.after;
  const unit = d.by === 'crankhash' ? 'crankhash agrees' : 'entries agree';
  const again = a.agreeAgain > 0 ? `${unit} again in ${a.agreeAgain} (first: crank ${a.firstAgreeAgain})` : `${unit} again in none`;
  const activity = a.activityCompared > 0 ? `; activityhash differs in ${a.activityDiffers} of ${a.activityCompared}` : '';
  out.push(`  after it: ${a.cranks} cranks compared; ${again}${activity}`);
  return out;
}

function deliveryLines(r: DivergeResult): string[] {
  const m = r.deliveries;
  const out = [''];
  if (m.computronsCompared > 0 || m.mismatches > 0) {
    out.push(`Computrons: ${m.computronsCompared} deliveries compared, ${m.mismatches} ${m.mismatches === 1 ? 'differs' : 'differ'}`);
    for (const x of m.mismatchList) out.push(`  ${deliveryText(x)}: A ${x.computronsA}, B ${x.computronsB}`);
  } else {
    out.push('Computrons: neither side reports them for the same deliveries (XS workers do)');
  }
  if (m.computronsOneSide > 0) out.push(`  ${m.computronsOneSide} deliveries have computrons on one side only (an XS worker against another kind)`);
  out.push(`Deliveries on one side only: ${m.onlyA + m.onlyB === 0 ? 'none' : `${m.onlyA} on A, ${m.onlyB} on B`}`);
  for (const x of m.onlyAList) out.push(`  A: ${deliveryText(x)}`);
  for (const x of m.onlyBList) out.push(`  B: ${deliveryText(x)}`);
  const g = r.gaps;
  if (g.onlyA + g.onlyB > 0) {
    const first = (n: number | undefined): string => (n === undefined ? '' : ` (first: crank ${n})`);
    out.push(`Cranks of the compared range on one side only: ${g.onlyA} on A${first(g.firstOnlyA)}, ${g.onlyB} on B${first(g.firstOnlyB)}`);
  }
  const e = r.entriesOnly.first;
  if (e) out.push(`Cranks whose crankhashes agree and entries differ: ${r.entriesOnly.cranks} (first: ${place(e.crankNum, e.block)} (${e.what}): ${e.difference.what})`);
  else if (r.entriesOnly.looked && r.compared.byHash > 0) out.push('Cranks whose crankhashes agree and entries differ: none');
  if (r.blockDiffers) out.push(`Crank ${r.blockDiffers.crankNum} ran in block ${r.blockDiffers.blockA} on A, ${r.blockDiffers.blockB} on B`);
  if (r.firstActivityDiffers !== undefined && (r.first === undefined || r.firstActivityDiffers < r.first.crankNum)) {
    out.push(`activityhash differs from crank ${r.firstActivityDiffers} on, before any crankhash does: the kernels' state differed before (another history or configuration)`);
  }
  return out;
}

/** `1.18` (B over A), or `-` when A's is 0. */
function ratio(a: number, b: number): string {
  return a > 0 ? (b / a).toFixed(2) : '-';
}

function timeTable(title: string, keyHeader: string, rows: readonly TimeRow[], limit: number): Table {
  const shown = limit > 0 ? rows.slice(0, limit) : rows;
  return {
    title: limit > 0 && rows.length > limit ? `${title} (the ${limit} of ${rows.length} that differ most)` : title,
    columns: [
      { header: keyHeader, align: 'left' },
      { header: 'count', align: 'right' },
      { header: 'A', align: 'right' },
      { header: 'B', align: 'right' },
      { header: 'B/A', align: 'right' },
      { header: 'B-A', align: 'right' },
    ],
    rows: shown.map((row) => [row.key, String(row.count), readableMicros(row.microsA), readableMicros(row.microsB), ratio(row.microsA, row.microsB), signed(row.microsB - row.microsA)]),
  };
}

function signed(us: number): string {
  return us < 0 ? `-${readableMicros(-us)}` : `+${readableMicros(us)}`;
}

/** The line that says which node was slower. */
function slowerLine(r: DivergeResult): string {
  const t = r.timing;
  if (t.deliveries === 0) return 'Which node was slower: no delivery both ran';
  const slower = t.microsB > t.microsA ? 'B' : t.microsA > t.microsB ? 'A' : 'neither';
  return `Which node was slower, over the ${t.deliveries} deliveries both ran (deliver to deliver-result): A ${readableMicros(t.microsA)}, B ${readableMicros(t.microsB)}, B/A ${ratio(t.microsA, t.microsB)}: ${slower === 'neither' ? 'neither' : `${slower} slower`}`;
}

function timingLines(r: DivergeResult, options: ReportOptions): string[] {
  if (r.timing.deliveries === 0) return ['', slowerLine(r)];
  const out = ['', slowerLine(r), ''];
  timingTables(r, options).forEach((table, i) => {
    if (i > 0) out.push('');
    out.push(tableText(table));
  });
  return out;
}

/** The time tables (none when no delivery both ran). */
function timingTables(r: DivergeResult, options: ReportOptions): Table[] {
  const t = r.timing;
  if (t.deliveries === 0) return [];
  const tables = [
    timeTable('Delivery time by vat', 'vat', t.byVat, options.timeRows),
    timeTable('Delivery time by vat and method', 'vat method', t.byMethod, options.timeRows),
  ];
  if (t.byBlock.length > 0) tables.push(timeTable('Delivery time by block', 'block', t.byBlock, options.timeRows));
  tables.push({
    title: 'Deliveries whose times differ most',
    columns: [
      { header: 'crank', align: 'right' },
      { header: 'delivery', align: 'left' },
      { header: 'A', align: 'right' },
      { header: 'B', align: 'right' },
      { header: 'B-A', align: 'right' },
    ],
    rows: t.largest.map((p) => [String(p.crankNum), `${p.what} #${p.deliveryNum ?? '?'}`, readableMicros(p.microsA), readableMicros(p.microsB), signed(p.microsB - p.microsA)]),
  });
  if (t.parts.length > 0) {
    tables.push({
      title: 'Crank time by part, cranks both ran (docs/time-split.md)',
      columns: [
        { header: 'part', align: 'left' },
        { header: 'cranks', align: 'right' },
        { header: 'A', align: 'right' },
        { header: 'B', align: 'right' },
        { header: 'B/A', align: 'right' },
        { header: 'B-A', align: 'right' },
      ],
      rows: t.parts.map((p) => {
        const within = PARTS.find((s) => s.name === p.part)?.within;
        return [within ? `  ${p.part}` : p.part, String(p.cranks), readableMicros(p.microsA), readableMicros(p.microsB), ratio(p.microsA, p.microsB), signed(p.microsB - p.microsA)];
      }),
      note: 'a part unknown on either side in a crank is left out of that crank (the cranks column counts where both know it)',
    });
  }
  return tables;
}

/** The text report. */
export function divergeText(r: DivergeResult, options: ReportOptions): string {
  const lines = [
    verdictLine(r),
    sideLine('A', options.nameA, r.a),
    sideLine('B', options.nameB, r.b),
    comparedLine(r),
    ...divergenceLines(r),
    ...deliveryLines(r),
    ...timingLines(r, options),
  ];
  return `${lines.join('\n')}\n`;
}

/** The markdown report (a pull-request or issue comment): the verdict, the ranges, the divergence as text, the tables. */
export function divergeMarkdown(r: DivergeResult, options: ReportOptions): string {
  const out = [
    `**${markdownEscape(verdictLine(r))}**`,
    '',
    `- ${markdownEscape(sideLine('A', options.nameA, r.a))}`,
    `- ${markdownEscape(sideLine('B', options.nameB, r.b))}`,
    `- ${markdownEscape(comparedLine(r))}`,
  ];
  const divergence = divergenceLines(r).slice(1);
  if (divergence.length > 0) out.push('', '### First divergence', '', '```text', ...divergence, '```');
  out.push('', '### Computrons and deliveries', '', '```text', ...deliveryLines(r).slice(1), '```', '', markdownEscape(slowerLine(r)));
  for (const table of timingTables(r, options)) out.push('', tableMarkdown(table));
  return `${out.join('\n')}\n`;
}

/** The JSON report. */
export function divergeJson(r: DivergeResult, options: ReportOptions): unknown {
  return {
    format: DIVERGE_JSON_FORMAT,
    version: DIVERGE_JSON_VERSION,
    verdict: verdictLine(r),
    diverged: r.diverged,
    a: { slog: options.nameA, ...r.a },
    b: { slog: options.nameB, ...r.b },
    compared: r.compared,
    first: r.first ?? null,
    after: r.after,
    firstActivityDiffers: r.firstActivityDiffers ?? null,
    blockDiffers: r.blockDiffers ?? null,
    entriesOnly: r.entriesOnly,
    gaps: r.gaps,
    deliveries: r.deliveries,
    timing: r.timing,
  };
}
