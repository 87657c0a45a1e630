/**
 * The comparison's numbers recomputed by a plain loop over a slog's JSON
 * lines, independently of src/ (for test/compare.test.ts and
 * test/thresholds.test.ts).
 */

export interface LoopSide {
  cranks: { all: number; delivery: number; routing: number };
  /** Delivery cranks per vat. */
  cranksByVat: Map<string, number>;
  deliveriesByVat: Map<string, number>;
  /** Key: `vat method`. */
  deliveriesByVatMethod: Map<string, number>;
  syscallsByType: Map<string, number>;
  syscalls: number;
  /** Key: `vat method type` (the method of the delivery the syscall happened in). */
  syscallsByVatMethodType: Map<string, number>;
  computronsByVat: Map<string, number>;
  computronsByVatMethod: Map<string, number>;
  computrons: number;
  /** Delivery times in µs (deliver-result.time - deliver.time). */
  deliveryMicros: number[];
  deliveryMicrosByVat: Map<string, number[]>;
  deliveryMicrosByVatMethod: Map<string, number[]>;
  deliveryMicrosByMethod: Map<string, number[]>;
  /** Vat names from create-vat entries and create-vat crank messages. */
  vatNames: Map<string, string>;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function methodOf(deliver: Json): string {
  const kd = deliver.kd as unknown[];
  if (kd[0] !== 'message') return String(kd[0]);
  const body = (kd[2] as Json).methargs.body as string;
  const parsed = JSON.parse(body.startsWith('#') ? body.slice(1) : body) as unknown[];
  return String(parsed[0]);
}

const add = (m: Map<string, number>, k: string, n = 1): void => {
  m.set(k, (m.get(k) ?? 0) + n);
};
const push = (m: Map<string, number[]>, k: string, v: number): void => {
  const list = m.get(k) ?? [];
  list.push(v);
  m.set(k, list);
};

/** Walks the slog's lines; only cranks for which `keep(crankNum, vatID)` holds count. */
export function loopSide(text: string, keep: (crankNum: number, vat: string | undefined) => boolean = () => true): LoopSide {
  const side: LoopSide = {
    cranks: { all: 0, delivery: 0, routing: 0 },
    cranksByVat: new Map(),
    deliveriesByVat: new Map(),
    deliveriesByVatMethod: new Map(),
    syscallsByType: new Map(),
    syscalls: 0,
    syscallsByVatMethodType: new Map(),
    computronsByVat: new Map(),
    computronsByVatMethod: new Map(),
    computrons: 0,
    deliveryMicros: [],
    deliveryMicrosByVat: new Map(),
    deliveryMicrosByVatMethod: new Map(),
    deliveryMicrosByMethod: new Map(),
    vatNames: new Map(),
  };
  // The entries of the current crank, handled at its crank-finish (when its vat is known).
  let crank: Json[] | undefined;
  const finish = (entries: Json[]): void => {
    const start = entries[0] as Json;
    let vat: string | undefined = start.vatID ?? start.message?.vatID;
    if (vat === undefined) vat = entries.find((e) => e.type !== 'create-vat' && typeof e.vatID === 'string')?.vatID;
    if (!keep(start.crankNum as number, start.crankType === 'routing' ? undefined : vat)) return;
    side.cranks.all += 1;
    if (start.crankType === 'routing') {
      side.cranks.routing += 1;
      return;
    }
    side.cranks.delivery += 1;
    const v = vat ?? '<no vat>';
    add(side.cranksByVat, v);
    let method = '<none>';
    let deliver: Json | undefined;
    for (const e of entries) {
      if (e.type === 'deliver') {
        deliver = e;
        method = methodOf(e);
      } else if (e.type === 'deliver-result' && deliver) {
        add(side.deliveriesByVat, v);
        add(side.deliveriesByVatMethod, `${v} ${method}`);
        const micros = (e.time - deliver.time) * 1_000_000;
        side.deliveryMicros.push(micros);
        push(side.deliveryMicrosByVat, v, micros);
        push(side.deliveryMicrosByVatMethod, `${v} ${method}`, micros);
        push(side.deliveryMicrosByMethod, method, micros);
        const compute = e.dr?.[2]?.compute;
        if (typeof compute === 'number') {
          side.computrons += compute;
          add(side.computronsByVat, v, compute);
          add(side.computronsByVatMethod, `${v} ${method}`, compute);
        }
        deliver = undefined;
      } else if (e.type === 'syscall') {
        const type = e.ksc[0] as string;
        side.syscalls += 1;
        add(side.syscallsByType, type);
        add(side.syscallsByVatMethodType, `${v} ${method} ${type}`);
      }
    }
  };
  for (const line of text.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as Json;
    if (e.type === 'create-vat' && typeof e.name === 'string') side.vatNames.set(e.vatID, e.name);
    if (e.type === 'crank-start') {
      crank = [e];
      const m = e.message;
      if (m?.type === 'create-vat' && typeof m.dynamicOptions?.name === 'string' && !side.vatNames.has(m.vatID)) {
        side.vatNames.set(m.vatID, m.dynamicOptions.name);
      }
    } else if (e.type === 'crank-finish' && crank) {
      finish(crank);
      crank = undefined;
    } else if (crank) {
      crank.push(e);
    }
  }
  return side;
}

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** Nearest-rank percentile over values rounded to whole µs. */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const sorted = xs.map((x) => Math.round(x)).sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}
