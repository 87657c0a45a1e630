/**
 * A slog as a Chrome Trace Event file (JSON Object Format), for Perfetto and
 * chrome://tracing: one track (pid 1, a tid each) per vat, named by a
 * `thread_name` metadata event; a complete ("X") slice per delivery crank
 * named by its first line (`deliver: @ko22 <- openAccount("x0", 0): @kp46`)
 * with a nested slice per syscall; routing cranks (and deliveries that reached
 * no vat) on a kernel track (tid 0).
 * Computrons, syscall counts and times go in the slices' args.
 *
 * Events are written as each crank ends, never gathered: a slog of any size
 * streams through. Timestamps are microseconds since the slog's first entry
 * (with nanosecond decimals); a syscall slice is clamped into its crank's so
 * that the nesting holds even where the slog's clock stepped.
 */
import type { Annotations } from '../model/annotations.js';
import type { CrankSink } from '../model/assembler.js';
import type { Crank, SyscallPair } from '../model/crank.js';
import { crankStartTime, syscallName } from '../model/crank.js';
import type { CrankStartEntry, SlogEntry } from '../scan/entry-types.js';
import { VatNames } from '../model/vats.js';
import { READ_ALL } from '../scan/reads.js';
import { RenderContext } from '../render/context.js';
import { crankVatName, entryLines } from '../render/crank-text.js';
import { KernelLines } from '../render/kernel-lines.js';
import { defaultRenderOptions } from '../render/options.js';
import { syscallLines } from '../render/syscall-lines.js';
import { renderMethargs } from '../render/values.js';

/** The one process every track belongs to. */
export const TRACE_PID = 1;
/** The kernel's track: routing cranks, and delivery cranks that reached no vat. */
export const KERNEL_TID = 0;

/** One event of the Trace Event format (the fields slogulate writes). */
export interface TraceEvent {
  name: string;
  cat?: string;
  /** `X` complete slice, `M` metadata. */
  ph: 'X' | 'M';
  /** Microseconds. */
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

export interface TraceConfig {
  /** Receives the file's text, in pieces, in order. */
  write: (text: string) => void;
  annotations: Annotations;
  /** What the process track is called (e.g. the slog's name). */
  processName: string;
  /** `<BIG>` threshold for values in slice names (an annotation file's bigWidth wins). */
  bigWidth?: number;
  /** Render vrefs instead of krefs in names. */
  vatspace?: boolean;
  /** Which cranks to draw (default all). */
  selectCrank?: (crank: Crank) => boolean;
}

/** The vat's tid: `v12` -> 13 (stable across slogs of the same kernel); other IDs from 1,000,000 on. */
function vatTid(vatID: string, others: Map<string, number>): number {
  const m = /^v(\d+)$/.exec(vatID);
  if (m) return Number(m[1]) + 1;
  let tid = others.get(vatID);
  if (tid === undefined) {
    tid = 1_000_000 + others.size;
    others.set(vatID, tid);
  }
  return tid;
}

/** Nanoseconds as a JSON number of microseconds (`1234.567`). */
const us = (ns: number): number => ns / 1000;

/** What `trace` reads: every field (its slices are named by the crank's rendered lines). */
export const TRACE_READS = READ_ALL;

export class TraceWriter implements CrankSink {
  readonly vats: VatNames;
  /** Renders syscall lines (every syscall: subscribes and vatstore included). */
  private readonly ctx: RenderContext;
  /** Renders crank names: the text of --nonoise. */
  private readonly nameCtx: RenderContext;
  private readonly kernel: KernelLines;
  private readonly write: (text: string) => void;
  private readonly selectCrank: ((crank: Crank) => boolean) | undefined;
  /** The `time` of the slog's first timed entry: ts 0. */
  private base: number | undefined;
  private first = true;
  /** tid -> the name its thread_name event gave it. */
  private readonly named = new Map<number, string>();
  private readonly otherTids = new Map<string, number>();
  /** Counts, for the caller's report. */
  cranks = 0;
  syscalls = 0;

