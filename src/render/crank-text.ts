/**
 * One crank as text: its header and its lines in slog order.
 */
import { isReplay, type Crank, type CrankItem } from '../model/crank.js';
import type {
  ClistEntry,
  ConsoleEntry,
  CrankFinishEntry,
  DeliverEntry,
  DeliverResultEntry,
  OtherEntry,
  SlogEntry,
  SyscallResultEntry,
} from '../scan/entry-types.js';
import { isVatstore } from '../model/syscall-call.js';
import { NO_VAT } from '../model/vats.js';
import { vatOf } from '../scan/entry-types.js';
import type { RenderContext } from './context.js';
import { deliverResultLines, deliveryLines } from './delivery-lines.js';
import { inline, joinMapped, json, micros, percent } from './format.js';
import type { KernelLines } from './kernel-lines.js';
import { partsFigures, partsFiguresIfTheyAdd } from './parts-header.js';
import { appendSyscallLines } from './syscall-lines.js';

/** `[total:902µs local:790µs 87.58% syscall:112µs 12.42%] 4 syscalls 12345 computrons` */
export function timingText(crank: Crank, noTimes = false): string {
  return figuresAndCounts(crank, timingFigures(crank), noTimes);
}

/** `[total:902µs local:790µs 87.58% syscall:112µs 12.42%]` */
function timingFigures(crank: Crank): string {
  const { total, syscall } = crank.timing;
  const local = total - syscall;
  return `[total:${micros(total)} local:${micros(local)} ${percent(local / total)} syscall:${micros(syscall)} ${percent(syscall / total)}]`;
}

/**
 * `--parts`' header text: the time split (parts-header.ts) and the counts,
 * `[total:1892598µs vat:34754µs (gc:34473µs) ... snapshot:1840289µs kernel:2051µs] 1 syscalls 2364 computrons`;
 * where the split adds nothing to `--timing`'s figures (a local worker's
 * crank with no page-in or snapshot), `--timing`'s text.
 */
export function partsText(crank: Crank, noTimes = false): string {
  return figuresAndCounts(crank, partsFiguresIfTheyAdd(crank) ?? timingFigures(crank), noTimes);
}

/** The split whatever it adds (`top`'s rankings by a part show the part they rank by); `--timing`'s text for a crank without parts. */
export function splitText(crank: Crank, noTimes = false): string {
  return figuresAndCounts(crank, crank.parts === undefined ? timingFigures(crank) : partsFigures(crank, crank.parts), noTimes);
}

/** The figures, then the syscall count and computrons; --no-times keeps only the counts. */
function figuresAndCounts(crank: Crank, figures: string, noTimes: boolean): string {
  const { syscallCount, computrons } = crank.timing;
  const compute = computrons === undefined ? '' : ` ${computrons} computrons`;
  // --no-times keeps only what the vats did: the syscall count and computrons.
  return `${noTimes ? '' : `${figures} `}${syscallCount} syscalls${compute}`;
}

/** The vat's printed name in a crank header. */
export function crankVatName(ctx: RenderContext, crank: Crank): string {
  const named = ctx.vats.lookup(crank.vatID);
  if (named !== undefined) return named;
  const message = crank.start?.message;
  const dynamicName = message?.type === 'create-vat' ? message.dynamicOptions?.name : undefined;
  return typeof dynamicName === 'string' && dynamicName ? dynamicName : ctx.vats.label(crank.vatID);
}

/** A crank's number as printed (`?` when the slog never says it). */
export function crankNumber(crank: Crank): string {
  return Number.isNaN(crank.crankNum) ? '?' : `${crank.crankNum}`;
}

/**
 * The crank's vat in its header. A crank that names none (a message to a vat
 * that is gone): `<no vat>`; but a whole one prints `undefined`, as the
 * reference text (the slogulator's) does, byte for byte.
 */
function vatText(crank: Crank): string {
  if (crank.vatID !== undefined) return crank.vatID;
  return crank.finish && crank.opening === 'start' ? 'undefined' : NO_VAT;
}

/** What a header says of how the crank began and when it ran (SLOG-FORMAT.md, "Slogs as real nodes write them"). */
function openingText(crank: Crank): string {
  if (crank.opening === 'before-slog') return ' (started before the slog)';
  if (crank.opening === 'no-start') return ' (crank-start missing)';
  return '';
}

