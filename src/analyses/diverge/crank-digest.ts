/**
 * What `diverge` keeps of one crank of one side until the other side's
 * crank of the same number comes: its place (number, block), its hashes,
 * its deliveries (computrons, time), its time split, and its entries
 * normalized (ignored-fields.ts) as JSON text: made when first asked for
 * (always without hashes; with them, only for a crank whose hash differs,
 * or under `--entries`), from the crank's items, held until then.
 */
import type { Crank, CrankItem, CrankParts } from '../../model/crank.js';
import { isReplay } from '../../model/crank.js';
import type { VatNames } from '../../model/vats.js';
import { isBareCreateVat, type CrankEntry, type OtherEntry, type SlogEntry } from '../../scan/entry-types.js';
import type { Reads } from '../../scan/reads.js';
import { deliveryMethod } from '../common/delivery-method.js';
import { drWithoutTimestamps, PAGE_IN_TYPES, withoutIgnored } from './ignored-fields.js';

/**
 * The fields each crank type is compared by: what the slogger wrote, not
 * what the reader derives from it. A syscall, its result and a delivery in
 * kernel space (`ksc`, `ksr`, `kd`): their vat-space forms are these
 * translated through the vat's c-list, whose changes are compared as clist
 * entries (a line without a kernel-space form has its vat-space one read).
 */
const COMPARED: { readonly [T in CrankEntry['type']]: readonly string[] } = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message'],
  // Its hashes are compared on their own (DivergeMatcher).
  'crank-finish': ['crankNum', 'crankType', 'messageType'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'ksc', 'vsc'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'ksr', 'vsr'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'kd', 'vd'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'dr'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj'],
};

/** What diverge reads of crank entries: the compared fields, and the names, method and hashes it labels them with. */
export const DIVERGE_READS: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'crankhash', 'activityhash'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'name', 'ksc', 'vscWithoutKsc'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'ksr', 'vsrWithoutKsr'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'kind', 'method', 'kd', 'vdWithoutKd'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'computrons', 'dr'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj'],
};

/**
 * What diverge reads when it compares by crankhash alone (run/diverge.ts):
 * the places, names, hashes, methods and computrons, none of the values
 * (message, ksc, ksr, kd, vd, dr) that only the entries compare.
 */
export const DIVERGE_LIGHT_READS: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'messageHead'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'crankhash', 'activityhash'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'name'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'kind', 'method'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'computrons'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj'],
};

/** One entry of a crank, normalized: its label (`syscall 3 vatstoreSet`, `deliver`) and its compared fields as JSON. */
export interface NormalEntry {
  label: string;
  json: string;
}

/** One live delivery of a crank. */
export interface DeliveryDigest {
  vatID: string | undefined;
  deliveryNum: number | undefined;
  method: string;
  computrons: number | undefined;
  /** deliver to deliver-result, µs. */
  micros: number;
}

export interface CrankDigest {
  crankNum: number;
  /** The chain block's height; undefined outside blocks. */
  block: number | undefined;
  vatID: string | undefined;
  /** `v6 amm, swap`; `routing` for a routing crank. */
  what: string;
  crankhash: string | undefined;
  activityhash: string | undefined;
  /** Began with its crank-start and ended with its crank-finish: its entries can be compared. */
  complete: boolean;
  /** Began without its crank-start (before the slog, or its line missing); ended without its crank-finish. */
  beganBefore: boolean;
  unfinished: boolean;
  /** Ran again after a restart. */
  again: boolean;
  /** Its normalized entries, made on the first call (the crank is let go then). */
  entries(): NormalEntry[];
  deliveries: DeliveryDigest[];
  parts: CrankParts | undefined;
}

/** Is this item one a node writes or not as its own vat cache says (a page-in)? */
function isPageIn(item: CrankItem): boolean {
  if (isReplay(item)) return true;
  if (item.kind !== 'entry') return false;
  const type = item.entry.type;
  return PAGE_IN_TYPES.has(type) || (type === 'create-vat' && isBareCreateVat(item.entry as OtherEntry));
}

