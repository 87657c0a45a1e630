/**
 * A slog as a Chrome Trace Event file (JSON Object Format), for Perfetto and
 * chrome://tracing: one track (pid 1, a tid each) per vat, named by a
 * `thread_name` metadata event; a complete ("X") slice per delivery crank
 * named by its first line (`deliver: @ko22 <- openAccount("x0", 0): @kp46`)
 * with a nested slice per syscall; routing cranks (and deliveries that reached
 * no vat) on a kernel track (tid 0).
 * Computrons, syscall counts and times go in the slices' args.
 *
 * Flow arrows (`s` on the sending syscall's slice, `f` bound to the enclosing
 * delivery slice) join each `send` syscall to the delivery it queued and
 * each `resolve` to the notifies it queued, by the causes of `why`
 * (analyses/why/cause-finder.ts): an arrow is written when its delivery
 * ends, and only what is still in flight is kept (the start of each queued
 * send or resolve, weakly held by its cause). Counter tracks (`C`): each
 * vat's XS heap (its deliveries' `currentHeapCount`) and the kernel-stats
 * gauges (each key with an `Up` companion: kernelObjects, clistEntries,
 * runQueueLength...), and at each drawn crank's end the run queue's length
 * as the cranks tell it and the items the vats queued not yet delivered
 * (queueCounters).
 *
 * Events are written as each crank ends, never gathered: a slog of any size
 * streams through. A crank's syscall slices come before its own slice; a
 * crank of many syscalls writes them as it goes (it spills them,
 * model/assembler.ts), so that it is never held whole. Timestamps are
 * microseconds since the slog's first entry (with nanosecond decimals); a
 * syscall slice starts no earlier than its crank's, and the crank's slice
 * reaches the end of its last syscall's, so that the nesting holds even
 * where the slog's clock stepped.
 */
import type { Annotations } from '../../model/annotations.js';
import type { CrankSink, SinkAnswer } from '../../model/assembler.js';
import type { Crank, CrankItem, SyscallPair } from '../../model/crank.js';
import { crankStartTime, syscallName } from '../../model/crank.js';
import type { CrankStartEntry, DeliverResultEntry, SlogEntry } from '../../scan/entry-types.js';
import { VatNames } from '../../model/vats.js';
import { messageMethargs } from '../../scan/message.js';
import { READ_ALL } from '../../scan/reads.js';
import type { Cause } from '../why/cause.js';
import { CauseFinder } from '../why/cause-finder.js';
import { RenderContext } from '../../render/context.js';
import { crankVatName, entryLines } from '../../render/crank-text.js';
import { KernelLines } from '../../render/kernel-lines.js';
import { defaultRenderOptions } from '../../render/options.js';
import { syscallLines } from '../../render/syscall-lines.js';
import { renderMethargs } from '../../render/values.js';

/** The one process every track belongs to. */
export const TRACE_PID = 1;
/** The kernel's track: routing cranks, and delivery cranks that reached no vat. */
export const KERNEL_TID = 0;

/** One event of the Trace Event format (the fields slogulate writes). */
export interface TraceEvent {
  name: string;
  cat?: string;
  /** `X` complete slice, `M` metadata, `s`/`f` flow start/end, `C` counter. */
  ph: 'X' | 'M' | 's' | 'f' | 'C';
  /** Microseconds. */
  ts?: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
  /** A flow's id: its `s` and `f` share it (and `cat` and `name`). */
  id?: number;
  /** `e`: the flow end binds to the slice enclosing its `ts` (the delivery's). */
  bp?: 'e';
}

/** Where a flow arrow starts: a drawn send or resolve syscall slice. */
interface FlowStart {
  tid: number;
  /** µs */
  ts: number;
}

