/**
 * For tests of the views of the time split (`--parts`, `top --by PART`):
 * what each crank's split is and how its figures print, from the plain
 * loops of test/time-split-loop.ts over the slog's JSON lines, apart from
 * src/.
 */
import { expect } from 'vitest';
import { loopCranks, loopDeliveries, type LoopCrank, type LoopDelivery } from './time-split-loop.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A crank's split by the loop, and its deliveries. */
export interface LoopFacts {
  crank: LoopCrank;
  deliveries: LoopDelivery[];
}

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** What the loop says of each crank (those whose number the slog gives once): its split and its deliveries. */
export function loopFacts(entries: readonly Json[]): Map<number, LoopFacts> {
  const cranks = loopCranks(entries);
  const counts = new Map<number, number>();
  for (const c of cranks) counts.set(c.crankNum as number, (counts.get(c.crankNum as number) ?? 0) + 1);
  const out = new Map<number, LoopFacts>();
  for (const c of cranks) if (counts.get(c.crankNum as number) === 1) out.set(c.crankNum as number, { crank: c, deliveries: [] });
  for (const d of loopDeliveries(entries)) out.get(d.crankNum as number)?.deliveries.push(d);
  return out;
}

/** Does the split say more than total and syscall time (page-in, snapshot, pipe, or vat and pipe not told apart)? */
export function splitAdds({ crank, deliveries }: LoopFacts): boolean {
  return crank.pageIn > 0 || crank.snapshot > 0 || deliveries.some((d) => d.worker === undefined || (d.pipe as number) > 0);
}

/** The header's figures as docs/render.md writes them, from the loop's split. */
export function expectedFigures({ crank, deliveries }: LoopFacts): string {
  const known = deliveries.every((d) => d.worker !== undefined);
  const vat = sum(deliveries.map((d) => d.worker ?? 0));
  const pipe = sum(deliveries.map((d) => d.pipe ?? 0));
  if (known) expect(vat + pipe, `crank ${crank.crankNum}: vat + pipe`).toBe(crank.vatAndPipe);
  const boyd = deliveries.filter((d) => d.dispatch === 'bringOutYourDead');
  const gcs = boyd.map((d) => d.gc);
  const gcSum = sum(gcs.map((g) => g ?? 0));
  const gc = boyd.length === 0 ? '' : gcs.includes(undefined) ? ' (gc:?)' : gcSum > 0 ? ` (gc:${gcSum}µs)` : '';
  const pieces = [`total:${crank.total}µs`];
  if (crank.pageIn > 0) pieces.push(`page-in:${crank.pageIn}µs${crank.replay > 0 ? ` (replay:${crank.replay}µs)` : ''}`);
  if (!known) pieces.push(`unknown(vat+pipe):${crank.vatAndPipe}µs${gc}`);
  else if (vat > 0 || gc !== '') pieces.push(`vat:${vat}µs${gc}`);
  if (crank.syscall > 0) pieces.push(`syscall:${crank.syscall}µs`);
  if (known && pipe > 0) pieces.push(`pipe:${pipe}µs`);
  if (crank.snapshot > 0) pieces.push(`snapshot:${crank.snapshot}µs`);
  if (crank.kernel > 0) pieces.push(`kernel:${crank.kernel}µs`);
  return `[${pieces.join(' ')}]`;
}


/** A part's µs by the loop, as `top --by` ranks it: undefined where it is unknown (vat, pipe), absent (gc without a bringOutYourDead) or 0. */
export function loopPart({ crank, deliveries }: LoopFacts, part: 'vat' | 'pipe' | 'snapshot' | 'page-in' | 'kernel' | 'gc'): number | undefined {
  const known = deliveries.every((d) => d.worker !== undefined);
  const boyd = deliveries.filter((d) => d.dispatch === 'bringOutYourDead');
  const value = {
    vat: known ? sum(deliveries.map((d) => d.worker as number)) : undefined,
    pipe: known ? sum(deliveries.map((d) => d.pipe as number)) : undefined,
    snapshot: crank.snapshot,
    'page-in': crank.pageIn,
    kernel: crank.kernel,
    gc: boyd.length > 0 && boyd.every((d) => d.gc !== undefined) ? sum(boyd.map((d) => d.gc as number)) : undefined,
  }[part];
  return value !== undefined && value > 0 ? value : undefined;
}
