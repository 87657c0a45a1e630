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
 * counts the empty blocks before it), and `top`. `trace` needs all that
 * came before its selection and nothing after: it reads from the start and
 * stops after the range (pass.ts planStop, pastRange). `stats` prints
 * figures of the whole slog (`cranks 11 of 278`, its wall span), and reads
 * it all.
 */
import type { CrankRange, SelectionSpec } from '../analyses/common/selection.js';
import { statSync } from 'node:fs';
import { planFolderSeek, type FolderPlan, type FolderRefusal } from '../source/folder-seek.js';
import type { SlogInput } from '../source/open.js';
import type { SeekRange } from '../source/seek.js';
import { crankStartTime, type Crank } from '../model/crank.js';

function span(key: SeekRange['key'], ranges: readonly CrankRange[]): SeekRange {
  return { key, from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) };
}

export function seekRangeOf(spec: SelectionSpec | undefined): SeekRange | undefined {
  if (spec?.blocks?.length) return span('blockHeight', spec.blocks);
  if (spec?.cranks?.length) return span('crankNum', spec.cranks);
  if (spec?.since !== undefined || spec?.until !== undefined) return { key: 'time', from: spec.since ?? -Infinity, to: spec.until ?? Infinity };
  return undefined;
}

/**
 * Does the crank come after every crank `range` holds, by the range's key:
 * its number above `to`, its block above `to` (a crank outside any block:
 * no), its start at or after `to` (a crank without a time: no)? What a
 * planStop consumer (pass.ts) stops after, once the plan holds.
 */
export function pastRange(range: SeekRange, crank: Crank): boolean {
  switch (range.key) {
    case 'crankNum':
      return crank.crankNum > range.to;
    case 'blockHeight': {
      const height = crank.block?.height;
      return height !== undefined && height > range.to;
    }
    case 'time': {
      const time = crankStartTime(crank);
      return time !== undefined && time >= range.to;
    }
  }
}

/**
 * A folder's seek (source/folder-seek.ts): when the pass's one argument is
 * a folder, the plan for its files (`files`: the folder's, in the order
 * expandInputs lists them); undefined when the argument is not one folder.
 * Throws InputError when a file cannot be read.
 */
export async function folderSeekOf(args: readonly SlogInput[], files: readonly SlogInput[], range: SeekRange, lineLimit: number): Promise<FolderPlan | FolderRefusal | undefined> {
  const only = args[0];
  if (args.length !== 1 || typeof only !== 'string' || only === '-' || !isFolder(only)) return undefined;
  if (!files.every((f): f is string => typeof f === 'string')) return undefined;
  return planFolderSeek(files, range, lineLimit);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