/** A drawn crank: its track and where its slice starts, ns. */
interface Drawn {
  crankNum: number;
  tid: number;
  start: number;
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

/** What the trace keeps of a crank that spilled (model/assembler.ts) until it ends. */
interface SpilledCrank {
  crank: Crank;
  /** Is it drawn (the selection, decided at its first spill)? */
  drawn: boolean;
  /** Where its slice starts, ns (undefined: no time known at the first spill; its spilled syscalls are not drawn). */
  start: number | undefined;
  /** The latest time of a spilled syscall, seconds (an unfinished crank's slice reaches it). */
  last: number | undefined;
  /** Where the latest spilled syscall slice ends, ns. */
  end: number;
  /** Its name, once an item gave its first line. */
  name: string | undefined;
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
  /** The timeline draws deliveries and syscalls from their entries, not from the time split (CrankSink.partsUnread). */
  readonly partsUnread = true;
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
  /** The open crank, once it spilled: what its spills wrote and found. */
  private spilled: SpilledCrank | undefined;
  /** The causes of deliveries, for the flow arrows. */
  private readonly causes: CauseFinder;
  /** Each send or resolve in flight whose syscall slice was drawn: where its arrow starts (weak: gone when its cause is). */
  private readonly flowStarts = new WeakMap<Cause, FlowStart>();
  /** The crank whose syscalls are being put in flight (CauseFinder.crank), if drawn. */
  private sending: Drawn | undefined;
  /** The XS heap counts of the live deliveries seen since the last crank ended (a crank has a few). */
  private heaps: { crankNum: number | undefined; count: number; time: unknown }[] = [];
  /** The run queue as the cranks tell it: items routing cranks put on it, less those delivery cranks took (see queueCounters). */
  private runQueue = 0;
  /** The message types routing cranks have routed (a delivery crank of one of them took it from the run queue). */
  private readonly routedTypes = new Set<string>();
  /** Was the last crank drawn, or none ended yet (a kernel-stats entry then is drawn too)? */
  private lastDrawn = true;
  /**
   * Set when the rest of the slog holds no crank to draw once one of these
   * ends (run/pass.ts planStop): the read stops after the first that ends
   * undrawn, once a crank was drawn. From then on the whole read draws
   * nothing more (no crank; kernel-stats only after a drawn crank), so the
   * file is the same.
   */
  stopPast: ((crank: Crank) => boolean) | undefined;
  /** Counts, for the caller's report. */
  cranks = 0;
  syscalls = 0;
  flows = 0;

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
    this.causes = new CauseFinder({ queued: (cause) => this.queued(cause), left: () => undefined });
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
    this.causes.entry(entry);
    if (entry.type === 'kernel-stats' && this.lastDrawn) this.kernelStats(entry);
    if (entry.type === 'deliver-result') {
      const result = entry as DeliverResultEntry;
      const count = result.replay === true ? undefined : result.dr?.[2]?.currentHeapCount;
      if (typeof count === 'number' && Number.isFinite(count)) this.heaps.push({ crankNum: result.crankNum, count, time: result.time });
    }
  }

  entry(): void {
    // Entries outside cranks (startup, blocks) are not drawn.
  }

  /**
   * The open crank spills (model/assembler.ts): its held syscalls' slices
   * are written now (events need not be in time order; the crank's own
   * slice comes at its end, after them, as for every crank). Whether the
   * crank is drawn is decided at its first spill (its number and vat are
   * known by then).
   */
  spill(crank: Crank): void {
    this.causes.spill(crank);
    let spill = this.spilled;
    if (spill?.crank !== crank) {
      spill = {
        crank,
        drawn: !this.selectCrank || this.selectCrank(crank),
        start: this.ns(crankStartTime(crank)),
        last: undefined,
        end: -Infinity,
        name: undefined,
      };
      this.spilled = spill;
    }
    const from = crank.spilled ?? 0;
    const items = crank.items;
    for (let i = from; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      if (item.kind !== 'syscall') continue;
      spill.last = later(spill.last, item.call.time);
      spill.last = later(spill.last, item.result?.time);
    }
    if (!spill.drawn || crank.crankType === 'routing') return;
    spill.name ??= this.firstLine(crank, from);
    // No time yet to place the crank at: these syscalls are not drawn.
    const start = spill.start;
    if (start === undefined) return;
    const tid = this.crankTid(crank);
    for (let i = from; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      if (item.kind === 'syscall' && !item.replay) spill.end = Math.max(spill.end, this.syscallSlice(crank, item, tid, start));
    }
  }

  /** A crank ends: its slices, then its cause's arrow (its own sends and resolves are put in flight after it is drawn); 'stop' past the selection (stopPast). */
  crank(crank: Crank): SinkAnswer {
    const drawn = this.draw(crank);
    this.heaps = [];
    this.lastDrawn = drawn !== undefined;
    this.sending = drawn;
    const found = this.causes.crank(crank);
    this.sending = undefined;
    if (drawn && found) this.flow(found.cause, drawn);
    this.countQueue(crank);
    if (drawn) this.queueCounters(crank, drawn);
    else if (this.cranks > 0 && this.stopPast?.(crank)) return 'stop';
  }

  /**
   * The run queue after a crank: a routing crank moves its message from the
   * acceptance queue to the run queue, a delivery crank of a message type
   * routing cranks route (send, notify, startVat...) takes one off it. A
   * slog that starts after the kernel did may deliver what was routed before
   * its first line: never below 0.
   */
  private countQueue(crank: Crank): void {
    const type = crank.start?.message?.type;
    if (typeof type !== 'string') return;
    if (crank.crankType === 'routing') {
      this.routedTypes.add(type);
      this.runQueue += 1;
    } else if (this.routedTypes.has(type)) {
      this.runQueue = Math.max(0, this.runQueue - 1);
    }
  }