/**
 * `// crank 96: v1 bootstrap --- label [timing]`, `// crank 21: routing 118µs`,
 * `// crank 50: v1 bootstrap (unfinished)`, `// crank 11: v6 carol (started
 * before the slog)`, `... (again after restart)`. A crank the slog has only
 * part of (unfinished, or without its start) prints no timing; `--parts`
 * prints the split (partsText).
 */
export function crankHeader(ctx: RenderContext, crank: Crank): string {
  return crankHeaderWith(ctx, crank, ctx.options.parts ? partsText : timingText);
}

/**
 * A crank's header with these figures (under `timing`), and `doing` after
 * the vat's name, as `top` prints it: `// crank 808: v5 timer bringOutYourDead [...]`.
 */
export function crankHeaderWith(ctx: RenderContext, crank: Crank, figures: (crank: Crank, noTimes: boolean) => string, doing?: string): string {
  const num = crankNumber(crank);
  const routing = crank.crankType === 'routing';
  const who = routing ? 'routing' : `${vatText(crank)} ${crankVatName(ctx, crank)}${doing === undefined ? '' : ` ${doing}`}`;
  const again = crank.again ? ' (again after restart)' : '';
  const opening = openingText(crank);
  if (!crank.finish) return `// crank ${num}: ${who}${opening} (unfinished)${again}`;
  const { timing, noTimes } = ctx.options;
  const whole = opening === '';
  if (routing) return `// crank ${num}: routing${timing && whole ? ctx.took(crank.timing.total) : ''}${opening}${again}`;
  const label = ctx.annotations.crankLabels.get(crank.crankNum);
  const labelText = label === undefined ? '' : ` --- ${label}`;
  const timingPart = timing && whole ? ` ${figures(crank, noTimes === true)}` : '';
  return `// crank ${num}: ${who}${labelText}${timingPart}${opening}${again}`;
}

function clistLine(ctx: RenderContext, entry: ClistEntry): string[] {
  const { options } = ctx;
  if (!options.clist || options.nonoise) return [];
  return [clistText(ctx, entry)];
}

function clistText(ctx: RenderContext, entry: ClistEntry): string {
  const tag = ctx.options.usesloggertags ? `clist ${entry.mode}` : entry.mode;
  return `${tag}: ${entry.vatID}:${ctx.vref(entry.vobj, entry.vatID)} :: ${ctx.kref(entry.kobj)}`;
}

function consoleLine(ctx: RenderContext, entry: ConsoleEntry): string {
  // Kernel messages (`source: "kernel"`) have no level.
  if (entry.level === undefined) return `console: ${Array.isArray(entry.args) ? joinMapped(entry.args as unknown[], inline, ' ') : ''}`;
  const level = inline(entry.level);
  // The slogger's tag names the state even when the entry has none, as the reference text does: `console log (undefined)`.
  const tag = ctx.tag(level, `console ${level} (${entry.state === undefined ? 'undefined' : inline(entry.state)})`);
  const args = Array.isArray(entry.args) ? joinMapped(entry.args as unknown[], inline, ' ') : '';
  return `${tag}: ${args}`;
}

/** An entry without its wall-clock fields (for --no-times). */
function withoutTimes(entry: SlogEntry): Record<string, unknown> {
  const { time: _time, monotime: _monotime, ...rest } = entry;
  return rest;
}

/** The lines of an entry inside a crank, other than a syscall. */
export function entryLines(ctx: RenderContext, kernel: KernelLines, entry: SlogEntry): string[] {
  switch (entry.type) {
    case 'deliver':
      return deliveryLines(ctx, entry as DeliverEntry);
    case 'deliver-result':
      return deliverResultLines(entry as DeliverResultEntry);
    case 'clist':
      return clistLine(ctx, entry as ClistEntry);
    case 'console':
      return [consoleLine(ctx, entry as ConsoleEntry)];
    case 'crank-finish': {
      // One whose crank-start the slog lacks, outside any crank.
      const finish = entry as CrankFinishEntry;
      if (ctx.options.nonoise) return [];
      const seconds = finish.seconds;
      return [`crank-finish:${seconds === undefined ? '' : ctx.took(seconds)} crank ${finish.crankNum ?? '?'}`];
    }
    case 'syscall-result': {
      // A result whose syscall the slog lacks (it starts in the middle): only a failure says anything.
      const result = entry as SyscallResultEntry;
      // Under --novatstore a vatstore syscall's result is not read (render/reads.ts): no line.
      if (ctx.options.novatstore && isVatstore(result.name)) return [];
      const sr = ctx.kernelSpace ? result.ksr : result.vsr;
      const status = Array.isArray(sr) ? sr[0] : undefined;
      return status === undefined || status === 'ok' ? [] : [`${ctx.tag('result', 'syscall-result')}: ${inline(status)} ${inline(sr?.[1])}`];
    }
    case 'crank-start':
    case 'syscall':
      // Never outside a crank: the crank model opens one for them.
      return [];
    default:
      return kernel.lines(entry as OtherEntry, ctx) ?? [`@ ${entry.type}: ${json(ctx.options.noTimes ? withoutTimes(entry) : entry)}`];
  }
}

