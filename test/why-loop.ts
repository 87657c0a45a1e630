/**
 * The causes of delivery cranks (docs/why.md) computed with a plain loop
 * over a slog's JSON lines, apart from src/analyses/why/, for the tests to
 * check `why`, `sequence` and the causes against: the rules of
 * SLOG-FORMAT.md's syscalls and deliveries written out again on bare
 * objects, without the crank model.
 */
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';

type J = Record<string, any>;

export interface LoopCause {
  crank: number;
  vat: string;
  delivery: string;
  kind: string;
  causeCrank: number;
  syscallNum: number;
  /** The run it ran in, `H/N`, from the last run-start before it (undefined outside runs). */
  run: string | undefined;
}

function fileText(path: string): string {
  const raw = readFileSync(path);
  return (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
}

/** A per-block folder's files in chain order: init, bootstrap, upgrades, blocks by height. */
function folderFiles(dir: string): string[] {
  const rank = (name: string): [number, number] => {
    const block = /^slogfile_block_(\d+)_/.exec(name);
    if (block) return [3, Number(block[1])];
    return [name.includes('_init_') ? 0 : name.includes('_bootstrap_') ? 1 : 2, Number(/_(\d+)\.gz$/.exec(name)?.[1] ?? 0)];
  };
  return readdirSync(dir)
    .sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1])
    .map((name) => join(dir, name));
}

/** Every entry of a slog (a file, or a folder of per-block files), contextual lines unwrapped. */
export function loopEntries(path: string): J[] {
  const files = statSync(path).isDirectory() ? folderFiles(path) : [path];
  const out: J[] = [];
  for (const file of files) {
    for (const line of fileText(file).split('\n')) {
      if (!line.trim()) continue;
      const o = JSON.parse(line) as J;
      if (o.body && typeof o.body === 'object' && o.attributes) {
        const a = o.attributes as J;
        out.push({
          ...o.body,
          time: o.time,
          crankNum: o.body.crankNum ?? a['crank.num'],
          vatID: o.body.vatID ?? a['crank.vatID'],
          syscallNum: o.body.syscallNum ?? a['crank.syscallNum'],
          replay: o.body.replay ?? a.replay,
        });
      } else out.push(o);
    }
  }
  return out;
}

/** The method of a message (either shape) or a send's methargs. */
function methodOfMsg(msg: J | undefined): string {
  if (!msg) return '?';
  if (msg.methargs === undefined) return String(msg.method);
  try {
    const body = String(msg.methargs.body);
    const value = JSON.parse(body.startsWith('#') ? body.slice(1) : body) as unknown[];
    return JSON.stringify(value[0]);
  } catch {
    return '?';
  }
}

interface Act {
  crank: number;
  num: number;
  kind: string;
}

/** The entries of each crank, crank by crank, with the abandoned executions of a restart left out. */
function cranksOf(entries: J[]): { cranks: { num: number; items: J[]; run: string | undefined }[]; midway: boolean } {
  // A restart (a kernel-init-start after the first) runs again the cranks from its first crank's number on: those before it are abandoned.
  const inits = entries.flatMap((e, i) => (e.type === 'kernel-init-start' ? [i] : []));
  const abandoned = new Set<number>();
  for (const at of inits.slice(1)) {
    const next = entries.slice(at).find((e) => typeof e.crankNum === 'number');
    if (next) for (let i = 0; i < at; i += 1) if (typeof entries[i]?.crankNum === 'number' && entries[i]?.crankNum >= next.crankNum) abandoned.add(i);
  }
  const cranks: { num: number; items: J[]; run: string | undefined }[] = [];
  let run: string | undefined;
  let open: { num: number; items: J[]; run: string | undefined } | undefined;
  let midway: boolean | undefined;
  let sawInit = false;
  entries.forEach((e, i) => {
    if (e.type === 'kernel-init-start') sawInit = true;
    if (e.type === 'cosmic-swingset-run-start') run = `${e.blockHeight}/${e.runNum}`;
    if (e.type === 'cosmic-swingset-run-finish') run = undefined;
    if (abandoned.has(i)) return;
    if (e.type === 'crank-start') {
      open = { num: e.crankNum, items: [e], run };
      cranks.push(open);
      midway ??= !sawInit && typeof e.crankNum === 'number' && e.crankNum > 0;
      return;
    }
    if (typeof e.crankNum !== 'number') {
      // An entry without a number inside a crank (a `terminate`) is the crank's.
      if (open && e.type !== 'crank-finish') open.items.push(e);
      return;
    }
    if (!open || (open.num !== undefined && open.num !== e.crankNum)) {
      midway ??= !sawInit;
      open = { num: e.crankNum, items: [], run };
      cranks.push(open);
    }
    open.num ??= e.crankNum;
    open.items.push(e);
    if (e.type === 'crank-finish') open = undefined;
  });
  return { cranks, midway: midway === true };
}

