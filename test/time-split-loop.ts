/**
 * Where each crank's time went, and the stalls, recomputed by plain loops
 * over a slog's JSON lines, independently of src/ (for
 * test/time-split.test.ts and test/stalls.test.ts): each crank's lines are
 * held whole and walked with indexes, where the model streams with running
 * sums. Every `time` is turned into whole µs first.
 *
 * The per-delivery figures follow agoric-sdk's correlate-timestamps.py and
 * measure-boyd-gc.py (packages/SwingSet/misc-tools, parse_timestamps.py):
 * its deliveries, events (syscalls and consoles), and the worker's list read
 * in order; except that replayed entries and consoles the kernel wrote
 * (`source: "kernel"`) are no delivery's, and a list of the wrong length or
 * with a part below 0 gives no worker or pipe figure.
 */
import { readFileSync } from 'node:fs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Seconds to whole µs. */
export const us = (t: number): number => Math.round(t * 1e6);

/** The slog's entries (plain lines; a plain slog file only). */
export function slogEntries(file: string): Json[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

export interface LoopDelivery {
  crankNum: number | undefined;
  deliveryNum: number | undefined;
  dispatch: string;
  micros: number;
  syscallMicros: number;
  syscalls: number;
  consoles: number;
  /** correlate-timestamps' "worker" and "pipe" totals, or, with no list (a local worker), micros - syscalls and 0. */
  worker: number | undefined;
  pipe: number | undefined;
  /** measure-boyd-gc's firsttime (bringOutYourDead only); a local worker's: deliver to first syscall or result. */
  gc: number | undefined;
}

interface Event {
  /** The kernel's times: the syscall (or console) and its result (the console's own time again). */
  kin: number;
  kout: number | undefined;
  syscall: boolean;
}

/** Every live delivery of the slog, in order, as correlate-timestamps.py reads them. */
export function loopDeliveries(entries: readonly Json[]): LoopDelivery[] {
  const out: LoopDelivery[] = [];
  let d: { e: Json; events: Event[] } | undefined;
  for (const e of entries) {
    if (e.replay === true) continue;
    if (e.type === 'deliver') d = { e, events: [] };
    if (!d) continue;
    if (e.type === 'syscall') d.events.push({ kin: us(e.time), kout: undefined, syscall: true });
    if (e.type === 'syscall-result') {
      const last = [...d.events].reverse().find((x) => x.syscall);
      if (last && last.kout === undefined) last.kout = us(e.time);
    }
    if (e.type === 'console' && e.source !== 'kernel') d.events.push({ kin: us(e.time), kout: us(e.time), syscall: false });
    if (e.type === 'deliver-result') {
      out.push(correlate(d.e, d.events, e));
      d = undefined;
    }
  }
  return out;
}

function correlate(deliver: Json, events: Event[], result: Json): LoopDelivery {
  const txDelivery = us(deliver.time);
  const rxResult = us(result.time);
  const syscalls = events.filter((x) => x.syscall);
  const syscallMicros = syscalls.reduce((sum, x) => sum + (x.kout === undefined ? 0 : x.kout - x.kin), 0);
  const dispatch = String(deliver.dispatch ?? (deliver.kd ?? deliver.vd)[0]);
  const row: LoopDelivery = {
    crankNum: deliver.crankNum,
    deliveryNum: deliver.deliveryNum,
    dispatch,
    micros: rxResult - txDelivery,
    syscallMicros,
    syscalls: syscalls.length,
    consoles: events.length - syscalls.length,
    worker: undefined,
    pipe: undefined,
    gc: undefined,
  };
  const usage = result.dr?.[2];
  const list = usage !== null && typeof usage === 'object' ? (usage.timestamps as number[] | undefined) : undefined;
  if (list === undefined) {
    row.worker = row.micros - syscallMicros;
    row.pipe = 0;
    if (dispatch === 'bringOutYourDead') row.gc = (syscalls.length > 0 ? syscalls[0]!.kin : rxResult) - txDelivery;
    return row;
  }
  if (list.length !== 2 + 2 * events.length || events.some((x) => x.kout === undefined)) return row;
  const stamps = list.map(us);
  // As parse_timestamps.py hands them out: receipt, then each event's send and answer, then the result's send.
  const rxDelivery = stamps.shift() as number;
  const txResult = stamps.pop() as number;
  const worker: number[] = [];
  const pipe: number[] = [rxDelivery - txDelivery, rxResult - txResult];
  let previous = rxDelivery;
  for (const x of events) {
    const txRequest = stamps.shift() as number;
    const rxAnswer = stamps.shift() as number;
    worker.push(txRequest - previous);
    pipe.push(x.kin - txRequest, rxAnswer - (x.kout as number));
    previous = rxAnswer;
  }
  worker.push(txResult - previous);
  if ([...worker, ...pipe].some((part) => part < 0)) return row;
  row.worker = worker.reduce((a, b) => a + b, 0);
  row.pipe = pipe.reduce((a, b) => a + b, 0);
  if (dispatch === 'bringOutYourDead') row.gc = (events.length > 0 ? list.map(us)[1]! : txResult) - rxDelivery;
  return row;
}

export interface LoopCrank {
  crankNum: number | undefined;
  total: number;
  pageIn: number;
  replay: number;
  snapshot: number;
  syscall: number;
  /** The deliveries' time less their syscalls (vat + pipe + unknown). */
  vatAndPipe: number;
  kernel: number;
}

const isMark = (e: Json): boolean =>
  e.type === 'vat-startup-start' ||
  e.type === 'heap-snapshot-load' ||
  e.type === 'start-replay' ||
  (e.type === 'create-vat' && e.dynamic === undefined && e.description === undefined);

/** Each crank from a crank-start to a crank-finish (with no kernel-init-start between), in order, split as SLOG-FORMAT.md says. */
export function loopCranks(entries: readonly Json[]): LoopCrank[] {
  const out: LoopCrank[] = [];
  let held: Json[] | undefined;
  for (const e of entries) {
    if (e.type === 'crank-start' || e.type === 'kernel-init-start') held = e.type === 'crank-start' ? [e] : undefined;
    else if (held) held.push(e);
    if (e.type === 'crank-finish' && held) {
      out.push(splitCrank(held));
      held = undefined;
    }
  }
  return out;
}

function splitCrank(lines: readonly Json[]): LoopCrank {
  const t = (i: number): number => us(lines[i]!.time);
  const live = (type: string): number[] => lines.flatMap((e, i) => (e.type === type && e.replay !== true ? [i] : []));
  const delivers = live('deliver');
  const results = live('deliver-result');
  const last = lines.length - 1;
  // Snapshot: from the last live deliver-result (or the end of the last snapshot stretch) to a save; with restartWorker, on to the vat's next load.
  const snapshots: Array<{ from: number; to: number }> = [];
  let from = -1;
  lines.forEach((e, i) => {
    if (e.type === 'deliver-result' && e.replay !== true) from = i;
    if (e.type !== 'heap-snapshot-save' || from < 0) return;
    snapshots.push({ from, to: i });
    from = i;
    if (e.restartWorker !== true) return;
    const load = lines.findIndex((x, j) => j > i && x.type === 'heap-snapshot-load' && x.vatID === e.vatID);
    if (load >= 0) {
      snapshots.push({ from: i, to: load });
      from = load;
    }
  });
  const snapshotIn = (a: number, b: number): number => snapshots.filter((s) => s.to > a && s.to < b).reduce((sum, s) => sum + t(s.to) - t(s.from), 0);
  let pageIn = 0;
  let replay = 0;
  delivers.forEach((d, k) => {
    const a = k === 0 ? 0 : (results[k - 1] ?? d);
    const vat = lines[d]!.vatID;
    const marked = lines.some((e, i) => i > a && i < d && isMark(e) && (e.vatID === undefined || e.vatID === vat));
    if (!marked) return;
    const rest = t(d) - t(a) - snapshotIn(a, d);
    if (rest <= 0) return;
    pageIn += rest;
    let replayed = 0;
    let start: number | undefined;
    for (let i = a + 1; i < d; i += 1) {
      if (lines[i]!.type === 'start-replay') start = i;
      if (lines[i]!.type === 'finish-replay') {
        replayed += start === undefined ? us(lines[i]!.seconds) : t(i) - t(start);
        start = undefined;
      }
    }
    replay += Math.min(replayed, rest);
  });
  let syscall = 0;
  lines.forEach((e, i) => {
    if (e.type !== 'syscall' || e.replay === true) return;
    const next = lines.findIndex((x, j) => j > i && (x.type === 'syscall' || x.type === 'syscall-result'));
    if (next >= 0 && lines[next]!.type === 'syscall-result') syscall += t(next) - t(i);
  });
  let vatAndPipe = 0;
  delivers.forEach((d, k) => {
    const r = results[k];
    if (r === undefined) return;
    let inside = 0;
    lines.forEach((e, i) => {
      if (i <= d || i >= r || e.type !== 'syscall' || e.replay === true) return;
      const next = lines.findIndex((x, j) => j > i && (x.type === 'syscall' || x.type === 'syscall-result'));
      if (next >= 0 && lines[next]!.type === 'syscall-result') inside += t(next) - t(i);
    });
    vatAndPipe += t(r) - t(d) - inside;
  });
  const total = t(last) - t(0);
  const snapshot = snapshots.reduce((sum, s) => sum + t(s.to) - t(s.from), 0);
  return {
    crankNum: lines[last]!.crankNum,
    total,
    pageIn,
    replay,
    snapshot,
    syscall,
    vatAndPipe,
    kernel: total - pageIn - snapshot - syscall - vatAndPipe,
  };
}

export interface LoopStall {
  micros: number;
  crankNum: number | undefined;
  blockNum: number | undefined;
  runNum: number | undefined;
  before: string;
  after: string;
}

/** Gaps of more than `seconds` between consecutive entries' times, with the crank (by crank-start .. crank-finish and crankNum), block and run open across them. */
export function loopStalls(entries: readonly Json[], seconds: number): LoopStall[] {
  const out: LoopStall[] = [];
  let prev: Json | undefined;
  let crank: { num: number | undefined } | undefined;
  let block: number | undefined;
  let run: number | undefined;
  let initHeight: number | undefined;
  for (const e of entries) {
    if (typeof e.time !== 'number') continue;
    if (prev && us(e.time) - us(prev.time) > us(seconds)) {
      out.push({
        micros: us(e.time) - us(prev.time),
        crankNum: crank ? (crank.num ?? (e.type === 'crank-start' ? undefined : e.crankNum)) : undefined,
        blockNum: block,
        runNum: run,
        before: prev.type,
        after: e.type,
      });
    }
    prev = e;
    if (e.type === 'crank-start') crank = { num: e.crankNum };
    else if (e.type === 'crank-finish' || e.type === 'kernel-init-start') crank = undefined;
    else if (typeof e.crankNum === 'number') crank = { num: e.crankNum };
    if (e.type === 'cosmic-swingset-init') initHeight = e.blockHeight;
    if (e.type === 'cosmic-swingset-begin-block' || e.type === 'cosmic-swingset-upgrade-start') [block, run] = [e.blockHeight, undefined];
    if (e.type === 'cosmic-swingset-bootstrap-block-start') [block, run] = [initHeight, undefined];
    if (['cosmic-swingset-end-block-finish', 'cosmic-swingset-bootstrap-block-finish', 'cosmic-swingset-upgrade-finish', 'kernel-init-start'].includes(e.type)) {
      [block, run] = [undefined, undefined];
    }
    if (e.type === 'cosmic-swingset-run-start') run = e.runNum;
    if (e.type === 'cosmic-swingset-run-finish') run = undefined;
  }
  return out;
}
