/**
 * The text of a few cranks, as `slogulate --nonoise --novatstore --timing`
 * prints them, read again from their files once the report's pass knows
 * which cranks it shows (the top cranks).
 *
 * Why a second read: the report's pass reads only the fields its figures
 * need (scan/reads.ts), which is what keeps it near the speed of `stats`;
 * a crank's text needs what the render reads. This read parses only the lines of the wanted cranks (the
 * others are split off, never decoded) and stops after the last one. A
 * slog read from stdin cannot be read again: the report takes files.
 *
 * The names are the first pass's (vat names learned from the whole slog),
 * so a crank prints as the text render prints it.
 */
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import type { Annotations } from '../model/annotations.js';
import type { Crank, CrankOpening } from '../model/crank.js';
import { MODEL_READS } from '../model/reads.js';
import type { VatNames } from '../model/vats.js';
import { defaultRenderOptions, type RenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import { TextRenderer } from '../render/text-renderer.js';
import { lineReader } from '../scan/line-reader.js';
import { BadLine } from '../scan/plain-reader.js';
import { mergeReads } from '../scan/reads.js';
import { readLines } from '../source/lines.js';
import { openInput } from '../source/open.js';

/**
 * Where a crank lies: its file and the lines from its crank-start to its
 * last entry; and what only the whole slog says of it (a run again after a
 * restart, one begun before the slog or without its crank-start).
 */
export interface CrankPlace {
  file: string;
  firstLine: number;
  lastLine: number;
  again: boolean;
  opening: CrankOpening;
}

export interface CrankTextConfig {
  annotations: Annotations;
  /** The vat names the first pass learned. */
  vats: VatNames;
  /** Syscalls a crank holds before it spills into its text (model/assembler.ts; default SPILL_SYSCALLS). */
  spillAt?: number;
}

/** The options the report shows cranks with. */
export function reportCrankOptions(): RenderOptions {
  return { ...defaultRenderOptions(), nonoise: true, novatstore: true, timing: true };
}

/** The text of each place's crank (its header line, then its lines), read from the files. */
export async function readCrankTexts(places: readonly CrankPlace[], config: CrankTextConfig): Promise<Map<CrankPlace, string>> {
  const texts = new Map<CrankPlace, string>();
  const files = [...new Set(places.map((p) => p.file))];
  for (const file of files) {
    const wanted = places.filter((p) => p.file === file).sort((a, b) => a.firstLine - b.firstLine);
    await readFromFile(file, wanted, config, texts);
  }
  return texts;
}

async function readFromFile(file: string, wanted: CrankPlace[], config: CrankTextConfig, texts: Map<CrankPlace, string>): Promise<void> {
  const byFirstLine = new Map<number, CrankPlace[]>();
  for (const p of wanted) byFirstLine.set(p.firstLine, [...(byFirstLine.get(p.firstLine) ?? []), p]);
  let captured = '';
  const renderer = new TextRenderer({
    options: reportCrankOptions(),
    annotations: config.annotations,
    vats: config.vats,
    printOutside: false,
    out: (text) => {
      captured += text;
    },
  });
  const sink: CrankSink = {
    entry: () => undefined,
    crank: (crank: Crank) => {
      const at = byFirstLine.get(crank.firstLine);
      if (!at) return;
      crank.again = (at[0] as CrankPlace).again;
      crank.opening = (at[0] as CrankPlace).opening;
      captured = '';
      renderer.crank(crank);
      // The render puts a blank line before each crank.
      const text = captured.replace(/^\n/, '');
      for (const p of at) texts.set(p, text);
    },
    // A crank of many syscalls is held as text (model/assembler.ts), not as entries.
    spill: (crank: Crank) => renderer.spill(crank),
  };
  const assembler = new CrankAssembler(sink, config.spillAt === undefined ? {} : { spillAt: config.spillAt });
  // Ranges in line order, without overlaps (cranks do not overlap).
  const ranges = [...byFirstLine.values()].map((ps) => ({ first: ps[0]!.firstLine, last: Math.max(...ps.map((p) => p.lastLine)) }));
  let k = 0;
  const source = await openInput(file);
  const reader = lineReader(mergeReads(MODEL_READS, renderReads(reportCrankOptions())));
  for await (const batch of readLines(source.chunks())) {
    const first = batch.firstLine;
    const count = batch.spans.length / 2;
    const last = first + count - 1;
    while (k < ranges.length && ranges[k]!.first <= last) {
      const range = ranges[k]!;
      const from = Math.max(range.first, first);
      const to = Math.min(range.last, last);
      for (let line = from; line <= to; line += 1) {
        const i = line - first;
        const entry = reader.read(batch, i);
        // Bad lines were reported by the first pass.
        if (entry !== undefined && !(entry instanceof BadLine)) assembler.push(entry, line);
      }
      if (range.last > last) break;
      k += 1;
    }
    if (k >= ranges.length) break;
  }
  assembler.end();
}