/** An entry's compared fields (a crank type's COMPARED, any other type's every field but the ignored ones). */
export function comparedFields(entry: SlogEntry): Record<string, unknown> {
  const fields = COMPARED[entry.type as CrankEntry['type']];
  if (fields === undefined) return withoutIgnored(entry as Record<string, unknown>);
  const source = entry as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { type: entry.type };
  for (const f of fields) {
    const value = f === 'dr' ? drWithoutTimestamps(source.dr) : source[f];
    if (value !== undefined) out[f] = value;
  }
  return out;
}

function labelOf(entry: SlogEntry, syscalls: number): string {
  if (entry.type === 'syscall') {
    const e = entry as { syscallNum?: number; name?: string };
    return `syscall ${e.syscallNum ?? syscalls} ${e.name ?? ''}`.trimEnd();
  }
  if (entry.type === 'syscall-result') {
    const e = entry as { syscallNum?: number };
    return `syscall-result ${e.syscallNum ?? syscalls}`;
  }
  return entry.type;
}

/** The crank's entries to compare, normalized, in slog order (a syscall, then its result). */
export function normalEntries(crank: Crank): NormalEntry[] {
  const out: NormalEntry[] = [];
  let syscalls = 0;
  const add = (entry: SlogEntry): void => {
    out.push({ label: labelOf(entry, syscalls), json: JSON.stringify(comparedFields(entry)) });
  };
  if (crank.start) add(crank.start);
  for (const item of crank.items) {
    if (isPageIn(item)) continue;
    if (item.kind === 'syscall') {
      add(item.call);
      if (item.result) add(item.result);
      syscalls += 1;
    } else {
      add(item.entry);
    }
  }
  if (crank.finish) add(crank.finish);
  return out;
}

/** The crank's deliveries: vat, number, method, computrons and time (deliveries and their deliver-results paired in order). */
function deliveriesOf(crank: Crank): DeliveryDigest[] {
  const out: DeliveryDigest[] = [];
  const methods: string[] = [];
  const computrons: Array<number | undefined> = [];
  for (const item of crank.items) {
    if (item.kind !== 'entry' || isReplay(item)) continue;
    if (item.entry.type === 'deliver') methods.push(deliveryMethod(item.entry as Parameters<typeof deliveryMethod>[0]));
    else if (item.entry.type === 'deliver-result') computrons.push((item.entry as { computrons?: number }).computrons);
  }
  crank.deliveryTimes.forEach((d, i) => {
    out.push({ vatID: d.vatID, deliveryNum: d.deliveryNum, method: methods[i] ?? d.dispatch, computrons: computrons[i], micros: d.micros });
  });
  return out;
}

/** The crank's normalized entries, made once, when first asked for. */
function lazyEntries(crank: Crank): () => NormalEntry[] {
  let held: Crank | undefined = crank;
  let made: NormalEntry[] | undefined;
  return () => {
    if (made === undefined) {
      made = normalEntries(held as Crank);
      held = undefined;
    }
    return made;
  };
}

/** A light read's digest has no entries (its crank's values were not read): none is made, and the crank is not held. */
const NO_ENTRIES = (): NormalEntry[] => [];

/** A crank as diverge keeps it; `light`: read without the values its entries compare (DIVERGE_LIGHT_READS), so without entries. */
export function digestOf(crank: Crank, vats: VatNames, light = false): CrankDigest {
  const deliveries = deliveriesOf(crank);
  const name = crank.vatID === undefined ? undefined : (vats.lookup(crank.vatID) ?? undefined);
  const vat = crank.vatID === undefined ? '' : name === undefined ? crank.vatID : `${crank.vatID} ${name}`;
  const what = crank.crankType === 'routing' ? 'routing' : deliveries[0] ? `${vat}, ${deliveries[0].method}` : vat || crank.crankType;
  return {
    crankNum: crank.crankNum,
    block: crank.block?.height,
    vatID: crank.vatID,
    what,
    crankhash: crank.finish?.crankhash,
    activityhash: crank.finish?.activityhash,
    complete: crank.opening === 'start' && crank.finish !== undefined,
    beganBefore: crank.opening !== 'start',
    unfinished: crank.finish === undefined,
    again: crank.again,
    entries: light ? NO_ENTRIES : lazyEntries(crank),
    deliveries,
    parts: crank.parts,
  };
}