  constructor(private readonly config: TraceConfig) {
    this.vats = new VatNames(config.annotations.vatNames);
    const options = {
      ...defaultRenderOptions(),
      clist: false,
      vatspace: config.vatspace === true,
      bigWidth: config.bigWidth ?? defaultRenderOptions().bigWidth,
    };
    this.ctx = new RenderContext(options, config.annotations, this.vats);
    this.nameCtx = new RenderContext({ ...options, nonoise: true }, config.annotations, this.vats);
    this.kernel = new KernelLines(this.nameCtx);
    this.write = config.write;
    this.selectCrank = config.selectCrank;
  }

  /** Opens the file and names the process and the kernel track. */
  begin(): void {
    this.write('{"displayTimeUnit":"ms","traceEvents":[\n');
    this.event({ name: 'process_name', ph: 'M', pid: TRACE_PID, tid: KERNEL_TID, args: { name: this.config.processName } });
    this.nameTrack(KERNEL_TID, 'kernel', -1);
  }

  /** Every entry, in order, before it is assembled: names and the time origin. */
  observe(entry: SlogEntry): void {
    this.vats.observe(entry);
    if (this.base === undefined && typeof entry.time === 'number' && Number.isFinite(entry.time)) this.base = entry.time;
  }

  entry(): void {
    // Entries outside cranks (startup, blocks) are not drawn.
  }

  crank(crank: Crank): void {
    if (this.selectCrank && !this.selectCrank(crank)) return;
    const start = this.ns(crankStartTime(crank));
    if (start === undefined) return;
    const end = Math.max(start, this.ns(crank.finish ? crank.finish.time : lastTime(crank)) ?? start);
    this.cranks += 1;
    if (crank.crankType === 'routing') {
      this.routingSlice(crank, start, end);
      return;
    }
    // A delivery crank that reached no vat is kernel work.
    const vatID = crank.vatID;
    let tid = KERNEL_TID;
    const args: Record<string, unknown> = { crank: crank.crankNum };
    if (vatID !== undefined) {
      tid = vatTid(vatID, this.otherTids);
      this.ctx.currentVat = vatID;
      const vatName = crankVatName(this.ctx, crank);
      const label = `${vatID} ${vatName}`;
      if (this.named.get(tid) !== label) this.nameTrack(tid, label, tid);
      args.vat = vatID;
      args.vatName = vatName;
    }
    args.syscalls = crank.timing.syscallCount;
    args.syscallMicros = Math.round(crank.timing.syscall * 1e9) / 1000;
    if (crank.timing.computrons !== undefined) args.computrons = crank.timing.computrons;
    const crankLabel = this.config.annotations.crankLabels.get(crank.crankNum);
    if (crankLabel !== undefined) args.label = crankLabel;
    if (!crank.finish) args.unfinished = true;
    this.event({ name: this.firstLine(crank), cat: 'crank', ph: 'X', ts: us(start), dur: us(end - start), pid: TRACE_PID, tid, args });
    for (const item of crank.items) {
      // A replayed syscall (a vat paged in) is not one of the crank's: the crank's slice holds its time.
      if (item.kind === 'syscall' && !item.replay) this.syscallSlice(crank, item, tid, start, end);
    }
  }

  /** Closes the file. */
  end(): void {
    this.write('\n]}\n');
  }

  private syscallSlice(crank: Crank, pair: SyscallPair, tid: number, crankStart: number, crankEnd: number): void {
    const called = this.ns(pair.call.time) ?? crankStart;
    const s = Math.min(Math.max(called, crankStart), crankEnd);
    const returned = pair.result ? (this.ns(pair.result.time) ?? s) : s;
    const e = Math.min(Math.max(returned, s), crankEnd);
    const name = syscallName(pair);
    const args: Record<string, unknown> = { crank: crank.crankNum, syscall: name };
    const ksr = pair.result?.ksr;
    const status = Array.isArray(ksr) ? ksr[0] : undefined;
    if (!pair.result) args.noResult = true;
    else if (status !== undefined && status !== 'ok') args.status = status;
    this.syscalls += 1;
    this.event({ name: this.syscallLine(pair) ?? name, cat: 'syscall', ph: 'X', ts: us(s), dur: us(e - s), pid: TRACE_PID, tid, args });
  }