  /**
   * Two counters at the drawn crank's end (docs/trace.md): \`run queue\`,
   * as the cranks tell it (countQueue), and \`run + acceptance queues\`, the
   * items queued by the vats' syscalls (sends, the notifies of resolves,
   * vat-admin requests) not yet delivered, as \`why\`'s causes know them
   * (in-flight.ts): what kernel-stats' runQueueLength and
   * runQueueLength + acceptanceQueueLength say at each run's end.
   */
  private queueCounters(crank: Crank, drawn: Drawn): void {
    const ts = us(Math.max(this.ns(crank.finish?.time) ?? drawn.start, drawn.start));
    this.event({ name: 'run queue', cat: 'queue', ph: 'C', ts, pid: TRACE_PID, tid: KERNEL_TID, args: { value: this.runQueue } });
    this.event({ name: 'run + acceptance queues', cat: 'queue', ph: 'C', ts, pid: TRACE_PID, tid: KERNEL_TID, args: { value: this.causes.inFlight.queued } });
  }

  /** The crank's slices; where its slice is, undefined when not drawn. */
  private draw(crank: Crank): Drawn | undefined {
    const spill = this.spilled?.crank === crank ? this.spilled : undefined;
    this.spilled = undefined;
    if (spill ? !spill.drawn : this.selectCrank && !this.selectCrank(crank)) return undefined;
    const start = spill?.start ?? this.ns(crankStartTime(crank));
    if (start === undefined) return undefined;
    const last = crank.finish ? crank.finish.time : later(lastTime(crank), spill?.last);
    let end = Math.max(start, this.ns(last) ?? start);
    this.cranks += 1;
    if (crank.crankType === 'routing') {
      this.routingSlice(crank, start, end);
      return { crankNum: crank.crankNum, tid: KERNEL_TID, start };
    }
    // A delivery crank that reached no vat is kernel work.
    const vatID = crank.vatID;
    const tid = this.crankTid(crank);
    const from = crank.spilled ?? 0;
    // The syscalls' slices first: the crank's slice holds them all (a syscall that ended after the crank-finish, the clock having stepped back, stretches it).
    const items = crank.items;
    let syscallEnd = spill ? spill.end : -Infinity;
    for (let i = from; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      // A replayed syscall (a vat paged in) is not one of the crank's: the crank's slice holds its time.
      if (item.kind === 'syscall' && !item.replay) syscallEnd = Math.max(syscallEnd, this.syscallSlice(crank, item, tid, start));
    }
    end = Math.max(end, syscallEnd);
    const args: Record<string, unknown> = { crank: crank.crankNum };
    let label: string | undefined;
    if (vatID !== undefined) {
      const vatName = crankVatName(this.ctx, crank);
      label = `${vatID} ${vatName}`;
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
    // A crank a restart made the kernel run again: both executions are on the timeline, the second marked as the render marks it.
    if (crank.again) args.again = true;
    const first = spill?.name ?? this.firstLine(crank, from) ?? messageText(this.nameCtx, crank.start);
    const name = crank.again ? `${first} (again after restart)` : first;
    this.event({ name, cat: 'crank', ph: 'X', ts: us(start), dur: us(end - start), pid: TRACE_PID, tid, args });
    // Each live delivery's heap (a crank may hold several: a delivery and its vat's bringOutYourDead).
    for (const heap of label === undefined ? [] : this.heaps) {
      if (heap.crankNum !== crank.crankNum) continue;
      const ts = us(Math.max(this.ns(heap.time) ?? end, start));
      this.event({ name: `XS heap ${label}`, cat: 'heap', ph: 'C', ts, pid: TRACE_PID, tid, args: { currentHeapCount: heap.count } });
    }
    return { crankNum: crank.crankNum, tid, start };
  }

  /** A send or resolve of the crank being drawn is put in flight: where its arrow will start (at its syscall slice's start). */
  private queued(cause: Cause): void {
    const sending = this.sending;
    if (!sending || sending.crankNum !== cause.crank || (cause.kind !== 'send' && cause.kind !== 'resolve')) return;
    const at = this.ns(cause.time);
    this.flowStarts.set(cause, { tid: sending.tid, ts: us(Math.max(at ?? sending.start, sending.start)) });
  }

  /** The arrow from a drawn delivery's cause, when that is a drawn send or resolve, to the delivery's slice. */
  private flow(cause: Cause, delivery: Drawn): void {
    const from = this.flowStarts.get(cause);
    if (!from) return;
    this.flows += 1;
    const id = this.flows;
    const name = cause.kind;
    this.event({ name, cat: 'flow', ph: 's', id, ts: from.ts, pid: TRACE_PID, tid: from.tid });
    this.event({ name, cat: 'flow', ph: 'f', bp: 'e', id, ts: us(delivery.start), pid: TRACE_PID, tid: delivery.tid });
  }

  /** A kernel-stats entry's gauges (each key with an `Up` companion), a counter track each. */
  private kernelStats(entry: SlogEntry): void {
    const stats = (entry as { stats?: unknown }).stats;
    const at = this.ns(entry.time);
    if (at === undefined || stats === null || typeof stats !== 'object') return;
    const values = stats as Record<string, unknown>;
    for (const [key, value] of Object.entries(values)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || !(`${key}Up` in values)) continue;
      this.event({ name: key, cat: 'kernel-stats', ph: 'C', ts: us(at), pid: TRACE_PID, tid: KERNEL_TID, args: { value } });
    }
  }

