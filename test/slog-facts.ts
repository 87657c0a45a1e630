/**
 * Facts about a slog read with a plain loop over its JSON lines, written
 * apart from the kref model so that tests can check the model's answers
 * (annotate, flow, kref) against them; and counts of any slog file's lines
 * (entry types, per-crank figures) for the tests that check a command's
 * figures against the slog rather than against its own output.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import { readSlog } from './helpers.js';

/** An entry with the crank it sits in (-1 outside cranks) and whether that crank is a routing one. */
export interface Placed {
  e: Record<string, any>;
  crank: number;
  routing: boolean;
}

export function placedEntries(slog: string): Placed[] {
  const out: Placed[] = [];
  let crank = -1;
  let routing = false;
  for (const line of readSlog(slog).toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Record<string, any>;
    if (e.type === 'crank-start') {
      crank = e.crankNum;
      routing = e.crankType === 'routing';
    }
    out.push({ e, crank, routing });
    if (e.type === 'crank-finish') crank = -1;
  }
  return out;
}

/** The method of a smallcaps `methargs` body. */
export function methodOf(methargs: { body: string }): string {
  return JSON.parse(methargs.body.replace(/^#/, ''))[0] as string;
}

export interface SlogFacts {
  entries: Placed[];
  /** vatID -> name from create-vat entries. */
  vatNames: Map<string, string>;
  /** Cranks whose vat exited with a failure (the kernel undoes them). */
  aborted: Set<number>;
  /** Every message, in order of first sight: a vat's send syscall, or a kernel message (routing crank with a new result). */
  messages: Array<{ method: string; count: number; result: string | null; crank: number; vat: string | undefined }>;
  /** Total messages per method. */
  methodTotals: Map<string, number>;
  /** Result promise -> its message. */
  byResult: Map<string, { method: string; count: number; crank: number; vat: string | undefined }>;
  /** Promise -> the (non-aborted) resolve syscall that first settled it. */
  resolvedBy: Map<string, { crank: number; vat: string; rejected: boolean }>;
  /** Object -> exporting vat (clist export of an o+ vref, or a delivery to an o+ target). */
  exporter: Map<string, string>;
  /** Crank -> its (first) deliver entry's kd, vd and vat, aborted cranks included. */
  delivers: Map<number, { kd: any[]; vd: any[]; vat: string }>;
  /** Crank -> its send/resolve syscalls' ksc, in order. */
  actions: Map<number, any[][]>;
}

export function slogFacts(slog: string): SlogFacts {
  const entries = placedEntries(slog);
  const facts: SlogFacts = {
    entries,
    vatNames: new Map(),
    aborted: new Set(),
    messages: [],
    methodTotals: new Map(),
    byResult: new Map(),
    resolvedBy: new Map(),
    exporter: new Map(),
    delivers: new Map(),
    actions: new Map(),
  };
  for (const { e, crank } of entries) {
    if (e.type === 'create-vat' && e.name) facts.vatNames.set(e.vatID, e.name);
    if (e.type === 'terminate' && e.shouldReject === true && crank >= 0) facts.aborted.add(crank);
  }
  const note = (method: string, result: string | null, crank: number, vat: string | undefined): void => {
    const count = (facts.methodTotals.get(method) ?? 0) + 1;
    facts.methodTotals.set(method, count);
    facts.messages.push({ method, count, result, crank, vat });
    if (result) facts.byResult.set(result, { method, count, crank, vat });
  };
  for (const { e, crank, routing } of entries) {
    if (e.type === 'deliver' && !facts.delivers.has(crank)) facts.delivers.set(crank, { kd: e.kd, vd: e.vd, vat: e.vatID });
    if (facts.aborted.has(crank)) continue;
    if (e.type === 'crank-start' && routing && e.message?.type === 'send') {
      const result = e.message.msg.result ?? null;
      if (result && !facts.byResult.has(result)) note(methodOf(e.message.msg.methargs), result, crank, undefined);
    }
    if (e.type === 'deliver') {
      if (e.kd[0] === 'message' && typeof e.vd?.[1] === 'string' && e.vd[1].startsWith('o+')) {
        facts.exporter.set(e.kd[1], e.vatID);
      }
    }
    if (e.type === 'clist' && e.mode === 'export' && String(e.vobj).startsWith('o+')) {
      if (!facts.exporter.has(e.kobj)) facts.exporter.set(e.kobj, e.vatID);
    }
    if (e.type !== 'syscall') continue;
    const ksc = e.ksc as any[];
    if (ksc[0] === 'send') {
      note(methodOf(ksc[2].methargs), ksc[2].result ?? null, crank, e.vatID);
    }
    if (ksc[0] === 'resolve') {
      for (const [kp, rejected] of ksc[2] as any[][]) {
        if (!facts.resolvedBy.has(kp)) facts.resolvedBy.set(kp, { crank, vat: e.vatID, rejected: rejected === true });
      }
    }
    if (ksc[0] === 'send' || ksc[0] === 'resolve') {
      const list = facts.actions.get(crank) ?? [];
      list.push(ksc);
      facts.actions.set(crank, list);
    }
  }
  return facts;
}

/** Every distinct kref the slog's lines name. */
export function allKrefs(slog: string): Set<string> {
  return new Set(readSlog(slog).toString('utf8').match(/"k[opd]\d+"/g)?.map((s) => s.slice(1, -1)) ?? []);
}

/** A slog file's lines (plain or gzipped), each parsed: the slog as written, for the tests' own loops. */
export function slogEntries(path: string): Array<Record<string, any>> {
  const raw = readFileSync(path);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** Counts of each entry type in a slog file. */
export function typeCounts(path: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of slogEntries(path)) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return counts;
}

/**
 * Each line of a slog file (plain or gzipped) handed to `each` as it is
 * read, its text only: for slogs too big to hold (big-local-1200).
 */
export async function eachLine(path: string, each: (line: string) => void): Promise<void> {
  const head = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  const input = createReadStream(path);
  const stream = head[0] === 0x1f && head[1] === 0x8b ? input.pipe(createGunzip()) : input;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) if (line) each(line);
}

/**
 * One crank of a slog, by a plain loop over its lines (a slog without
 * restarts: replayed entries left out, nothing else): from its crank-start
 * to the next one.
 */
export interface CrankFacts {
  crankNum: number;
  crankType: string;
  /** Deliveries and syscalls, not replayed. */
  deliveries: number;
  syscalls: number;
  /** The deliver-results' dr[2].compute, summed; undefined when none has one. */
  computrons: number | undefined;
  /** crank-finish's time minus crank-start's, in ms; undefined when it did not finish. */
  ms: number | undefined;
  /** Per vat, the last `allocate` and `currentHeapCount` of its deliver-results' usage report in this crank. */
  heap: Map<string, { allocate?: number; count?: number }>;
}

export function crankFacts(path: string): CrankFacts[] {
  const cranks: CrankFacts[] = [];
  let crank: CrankFacts | undefined;
  let started = 0;
  for (const e of slogEntries(path)) {
    if (e.type === 'crank-start') {
      crank = { crankNum: e.crankNum, crankType: e.crankType, deliveries: 0, syscalls: 0, computrons: undefined, ms: undefined, heap: new Map() };
      started = e.time;
      cranks.push(crank);
      continue;
    }
    if (!crank || e.replay === true) continue;
    if (e.type === 'deliver') crank.deliveries += 1;
    if (e.type === 'syscall') crank.syscalls += 1;
    if (e.type === 'crank-finish') crank.ms = (e.time - started) * 1000;
    if (e.type === 'deliver-result') {
      const usage = e.dr?.[2];
      if (typeof usage?.compute === 'number') crank.computrons = (crank.computrons ?? 0) + usage.compute;
      const heap = crank.heap.get(e.vatID) ?? {};
      if (typeof usage?.allocate === 'number') heap.allocate = usage.allocate;
      if (typeof usage?.currentHeapCount === 'number') heap.count = usage.currentHeapCount;
      if (heap.allocate !== undefined || heap.count !== undefined) crank.heap.set(e.vatID, heap);
    }
  }
  return cranks;
}

/** A block execution of a chain slog, by chainFacts' plain loop. */
export interface BlockFacts {
  height: number;
  bootstrap: boolean;
  /** Its height ran before (a restart made the node run it again). */
  again: boolean;
  /** A restart came before its commit. */
  abandoned: boolean;
  committed: boolean;
  cranks: number;
  deliveries: number;
  computrons: number;
  /** Runs per phase. */
  runs: Record<string, number>;
  /** The runs' run-finish usedBeans, summed; null when none says. */
  usedBeans: number | null;
  firstCrank: number | null;
  lastCrank: number | null;
  /** Inbound actions: bridge messages by source and type, mailbox deliveries by sender (messages summed), timer polls that woke something. */
  inbound: Array<Record<string, unknown>>;
}

/** A run of a chain slog, by chainFacts' plain loop. */
export interface RunFacts {
  height: number;
  run: number;
  phase: string;
  again: boolean;
  /** What started it: the inbound action logged just before an inbound run, else its phase's own work. */
  trigger: string;
  cranks: number;
  deliveries: number;
  computrons: number;
  usedBeans: number | null;
}

/**
 * Every block execution and run of a chain slog, in order, by a plain loop:
 * a block runs from its begin-block (bootstrap-block-start) to its
 * end-block-finish (-finish), a run from its run-start to its run-finish; a
 * crank counts where its crank-start is; a delivery is a `deliver` without
 * `replay`, its computrons its deliver-result's dr[2].compute. A restart (a
 * kernel-init-start after the first) abandons the executions since the last
 * commit; a height seen before runs again.
 */
export function chainFacts(path: string): { blocks: BlockFacts[]; runs: RunFacts[] } {
  const blocks: BlockFacts[] = [];
  const runs: RunFacts[] = [];
  let block: BlockFacts | undefined;
  let run: RunFacts | undefined;
  let bootstrapHeight = 0;
  let inits = 0;
  let lastInbound: string | undefined;
  const seen = new Set<number>();
  const addInbound = (b: BlockFacts, key: Record<string, unknown>, messages?: number): void => {
    const found = b.inbound.find((a) => Object.entries(key).every(([k, v]) => a[k] === v));
    const action = found ?? { ...key, count: 0, ...(messages === undefined ? {} : { messages: 0 }) };
    if (!found) b.inbound.push(action);
    action.count = (action.count as number) + 1;
    if (messages !== undefined) action.messages = (action.messages as number) + messages;
  };
  const heightOf = (e: Record<string, any>): number => e.blockHeight;
  for (const e of slogEntries(path)) {
    switch (e.type) {
      case 'kernel-init-start':
        inits += 1;
        // What ran after the last commit is not committed now: those executions are abandoned.
        if (inits > 1) for (const b of blocks.slice(blocks.findLastIndex((x) => x.committed) + 1)) b.abandoned = true;
        block = undefined;
        run = undefined;
        break;
      case 'cosmic-swingset-init':
        bootstrapHeight = e.blockHeight;
        break;
      case 'cosmic-swingset-bootstrap-block-start':
      case 'cosmic-swingset-begin-block': {
        const height = e.type === 'cosmic-swingset-begin-block' ? heightOf(e) : bootstrapHeight;
        block = {
          height,
          bootstrap: e.type === 'cosmic-swingset-bootstrap-block-start',
          again: seen.has(height),
          abandoned: false,
          committed: false,
          cranks: 0,
          deliveries: 0,
          computrons: 0,
          runs: {},
          usedBeans: null,
          firstCrank: null,
          lastCrank: null,
          inbound: [],
        };
        seen.add(height);
        blocks.push(block);
        break;
      }
      case 'cosmic-swingset-end-block-finish':
      case 'cosmic-swingset-bootstrap-block-finish':
        block = undefined;
        run = undefined;
        break;
      case 'cosmic-swingset-commit-block-finish': {
        const b = blocks.findLast((x) => x.height === heightOf(e));
        if (b) b.committed = true;
        break;
      }
      case 'cosmic-swingset-bridge-inbound':
        lastInbound = 'bridge';
        if (block) addInbound(block, { kind: 'bridge', source: e.source, messageType: e.body?.type });
        break;
      case 'cosmic-swingset-deliver-inbound':
        lastInbound = 'mailbox';
        if (block) addInbound(block, { kind: 'mailbox', sender: e.sender }, e.count);
        break;
      case 'cosmic-swingset-timer-poll':
        if (block && e.added === true) addInbound(block, { kind: 'timer' });
        break;
      case 'cosmic-swingset-run-start': {
        if (!block) break;
        block.runs[e.phase] = (block.runs[e.phase] ?? 0) + 1;
        const own: Record<string, string> = { forced: block.bootstrap ? 'bootstrap' : 'forced', leftover: 'leftover', timer: 'timer', cleanup: 'cleanup' };
        const trigger = e.phase === 'inbound' ? (lastInbound ?? 'unknown') : (own[e.phase] ?? 'unknown');
        run = { height: block.height, run: e.runNum, phase: e.phase, again: block.again, trigger, cranks: 0, deliveries: 0, computrons: 0, usedBeans: null };
        lastInbound = undefined;
        runs.push(run);
        break;
      }
      case 'cosmic-swingset-run-finish':
        if (run && typeof e.usedBeans === 'number') run.usedBeans = (run.usedBeans ?? 0) + e.usedBeans;
        if (block && typeof e.usedBeans === 'number') block.usedBeans = (block.usedBeans ?? 0) + e.usedBeans;
        run = undefined;
        break;
      case 'crank-start':
        if (block) {
          block.cranks += 1;
          block.firstCrank ??= e.crankNum;
          block.lastCrank = e.crankNum;
        }
        if (run) run.cranks += 1;
        break;
      case 'deliver':
        if (e.replay === true) break;
        if (block) block.deliveries += 1;
        if (run) run.deliveries += 1;
        break;
      case 'deliver-result': {
        const compute = e.replay === true ? undefined : e.dr?.[2]?.compute;
        if (typeof compute !== 'number') break;
        if (block) block.computrons += compute;
        if (run) run.computrons += compute;
        break;
      }
      default:
        break;
    }
  }
  return { blocks, runs };
}
