/**
 * Facts about a slog read with a plain loop over its JSON lines, written
 * apart from the kref model so that tests can check the model's answers
 * (annotate, flow, kref) against them. Only for the small bundled slogs.
 */
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