  /** Closes the file. */
  end(): void {
    this.write('\n]}\n');
  }

  /** A delivery crank's track (the kernel's when it reached no vat); its vat becomes the one syscalls are rendered in. */
  private crankTid(crank: Crank): number {
    const vatID = crank.vatID;
    if (vatID === undefined) return KERNEL_TID;
    this.ctx.currentVat = vatID;
    return vatTid(vatID, this.otherTids);
  }

  /** Writes a syscall's slice, placed inside its crank's (from `crankStart` on); returns where it ends, ns. */
  private syscallSlice(crank: Crank, pair: SyscallPair, tid: number, crankStart: number): number {
    const called = this.ns(pair.call.time) ?? crankStart;
    const s = Math.max(called, crankStart);
    const returned = pair.result ? (this.ns(pair.result.time) ?? s) : s;
    const e = Math.max(returned, s);
    const name = syscallName(pair);
    const args: Record<string, unknown> = { crank: crank.crankNum, syscall: name };
    const ksr = pair.result?.ksr;
    const status = Array.isArray(ksr) ? ksr[0] : undefined;
    if (!pair.result) args.noResult = true;
    else if (status !== undefined && status !== 'ok') args.status = status;
    this.syscalls += 1;
    this.event({ name: this.syscallLine(pair) ?? name, cat: 'syscall', ph: 'X', ts: us(s), dur: us(e - s), pid: TRACE_PID, tid, args });
    return e;
  }

  private routingSlice(crank: Crank, start: number, end: number): void {
    const message = crank.start?.message;
    const args: Record<string, unknown> = { crank: crank.crankNum };
    if (typeof message?.type === 'string') args.messageType = message.type;
    if (crank.vatID !== undefined) args.vat = crank.vatID;
    if (!crank.finish) args.unfinished = true;
    if (crank.again) args.again = true;
    const name = `routing ${messageText(this.ctx, crank.start)}${crank.again ? ' (again after restart)' : ''}`;
    this.event({ name, cat: 'routing', ph: 'X', ts: us(start), dur: us(end - start), pid: TRACE_PID, tid: KERNEL_TID, args });
  }

  /**
   * The crank's first line of text, as `--nonoise` prints it (no crank-start,
   * no clist): its delivery, or what comes before it (a create-vat); looked
   * for from item `from` on (those before gave none). Undefined when none
   * gives one.
   */
  private firstLine(crank: Crank, from: number): string | undefined {
    const ctx = this.nameCtx;
    ctx.currentVat = crank.vatID;
    const items = crank.items;
    for (let i = from; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      const lines = item.kind === 'syscall' ? syscallLines(ctx, item) : entryLines(ctx, this.kernel, item.entry);
      const first = lines[0]?.split('\n')[0];
      if (first !== undefined) return first;
    }
    // Nothing was printed for it (a message to a terminated vat): its message says what it was (the caller's).
    return undefined;
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

/** The later of two slog times (seconds), either of which may be missing. */
function later(a: number | undefined, b: unknown): number | undefined {
  if (typeof b !== 'number' || !Number.isFinite(b)) return a;
  return a === undefined || b > a ? b : a;
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
    // Today's `{methargs, result}` or 2021's `{method, args, result}` (scan/message.ts).
    const msg = (message.msg ?? {}) as { result?: unknown };
    const { method, args } = renderMethargs(messageMethargs(msg), { bigWidth: ctx.bigWidth, pref: (ref) => ctx.kref(ref) });
    const result = msg.result === undefined || msg.result === null ? '' : `: ${ctx.kref(String(msg.result))}`;
    return `send: ${ctx.kref(String(message.target))} <- ${method}(${args})${result}`;
  }
  const parts: string[] = [];
  if (typeof message?.vatID === 'string') parts.push(message.vatID);
  if (typeof message?.kpid === 'string') parts.push(ctx.kref(message.kpid));
  return parts.length ? `${type}: ${parts.join(' ')}` : type;
}
