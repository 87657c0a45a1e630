/**
 * One crank as text: its header and its lines in slog order.
 */
import type { Crank } from '../model/crank.js';
import type { ClistEntry, ConsoleEntry, DeliverEntry, DeliverResultEntry, OtherEntry, SlogEntry } from '../scan/entry-types.js';
import type { RenderContext } from './context.js';
import { deliverResultLines, deliveryLines } from './delivery-lines.js';
import { inline, micros, percent } from './format.js';
import type { KernelLines } from './kernel-lines.js';
import { appendSyscallLines } from './syscall-lines.js';

/** `[total:902µs local:790µs 87.58% syscall:112µs 12.42%] 4 syscalls 12345 computrons` */
export function timingText(crank: Crank, noTimes = false): string {
  const { total, syscall, syscallCount, computrons } = crank.timing;
  const local = total - syscall;
  const figures = `[total:${micros(total)} local:${micros(local)} ${percent(local / total)} syscall:${micros(syscall)} ${percent(syscall / total)}]`;
  const compute = computrons === undefined ? '' : ` ${computrons} computrons`;
  // --no-times keeps only what the vats did: the syscall count and computrons.
  return `${noTimes ? '' : `${figures} `}${syscallCount} syscalls${compute}`;
}

/** The vat's printed name in a crank header. */
export function crankVatName(ctx: RenderContext, crank: Crank): string {
  const named = ctx.vats.lookup(crank.vatID);
  if (named !== undefined) return named;
  const message = crank.start.message;
  const dynamicName = message?.type === 'create-vat' ? message.dynamicOptions?.name : undefined;
  return typeof dynamicName === 'string' && dynamicName ? dynamicName : ctx.vats.label(crank.vatID);
}

/**
 * `// crank 96: v1 bootstrap --- label [timing]`, `// crank 21: routing 118µs`,
 * or `// crank 50: v1 bootstrap (unfinished)`.
 */
export function crankHeader(ctx: RenderContext, crank: Crank): string {
  const { crankNum } = crank;
  const routing = crank.crankType === 'routing';
  const who = routing ? 'routing' : `${crank.vatID} ${crankVatName(ctx, crank)}`;
  if (!crank.finish) return `// crank ${crankNum}: ${who} (unfinished)`;
  const { timing, noTimes } = ctx.options;
  if (routing) return `// crank ${crankNum}: routing${timing ? ctx.took(crank.timing.total) : ''}`;
  const label = ctx.annotations.crankLabels.get(crankNum);
  const labelText = label === undefined ? '' : ` --- ${label}`;
  const timingPart = timing ? ` ${timingText(crank, noTimes)}` : '';
  return `// crank ${crankNum}: ${who}${labelText}${timingPart}`;
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
  const level = inline(entry.level);
  const tag = ctx.tag(level, `console ${level} (${entry.state === undefined ? 'undefined' : inline(entry.state)})`);
  const args = Array.isArray(entry.args) ? entry.args.map(inline).join(' ') : '';
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
    default:
      return kernel.lines(entry as OtherEntry) ?? [`@ ${entry.type}: ${JSON.stringify(ctx.options.noTimes ? withoutTimes(entry) : entry)}`];
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
  ctx.currentVat = crank.vatID;
  const { nonoise } = ctx.options;
  if (!nonoise) out.push(`crank-start: ${crank.crankType} crank ${crank.crankNum}`);
  for (const item of crank.items) {
    if (item.kind === 'syscall') appendSyscallLines(ctx, item, out);
    else appendEntryLines(ctx, kernel, item.entry, out);
  }
  if (crank.finish && !nonoise) {
    out.push(`crank-finish:${ctx.took(crank.timing.total)} crank ${crank.finish.crankNum}`);
  }
}
