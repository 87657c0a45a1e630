/**
 * What a selection may seek to (source/seek.ts): the one range of crank
 * numbers (`--cranks`) or block heights (`--blocks`) that holds every crank
 * it can select, from its lowest number to its highest, else the times of
 * `--since` and `--until`. `--blocks` wins over `--cranks`, both over the
 * times (a crank must match all: the range holds every crank selected):
 * a crank's block is known from its block's begin-block, which a range of
 * crank numbers may begin after.
 * Undefined: nothing to seek by (no selection, or only `--vat`).
 *
 * Which consumers seek: those whose output is made of the selected cranks
 * alone, with the vat names learned before them: the text render without
 * `--summarize` (it counts every entry) and `--nonoise` (a block header
 * counts the empty blocks before it), and `top`. `stats` prints figures
 * of the whole slog (`cranks 11 of 278`, its wall span), and reads it all.
 */
import type { CrankRange, SelectionSpec } from '../analyses/common/selection.js';
import type { SeekRange } from '../source/seek.js';

function span(key: SeekRange['key'], ranges: readonly CrankRange[]): SeekRange {
  return { key, from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) };
}

export function seekRangeOf(spec: SelectionSpec | undefined): SeekRange | undefined {
  if (spec?.blocks?.length) return span('blockHeight', spec.blocks);
  if (spec?.cranks?.length) return span('crankNum', spec.cranks);
  if (spec?.since !== undefined || spec?.until !== undefined) return { key: 'time', from: spec.since ?? -Infinity, to: spec.until ?? Infinity };
  return undefined;
}
