/**
 * The `--parts` crank header: where the crank's time went (the time split,
 * model/time-split.ts; docs/time-split.md), in place of `--timing`'s
 * total/local/syscall figures:
 *
 *   [total:1892598µs vat:34754µs (gc:34473µs) syscall:300µs pipe:15204µs snapshot:1840289µs kernel:2051µs] 1 syscalls 2364 computrons
 *   [total:1383745µs page-in:1356883µs (replay:453773µs) vat:2867µs syscall:2712µs pipe:20237µs kernel:1046µs] 14 syscalls 65822 computrons
 *
 * Parts print in PARTS' order, a part of another (replay of page-in, gc of
 * vat) in parentheses after it; a part of 0 µs is left out. Where the
 * worker's list cannot tell vat from pipe, their time together prints as
 * `unknown(vat+pipe):NNNµs` in vat's place, and neither vat nor pipe is
 * printed; a bringOutYourDead crank whose GC time is unknown prints
 * `(gc:?)` after it.
 */
import type { Crank, CrankParts } from '../model/crank.js';
import { splitAddsSomething } from '../model/parts.js';

const us = (micros: number): string => `${micros}µs`;

/** Does the crank hold a bringOutYourDead delivery (whose GC time its header names)? */
function collectsGarbage(crank: Crank): boolean {
  for (const d of crank.deliveryTimes) if (d.dispatch === 'bringOutYourDead') return true;
  return false;
}

/** ` (gc:34473µs)`, ` (gc:?)` when unknown, or nothing (no bringOutYourDead, or 0 µs). */
function gcText(crank: Crank, parts: CrankParts): string {
  if (!collectsGarbage(crank)) return '';
  if (parts.gc === undefined) return ' (gc:?)';
  return parts.gc > 0 ? ` (gc:${us(parts.gc)})` : '';
}

/** `page-in:1356883µs (replay:453773µs)`, or nothing without page-in. */
function pageInText(parts: CrankParts): string | undefined {
  if (parts.pageIn <= 0) return undefined;
  return `page-in:${us(parts.pageIn)}${parts.replay > 0 ? ` (replay:${us(parts.replay)})` : ''}`;
}

/** `vat:34754µs (gc:...)` with pipe known; `unknown(vat+pipe):NNNµs` without. */
function vatText(crank: Crank, parts: CrankParts): string | undefined {
  if (parts.vat === undefined) return parts.unknown > 0 ? `unknown(vat+pipe):${us(parts.unknown)}${gcText(crank, parts)}` : undefined;
  const gc = gcText(crank, parts);
  if (parts.vat <= 0 && gc === '') return undefined;
  return `vat:${us(parts.vat)}${gc}`;
}

/** A part printed as `name:NNNµs` when above 0. */
function plain(name: string, micros: number | undefined): string | undefined {
  return micros !== undefined && micros > 0 ? `${name}:${us(micros)}` : undefined;
}

/** `[total:... vat:... ...]`: the split's figures, parts of 0 µs left out. Precondition: the crank's parts (it has its crank-start and crank-finish). */
export function partsFigures(crank: Crank, parts: CrankParts): string {
  const pieces = [
    `total:${us(parts.total)}`,
    pageInText(parts),
    vatText(crank, parts),
    plain('syscall', parts.syscall),
    plain('pipe', parts.vat === undefined ? undefined : parts.pipe),
    plain('snapshot', parts.snapshot),
    plain('kernel', parts.kernel),
  ];
  return `[${pieces.filter((p) => p !== undefined).join(' ')}]`;
}

/**
 * The split, when it says more than `--timing`'s figures (splitAddsSomething:
 * page-in, snapshot, pipe or unknown time); undefined otherwise (a crank
 * without parts, or a local worker's plain crank), where the header keeps
 * `--timing`'s text, byte for byte.
 */
export function partsFiguresIfTheyAdd(crank: Crank): string | undefined {
  const parts = crank.parts;
  return parts !== undefined && splitAddsSomething(parts) ? partsFigures(crank, parts) : undefined;
}