/** Each delivery crank's cause, by the loop. */
export function loopCauses(path: string): { causes: LoopCause[]; midway: boolean } {
  const { cranks, midway } = cranksOf(loopEntries(path));
  const loop = new CauseLoop(midway);
  const causes: LoopCause[] = [];
  for (const { num, items, run } of cranks) {
    const cause = loop.crank(num, items, run);
    if (cause) causes.push(cause);
  }
  return { causes, midway };
}

/**
 * The causes as a stream of cranks: each crank's entries in, its cause out
 * (undefined: a routing crank, or no live delivery). What it keeps is what
 * is in flight.
 */
export class CauseLoop {
  private readonly byResult = new Map<string, Act>();
  private readonly without = new Map<string, Act[]>();
  private readonly subs = new Map<string, Map<string, Act>>();
  private readonly notifies = new Map<string, Act>();
  private drops = new Map<string, Act>();
  private readonly last = new Map<string, Act>();
  private previous: Act | undefined;
  private readonly requests: Act[] = [];

  constructor(public midway: boolean) {}

  crank(num: number, items: J[], run: string | undefined): LoopCause | undefined {
    const { byResult, without, subs, notifies, last, requests, midway } = this;
    const gcOf: J = { dropImports: 'dropExports', retireImports: 'retireExports', retireExports: 'retireImports', abandonExports: 'retireImports' };
    const start = items.find((e) => e.type === 'crank-start');
    if (start?.crankType === 'routing') return undefined;
    const deliver = items.find((e) => e.type === 'deliver' && e.replay !== true && Array.isArray(e.kd));
    if (!deliver) return undefined;
    const vat: string = start?.vatID ?? start?.message?.vatID ?? deliver.vatID;
    const kd = deliver.kd as unknown[] & J;
    const kind = String(kd[0]);
    const result = items.find((e) => e.type === 'deliver-result' && e.replay !== true);
    const undone =
      (result?.dr && result.dr[0] !== 'ok') || items.some((e) => e.type === 'terminate' && e.vatID === vat && e.shouldReject === true);
    const take = !undone;
    let act: Act | undefined;
    if (kind === 'message') {
      const msg = kd[2] as J;
      const res = typeof msg.result === 'string' ? msg.result : undefined;
      if (res !== undefined) {
        act = byResult.get(res);
        if (act && take) byResult.delete(res);
      } else {
        const method = methodOfMsg(msg);
        let key = `${kd[1]}|${method}`;
        if (!without.get(key)?.length) {
          // Forwarded from a promise: the oldest send of that method to a promise.
          let best: string | undefined;
          for (const [k, q] of without) if (k.startsWith('kp') && k.endsWith(`|${method}`) && q.length && (!best || (q[0] as Act).crank < ((without.get(best) as Act[])[0] as Act).crank)) best = k;
          key = best ?? key;
        }
        const q = without.get(key);
        act = q?.[0];
        if (act && take) q?.shift();
      }
    } else if (kind === 'notify') {
      const kp = String((kd[1] as unknown[][])[0]?.[0]);
      act = notifies.get(`${vat}|${kp}`);
      if (act) {
        if (take) notifies.delete(`${vat}|${kp}`);
      } else {
        act = subs.get(kp)?.get(vat);
        if (act) {
          if (take) subs.get(kp)?.delete(vat);
        } else {
          act = byResult.get(kp);
          if (act && take) byResult.delete(kp);
        }
      }
    } else if (kind === 'dropExports' || kind === 'retireExports' || kind === 'retireImports') {
      for (const ref of kd[1] as string[]) {
        act = this.drops.get(`${kind}|${ref}`);
        if (act) {
          if (take) this.drops.delete(`${kind}|${ref}`);
          break;
        }
      }
      if (!act && this.previous) act = { crank: this.previous.crank, num: -1, kind: 'gc' };
    } else if (kind === 'bringOutYourDead') {
      act = last.get(vat);
    } else if (kind === 'startVat' || kind === 'stopVat' || kind === 'changeVatOptions') {
      act = requests[0];
      if (act && take) requests.shift();
    }
    const cause: LoopCause = {
      crank: num,
      vat,
      delivery: kind,
      kind: act ? act.kind : midway ? 'before-slog' : 'outside',
      causeCrank: act ? act.crank : -1,
      syscallNum: act ? act.num : -1,
      run,
    };
    if (!['dropExports', 'retireExports', 'retireImports'].includes(kind)) this.drops = new Map();
    if (take) {
      let n = 0;
      for (const e of items) {
        if (e.type !== 'syscall' || e.replay === true || !Array.isArray(e.ksc)) continue;
        const sn: number = typeof e.syscallNum === 'number' ? e.syscallNum : n;
        n += 1;
        const name = String(e.ksc[0]);
        const a = (k: string): Act => ({ crank: num, num: sn, kind: k });
        if (name === 'send') {
          const msg = e.ksc[2] as J;
          const res = msg && typeof msg.result === 'string' ? msg.result : typeof e.ksc[3] === 'string' ? e.ksc[3] : undefined;
          if (res !== undefined) byResult.set(res, a('send'));
          else {
            const key = `${e.ksc[1]}|${methodOfMsg(msg?.methargs !== undefined || msg?.method !== undefined ? msg : { methargs: msg })}`;
            without.set(key, [...(without.get(key) ?? []), a('send')]);
          }
        } else if (name === 'resolve') {
          for (const [kp] of e.ksc[2] as unknown[][]) {
            const vats = subs.get(String(kp));
            if (!vats) continue;
            subs.delete(String(kp));
            for (const v of vats.keys()) notifies.set(`${v}|${kp}`, a('resolve'));
          }
        } else if (name === 'subscribe') {
          const kp = String(e.ksc[2]);
          if (!subs.has(kp)) subs.set(kp, new Map());
          subs.get(kp)?.set(vat, a('subscribe'));
        } else if (gcOf[name]) {
          const refs = (e.ksc as unknown[]).find((x) => Array.isArray(x)) as string[];
          for (const ref of refs ?? []) this.drops.set(`${gcOf[name]}|${ref}`, a('gc'));
        } else if ((name === 'invoke' || name === 'callNow') && /^(create|upgrade|changeOptions)/.test(String(e.ksc[2]))) {
          requests.push(a('create'));
        }
      }
    }
    const here = { crank: num, num: -1, kind: 'reap' };
    if (kind !== 'bringOutYourDead') last.set(vat, here);
    this.previous = here;
    return cause;
  }
}