  private routingSlice(crank: Crank, start: number, end: number): void {
    const message = crank.start?.message;
    const args: Record<string, unknown> = { crank: crank.crankNum };
    if (typeof message?.type === 'string') args.messageType = message.type;
    if (crank.vatID !== undefined) args.vat = crank.vatID;
    if (!crank.finish) args.unfinished = true;
    const name = `routing ${messageText(this.ctx, crank.start)}`;
    this.event({ name, cat: 'routing', ph: 'X', ts: us(start), dur: us(end - start), pid: TRACE_PID, tid: KERNEL_TID, args });
  }

  /**
   * The crank's first line of text, as `--nonoise` prints it (no crank-start,
   * no clist): its delivery, or what comes before it (a create-vat).
   */
  private firstLine(crank: Crank): string {
    const ctx = this.nameCtx;
    ctx.currentVat = crank.vatID;
    for (const item of crank.items) {
      const lines = item.kind === 'syscall' ? syscallLines(ctx, item) : entryLines(ctx, this.kernel, item.entry);
      const first = lines[0]?.split('\n')[0];
      if (first !== undefined) return first;
    }
    // Nothing was printed for it (a message to a terminated vat): its message says what it was.
    return messageText(ctx, crank.start);
  }

  /** The syscall's line, without a `result:` line before it, first line only. */
  private syscallLine(pair: SyscallPair): string | undefined {
    const lines = syscallLines(this.ctx, pair);
    return lines[lines.length - 1]?.split('\n')[0];
  }

  private nameTrack(tid: number, name: string, sortIndex: number): void {
    this.named.set(tid, name);
    this.event({ name: 'thread_name', ph: 'M', pid: TRACE_PID, tid, args: { name } });
    this.event({ name: 'thread_sort_index', ph: 'M', pid: TRACE_PID, tid, args: { sort_index: sortIndex } });
  }

  /** A slog time (seconds) as nanoseconds since the first entry. */
  private ns(time: unknown): number | undefined {
    if (typeof time !== 'number' || !Number.isFinite(time)) return undefined;
    this.base ??= time;
    return Math.round((time - this.base) * 1e9);
  }

  private event(event: TraceEvent): void {
    this.write(`${this.first ? '' : ',\n'}${JSON.stringify(event)}`);
    this.first = false;
  }
}

/** The time of an unfinished crank's last entry. */
function lastTime(crank: Crank): number | undefined {
  let last: number | undefined;
  const see = (t: unknown): void => {
    if (typeof t === 'number' && Number.isFinite(t) && (last === undefined || t > last)) last = t;
  };
  see(crank.start?.time);
  for (const item of crank.items) {
    if (item.kind === 'syscall') {
      see(item.call.time);
      see(item.result?.time);
    } else {
      see(item.entry.time);
    }
  }
  return last;
}

/**
 * A crank's message, from its crank-start: `send: @ko23 <- bootstrap(...): @kp40`,
 * `notify: v1 @kp41`, `startVat: v1`. Always in kernel space.
 */
export function messageText(ctx: RenderContext, start: CrankStartEntry | undefined): string {
  const message = start?.message;
  const type = (typeof message?.type === 'string' ? message.type : start?.crankType) ?? 'crank';
  if (type === 'send' && message) {
    const msg = (message.msg ?? {}) as { methargs?: unknown; result?: unknown };
    const { method, args } = renderMethargs(msg.methargs, { bigWidth: ctx.bigWidth, pref: (ref) => ctx.kref(ref) });
    const result = msg.result === undefined || msg.result === null ? '' : `: ${ctx.kref(String(msg.result))}`;
    return `send: ${ctx.kref(String(message.target))} <- ${method}(${args})${result}`;
  }
  const parts: string[] = [];
  if (typeof message?.vatID === 'string') parts.push(message.vatID);
  if (typeof message?.kpid === 'string') parts.push(ctx.kref(message.kpid));
  return parts.length ? `${type}: ${parts.join(' ')}` : type;
}