/** entryLines(), pushed onto `out` (without a list for the usual single line). */
function appendEntryLines(ctx: RenderContext, kernel: KernelLines, entry: SlogEntry, out: string[]): void {
  switch (entry.type) {
    case 'deliver': {
      const lines = deliveryLines(ctx, entry as DeliverEntry);
      if (lines.length === 1) out.push(lines[0] as string);
      else for (const line of lines) out.push(line);
      return;
    }
    case 'deliver-result':
      // Nothing when it went well.
      if ((entry as DeliverResultEntry).status === 'ok') return;
      break;
    case 'clist': {
      const { options } = ctx;
      if (options.clist && !options.nonoise) out.push(clistText(ctx, entry as ClistEntry));
      return;
    }
    default:
      break;
  }
  for (const line of entryLines(ctx, kernel, entry)) out.push(line);
}

/** The body of a crank (everything under its header), one string per line. */
export function crankBody(ctx: RenderContext, kernel: KernelLines, crank: Crank): string[] {
  const out: string[] = [];
  appendCrankBody(ctx, kernel, crank, out);
  return out;
}

/** crankBody(), pushed onto `out`. */
export function appendCrankBody(ctx: RenderContext, kernel: KernelLines, crank: Crank, out: string[]): void {
  appendCrankStart(ctx, crank, out);
  appendCrankItems(ctx, kernel, crank, 0, out);
  appendCrankFinish(ctx, crank, out);
}

/** The body's first line (its crank-start). */
export function appendCrankStart(ctx: RenderContext, crank: Crank, out: string[]): void {
  if (crank.start && !ctx.options.nonoise) out.push(`crank-start: ${crank.crankType} crank ${crankNumber(crank)}`);
}

/**
 * The lines of the crank's items from `from` on (a crank that spilled has
 * the text of the items before in hand), in the context of the crank's vat.
 */
export function appendCrankItems(ctx: RenderContext, kernel: KernelLines, crank: Crank, from: number, out: string[]): void {
  const vatCtx = ctx.inVat(crank.vatID);
  const { nonoise } = ctx.options;
  const items = crank.items;
  for (let i = from; i < items.length; i += 1) {
    const item = items[i] as CrankItem;
    if (isReplay(item)) {
      // A vat paged in: its transcript, in vat space (what it has), each line marked; --nonoise drops it.
      if (!nonoise) appendReplayLines(vatCtx, kernel, item, out);
    } else if (item.kind === 'syscall') appendSyscallLines(vatCtx, item, out);
    else appendEntryLines(vatCtx, kernel, item.entry, out);
  }
}

/** The body's last line (its crank-finish). */
export function appendCrankFinish(ctx: RenderContext, crank: Crank, out: string[]): void {
  if (crank.finish && !ctx.options.nonoise) {
    const total = crank.timing.total;
    out.push(`crank-finish:${Number.isNaN(total) ? '' : ctx.took(total)} crank ${crank.finish.crankNum ?? crankNumber(crank)}`);
  }
}

/**
 * The lines of a replayed entry or syscall: as --vatspace prints it live,
 * each line prefixed `replay ` (SLOG-FORMAT.md, "Replays").
 */
export function appendReplayLines(ctx: RenderContext, kernel: KernelLines, item: CrankItem, out: string[]): void {
  const replay = ctx.replayContext().inVat(item.kind === 'syscall' ? item.call.vatID : vatOf(item.entry));
  const lines: string[] = [];
  if (item.kind === 'syscall') appendSyscallLines(replay, item, lines);
  else appendEntryLines(replay, kernel, item.entry, lines);
  // A big string's text may hold line breaks: each line is marked, so its text is read whole here.
  const scope = ctx.bigText;
  for (const text of lines) for (const line of (scope ? scope.expand(text) : text).split('\n')) out.push(`replay ${line}`);
}