/**
 * The causes of a slog file (gzipped when its name ends in `.gz`) read as a
 * stream of lines, crank by crank, each told to `each`: what it keeps is
 * one crank's entries and what is in flight. A restart (a second
 * kernel-init-start) is not followed: it throws.
 */
export async function streamLoopCauses(path: string, each: (cause: LoopCause) => void): Promise<{ cranks: number; lines: number; midway: boolean }> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let loop: CauseLoop | undefined;
  let inits = 0;
  let run: string | undefined;
  let open: { num: number; items: J[]; run: string | undefined } | undefined;
  let cranks = 0;
  let lines = 0;
  const flush = (): void => {
    if (!open) return;
    cranks += 1;
    const cause = (loop as CauseLoop).crank(open.num, open.items, open.run);
    if (cause) each(cause);
    open = undefined;
  };
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lines += 1;
    if (!line.trim()) continue;
    const e = JSON.parse(line) as J;
    if (e.type === 'kernel-init-start' && ++inits > 1) throw new Error(`${path}: a restart, which streamLoopCauses does not follow`);
    if (e.type === 'cosmic-swingset-run-start') run = `${e.blockHeight}/${e.runNum}`;
    if (e.type === 'cosmic-swingset-run-finish') run = undefined;
    if (e.type === 'crank-start') {
      flush();
      loop ??= new CauseLoop(inits === 0 && typeof e.crankNum === 'number' && e.crankNum > 0);
      open = { num: e.crankNum, items: [e], run };
      continue;
    }
    if (typeof e.crankNum !== 'number') {
      if (open && e.type !== 'crank-finish') open.items.push(e);
      continue;
    }
    if (!open || (open.num !== undefined && open.num !== e.crankNum)) {
      flush();
      loop ??= new CauseLoop(inits === 0);
      open = { num: e.crankNum, items: [], run };
    }
    open.num ??= e.crankNum;
    open.items.push(e);
    if (e.type === 'crank-finish') flush();
  }
  flush();
  return { cranks, lines, midway: loop?.midway === true };
}
